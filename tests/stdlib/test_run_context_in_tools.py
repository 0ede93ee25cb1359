"""The run's context (`invoke(…, context=…)`) as tools and middleware read it, beside the real
LangGraph 1.2.24 / LangChain 1.4.10: `ToolRuntime.context` and `AgentRuntime.context` are the
run's context (LangGraph's `Runtime.context`), not the task nor `configurable`; the task a
call runs in is `ToolRuntime.task` / `AgentRuntime.task`. `ToolRuntime` also has LangChain's
`stream_writer` (a `custom` event) and `tools` (every tool of the node)."""

from __future__ import annotations

import sys
from typing import Any

import pytest
from graph_node_kit import tools_node
from support.graphs import END, START, chan, graph, node
from support.mwkit import agent, ask, call, reply
from typing_extensions import TypedDict

from agentc import ir
from agentc.runtime import RunConfig, compile
from agentc.runtime.context import TaskContext
from agentc.runtime.events import CustomEvent
from agentc.stdlib.messages import AIMessage, ToolMessage
from agentc.stdlib.tools import ToolRuntime

lc_messages = pytest.importorskip("langchain_core.messages")
lg_graph = pytest.importorskip("langgraph.graph")
lg_prebuilt = pytest.importorskip("langgraph.prebuilt")
from langchain_core.tools import tool  # noqa: E402
from langgraph.prebuilt import ToolRuntime as LgToolRuntime  # noqa: E402

# LangChain's own ToolRuntime serializes a dict context against its `None` default
pytestmark = pytest.mark.filterwarnings("ignore:Pydantic serializer warnings:UserWarning")


class Ctx(TypedDict):
    user_id: str


CALLS = [{"name": "who", "args": {}, "id": "c1"}, {"name": "helper", "args": {}, "id": "c2"}]


def body(runtime: Any) -> str:
    """What both sides' `who` tool does with its runtime (same attribute names)."""
    runtime.stream_writer({"asked_by": runtime.context["user_id"]})
    names = sorted(t.name for t in runtime.tools)
    return f"{runtime.context['user_id']}|{runtime.tool_call_id}|{names}"


def ours_who(runtime: ToolRuntime) -> str:
    """Who asks."""
    return body(runtime)


def helper() -> str:
    """Helps."""
    return "ok"


@tool
def who(runtime: LgToolRuntime) -> str:
    """Who asks."""
    return body(runtime)


@tool("whoami")
def lc_whoami(runtime: LgToolRuntime) -> str:
    """Say who asks."""
    return f"user {runtime.context['user_id']}"


def langgraph_run(context: Ctx) -> tuple[list[Any], list[str]]:
    def think(state: Any) -> dict:
        return {"messages": [lc_messages.AIMessage(content="", tool_calls=CALLS)]}

    builder = lg_graph.StateGraph(lg_graph.MessagesState, context_schema=Ctx)
    builder.add_node("think", think)
    builder.add_node("act", lg_prebuilt.ToolNode([who, tool(helper)]))
    builder.add_edge(lg_graph.START, "think")
    builder.add_edge("think", "act")
    builder.add_edge("act", lg_graph.END)
    custom, answers = [], []
    chunks = builder.compile().stream(
        {"messages": [("user", "go")]}, stream_mode=["custom", "values"], context=context
    )
    for mode, chunk in chunks:
        if mode == "custom":
            custom.append(chunk)
        else:
            answers = [m.content for m in chunk["messages"] if m.type == "tool"]
    return custom, answers


def agentc_run(context: Ctx) -> tuple[list[Any], list[str]]:
    def think(state: dict) -> dict:
        return {"messages": [AIMessage(content="", tool_calls=CALLS)]}

    ours_who.__name__ = "who"  # the tool's name, as the compiler writes it
    g = graph(
        state=[chan("messages", "messages", [])],
        nodes=[node("think", think), tools_node("act", [ours_who, helper])],
        edges=[(START, "think"), ("think", "act"), ("act", END)],
    )
    program = ir.Program(source=ir.SourceRef(file="t.agent", sha256="0"), graphs=[g])
    custom, answers = [], []
    events = compile(program, g.name).stream(
        {"messages": [("user", "go")]}, mode=["custom", "values"], context=context
    )
    for ev in events:
        if isinstance(ev, CustomEvent):
            custom.append(ev.payload)
        elif hasattr(ev, "values"):
            answers = [m.content for m in ev.values["messages"] if isinstance(m, ToolMessage)]
    return custom, answers


def test_a_graph_tool_reads_the_run_context_stream_writer_and_tools_as_langgraph():
    ours, theirs = agentc_run({"user_id": "u1"}), langgraph_run({"user_id": "u1"})
    assert ours == theirs == ([{"asked_by": "u1"}], ["u1|c1|['helper', 'who']", "ok"])


# ---------------------------------------------------------------- agents (create_agent)

AGENT_PY = '''
from agentc.middleware import AgentMiddleware
from agentc.stdlib.tools import ToolRuntime

CONTEXT_SEEN = []


def whoami(runtime: ToolRuntime) -> str:
    """Say who asks."""
    CONTEXT_SEEN.append(("task", runtime.task.node))
    return f"user {runtime.context['user_id']}"


class Spy(AgentMiddleware):
    def before_model(self, state, runtime):
        CONTEXT_SEEN.append(("before_model", runtime.context))

    def wrap_tool_call(self, request, handler):
        CONTEXT_SEEN.append(("wrap_tool_call", request.runtime.context))
        return handler(request)
'''

WHO_CALL = [reply("", call("whoami", {}, "c1")), "done"]
CTX_U1 = {"user_id": "u1"}


def user_module_log() -> list[Any]:
    """`CONTEXT_SEEN` of the kit module the run imported (a file module of its own name)."""
    return next(
        m.CONTEXT_SEEN
        for n, m in sys.modules.items()
        if n.startswith("agentc_user_") and getattr(m, "CONTEXT_SEEN", None)
    )


def langchain_seen(context: Any) -> tuple[list[Any], list[str]]:
    from langchain.agents import create_agent
    from langchain.agents.middleware import AgentMiddleware
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel

    seen: list[Any] = []

    class Fake(GenericFakeChatModel):
        def bind_tools(self, tools: Any, **kw: Any) -> Any:
            return self

    class Spy(AgentMiddleware):
        def before_model(self, state: Any, runtime: Any) -> None:
            seen.append(("before_model", runtime.context))

        def wrap_tool_call(self, request: Any, handler: Any) -> Any:
            seen.append(("wrap_tool_call", request.runtime.context))
            return handler(request)

    replies = [
        lc_messages.AIMessage(content="", tool_calls=WHO_CALL[0]["tool_calls"]),
        lc_messages.AIMessage(content="done"),
    ]
    lc_agent = create_agent(
        model=Fake(messages=iter(replies)),
        tools=[lc_whoami],
        middleware=[Spy()],
        context_schema=Ctx,
    )
    out = lc_agent.invoke(ask(), context=context)
    return seen, [m.content for m in out["messages"] if m.type == "tool"]


def test_agent_tools_and_middleware_read_the_run_context_as_langchain(tmp_path):
    a = agent(
        tmp_path, replies_=WHO_CALL, tools="kit.whoami", middleware="kit.Spy", extra_py=AGENT_PY
    )
    out = a.invoke(ask(), RunConfig(configurable={"user_id": "not this"}), context=CTX_U1)
    log = user_module_log()
    seen = [s for s in log if s[0] != "task"]
    theirs, their_answers = langchain_seen(CTX_U1)
    assert (
        seen
        == theirs
        == [
            ("before_model", CTX_U1),
            ("wrap_tool_call", CTX_U1),
            ("before_model", CTX_U1),
        ]
    )
    assert [m.content for m in out["messages"] if m.type == "tool"] == their_answers
    assert ("task", "tools") in log  # the task the call runs in is `runtime.task`


def test_without_a_context_both_runtimes_hold_none(tmp_path):
    seen: list[Any] = []

    def peek(runtime: ToolRuntime) -> str:
        """Peeks."""
        seen.append((runtime.context, isinstance(runtime.task, TaskContext)))
        return "seen"

    def think(state: dict) -> dict:
        return {"messages": [AIMessage(content="", tool_calls=[CALLS[0] | {"name": "peek"}])]}

    g = graph(
        state=[chan("messages", "messages", [])],
        nodes=[node("think", think), tools_node("act", [peek])],
        edges=[(START, "think"), ("think", "act"), ("act", END)],
    )
    program = ir.Program(source=ir.SourceRef(file="t.agent", sha256="0"), graphs=[g])
    compile(program, g.name).invoke({"messages": ["go"]})
    assert seen == [(None, True)]


def test_a_tool_runtime_outside_a_run_reads_the_configs_context():
    rt = ToolRuntime(state={}, tool_call_id="c1", config=RunConfig(context={"user_id": "u9"}))
    assert rt.context == {"user_id": "u9"} and rt.task is None and rt.tools == ()
    rt.stream_writer("nobody streams")  # no task: a no-op, as LangGraph's writer outside a run
