"""What the SQLite checkpointer adds per round trip, in both durability modes.

A 2-node loop (model -> tools -> model …, `runtime_bench.ac_loop`) for N round trips (N =
100, 1000), each round trip two supersteps, so two checkpoints and their writes. Each
sample runs the loop without a checkpointer and then with a fresh SQLite file, in the same
process, one after the other, so a change in the machine's load hits both; a row is the
median over the samples. Printed per round trip: the run with SQLite, the run without, the
difference (what the checkpointer adds; by the wall clock, and by the CPU time of the whole
process, every thread, which a wait for a busy core does not inflate), and the size of the
file and its WAL right after the run (before `close`) and after it.

Run: `python bench/sqlite_bench.py [--runs 5] [--n 100,1000]`.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))

from runtime_bench import ac_loop  # noqa: E402

from agentc.runtime import Durability, RunConfig, SqliteCheckpointer  # noqa: E402


def _size(path: str) -> tuple[int, int]:
    wal = path + "-wal"
    return os.path.getsize(path), os.path.getsize(wal) if os.path.exists(wal) else 0


def sample(n: int, durability: Durability, folder: str, k: int) -> tuple[float, ...]:
    """(seconds with SQLite, seconds without, WAL bytes before close, file+WAL after, CPU
    seconds with SQLite, CPU seconds without): CPU of the whole process, every thread."""
    bare = ac_loop(n)
    t0, c0 = time.perf_counter(), time.process_time()
    asyncio.run(bare.ainvoke({"messages": ["hi"]}))
    t_bare, c_bare = time.perf_counter() - t0, time.process_time() - c0
    path = os.path.join(folder, f"ac{k}.db")
    store = SqliteCheckpointer(path)
    g = ac_loop(n, store)
    t0, c0 = time.perf_counter(), time.process_time()
    asyncio.run(g.ainvoke({"messages": ["hi"]}, RunConfig(thread_id="t"), durability=durability))
    t_sqlite, c_sqlite = time.perf_counter() - t0, time.process_time() - c0
    wal = _size(path)[1]
    store.close()
    return t_sqlite, t_bare, wal, sum(_size(path)), c_sqlite, c_bare


def paced(n: int, pause_s: float, folder: str) -> tuple[int, int]:
    """A loop whose model waits `pause_s` per reply, as a real one does: the largest WAL
    seen by the model during the run, and the file plus WAL after close."""
    from support.graphs import END, START, chan, cmp, compiled, field, graph, node, when

    from agentc.stdlib.messages import AIMessage, ToolMessage

    path = os.path.join(folder, "paced.db")
    largest = [0]

    async def model(s):
        await asyncio.sleep(pause_s)
        largest[0] = max(largest[0], _size(path)[1])
        return {"messages": [AIMessage(content="m")]}

    async def tools(s):
        return {"messages": [ToolMessage(content="t", tool_call_id="c")], "k": s["k"] + 1}

    store = SqliteCheckpointer(path)
    g = compiled(
        graph(
            state=[chan("messages", "messages"), chan("k", default=0)],
            nodes=[node("model", model), node("tools", tools)],
            edges=[(START, "model"), ("tools", "model")],
            branches=[when("model", (cmp(field("k"), "<", n), "tools"), (None, END))],
            steps=2 * n + 10,
        ),
        checkpointer=store,
    )
    asyncio.run(g.ainvoke({"messages": ["hi"]}, RunConfig(thread_id="t")))
    store.close()
    return largest[0], sum(_size(path))


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--n", default="100,1000")
    args = parser.parse_args()
    print(f"load: {os.getloadavg()[0]:.2f} (1 min)")
    columns = [
        "N",
        "durability",
        "with SQLite µs/trip",
        "without µs/trip",
        "added µs/trip",
        "added CPU µs/trip",
        "WAL in run",
        "after close",
    ]
    print("| " + " | ".join(columns) + " |")
    print("| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    folder = tempfile.mkdtemp()
    k = 0
    for n in (int(x) for x in args.n.split(",")):
        for durability in (Durability.SYNC, Durability.ASYNC):
            sample(n, durability, folder, k := k + 1)  # warm-up
            rows = [sample(n, durability, folder, k := k + 1) for _ in range(args.runs)]
            with_s = statistics.median(r[0] for r in rows) / n * 1e6
            bare = statistics.median(r[1] for r in rows) / n * 1e6
            added = statistics.median((r[0] - r[1]) for r in rows) / n * 1e6
            wal = max(r[2] for r in rows) / 1024
            size = statistics.median(r[3] for r in rows) / 1024
            cpu = statistics.median((r[4] - r[5]) for r in rows) / n * 1e6
            print(
                f"| {n} | {durability.value} | {with_s:.0f} | {bare:.0f} | {added:.0f} | "
                f"{cpu:.0f} | {wal:.0f} KiB | {size:.0f} KiB |",
                flush=True,
            )
    wal, size = paced(100, 0.02, folder)
    print(
        f"\nN=100 with a model that takes 20 ms: largest WAL during the run {wal / 1024:.0f} KiB, "
        f"file after close {size / 1024:.0f} KiB"
    )


if __name__ == "__main__":
    main()
