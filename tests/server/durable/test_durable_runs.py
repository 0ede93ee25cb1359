"""Runs on the durable engine, through langgraph-sdk against `agentc serve --durable` and one
`agentc worker`: a run's answer and events, a second run under `reject`, a cancel (between
supersteps); and what DBOS stored: JSON text only, never pickle."""

from __future__ import annotations

import base64
import binascii
import threading
from pathlib import Path

import pytest
from kit import Proc, api, wait_for, worker
from langgraph_sdk import get_sync_client
from langgraph_sdk.errors import ConflictError
from serve_kit import free_port
from support.pg import sql

INPUT = {"messages": [{"role": "user", "content": "go"}]}
_CKPTS = "SELECT 1 FROM checkpoints WHERE thread_id = ?"


def _pickled(text: str) -> bool:
    """Whether a stored value is DBOS's default encoding: base64 of a pickle."""
    try:
        raw = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        return False
    return raw[:1] == b"\x80"  # every pickle protocol >= 2 starts with PROTO


def _dbos_values(url: str) -> tuple[set[str], list[str]]:
    """The serialisation names DBOS recorded, and every text value of its tables."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        schema = conn.execute("SELECT current_schema() || '_dbos'").fetchone()[0]  # type: ignore[index]
        cols = conn.execute(
            "SELECT table_name, column_name FROM information_schema.columns WHERE "
            "table_schema = %s AND data_type = 'text'",
            (schema,),
        ).fetchall()
        names: set[str] = set()
        texts: list[str] = []
        for table, col in cols:
            got = conn.execute(f'SELECT "{col}" FROM "{schema}"."{table}"').fetchall()  # type: ignore[arg-type]
            values = [str(v) for (v,) in got if v is not None]
            (names.update if col == "serialization" else texts.extend)(values)
    return names, texts


def test_runs_answer_queue_cancel_and_store_no_pickle(pg_url: str, tmp_path: Path) -> None:
    procs: list[Proc] = []
    try:
        procs.append(worker(pg_url, tmp_path, "worker"))
        procs.append(api(pg_url, tmp_path, "api", free_port()))
        client = get_sync_client(url=procs[-1].url)

        # a run blocked in its fan-out step: a second run under reject is refused (409)
        thread = client.threads.create()["thread_id"]
        held = client.runs.create(thread, "fanout", input=INPUT)
        wait_for(lambda: (tmp_path / f"arrived.{thread}").exists())
        assert client.threads.get(thread)["status"] == "busy"
        with pytest.raises(ConflictError):
            client.runs.create(thread, "fanout", input=INPUT, multitask_strategy="reject")

        # cancel: it takes effect between supersteps, so the fan-out step ends (the gate
        # opens) and is saved whole; the run stops before `answer`
        asking = threading.Thread(target=client.runs.cancel, args=(thread, held["run_id"]))
        asking.start()  # (its answer waits for the run to stop)
        wait_for(
            lambda: sql(pg_url, "SELECT 1 FROM serve_cancels WHERE run_id = ?", held["run_id"])
        )
        (tmp_path / "release").write_text("")
        asking.join()
        assert client.runs.get(thread, held["run_id"])["status"] == "interrupted"
        state = client.threads.get_state(thread)
        kinds = [m["type"] for m in state["values"]["messages"]]
        assert kinds == ["human", "ai", "tool", "tool", "tool"]
        assert state["next"] == ["answer"]
        assert client.threads.get(thread)["status"] in ("idle", "interrupted")

        # a run that finishes: its answer, and the thread's state
        other = client.threads.create()["thread_id"]
        done = client.runs.wait(other, "fanout", input=INPUT)
        assert done["messages"][-1]["content"] == "done: ,a0,b1,g2"
        assert client.threads.get(other)["status"] == "idle"
        streamed = list(client.runs.stream(other, "fanout", input=INPUT, stream_mode="updates"))
        assert [p.event for p in streamed][:1] == ["metadata"]
        assert [next(iter(p.data)) for p in streamed[1:]] == [
            "plan",
            "call",
            "call",
            "call",
            "answer",
        ]
        alone = client.runs.wait(None, "fanout", input=INPUT)  # a run without a thread
        assert alone["messages"][-1]["content"] == "done: ,a0,b1,g2"
        # ... that keeps its thread: a thread run like any other, its supersteps journaled
        known = {t["thread_id"] for t in client.threads.search(limit=100)}
        kept = client.runs.create(None, "fanout", input=INPUT, on_completion="keep")
        joined = client.runs.join(kept["thread_id"], kept["run_id"])
        assert joined["messages"][-1]["content"] == "done: ,a0,b1,g2"
        assert kept["thread_id"] not in known
        state = client.threads.get_state(kept["thread_id"])
        assert state["values"]["messages"] == joined["messages"]
        journaled = sql(pg_url, "SELECT name FROM serve_journal WHERE run_id = ?", kept["run_id"])
        assert ("agentc_checkpoint",) in journaled

        # deleting a thread deletes what its runs saved, not only its record
        tid = kept["thread_id"]
        events = "SELECT 1 FROM serve_run_events WHERE run_id = ?"
        assert sql(pg_url, events, kept["run_id"]) and sql(pg_url, _CKPTS, tid)
        client.threads.delete(tid)
        for table in ("checkpoints", "writes", "serve_journal", "serve_runs"):
            assert not sql(pg_url, f"SELECT 1 FROM {table} WHERE thread_id = ?", tid), table
        assert not sql(pg_url, events, kept["run_id"])
        assert sql(pg_url, _CKPTS, other)  # another thread's stay

        names, texts = _dbos_values(pg_url)
        assert names == {"agentc_json"}
        assert texts and not [t for t in texts if _pickled(t)]
    finally:
        for p in procs:
            p.stop()
