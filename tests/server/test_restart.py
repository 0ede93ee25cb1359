"""What a SQLite-backed server keeps across a restart: threads, their state and history,
runs and store items. A run that was going when the server was killed is marked `error`
at the next start and its thread is idle again, so new runs can start on it; one going
when the server was stopped (SIGTERM) ends `interrupted` as the server shuts down."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

pytest.importorskip("langgraph_sdk", reason="these tests talk through langgraph-sdk")

from langgraph_sdk import get_sync_client  # noqa: E402
from serve_kit import needs_serve, start, stop  # noqa: E402

QUESTION = {"messages": [{"role": "user", "content": "what is 2+3?"}]}


def test_threads_runs_and_store_survive_a_restart(tmp_path: Path) -> None:
    needs_serve()
    db = ["--db", f"sqlite:///{tmp_path / 'serve.db'}"]
    proc, served = start(tmp_path, *db, name="first")
    try:
        client = get_sync_client(url=served.url)
        tid = client.threads.create(metadata={"owner": "ann"})["thread_id"]
        client.runs.wait(tid, "calculator", input=QUESTION)
        client.store.put_item(["notes"], "n1", {"text": "kept"})
        busy = client.threads.create()["thread_id"]
        going = client.runs.create(busy, "looping", input=QUESTION)
        while client.runs.get(busy, going["run_id"])["status"] == "pending":
            time.sleep(0.05)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)  # a crash: nothing is tidied up
        proc.wait(timeout=15)
    proc, served = start(tmp_path, *db, name="second")
    try:
        client = get_sync_client(url=served.url)
        thread = client.threads.get(tid)
        assert thread["metadata"]["owner"] == "ann" and thread["status"] == "idle"
        state = client.threads.get_state(tid)
        assert state["values"]["messages"][-1]["content"] == "The answer is 5."
        assert len(client.threads.get_history(tid, limit=100)) >= 4
        assert [r["status"] for r in client.runs.list(tid)] == ["success"]
        assert client.store.get_item(["notes"], "n1")["value"] == {"text": "kept"}
        assert client.runs.get(busy, going["run_id"])["status"] == "error"
        assert client.threads.get(busy)["status"] == "idle"
        again = client.runs.wait(busy, "quick", input=QUESTION, multitask_strategy="reject")
        assert again["messages"][-1]["content"] == "ok"
    finally:
        stop(proc)


def test_a_stopped_server_ends_its_runs_interrupted(tmp_path: Path) -> None:
    needs_serve()
    db = ["--db", f"sqlite:///{tmp_path / 'serve.db'}"]
    proc, served = start(tmp_path, *db, name="first")
    try:
        client = get_sync_client(url=served.url)
        tid = client.threads.create()["thread_id"]
        run = client.runs.create(tid, "looping", input=QUESTION)
        while client.runs.get(tid, run["run_id"])["status"] == "pending":
            time.sleep(0.05)
    finally:
        stop(proc)
    proc, served = start(tmp_path, *db, name="second")
    try:
        client = get_sync_client(url=served.url)
        assert client.runs.get(tid, run["run_id"])["status"] == "interrupted"
        assert client.threads.get(tid)["status"] != "busy"
    finally:
        stop(proc)
