"""Python middleware read statically: a class's `state_schema` and `tools`, its constructor
checked against the `.agent` settings, decorators applied by call, dotted `agentc` modules."""

from __future__ import annotations

from support.mwkit import agent, ask, call, reply, write

from agentc.api import load_agent
from agentc.compiler.pipeline import compile_source

CLASS_PY = '''
from typing import Annotated, NotRequired
from agentc.middleware import AgentMiddleware, AgentState, OmitFromInput, PrivateStateAttr


def lookup(query: str) -> str:
    """Look a word up."""
    return f"found {query}"


class CounterState(AgentState):
    seen: NotRequired[Annotated[int, PrivateStateAttr]]
    notes: NotRequired[Annotated[list[str], OmitFromInput]]


class Counter(AgentMiddleware):
    state_schema = CounterState
    tools = [lookup]

    def __init__(self, start: int = 0):
        super().__init__()
        self.start = start

    def before_model(self, state, runtime):
        return {"seen": (state.get("seen") or self.start) + 1,
                "notes": [f"call {(state.get('seen') or self.start) + 1}"]}
'''


def test_class_state_schema_and_tools_join_the_agent(tmp_path):
    a = agent(
        tmp_path,
        replies_=[reply("", call("lookup", {"query": "x"}, "c1")), "done"],
        middleware="kit.Counter { start: 10 }",
        extra_py=CLASS_PY,
    )
    mw = a.graph.agent.middleware[0]
    assert [(c.name, c.input, c.output) for c in mw.state] == [
        ("seen", False, False),
        ("notes", False, True),
    ]
    assert [t.name for t in mw.tools] == ["lookup"] and mw.tools[0].description == "Look a word up."
    assert any(n.name == "tools" for n in a.graph.nodes)  # the class's tool gets a tools node
    result = a.invoke(ask())
    assert result["messages"][2].content == "found x"
    assert sorted(result) == ["messages", "notes"]  # `seen` is private
    assert result["notes"] == ["call 12"]


def test_class_constructor_checked_at_the_key(tmp_path):
    path = write(
        tmp_path,
        """
    agent a {
      model "openai:gpt-4o-mini"
      middleware { kit.Counter { begin: 1 } }
    }
    """,
        extra_py=CLASS_PY,
    )
    result = compile_source(path.read_text(), path.name, base_dir=tmp_path)
    [d] = result.diagnostics
    assert d.code == "unknown-param" and d.help == "its parameters are `start`"
    assert (
        path.read_text()
        .splitlines()[d.span.start.line - 1][d.span.start.col - 1 :]
        .startswith("begin")
    )


def test_hook_made_by_calling_the_decorator(tmp_path):
    extra = """
def shout(state, runtime):
    return {"messages": [{"role": "user", "content": "LOUD"}]} if len(state["messages"]) == 1 else None

loud = before_model(shout)
"""  # noqa: E501 - fixture code, written to a file as is
    a = agent(tmp_path, replies_=["ok"], middleware="kit.loud", extra_py=extra)
    assert [m.name for m in a.graph.agent.middleware] == ["shout"]  # LangChain: fn.__name__
    assert [m.content for m in a.invoke(ask())["messages"]] == ["hi", "LOUD", "ok"]


def test_dotted_stdlib_module_use(tmp_path):
    path = tmp_path / "t.agent"
    path.write_text("""
use "agentc.stdlib.middleware.call_limits" as limits
agent a {
  model "scripted" { replies: ["one", "two"] }
  middleware { limits.ModelCallLimit { run: 1 } }
}
""")
    a = load_agent(path)
    assert a.graph.agent.middleware[0].impl.module == "agentc.stdlib.middleware.call_limits"
    assert a.invoke(ask())["messages"][-1].content == "one"
