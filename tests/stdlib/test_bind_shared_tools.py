"""Binding an agent makes each tool once per graph: the model node, the tools node and every
middleware hook node share the same `Tool` objects (B5: the model is offered the tools the
tools node runs), so a big agent with middleware pays each tool's schema once."""

from __future__ import annotations

import asyncio
from pathlib import Path

import agentc.runtime as runtime
from agentc.compiler.pipeline import compile_source

TOOLS = '''
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


def shout(text: str, times: int = 1) -> str:
    """Repeat a text in capitals."""
    return text.upper() * times
'''

AGENT = """agentc 1
use "./tools.py" as tools
agent calc {
  model "scripted" {
    replies: [
      { tool_calls: [{ name: "add", args: { a: 2, b: 3 }, id: "c1" }] },
      "five",
    ]
  }
  tools [tools.add, tools.shout]
  middleware {
    model_call_limit { run: 5 }
    tool_call_limit { run: 5 }
  }
  checkpoint none
}
"""


def compiled(tmp_path: Path) -> runtime.CompiledGraph:
    (tmp_path / "tools.py").write_text(TOOLS)
    result = compile_source(AGENT, "calc.agent", base_dir=str(tmp_path))
    assert result.program is not None, [d.message for d in result.diagnostics]
    return runtime.compile(result.program, "calc", base_dir=str(tmp_path))


def test_B5_model_node_and_tools_node_share_one_tool_object_per_tool(tmp_path: Path) -> None:
    graph = compiled(tmp_path)
    model = graph.bound.nodes["model"].callee.fn
    tools = graph.bound.nodes["tools"].callee.fn
    offered = {t.name: t for t in model.tools}
    assert set(offered) == {"add", "shout"}
    for name, tool in tools.tools.items():
        assert tool is offered[name]  # made once, not once per node


def test_B5_a_graph_bound_twice_makes_its_tools_again(tmp_path: Path) -> None:
    # sharing is per bound program: two compiles of one program never share a tool's
    # learned state (where its sync calls run)
    first, second = compiled(tmp_path), compiled(tmp_path)
    a = first.bound.nodes["model"].callee.fn.tools[0]
    b = second.bound.nodes["model"].callee.fn.tools[0]
    assert a is not b and a.name == b.name


def test_B5_shared_tools_still_run(tmp_path: Path) -> None:
    graph = compiled(tmp_path)
    out = asyncio.run(asyncio.wait_for(graph.ainvoke({"messages": "add"}), 60))
    assert out["messages"][2].content == "5"
    assert out["messages"][-1].content == "five"
