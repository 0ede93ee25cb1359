"""What agentc adds per model step over HTTP, above a bare `http.client` loop.

A fake OpenAI-compatible server (`agentc.testing.fake_provider --echo`, in a process of
its own) answers every chat completion with "ok". The floor is a bare `http.client` loop:
one kept-alive connection, POST the body agentc would send, read the reply, `json.loads`
it. Against it: an `agent` with that model and no tools, whose run is one model step —
`invoke` (sync; the thread's private loop keeps its pooled connection) and `ainvoke` (all
runs in one event loop, as a server's) — and the provider alone (`generate`). Each sample
runs every side for `--calls` steps, one side after the other, so a change in the
machine's load hits them all; a cell is the median over the samples, in µs per step, and
"above floor" is the side minus the floor in the same sample (median of those).

Run: `python bench/wire_bench.py [--samples 7] [--calls 200]`.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

AGENT = """agentc 1
agent bench {{
  model "openai:gpt-4o-mini" {{ base_url: "{url}/v1", max_retries: 0 }}
  checkpoint none
}}
"""
INPUT = {"messages": [{"role": "user", "content": "go"}]}
BODY = {"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "go"}]}


def start_server() -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "agentc.testing.fake_provider", "--port", "0", "--echo"],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    return proc, proc.stdout.readline().strip().rsplit(" ", 1)[-1]


Cost = tuple[float, float]  # seconds per step: wall, this process's CPU


def floor(url: str, calls: int) -> Cost:
    host, port = url.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port))
    body = json.dumps(BODY).encode()
    headers = {"content-type": "application/json", "authorization": "Bearer sk-bench"}

    def one() -> None:
        conn.request("POST", "/v1/chat/completions", body, headers)
        json.loads(conn.getresponse().read())

    one()
    t0, c0 = time.perf_counter(), time.process_time()
    for _ in range(calls):
        one()
    took = (time.perf_counter() - t0) / calls, (time.process_time() - c0) / calls
    conn.close()
    return took


def timed_sync(fn: Callable[[], Any], calls: int) -> Cost:
    fn()
    t0, c0 = time.perf_counter(), time.process_time()
    for _ in range(calls):
        fn()
    return (time.perf_counter() - t0) / calls, (time.process_time() - c0) / calls


def timed_async(make: Callable[[], Any], calls: int) -> Cost:
    async def main() -> Cost:
        from agentc.stdlib.providers import http as ahttp

        await make()
        t0, c0 = time.perf_counter(), time.process_time()
        for _ in range(calls):
            await make()
        took = (time.perf_counter() - t0) / calls, (time.process_time() - c0) / calls
        await ahttp.close_clients()
        return took

    return asyncio.run(main())


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--samples", type=int, default=7)
    parser.add_argument("--calls", type=int, default=200)
    args = parser.parse_args()
    os.environ["OPENAI_API_KEY"] = "sk-bench"
    from agentc.api import load_agent
    from agentc.stdlib.messages import HumanMessage
    from agentc.stdlib.providers.base import ModelRequest
    from agentc.stdlib.providers.registry import model_spec, resolve_model

    proc, url = start_server()
    try:
        folder = Path(tempfile.mkdtemp())
        (folder / "bench.agent").write_text(AGENT.format(url=url))
        graph = load_agent(folder / "bench.agent")
        model = resolve_model(model_spec("openai:gpt-4o-mini", {"base_url": url + "/v1"}))
        request = ModelRequest(messages=(HumanMessage(content="go"),))
        sides: dict[str, Callable[[], Cost]] = {
            "floor": lambda: floor(url, args.calls),
            "agent, sync": lambda: timed_sync(lambda: graph.invoke(INPUT), args.calls),
            "agent, async": lambda: timed_async(lambda: graph.ainvoke(INPUT), args.calls),
            "provider, async": lambda: timed_async(lambda: model.generate(request), args.calls),
        }
        cells: dict[str, list[Cost]] = {k: [] for k in sides}
        above: dict[str, list[Cost]] = {k: [] for k in sides}
        for _ in range(args.samples):
            base = sides["floor"]()
            cells["floor"].append(base)
            for name, fn in sides.items():
                if name != "floor":
                    t = fn()
                    cells[name].append(t)
                    above[name].append((t[0] - base[0], t[1] - base[1]))
        print(f"load: {os.getloadavg()[0]:.2f} (1 min)")
        print("| side | wall µs/step | above floor | CPU µs/step | CPU above floor |")
        print("| --- | ---: | ---: | ---: | ---: |")
        for name in sides:
            med = [statistics.median(c[i] for c in cells[name]) * 1e6 for i in (0, 1)]
            up = [
                f"{statistics.median(c[i] for c in above[name]) * 1e6:.0f}" if above[name] else "—"
                for i in (0, 1)
            ]
            print(f"| {name} | {med[0]:.0f} | {up[0]} | {med[1]:.0f} | {up[1]} |")
    finally:
        proc.terminate()
        proc.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
