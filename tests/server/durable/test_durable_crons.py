"""A cron on the durable engine: two API processes share one PostgreSQL, both look for due
crons every second, and their runs (which a worker runs) are never more than the due
times that passed. (Two processes reading one due time at the same instant is rare here:
the compare-and-set that settles it is tested on the repository,
`tests/server/repo/test_repository.py::test_a_due_cron_is_claimed_once`.)"""

from __future__ import annotations

import math
import time
from pathlib import Path

from kit import Proc, api, wait_for, worker
from langgraph_sdk import get_sync_client
from serve_kit import free_port

INPUT = {"messages": [{"role": "user", "content": "go"}]}
RUNS = 4  # runs to see before the cron is switched off


def test_two_api_processes_start_each_due_run_once(pg_url: str, tmp_path: Path) -> None:
    (tmp_path / "release").write_text("")  # `gate` lets every call through at once
    procs: list[Proc] = []
    try:
        procs.append(worker(pg_url, tmp_path, "worker"))
        procs.append(api(pg_url, tmp_path, "api-a", free_port()))
        procs.append(api(pg_url, tmp_path, "api-b", free_port()))
        client = get_sync_client(url=procs[1].url)
        thread = client.threads.create()["thread_id"]

        made_at = time.time()
        cron = client.crons.create_for_thread(thread, "fanout", schedule="* * * * * *", input=INPUT)
        wait_for(lambda: len(client.runs.list(thread, limit=100)) >= RUNS)
        get_sync_client(url=procs[2].url).crons.update(cron["cron_id"], enabled=False)
        off_at = time.time()

        def finished() -> bool:
            runs = client.runs.list(thread, limit=100)
            return all(r["status"] in ("success", "error") for r in runs)

        wait_for(finished)
        runs = client.runs.list(thread, limit=100)
        due_times = math.floor(off_at) - math.floor(made_at)  # whole seconds in between
        assert RUNS <= len(runs) <= due_times, (len(runs), due_times)
        assert {r["status"] for r in runs} == {"success"}
        messages = client.threads.get_state(thread)["values"]["messages"]
        assert sum(m["type"] == "human" for m in messages) == len(runs)
    finally:
        for p in reversed(procs):
            p.stop()
