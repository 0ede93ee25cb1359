"""Runtime seats on graphs written as `.agent` text (compiled by the real pipeline)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from agentc.runtime import (InvalidUpdateError, MemoryStore, RecursionLimitError, RunConfig,
                            compile, store_for)

HERE = Path(__file__).parent / "agent"


@pytest.fixture(scope="module")
def program():
    from agentc.compiler.pipeline import compile_source
    result = compile_source((HERE / "loop.agent").read_text(), "loop.agent", base_dir=HERE)
    assert result.program is not None, [str(d) for d in result.diagnostics]
    return result.program


def _g(program, name, **kw):
    return compile(program, name, base_dir=str(HERE), **kw)


def test_F1_finishing_at_limit_succeeds(program):
    assert _g(program, "loop").invoke({}) == {"n": 3, "log": ["0", "1", "2"]}


def test_F1_exceeding_limit_points_at_the_limits_line(program):
    with pytest.raises(RecursionLimitError) as err:
        _g(program, "too_short").invoke({})
    assert err.value.span is not None and err.value.span.line == 24


def test_E5_results_in_listed_order(program):
    out = asyncio.run(_g(program, "fan").ainvoke({}))
    assert out["log"] == ["first", "second"]  # task-path order, not completion order


def test_last_value_conflict_names_writers(program):
    with pytest.raises(InvalidUpdateError, match="`x`.*`a`, `b`"):
        _g(program, "conflict").invoke({})


def test_D7_interrupt_before_declared_in_file(program):
    graph = program.graph("chat")
    g = _g(program, "chat", checkpointer=store_for(graph.checkpoint))
    cfg = RunConfig(thread_id="t")
    out = g.invoke({"messages": ["hi"]}, cfg)
    assert [m.text for m in out["messages"]] == ["hi", "echo hi"]
    assert g.get_state(cfg).next == ("review",)
    out = g.invoke(None, cfg)
    assert [m.text for m in out["messages"]][-1] == "echo echo hi"
    assert isinstance(g.checkpointer, MemoryStore)
