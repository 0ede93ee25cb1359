"""B3 / D8: a message keeps one id, also when its step paused before the run moved on.

Two tool calls in one reply; `ask` pauses (an `interrupt()`), `add` finishes. The finished
call's ToolMessage is a pending write of the paused step: it is shown in the paused
result, again by every `get_state`, and applied once more on resume. LangGraph shows one id
throughout; a UI that tracks messages by id, or a later `RemoveMessage(id=…)`, relies on
it. Under both durability modes (`sync` saves a finished sibling while the other runs).
"""

from __future__ import annotations

from pathlib import Path

import pytest

import agentc
from agentc import Command, RunConfig
from agentc.runtime import Durability

AGENT = Path(__file__).parent / "message_ids" / "two_calls.agent"


def _tool_ids(messages) -> dict[str, str]:
    return {m.tool_call_id: m.id for m in messages if type(m).__name__ == "ToolMessage"}


@pytest.mark.parametrize("durability", ["sync", "async"])
def test_B3_D8_a_finished_siblings_message_keeps_its_id_across_a_pause(durability):
    graph = agentc.load_agent(AGENT)
    config = RunConfig(thread_id=f"ids-{durability}")
    paused = graph.invoke(
        {"messages": [{"role": "user", "content": "hi"}]}, config, durability=Durability(durability)
    )
    shown = _tool_ids(paused["messages"])
    assert set(shown) == {"c2"} and shown["c2"]  # `add` finished; `ask` is waiting
    for _ in range(2):
        assert _tool_ids(graph.get_state(config).values["messages"]) == shown
    done = graph.invoke(Command(resume="yes"), config, durability=Durability(durability))
    after = _tool_ids(done["messages"])
    assert after["c2"] == shown["c2"]
    assert set(after) == {"c1", "c2"} and after["c1"] != after["c2"]
    every = [m.id for m in done["messages"]]
    assert len(every) == len(set(every))  # and no two messages share one


def test_B3_a_refused_removal_leaves_the_state_readable():
    """A `RemoveMessage` of an id not in the history is refused (`missing-message`); the
    thread keeps its last good state, readable, and the next good write applies."""
    from agentc.runtime import MemoryCheckpointer
    from agentc.stdlib.messages import MissingMessageError, RemoveMessage

    calculator = Path(__file__).resolve().parents[2] / "examples" / "calculator.agent"
    graph = agentc.load_agent(calculator, checkpointer=MemoryCheckpointer())
    config = RunConfig(thread_id="refused")
    graph.invoke({"messages": [{"role": "user", "content": "what is 2+3?"}]}, config)
    before = [m.id for m in graph.get_state(config).values["messages"]]
    with pytest.raises(MissingMessageError) as info:
        graph.invoke({"messages": [RemoveMessage(id="nope")]}, config)
    assert info.value.code == "missing-message" and "'nope'" in str(info.value)
    assert [m.id for m in graph.get_state(config).values["messages"]] == before
    graph.update_state(config, {"messages": [RemoveMessage(id=before[0])]})  # a good write
    assert [m.id for m in graph.get_state(config).values["messages"]] == before[1:]
