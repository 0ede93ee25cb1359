"""H1–H3 against the oracle: an agent used as another agent's tool, in LangChain 1.4.10
(a tool that invokes a second create_agent) and in agentc (`tools [helper]`)."""

from __future__ import annotations

import json

import pytest

lc = pytest.importorskip("langchain.agents", reason="langchain (the oracle) is not installed")
from langchain.agents import create_agent  # noqa: E402
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel  # noqa: E402
from langchain_core.messages import AIMessage as LcAI  # noqa: E402
from langchain_core.tools import tool  # noqa: E402
from langgraph.checkpoint.memory import InMemorySaver  # noqa: E402

from agentc.api import load_agent  # noqa: E402
from agentc.runtime import RunConfig  # noqa: E402

KIT = '''
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b
'''
ADD = {"content": "", "tool_calls": [{"name": "add", "args": {"a": 2, "b": 3}, "id": "a1"}]}
DELEGATE = {
    "content": "",
    "tool_calls": [{"name": "helper", "args": {"request": "add 2, 3"}, "id": "d1"}],
}
ASK = {"messages": [{"role": "user", "content": "what is 2+3?"}]}


class FakeToolModel(GenericFakeChatModel):
    def bind_tools(self, tools, **kwargs):
        return self


def lc_model(replies):
    return FakeToolModel(
        messages=iter(
            [
                LcAI(content=r)
                if isinstance(r, str)
                else LcAI(content=r["content"], tool_calls=r["tool_calls"])
                for r in replies
            ]
        )
    )


@tool
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


def langchain_pair(child_replies, parent_replies, checkpointer=None):
    child = create_agent(lc_model(child_replies), tools=[add])

    @tool("helper", description="Answers sums.")
    def helper(request: str) -> str:
        """Answers sums."""
        return child.invoke({"messages": [{"role": "user", "content": request}]})["messages"][
            -1
        ].text

    return create_agent(lc_model(parent_replies), tools=[helper], checkpointer=checkpointer)


def agentc_pair(tmp_path, child_replies, parent_replies, parent_extra=""):
    (tmp_path / "kit.py").write_text(KIT)
    (tmp_path / "two.agent").write_text(
        f'agentc 1\nuse "./kit.py" as kit\n'
        f'agent helper "Answers sums." {{\n  model "scripted" {{ replies: '
        f"{json.dumps(child_replies)} }}\n  tools [kit.add]\n}}\n"
        f'agent boss {{\n  model "scripted" {{ replies: {json.dumps(parent_replies)} }}\n'
        f"  tools [helper]\n{parent_extra}}}\n"
    )
    return load_agent(tmp_path / "two.agent", "boss")


def norm(messages):
    return [
        (
            m.type,
            m.content,
            [
                (
                    c["name"] if isinstance(c, dict) else c.name,
                    c["args"] if isinstance(c, dict) else c.args,
                )
                for c in getattr(m, "tool_calls", []) or []
            ],
            getattr(m, "name", None) if m.type == "tool" else None,
        )
        for m in messages
    ]


def test_H1_agent_as_a_tool_matches_langchain(tmp_path):
    child, parent = [ADD, "five"], [DELEGATE, "The helper says five."]
    theirs = langchain_pair(child, parent).invoke(ASK)
    ours = agentc_pair(tmp_path, child, parent).invoke(ASK)
    assert norm(ours["messages"]) == norm(theirs["messages"])


def test_H2_child_keeps_its_own_limit_like_langchain(tmp_path):
    # the parent may take 4 steps; the child needs 5 of its own: both runs succeed
    child, parent = [ADD, ADD, "ten"], [DELEGATE, "fine"]
    theirs = langchain_pair(child, parent).invoke(ASK, {"recursion_limit": 4})
    ours = agentc_pair(tmp_path, child, parent, "  limits { steps: 4 }\n").invoke(ASK)
    assert norm(ours["messages"]) == norm(theirs["messages"])
    assert ours["messages"][-2].content == "ten"


def test_H3_child_saves_under_the_tool_task_namespace_like_langchain(tmp_path):
    child, parent = [ADD, "five"], [DELEGATE, "fine"]
    saver = InMemorySaver()
    langchain_pair(child, parent, saver).invoke(ASK, {"configurable": {"thread_id": "t1"}})
    theirs = {c.config["configurable"]["checkpoint_ns"] for c in saver.list(None)}
    boss = agentc_pair(tmp_path, child, parent, "  checkpoint memory\n")
    boss.invoke(ASK, RunConfig(thread_id="t1"))
    ours = {ns for (_, ns) in boss.checkpointer._ckpts}

    def shape(spaces):  # the root, and one namespace per tool task
        return sorted(ns.split(":")[0] for ns in spaces)

    assert shape(ours) == shape(theirs) == ["", "tools"]
