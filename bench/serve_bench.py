"""`agentc serve` against `langgraph dev` under load, through the real `langgraph-sdk`.

The same agent on both servers — one tool (`add`), a model that asks for it once and then
answers — served by `agentc serve` (one process, `--db memory://`; and `agentc 4w`: an API
process, `--workers 4` on a throw-away PostgreSQL, each run a durable workflow) and by
`langgraph dev` (LangChain's create_agent with ChatOpenAI, in memory). Both models talk to one fake
OpenAI server on 127.0.0.1 (a process of its own, `--model-server`) that answers by the
conversation, not by a queue, so a thousand interleaved runs each get the tool call first
and the answer after it. N client threads (asyncio tasks on the SDK's async client, one
LangGraph thread each, and an SDK client with its own connection pool each, as each user
of a chat UI has) then run at once:

- `runs.wait`: throughput (runs/s over the whole batch) and p50/p99 latency;
- `runs.stream` (stream mode `updates`): p50/p99 time to the first SSE event, and to the
  end of the stream;
- memory per active run: the server's RSS (its process tree) with every run held at its
  model call, minus the idle RSS, over the runs held;
- lost or duplicated steps: afterwards every thread's state has exactly the four
  messages of one tool round trip, and its history the same number of checkpoints as a
  lone run's, each superstep once.

Prints both columns and the ratio agentc / langgraph dev (above 1 is better for
throughput, below 1 for latency and memory). Not a test: timings depend on the machine.

`langgraph dev` runs with `--n-jobs-per-worker` = N unless `--lg-jobs` says otherwise: its
own default for `dev` is 1, one run at a time, which would time its queue, not its runs.

Run: `python bench/serve_bench.py [--threads 1000] [--only agentc|agentc4|langgraph]
[--lg-jobs N] [--logs DIR]`. Needs `pip install -e '.[oracle,bench]' 'langgraph-cli[inmem]'
langchain-openai`.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx

if TYPE_CHECKING:
    from langgraph_sdk.client import LangGraphClient

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "server" / "differential"))

from servekit import FAKE_KEY, OFFLINE_ENV, free_port  # noqa: E402

READY_S = 120.0  # hang guard for a server's start
ASK: dict[str, Any] = {"messages": [{"role": "user", "content": "what is 2+3?"}]}
EXPECTED_MESSAGES = ["human", "ai", "tool", "ai"]

AGENT = """agentc 1
use "./tools.py" as tools
agent calc {
  model "openai:gpt-4o-mini"
  prompt "You are a careful calculator."
  tools [tools.add]
}
"""
LC_AGENT = """
import sys
from pathlib import Path
from langchain.agents import create_agent
from langchain_openai import ChatOpenAI
sys.path.insert(0, str(Path(__file__).parent))
from tools import add
graph = create_agent(
    model=ChatOpenAI(model="gpt-4o-mini"),
    tools=[add],
    system_prompt="You are a careful calculator.",
)
"""
TOOLS = '''
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b
'''
LANGGRAPH_JSON = {"dependencies": ["."], "graphs": {"calc": "./lc_agent.py:graph"}}


# ------------------------------------------------------------------ the fake model


def model_server(port: int) -> None:
    """The fake OpenAI server: a tool call for a fresh question, the answer after the
    tool's result. `POST /_hold {"on": true}` holds every answer until `{"on": false}`;
    `GET /_count` is how many model calls came."""
    import uvicorn
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import JSONResponse, Response, StreamingResponse
    from starlette.routing import Route

    from agentc.testing.fake_wire import OPENAI, FakeReply, FakeToolCall

    held = asyncio.Event()
    held.set()
    count = [0]

    async def chat(request: Request) -> Response:
        body = await request.json()
        count[0] += 1
        await held.wait()
        if body["messages"][-1].get("role") == "tool":
            reply = FakeReply(text="The answer is 5.")
        else:
            reply = FakeReply(tool_calls=[FakeToolCall("add", '{"a": 2, "b": 3}', "c1")])
        model = body.get("model") or "gpt-4o-mini"
        if body.get("stream"):
            return StreamingResponse(OPENAI.events(reply, model), media_type="text/event-stream")
        return JSONResponse(OPENAI.message(reply, model))

    async def hold(request: Request) -> Response:
        (held.clear if (await request.json())["on"] else held.set)()
        return JSONResponse({"count": count[0]})

    async def counted(request: Request) -> Response:
        return JSONResponse({"count": count[0]})

    routes = [
        Route("/v1/chat/completions", chat, methods=["POST"]),
        Route("/_hold", hold, methods=["POST"]),
        Route("/_count", counted),
        Route("/ok", counted),
    ]
    app = Starlette(routes=routes)
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", backlog=4096)


# ------------------------------------------------------------------ processes


@dataclass(frozen=True)
class Proc:
    name: str
    url: str
    pid: int


@contextmanager
def process(name: str, argv: list[str], cwd: Path, env: dict[str, str]) -> Iterator[Proc]:
    port = free_port()
    argv = [a.replace("{PORT}", str(port)) for a in argv]
    url = f"http://127.0.0.1:{port}"
    log = (cwd / f"{name}.log").open("wb")
    proc = subprocess.Popen(argv, cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=True)  # fmt: skip
    try:
        deadline = time.monotonic() + READY_S
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"{name} exited {proc.returncode}; see {cwd / name}.log")
            try:
                if httpx.get(url + "/ok", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"{name} did not answer /ok in {READY_S} s")
            time.sleep(0.25)
        yield Proc(name, url, proc.pid)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=15)
        log.close()


@contextmanager
def postgres() -> Iterator[str]:
    """A throw-away PostgreSQL cluster (the tests' `support.pg`), its connection string."""
    sys.path.insert(0, str(ROOT / "tests"))
    from support.pg import pg_cluster  # only the 4-worker side needs it (and psycopg)

    gen = pg_cluster.__wrapped__()  # type: ignore[attr-defined]
    try:
        yield next(gen).url()
    finally:
        gen.close()


def tree_rss(pid: int) -> int:
    """Resident bytes of a process and every process below it (from /proc)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry.name))
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        todo += children.get(p, [])
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) * 1024
        except OSError:
            pass
    return total


def server_env(model_url: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LANGSMITH_", "LANGCHAIN_"))}
    env.update(OFFLINE_ENV)
    env.update(OPENAI_BASE_URL=model_url + "/v1", OPENAI_API_KEY=FAKE_KEY)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
    return env


def app_dir(root: Path) -> Path:
    app = root / "app"
    app.mkdir()
    (app / "bench.agent").write_text(AGENT)
    (app / "lc_agent.py").write_text(LC_AGENT)
    (app / "tools.py").write_text(TOOLS)
    (app / "langgraph.json").write_text(json.dumps(LANGGRAPH_JSON))
    return app


def server_argv(side: str, lg_jobs: int | None, db: str = "") -> list[str]:
    if side.startswith("agentc"):
        where = ["--db", db, "--workers", "4"] if side == "agentc4" else ["--db", "memory://"]
        return [sys.executable, "-m", "agentc", "serve", "bench.agent", "--host", "127.0.0.1",
                "--port", "{PORT}", *where]  # fmt: skip
    exe = str(Path(sys.executable).parent / "langgraph")
    argv = [exe, "dev", "--no-browser", "--no-reload", "--host", "127.0.0.1", "--port", "{PORT}"]
    return argv + (["--n-jobs-per-worker", str(lg_jobs)] if lg_jobs else [])


# ------------------------------------------------------------------ the workload
# (the SDK is imported here, not at the top, so `--model-server` starts without it)


@dataclass
class Result:
    runs_s: float = 0.0
    wait_ms: tuple[float, float] = (0.0, 0.0)
    first_ms: tuple[float, float] = (0.0, 0.0)
    stream_ms: tuple[float, float] = (0.0, 0.0)
    mem_kib: float = 0.0
    held: int = 0
    bad: int = 0
    failed: int = 0
    checked: int = 0
    errors: collections.Counter[str] = field(default_factory=collections.Counter)

    def fail(self, exc: BaseException, phase: str) -> None:
        """Count a failed request by what failed (the table prints the commonest)."""
        self.failed += 1
        chain, cause = [], exc.__cause__ or exc.__context__
        while cause is not None and len(chain) < 4:  # what the transport saw beneath
            chain.append(f"{type(cause).__name__}: {str(cause)[:60]}")
            cause = cause.__cause__ or cause.__context__
        under = f" (from {' <- '.join(chain)})" if chain else ""
        self.errors[f"{phase}: {type(exc).__name__}: {str(exc)[:120]}{under}"] += 1


def pct(values: list[float]) -> tuple[float, float]:
    ordered = sorted(values)
    return (statistics.median(ordered), ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))])


async def gather_limited(n: int, limit: int, make: Callable[[int], Awaitable[Any]]) -> list[Any]:
    gate = asyncio.Semaphore(limit)

    async def one(i: int) -> Any:
        async with gate:
            return await make(i)

    return list(await asyncio.gather(*(one(i) for i in range(n))))


SHARD = 1  # client threads per SDK client (and httpx connection pool)


class Clients:
    """One SDK client per `SHARD` client threads, picked by thread index. httpx's
    connection pool walks all its connections on every request, so one pool of N
    connections costs the client O(N) per request — at N = 1,000 the client, not the
    server, was the busiest process on the machine. Small pools keep the client cheap, so
    both servers are timed, not the client. One thread per pool, because httpcore's pool
    (1.0.9) can close a connection it has just handed to one request while another request
    of the same pool expires idle ones (encode/httpcore#1110): the server then sees a
    request's headers and the client's close before its body, and the client a
    `ReadError` from `ClosedResourceError`; shared by 25 threads, 1 to 17 requests per
    1,000-thread run failed so against both servers' logs saying nothing was wrong."""

    def __init__(self, url: str, threads: int) -> None:
        self.all = [sdk_client(url, SHARD) for _ in range(max(1, -(-threads // SHARD)))]

    def __getitem__(self, i: int) -> LangGraphClient:
        return self.all[i % len(self.all)]

    async def aclose(self) -> None:
        for c in self.all:
            await c.http.client.aclose()


def sdk_client(url: str, threads: int) -> LangGraphClient:
    from langgraph_sdk.client import LangGraphClient

    # The SDK's own httpx pool stops at 100 connections and waits 5 s for one; N threads
    # at once need N connections, and a wait as long as a run. An idle connection is let go
    # after 1 s, before the server's keep-alive closes it (agentc's 75 s; langgraph dev's,
    # uvicorn's default, 5 s — which a client at load, counting from when it read the
    # response, can still overrun).
    n = threads + 10
    limits = httpx.Limits(max_connections=n, max_keepalive_connections=n, keepalive_expiry=1.0)
    timeout = httpx.Timeout(connect=60, read=600, write=600, pool=600)
    transport = httpx.AsyncHTTPTransport(retries=5, limits=limits)
    http = httpx.AsyncClient(base_url=url, limits=limits, timeout=timeout, transport=transport)
    return LangGraphClient(http)


async def shape(client: LangGraphClient, thread: str) -> tuple[list[str], list[int]]:
    state = await client.threads.get_state(thread)
    values = state["values"] if isinstance(state["values"], dict) else {}
    kinds = [m["type"] for m in values.get("messages", [])]
    history = await client.threads.get_history(thread, limit=100)
    return kinds, sorted((h["metadata"] or {}).get("step", -99) for h in history)


async def workload(url: str, threads: int, model_url: str, pid: int) -> Result:
    clients, out = Clients(url, threads), Result()
    client = clients[0]
    model = httpx.AsyncClient(base_url=model_url, timeout=60)
    lone = (await client.threads.create())["thread_id"]
    await client.runs.wait(lone, "calc", input=ASK)
    _, lone_steps = await shape(client, lone)

    async def create(i: int) -> str:
        for attempt in range(3):  # retried so the run goes on, but counted as failed
            try:
                return str((await clients[i].threads.create())["thread_id"])
            except httpx.TransportError as exc:
                out.fail(exc, "threads.create")
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    waited = await gather_limited(threads, 100, create)
    start = time.perf_counter()

    async def wait(i: int) -> float | None:
        t0 = time.perf_counter()
        try:
            await clients[i].runs.wait(waited[i], "calc", input=ASK)
        except httpx.HTTPError as exc:  # counted: a refused or dropped request is a finding
            out.fail(exc, "runs.wait")
            return None
        except Exception as exc:  # the SDK raises a run that ended in error: counted too
            out.fail(exc, "runs.wait")
            return None
        return time.perf_counter() - t0

    lat = await asyncio.gather(*(wait(i) for i in range(threads)))
    done = [x * 1000 for x in lat if x is not None]
    out.runs_s = len(done) / (time.perf_counter() - start)
    out.wait_ms = pct(done or [0.0])

    streamed = await gather_limited(threads, 100, create)

    async def stream(i: int) -> tuple[float, float] | None:
        t0, first = time.perf_counter(), None
        parts = clients[i].runs.stream(streamed[i], "calc", input=ASK, stream_mode="updates")
        try:
            async for _ in parts:
                first = first or time.perf_counter()
        except httpx.HTTPError as exc:
            out.fail(exc, "runs.stream")
            return None
        return (first or time.perf_counter()) - t0, time.perf_counter() - t0

    got = await asyncio.gather(*(stream(i) for i in range(threads)))
    timings = [t for t in got if t is not None] or [(0.0, 0.0)]
    out.first_ms = pct([f * 1000 for f, _ in timings])
    out.stream_ms = pct([e * 1000 for _, e in timings])

    async def check(i: int) -> bool:
        kinds, steps = await shape(clients[i], (waited + streamed)[i])
        good = kinds == EXPECTED_MESSAGES and steps == lone_steps
        if not good:  # what it has instead (a run whose request failed may have none)
            out.errors[f"thread with messages {kinds}, steps {steps}"] += 1
        return good

    verdicts = await gather_limited(2 * threads, 50, check)
    out.checked, out.bad = len(verdicts), verdicts.count(False)
    out.mem_kib, out.held = await memory(clients, model, threads, pid, out)
    await clients.aclose()
    await model.aclose()
    return out


async def memory(
    clients: Clients, model: httpx.AsyncClient, threads: int, pid: int, out: Result
) -> tuple[float, int]:
    """RSS per run held at its model call: every run started in the background, the model
    holding its answers, RSS read once no more calls arrive (a server that queues runs
    holds fewer than it was given), then the model lets go and every run is joined."""
    ids = [str((await clients[i].threads.create())["thread_id"]) for i in range(threads)]
    idle = tree_rss(pid)
    before = (await model.post("/_hold", json={"on": True})).json()["count"]
    runs = await gather_limited(
        threads, 100, lambda i: clients[i].runs.create(ids[i], "calc", input=ASK)
    )
    held, still = 0, 0
    while still < 8 and held < threads:  # until the count has not moved for 2 s
        await asyncio.sleep(0.25)
        now = (await model.get("/_count")).json()["count"] - before
        still, held = (still + 1, held) if now == held else (0, now)
    busy = tree_rss(pid)
    await model.post("/_hold", json={"on": False})

    async def join(i: int) -> bool:
        try:
            await clients[i].runs.join(ids[i], runs[i]["run_id"])
        except httpx.HTTPError as exc:  # counted with the failed requests
            out.fail(exc, "runs.join")
            return False
        return True

    await gather_limited(threads, 100, join)
    return (busy - idle) / 1024 / max(held, 1), held


# ------------------------------------------------------------------ the table


def table(threads: int, sides: dict[str, Result]) -> None:
    a, a4, b = sides.get("agentc"), sides.get("agentc4"), sides.get("langgraph")

    def row(label: str, unit: str, pick: Callable[[Result], float]) -> None:
        cols = "".join(f"{pick(s):>12.1f}" if s else f"{'-':>12}" for s in (a, a4, b))
        ratios = (f"{pick(x) / pick(b):>8.2f}" if x and b and pick(b) else f"{'-':>8}"
                  for x in (a, a4))  # fmt: skip
        print(f"{label:<30}{unit:<8}{cols}  {'  '.join(ratios)}")

    print(f"\nserve_bench: {threads} threads at once, one tool call each, loopback")
    print(f"{'':<38}{'agentc':>12}{'agentc 4w':>12}{'lg dev':>12}  {'ag/lg':>8}  {'4w/lg':>8}")
    row("runs.wait throughput", "runs/s", lambda r: r.runs_s)
    row("runs.wait p50", "ms", lambda r: r.wait_ms[0])
    row("runs.wait p99", "ms", lambda r: r.wait_ms[1])
    row("runs.stream first event p50", "ms", lambda r: r.first_ms[0])
    row("runs.stream first event p99", "ms", lambda r: r.first_ms[1])
    row("runs.stream to the end p50", "ms", lambda r: r.stream_ms[0])
    row("runs.stream to the end p99", "ms", lambda r: r.stream_ms[1])
    row("memory per active run", "KiB", lambda r: r.mem_kib)
    row("runs held at once (of N)", "runs", lambda r: float(r.held))
    row("threads checked", "", lambda r: float(r.checked))
    row("requests failed (HTTP errors)", "", lambda r: float(r.failed))
    row("lost or duplicated steps", "threads", lambda r: float(r.bad))
    print("ratio ag/lg: above 1 is better for throughput, below 1 for times and memory")
    for name, r in sides.items():
        for what, n in r.errors.most_common(3):
            print(f"{name} failed {n}x: {what}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--threads", type=int, default=1000, help="concurrent threads (1000)")
    parser.add_argument("--only", choices=["agentc", "agentc4", "langgraph"], nargs="+",
                        help="run these sides only")  # fmt: skip
    parser.add_argument("--lg-jobs", type=int, default=None,
                        help="langgraph dev's --n-jobs-per-worker (default: --threads, so it "
                        "may run as many at once as agentc; its own default, 1, runs "
                        "one at a time)")  # fmt: skip
    parser.add_argument("--logs", metavar="DIR", type=Path, default=None,
                        help="copy the servers' logs here at the end")  # fmt: skip
    parser.add_argument("--model-server", type=int, metavar="PORT", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.model_server is not None:
        model_server(args.model_server)
        return 0
    sides = args.only or ["agentc", "agentc4", "langgraph"]
    jobs = args.lg_jobs or args.threads
    results: dict[str, Result] = {}
    with tempfile.TemporaryDirectory(prefix="serve-bench-") as tmp:
        app = app_dir(Path(tmp))
        model_argv = [sys.executable, str(Path(__file__).resolve()), "--model-server", "{PORT}"]
        if args.logs is not None:
            args.logs.mkdir(parents=True, exist_ok=True)
            keep = ExitStack()
            keep.callback(lambda: [shutil.copy(f, args.logs) for f in app.glob("*.log")])
        with process("model", model_argv, app, server_env("")) as model, ExitStack() as stack:
            if args.logs is not None:
                stack.enter_context(keep)
            for side in sides:
                db = stack.enter_context(postgres()) if side == "agentc4" else ""
                argv = server_argv(side, jobs, db)
                with process(side, argv, app, server_env(model.url)) as s:
                    print(f"{side}: {args.threads} threads …", file=sys.stderr, flush=True)
                    try:
                        results[side] = asyncio.run(workload(s.url, args.threads, model.url, s.pid))
                    except (httpx.HTTPError, OSError):
                        tail = (app / f"{side}.log").read_text(errors="replace")[-3000:]
                        alive = Path(f"/proc/{s.pid}").exists()
                        print(f"{side} failed ({'still running' if alive else 'exited'}); "
                              f"the end of its log:\n{tail}", file=sys.stderr)  # fmt: skip
                        raise
    table(args.threads, results)
    print(f"langgraph dev ran with --n-jobs-per-worker {jobs}")
    return 1 if any(r.bad for r in results.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
