"""E6 against the oracle: one reply asks for a slow tool and a failing one. The run fails
with the failing tool's error, and only after the slow sibling finished: its side effects
belong to the failed invocation, in LangChain's create_agent (its ToolNode waits for every
call of the batch) and in agentc."""

from __future__ import annotations

import time

import pytest

lc = pytest.importorskip("langchain.agents", reason="langchain (the oracle) is not installed")
from langchain.agents import create_agent  # noqa: E402
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel  # noqa: E402
from langchain_core.messages import AIMessage as LcAI  # noqa: E402
from langchain_core.tools import tool  # noqa: E402

from agentc.api import load_agent  # noqa: E402

CALLS = [
    {"name": "slow", "args": {"ms": 200}, "id": "s1"},
    {"name": "boom", "args": {"why": "no"}, "id": "b1"},
]
KIT = '''
import time

EVENTS = %r


def slow(ms: int) -> str:
    """Wait, then say so."""
    time.sleep(ms / 1000)
    with open(EVENTS, "a") as f:
        f.write("slow finished\\n")
    return "slow done"


def boom(why: str) -> str:
    """Fail."""
    raise RuntimeError(why)
'''
AGENT = """agentc 1
use "./kit.py" as kit
agent a {
  model "scripted" { replies: [ { tool_calls: %s }, "never" ] }
  tools [kit.slow, kit.boom]
}
"""


class FakeToolModel(GenericFakeChatModel):
    def bind_tools(self, tools, **kwargs):
        return self


def _langchain_events() -> list[str]:
    events: list[str] = []

    @tool
    def slow(ms: int) -> str:
        """Wait, then say so."""
        time.sleep(ms / 1000)
        events.append("slow finished")
        return "slow done"

    @tool
    def boom(why: str) -> str:
        """Fail."""
        raise RuntimeError(why)

    model = FakeToolModel(messages=iter([LcAI(content="", tool_calls=CALLS), LcAI(content="x")]))
    agent = create_agent(model, tools=[slow, boom])
    with pytest.raises(RuntimeError, match="no"):
        agent.invoke({"messages": [{"role": "user", "content": "go"}]})
    return [*events, "raised"]


def _agentc_events(tmp_path) -> list[str]:
    import json

    events = tmp_path / "events.txt"
    (tmp_path / "kit.py").write_text(KIT % str(events))
    (tmp_path / "a.agent").write_text(AGENT % json.dumps(CALLS))
    graph = load_agent(tmp_path / "a.agent")
    with pytest.raises(RuntimeError, match="no"):
        graph.invoke({"messages": [{"role": "user", "content": "go"}]})
    seen = events.read_text().splitlines() if events.exists() else []
    return [*seen, "raised"]


def test_E6_a_failing_call_is_raised_after_its_running_siblings_finish(tmp_path):
    ours, theirs = _agentc_events(tmp_path), _langchain_events()
    assert theirs == ["slow finished", "raised"]
    assert ours == theirs
