"""`agentc serve --db postgresql://…` (runs in the server's own process): threads, runs,
checkpoints and the store in one PostgreSQL database, through langgraph-sdk."""

from __future__ import annotations

from pathlib import Path

import pytest
from serve_kit import needs_serve, start, stop
from support.pg import sql


def test_serve_keeps_threads_runs_and_checkpoints_in_postgresql(
    pg_url: str, tmp_path: Path
) -> None:
    needs_serve()
    sdk = pytest.importorskip("langgraph_sdk")
    proc, served = start(tmp_path, "--db", pg_url)
    try:
        client = sdk.get_sync_client(url=served.url)
        thread = client.threads.create(metadata={"user": "ann"})["thread_id"]
        answer = client.runs.wait(thread, "calculator", input={"messages": "add 2 and 3"})
        assert answer["messages"][-1]["content"] == "The answer is 5."
        assert client.threads.search(metadata={"user": "ann"})[0]["thread_id"] == thread
    finally:
        stop(proc)
    (status,) = sql(pg_url, "SELECT status FROM serve_threads WHERE thread_id = ?", thread)[0]
    saved = sql(pg_url, "SELECT count(*) FROM checkpoints WHERE thread_id = ?", thread)[0][0]
    runs = sql(pg_url, "SELECT status FROM serve_runs WHERE thread_id = ?", thread)
    assert status == "idle" and saved > 0 and runs == [("success",)]  # type: ignore[operator]
