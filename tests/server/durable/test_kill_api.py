"""An API process killed while a client streams a run: the run goes on in its worker, and
the client rejoins on another API process with `Last-Event-ID` and misses no event (the
events are rows in PostgreSQL, not memory of the process that died)."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

import httpx
import pytest
from kit import Proc, api, wait_for, worker
from langgraph_sdk import get_sync_client
from serve_kit import free_port

INPUT = {"messages": [{"role": "user", "content": "go"}]}


def _parts(stream: Any) -> list[tuple[int, str, Any]]:
    return [(int(p.id), p.event, p.data) for p in stream]


@pytest.mark.slow
def test_a_client_rejoins_on_another_api_process_and_misses_no_event(
    pg_url: str, tmp_path: Path
) -> None:
    procs: list[Proc] = []
    try:
        procs.append(worker(pg_url, tmp_path, "worker"))
        first, second = (api(pg_url, tmp_path, f"api-{i}", free_port()) for i in (1, 2))
        procs += [first, second]
        one, two = get_sync_client(url=first.url), get_sync_client(url=second.url)
        thread = one.threads.create()["thread_id"]
        run = one.runs.create(thread, "fanout", input=INPUT, stream_mode=["values", "updates"])

        seen: list[tuple[int, str, Any]] = []
        with contextlib.suppress(httpx.HTTPError, RuntimeError):
            for part in one.runs.join_stream(thread, run["run_id"]):
                seen.append((int(part.id), part.event, part.data))
                if part.event == "updates" and "plan" in part.data:
                    wait_for(lambda: (tmp_path / f"arrived.{thread}").exists())
                    first.kill9()  # mid-stream: the gate holds the run in its fan-out step
        assert seen and first.proc.poll() is not None
        (tmp_path / "release").write_text("")

        rest = _parts(two.runs.join_stream(thread, run["run_id"], last_event_id=str(seen[-1][0])))
        everything = _parts(two.runs.join_stream(thread, run["run_id"], last_event_id="0"))
        assert seen + rest == everything
        assert [i for i, _, _ in everything] == list(range(1, len(everything) + 1))
        assert rest and rest[-1][1] == "values"
        assert rest[-1][2]["messages"][-1]["content"] == "done: ,a0,b1,g2"
        assert two.runs.get(thread, run["run_id"])["status"] == "success"
    finally:
        for p in procs:
            p.stop()
