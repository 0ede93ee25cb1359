"""Conformance: the same scenario in LangChain's create_agent (1.5.2) (the oracle) and in
agentc, compared as normalised message traces (type, text, tool calls, tool answers)."""

from __future__ import annotations

import pytest
from support.mwkit import Command, RunConfig, agent, ask, call, reply

lc = pytest.importorskip("langchain.agents", reason="langchain (the oracle) is not installed")
from langchain.agents import create_agent  # noqa: E402
from langchain.agents import middleware as lcm  # noqa: E402
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel  # noqa: E402
from langchain_core.messages import AIMessage as LcAI  # noqa: E402
from langchain_core.tools import tool  # noqa: E402
from langgraph.checkpoint.memory import InMemorySaver  # noqa: E402
from langgraph.types import Command as LcCommand  # noqa: E402


class FakeToolModel(GenericFakeChatModel):
    def bind_tools(self, tools, **kwargs):
        return self


@tool
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


@tool
def multiply(a: int, b: int) -> int:
    """Multiply two integers."""
    return a * b


def lc_model(replies):
    msgs = [
        LcAI(content=r)
        if isinstance(r, str)
        else LcAI(content=r["content"], tool_calls=r["tool_calls"])
        for r in replies
    ]
    return FakeToolModel(messages=iter(msgs))


def norm(messages) -> list[tuple]:
    out = []
    for m in messages:
        calls = tuple(
            (c["name"], tuple(sorted(c["args"].items())), c["id"])
            if isinstance(c, dict)
            else (c.name, tuple(sorted(c.args.items())), c.id)
            for c in getattr(m, "tool_calls", []) or []
        )
        out.append(
            (
                m.type,
                m.content,
                calls,
                getattr(m, "tool_call_id", None),
                getattr(m, "status", None) if m.type == "tool" else None,
            )
        )
    return out


TWO = reply("", call("add", {"a": 2, "b": 3}, "c1"), call("multiply", {"a": 2, "b": 3}, "c2"))
LOOP = [reply("", call("add", {"a": 1, "b": 2}, f"c{i}")) for i in range(4)] + ["done"]


def both(tmp_path, replies, mw_lc, mw_agentc, tools=("add", "multiply")):
    lc_agent = create_agent(model=lc_model(replies), tools=[add, multiply], middleware=mw_lc)
    ours = agent(
        tmp_path, replies_=replies, tools=", ".join(f"kit.{t}" for t in tools), middleware=mw_agentc
    )
    return norm(lc_agent.invoke(ask())["messages"]), norm(ours.invoke(ask())["messages"])


@pytest.mark.parametrize("limit", [1, 2, 3])
def test_F8_model_call_limit_matches_langchain(tmp_path, limit):
    theirs, ours = both(
        tmp_path,
        LOOP,
        [lcm.ModelCallLimitMiddleware(run_limit=limit)],
        f"model_call_limit {{ run: {limit} }}",
    )
    assert ours == theirs


@pytest.mark.parametrize("behavior", ["continue", "end"])
def test_F9_tool_call_limit_matches_langchain(tmp_path, behavior):
    second = reply(
        "", call("add", {"a": 1, "b": 1}, "c3"), call("multiply", {"a": 1, "b": 1}, "c4")
    )
    theirs, ours = both(
        tmp_path,
        [TWO, second, "done"],
        [lcm.ToolCallLimitMiddleware(tool_name="add", run_limit=1, exit_behavior=behavior)],
        f'tool_call_limit {{ tool_name: "add", run: 1, exit_behavior: "{behavior}" }}',
    )
    assert ours == theirs


def test_F7_context_editing_matches_langchain(tmp_path):
    theirs, ours = both(
        tmp_path,
        [TWO, "ok"],
        [lcm.ContextEditingMiddleware(edits=[lcm.ClearToolUsesEdit(trigger=1, keep=1)])],
        'context_editing { edits: [{ type: "clear_tool_uses", trigger: 1, keep: 1 }] }',
    )
    assert ours == theirs  # state untouched in both


@pytest.mark.parametrize(
    "decisions",
    [
        [{"type": "approve"}, {"type": "reject"}],
        [{"type": "respond", "message": "six"}, {"type": "reject", "message": "no"}],
        [
            {"type": "edit", "edited_action": {"name": "add", "args": {"a": 9, "b": 9}}},
            {"type": "approve"},
        ],
    ],
)
def test_D10_D12_human_review_matches_langchain(tmp_path, decisions):
    lc_agent = create_agent(
        model=lc_model([TWO, "done"]),
        tools=[add, multiply],
        middleware=[lcm.HumanInTheLoopMiddleware(interrupt_on={"add": True, "multiply": True})],
        checkpointer=InMemorySaver(),
    )
    cfg = {"configurable": {"thread_id": "1"}}
    paused = lc_agent.invoke(ask(), cfg)
    theirs_req = paused["__interrupt__"][0].value
    theirs = norm(lc_agent.invoke(LcCommand(resume={"decisions": decisions}), cfg)["messages"])
    ours_agent = agent(
        tmp_path,
        replies_=[TWO, "done"],
        tools="kit.add, kit.multiply",
        middleware="human_review { interrupt_on: { add: true, multiply: true } }",
        extra="checkpoint memory",
    )
    rc = RunConfig(thread_id="1")
    ours_req = ours_agent.invoke(ask(), rc)["__interrupt__"][0].value
    ours = norm(ours_agent.invoke(Command(resume={"decisions": decisions}), rc)["messages"])
    assert [
        {k: v for k, v in r.items() if k != "tool_call_id"} for r in ours_req["action_requests"]
    ] == theirs_req["action_requests"]
    assert ours_req["review_configs"] == theirs_req["review_configs"]
    assert ours == theirs


def test_D14_pii_matches_langchain(tmp_path):
    lc_agent = create_agent(
        model=lc_model(["write to a@b.io"]),
        tools=[],
        middleware=[lcm.PIIMiddleware("email", strategy="hash", apply_to_output=True)],
    )
    text = "mail john@example.com or 10.0.0.1"
    theirs = norm(lc_agent.invoke(ask(text))["messages"])
    ours_agent = agent(
        tmp_path,
        replies_=["write to a@b.io"],
        middleware='pii { pii_type: "email", strategy: "hash", apply_to_output: true }',
    )
    assert norm(ours_agent.invoke(ask(text))["messages"]) == theirs


def test_D12_human_review_result_keys_match_langchain(tmp_path):
    """Private state (hitl_edited_tool_calls is PrivateStateAttr) stays out of the result."""
    decisions = [
        {"type": "edit", "edited_action": {"name": "add", "args": {"a": 9, "b": 9}}},
        {"type": "approve"},
    ]
    lc_agent = create_agent(
        model=lc_model([TWO, "done"]),
        tools=[add, multiply],
        middleware=[lcm.HumanInTheLoopMiddleware(interrupt_on={"add": True, "multiply": True})],
        checkpointer=InMemorySaver(),
    )
    cfg = {"configurable": {"thread_id": "1"}}
    theirs_paused = lc_agent.invoke(ask(), cfg)
    theirs = lc_agent.invoke(LcCommand(resume={"decisions": decisions}), cfg)
    ours_agent = agent(
        tmp_path,
        replies_=[TWO, "done"],
        tools="kit.add, kit.multiply",
        middleware="human_review { interrupt_on: { add: true, multiply: true } }",
        extra="checkpoint memory",
    )
    rc = RunConfig(thread_id="1")
    ours_paused = ours_agent.invoke(ask(), rc)
    ours = ours_agent.invoke(Command(resume={"decisions": decisions}), rc)
    assert sorted(ours_paused) == sorted(theirs_paused)
    assert sorted(ours) == sorted(theirs) == ["messages"]


@pytest.mark.parametrize(
    "mw_lc,mw_agentc",
    [
        (
            lambda: [lcm.ModelCallLimitMiddleware(run_limit=9, thread_limit=9)],
            "model_call_limit { run: 9, thread: 9 }",
        ),
        (lambda: [lcm.ToolCallLimitMiddleware(run_limit=9)], "tool_call_limit { run: 9 }"),
        (lambda: [lcm.TodoListMiddleware()], "todo_list"),
    ],
)
def test_private_state_result_keys_match_langchain(tmp_path, mw_lc, mw_agentc):
    """Counters are PrivateStateAttr (hidden); todo_list's `todos` is OmitFromInput (shown)."""
    write_todos = reply(
        "", call("write_todos", {"todos": [{"content": "add", "status": "in_progress"}]}, "t1")
    )
    replies = [write_todos, "done"] if "todo" in mw_agentc else [TWO, "done"]
    lc_agent = create_agent(model=lc_model(replies), tools=[add, multiply], middleware=mw_lc())
    ours = agent(tmp_path, replies_=replies, tools="kit.add, kit.multiply", middleware=mw_agentc)
    assert sorted(ours.invoke(ask())) == sorted(lc_agent.invoke(ask()))


def test_D14_one_pii_middleware_per_type_matches_langchain(tmp_path):
    """LangChain names PIIMiddleware[email]: one instance per PII type may sit in an agent."""
    mws = [lcm.PIIMiddleware("email", strategy="redact"), lcm.PIIMiddleware("ip", strategy="mask")]
    lc_agent = create_agent(model=lc_model(["ok"]), tools=[], middleware=mws)
    text = "mail john@example.com from 10.0.0.1"
    theirs = norm(lc_agent.invoke(ask(text))["messages"])
    ours_agent = agent(
        tmp_path,
        replies_=["ok"],
        middleware='pii { pii_type: "email" }\npii { pii_type: "ip", strategy: "mask" }',
    )
    assert [m.name for m in ours_agent.graph.agent.middleware] == ["pii[email]", "pii[ip]"]
    assert [m.name for m in mws] == ["PIIMiddleware[email]", "PIIMiddleware[ip]"]
    assert norm(ours_agent.invoke(ask(text))["messages"]) == theirs
