"""A11: an `agent` block lowers to the same graph LangChain's `create_agent` builds.

For a matrix of options, build the real `create_agent(...)` (langchain 1.4.10, the oracle)
and compare its `get_graph()` nodes and edges (with the conditional flag) against the
compiled IR of the equivalent `.agent` text, through `GraphView`.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("langchain", reason="langchain (the oracle) is not installed")

from langchain.agents import create_agent  # noqa: E402
from langchain.agents.middleware import (  # noqa: E402
    AgentMiddleware,
    after_agent,
    after_model,
    before_agent,
    before_model,
    hook_config,
    wrap_model_call,
    wrap_tool_call,
)
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel  # noqa: E402
from langchain_core.messages import AIMessage  # noqa: E402
from langchain_core.tools import tool  # noqa: E402
from pydantic import BaseModel  # noqa: E402

from agentc.compiler.pipeline import compile_source  # noqa: E402
from agentc.compiler.structure import GraphView  # noqa: E402


class FakeModel(GenericFakeChatModel):
    def bind_tools(self, tools, **kwargs):  # as in seed 002
        return self


def fake_model() -> FakeModel:
    return FakeModel(messages=iter([AIMessage(content="done")]))


# ---------------------------------------------------------------- LangChain twins


def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


@tool(return_direct=True)
def lookup(query: str) -> str:
    """Look something up and answer directly."""
    return query


class Answer(BaseModel):
    value: int


@before_agent
def start(state, runtime):
    return None


@before_model
def trim(state, runtime):
    return None


@before_model(can_jump_to=["end"])
def gate(state, runtime):
    return None


@after_model
def inspect_reply(state, runtime):
    return None


@after_model(can_jump_to=["model", "end"])
def guard(state, runtime):
    return None


@after_agent
def finish(state, runtime):
    return None


@wrap_model_call
def retry_model(request, handler):
    return handler(request)


@wrap_tool_call
def log_tool(request, handler):
    return handler(request)


class Audit(AgentMiddleware):
    def before_agent(self, state, runtime):
        return None

    @hook_config(can_jump_to=["tools", "end"])
    def after_model(self, state, runtime):
        return None


TOOLS_PY = '''
from langchain.agents.middleware import (
    AgentMiddleware, after_agent, after_model, before_agent, before_model, hook_config,
    wrap_model_call, wrap_tool_call,
)
from langchain_core.tools import tool
from pydantic import BaseModel

def add(a: int, b: int) -> int:
    """Add two integers."""

@tool(return_direct=True)
def lookup(query: str) -> str:
    """Look something up and answer directly."""

class Answer(BaseModel):
    value: int

@before_agent
def start(state, runtime): ...

@before_model
def trim(state, runtime): ...

@before_model(can_jump_to=["end"])
def gate(state, runtime): ...

@after_model
def inspect_reply(state, runtime): ...

@after_model(can_jump_to=["model", "end"])
def guard(state, runtime): ...

@after_agent
def finish(state, runtime): ...

@wrap_model_call
def retry_model(request, handler): ...

@wrap_tool_call
def log_tool(request, handler): ...

class Audit(AgentMiddleware):
    def before_agent(self, state, runtime): ...

    @hook_config(can_jump_to=["tools", "end"])
    def after_model(self, state, runtime): ...
'''

LC = {
    "add": add,
    "lookup": lookup,
    "start": start,
    "trim": trim,
    "gate": gate,
    "inspect_reply": inspect_reply,
    "guard": guard,
    "finish": finish,
    "retry_model": retry_model,
    "log_tool": log_tool,
}

# name → (tools, output, middleware) ; output: None | "tool" | "provider" | "auto"
MATRIX = {
    "no_tools": ([], None, []),
    "tools": (["add"], None, []),
    "tools_return_direct": (["add", "lookup"], None, []),
    "tool_output_no_tools": ([], "tool", []),
    "tool_output_with_tools": (["add"], "tool", []),
    "auto_output_no_tools": ([], "auto", []),
    "provider_output_with_tools": (["add"], "provider", []),
    "before_agent_before_model": (["add"], None, ["start", "trim"]),
    "after_model_no_tools": ([], None, ["inspect_reply"]),
    "after_model_jumps_no_tools": ([], None, ["guard"]),
    "all_hooks_with_tools": (
        ["add"],
        None,
        ["start", "trim", "gate", "inspect_reply", "guard", "finish"],
    ),
    "after_agent_chain": (["add"], None, ["finish", "Audit"]),
    "wrap_model_call": (["add"], None, ["retry_model"]),
    "wrap_tool_call_only": ([], None, ["log_tool"]),
    "jumps_and_output": (["add", "lookup"], "tool", ["gate", "guard", "Audit", "finish"]),
}


def _langchain_edges(tools, output, middleware):
    mw = [Audit() if m == "Audit" else LC[m] for m in middleware]
    response_format = None
    if output is not None:
        from langchain.agents.structured_output import ProviderStrategy, ToolStrategy

        response_format = {
            "tool": ToolStrategy(Answer),
            "provider": ProviderStrategy(Answer),
            "auto": Answer,
        }[output]
    agent = create_agent(
        fake_model(), tools=[LC[t] for t in tools], middleware=mw, response_format=response_format
    )
    g = agent.get_graph()
    nodes = set(g.nodes)
    edges = {(e.source, e.target, bool(e.conditional)) for e in g.edges}
    return nodes, edges


def _agentc_edges(tmp_path: Path, tools, output, middleware):
    (tmp_path / "tools.py").write_text(TOOLS_PY)
    lines = ['use "./tools.py" as tools', "agent a {", '  model "openai:gpt-4o-mini"']
    if tools:
        lines.append("  tools [" + ", ".join(f"tools.{t}" for t in tools) + "]")
    if output:
        lines.append(f"  output tools.Answer via {output}")
    if middleware:
        lines.append("  middleware { " + " ".join(f"tools.{m}" for m in middleware) + " }")
    lines.append("}")
    result = compile_source("\n".join(lines) + "\n", "a.agent", base_dir=tmp_path)
    assert result.program is not None, [d.message for d in result.diagnostics]
    view = GraphView.of(result.program.graph("a"))
    return set(view.digraph.nodes), view.edge_set()


@pytest.mark.parametrize("case", list(MATRIX))
def test_A11_graph_shape_matches_create_agent(case: str, tmp_path: Path) -> None:
    tools, output, middleware = MATRIX[case]
    lc_nodes, lc_edges = _langchain_edges(tools, output, middleware)
    our_nodes, our_edges = _agentc_edges(tmp_path, tools, output, middleware)
    assert our_nodes == lc_nodes
    assert our_edges == lc_edges, (
        f"only ours: {sorted(our_edges - lc_edges)}\nonly langchain: {sorted(lc_edges - our_edges)}"
    )
