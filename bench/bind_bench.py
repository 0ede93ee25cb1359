"""Binding a big agent: `ir.Program` → runnable graph, against create_agent's build.

The same agent on both sides: N plain-function tools (N = 1, 10, 100; two typed parameters
each, one with a default), without and with five middlewares both libraries have
(model call limit, tool call limit, model retry, tool retry, todo list). agentc's column is
`agentc.runtime.compile` of an already-compiled program (what `agentc run` pays after the
IR cache); LangChain's is `create_agent(...)` with the tool functions and middleware
objects made beforehand. Each side: the median of several builds after one warm-up build,
alternating sides; the ratio is LangChain's time / agentc's (above 1: agentc builds
faster). Target: every ratio ≥ 1.

Run: `python bench/bind_bench.py [--runs N]`. Needs `pip install -e .[oracle]`.
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

MIDDLEWARE = """  middleware {
    model_call_limit { run: 50 }
    tool_call_limit { run: 50 }
    model_retry { max_retries: 2 }
    tool_retry { max_retries: 2 }
    todo_list {}
  }
"""


def tools_source(n: int) -> str:
    return "".join(
        f'def t{i}(city: str, days: int = 3) -> str:\n    """Forecast {i} for a city."""\n'
        f"    return city\n\n"
        for i in range(n)
    )


def agent_source(n: int, middleware: bool) -> str:
    tools = ", ".join(f"t.t{i}" for i in range(n))
    return (
        'agentc 1\nuse "./bench_tools.py" as t\nagent big {\n'
        '  model "scripted" { replies: ["done"] }\n'
        f"  tools [{tools}]\n" + (MIDDLEWARE if middleware else "") + "  checkpoint none\n}\n"
    )


def agentc_builder(folder: Path, n: int, middleware: bool) -> Any:
    import agentc.runtime as runtime
    from agentc.compiler.pipeline import compile_source

    (folder / "bench_tools.py").write_text(tools_source(n))
    result = compile_source(agent_source(n, middleware), "big.agent", base_dir=str(folder))
    assert result.program is not None, [d.message for d in result.diagnostics[:3]]
    program = result.program

    def build() -> Any:
        return runtime.compile(program, "big", base_dir=str(folder))

    return build


def langchain_builder(folder: Path, n: int, middleware: bool) -> Any:
    from langchain.agents import create_agent
    from langchain.agents.middleware import (
        ModelCallLimitMiddleware,
        ModelRetryMiddleware,
        TodoListMiddleware,
        ToolCallLimitMiddleware,
        ToolRetryMiddleware,
    )
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
    from langchain_core.messages import AIMessage

    spec = importlib.util.spec_from_file_location(f"lc_tools_{n}", folder / "bench_tools.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    fns = [getattr(module, f"t{i}") for i in range(n)]
    mws = (
        [
            ModelCallLimitMiddleware(run_limit=50),
            ToolCallLimitMiddleware(run_limit=50),
            ModelRetryMiddleware(max_retries=2),
            ToolRetryMiddleware(max_retries=2),
            TodoListMiddleware(),
        ]
        if middleware
        else []
    )

    def build() -> Any:
        model = GenericFakeChatModel(messages=iter([AIMessage(content="done")]))
        return create_agent(model=model, tools=fns, middleware=mws)

    return build


def timed(fn: Any) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args()
    print(f"{'tools':>6} {'mw':>3} {'agentc ms':>10} {'create_agent ms':>16} {'ratio':>7}")
    for middleware in (False, True):
        for n in (1, 10, 100):
            with tempfile.TemporaryDirectory() as tmp:
                ours = agentc_builder(Path(tmp), n, middleware)
                theirs = langchain_builder(Path(tmp), n, middleware)
                ours(), theirs()  # warm-up: imports, first-use caches
                a, b = [], []
                for _ in range(args.runs):
                    a.append(timed(ours))
                    b.append(timed(theirs))
            ma, mb = statistics.median(a), statistics.median(b)
            mark = "" if mb / ma >= 1 else "  (< 1)"
            print(
                f"{n:>6} {5 if middleware else 0:>3} {ma * 1e3:>10.2f} {mb * 1e3:>16.2f} "
                f"{mb / ma:>7.2f}{mark}"
            )
    sys.stdout.flush()


if __name__ == "__main__":
    main()
