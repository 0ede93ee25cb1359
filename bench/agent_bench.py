"""The same agent in agentc and in LangChain's create_agent, timed side by side.

One trivial tool (`ping`), a model that answers instantly (it asks for `ping` until the
run's quota of round trips is reached, then answers), so what is measured is the runtime:
N tool round trips in one run (N = 10, 100, 1000), K parallel tool calls in one reply
(K = 1, 10, 100), sync and async, and 1,000 concurrent runs. Prints both columns and the
ratio (LangChain time / agentc time: above 1 means agentc is faster). Each case is the
median of several runs after one untimed warm-up run per side.

Run: `python bench/agent_bench.py [--quick]`. Needs `pip install -e .[oracle]`.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

AGENT = """agentc 1
use "./bench_tools.py" as t
agent bench {
  model "scripted" { replies: ["unused"] }
  tools [t.ping]
  checkpoint none
}
"""
TOOLS = '''
def ping(x: int) -> int:
    """Return x."""
    return x
'''


class Plan:
    """What the instant model does: K calls per reply for N replies, then an answer."""

    def __init__(self, rounds: int, width: int) -> None:
        self.rounds, self.width = rounds, width


# ---------------------------------------------------------------- agentc


class InstantModel:
    """An agentc ChatModel following a Plan; counts its own replies per run."""

    provider = "bench"
    name = "instant"

    def __init__(self, plan: Plan) -> None:
        from agentc.stdlib.providers.base import ModelProfile

        self.plan, self.profile = plan, ModelProfile(tool_calling=True)

    async def generate(self, request: Any) -> Any:
        from agentc.stdlib.messages import AIMessage, ToolCall

        done = (len(request.messages) - 1) // (1 + self.plan.width)  # O(1): replies so far
        if done >= self.plan.rounds:
            return AIMessage(content="done")
        return AIMessage(
            content="",
            tool_calls=[
                ToolCall(name="ping", args={"x": i}, id=f"c{done}_{i}")
                for i in range(self.plan.width)
            ],
        )


def agentc_graph(plan: Plan, workdir: Path) -> Any:
    from agentc.api import load_agent

    graph = load_agent(workdir / "bench.agent")
    graph.bound.nodes["model"].callee.fn.chooser.default = InstantModel(plan)
    return graph


# ---------------------------------------------------------------- LangChain


def langchain_graph(plan: Plan) -> Any:
    from langchain.agents import create_agent
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
    from langchain_core.messages import AIMessage
    from langchain_core.outputs import ChatGeneration, ChatResult

    class Instant(GenericFakeChatModel):
        def bind_tools(self, tools, **kw):
            return self

        def _generate(self, messages, stop=None, run_manager=None, **kw):
            done = (len(messages) - 1) // (1 + plan.width)
            if done >= plan.rounds:
                msg = AIMessage(content="done")
            else:
                msg = AIMessage(
                    content="",
                    tool_calls=[
                        {"name": "ping", "args": {"x": i}, "id": f"c{done}_{i}"}
                        for i in range(plan.width)
                    ],
                )
            return ChatResult(generations=[ChatGeneration(message=msg)])

    def ping(x: int) -> int:
        """Return x."""
        return x

    return create_agent(Instant(messages=iter([])), tools=[ping])


# ---------------------------------------------------------------- timing

INPUT = {"messages": [{"role": "user", "content": "go"}]}


def timed(fn: Callable[[], Any], reps: int) -> float:
    """The median of `reps` timed runs, after one untimed run: the first run of a fresh
    graph pays one-time costs (lazy imports, schema builds, the sync-tool placement proof,
    `runtime/inline.py`) that would otherwise be most of a short case's median."""
    fn()
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def measure(kind: str, plan: Plan, reps: int, workdir: Path, is_async: bool) -> tuple[float, float]:
    from agentc.runtime import RunConfig

    ours = agentc_graph(plan, workdir)
    theirs = langchain_graph(plan)
    limit = 10 * plan.rounds + 100
    if is_async:
        a = timed(lambda: asyncio.run(ours.ainvoke(INPUT, RunConfig(recursion_limit=limit))), reps)
        b = timed(lambda: asyncio.run(theirs.ainvoke(INPUT, {"recursion_limit": limit})), reps)
    else:
        a = timed(lambda: ours.invoke(INPUT, RunConfig(recursion_limit=limit)), reps)
        b = timed(lambda: theirs.invoke(INPUT, {"recursion_limit": limit}), reps)
    return a, b


def concurrent(runs: int, workdir: Path) -> tuple[float, float]:
    plan = Plan(1, 1)
    ours, theirs = agentc_graph(plan, workdir), langchain_graph(plan)

    async def many(graph: Any) -> None:
        await asyncio.gather(*(graph.ainvoke(INPUT) for _ in range(runs)))

    return timed(lambda: asyncio.run(many(ours)), 1), timed(lambda: asyncio.run(many(theirs)), 1)


def row(label: str, a: float, b: float, per: int = 1) -> str:
    return f"| {label:<34} | {a / per * 1000:>10.3f} | {b / per * 1000:>10.3f} | {b / a:>6.1f}x |"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    args = parser.parse_args(argv)
    try:
        import langchain  # noqa: F401
    except ImportError:
        print("the oracle is not installed: pip install -e .[oracle]", file=sys.stderr)
        return 2
    workdir = Path(tempfile.mkdtemp())
    (workdir / "bench.agent").write_text(AGENT)
    (workdir / "bench_tools.py").write_text(TOOLS)
    q = 0.2 if args.quick else 1.0
    print("| case (ms; per round trip / per call / per run) | agentc | create_agent | ratio |")
    print("| --- | ---: | ---: | ---: |")
    for mode in (False, True):
        tag = "async" if mode else "sync"
        for n, reps in ((10, 20), (100, 5), (1000, 3)):
            a, b = measure("rounds", Plan(n, 1), max(1, int(reps * q)), workdir, mode)
            print(row(f"{n} round trips, {tag} (per trip)", a, b, n))
        for k, reps in ((1, 20), (10, 10), (100, 3)):
            a, b = measure("width", Plan(1, k), max(1, int(reps * q)), workdir, mode)
            print(row(f"{k} parallel calls, {tag} (per call)", a, b, k))
    a, b = concurrent(1000, workdir)
    print(row("1000 concurrent runs, async (per run)", a, b, 1000))
    print(
        f"\nthroughput, 1000 concurrent runs: agentc {1000 / a:.0f} runs/s, "
        f"create_agent {1000 / b:.0f} runs/s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
