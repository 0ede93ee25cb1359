"""A Python node or tool that runs another graph: `child.invoke(…)` inside a running task
(as in LangGraph), `agentc.run_child` / `agentc.arun_child` — a nested run (H2, H3, D4, I1).

Each test writes a parent and a child `.agent` file and their Python into `tmp_path`; the
parent's node or tool loads the child with `agentc.load_agent` and runs it. Where LangGraph
is installed, the same shapes run there too (a StateGraph node invoking a compiled child).
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import TypedDict

import pytest

import agentc
from agentc.runtime import Command, MemoryCheckpointer, RecursionLimitError, RunConfig
from agentc.runtime.events import CustomEvent

T = RunConfig(thread_id="t1")

CHILD = """agentc 1
use "./kit.py" as kit
graph asker {
  state {
    q: str = ""
    a: str = ""
  }
  node ask = python(kit.ask)
  edge START -> ask
  edge ask -> END
}
graph counter {
  state { n: int = 0 }
  node s0 = python(kit.inc)
  node s1 = python(kit.inc)
  node s2 = python(kit.inc)
  node s3 = python(kit.inc)
  edge START -> s0
  edge s0 -> s1
  edge s1 -> s2
  edge s2 -> s3
  edge s3 -> END
}
agent helper "Answers sums." {
  model "scripted" { replies: ["five"] }
}
"""

KIT = '''
from pathlib import Path

import agentc

HERE = Path(__file__).resolve().parent
_graphs = {}


def child(name):
    if name not in _graphs:
        _graphs[name] = agentc.load_agent(HERE / "child.agent", name)
    return _graphs[name]


def ask(state):
    agentc.get_stream_writer()({"asking": state["q"]})
    return {"a": agentc.interrupt({"q": state["q"]})}


def inc(state):
    return {"n": state["n"] + 1}


def boss(state):
    return {"a": child("asker").invoke({"q": state["q"]})["a"]}


def boss_twice(state):
    first = agentc.run_child(child("asker"), {"q": "one"})["a"]
    second = agentc.run_child(child("asker"), {"q": "two"})["a"]
    return {"a": first + "+" + second}


async def boss_async(state):
    out = await agentc.arun_child(child("asker"), {"q": state["q"]})
    return {"a": out["a"]}


def count(state):
    return {"n": child("counter").invoke({"n": 0})["n"]}


def elsewhere(state):
    out = child("counter").invoke({"n": 0}, agentc.RunConfig(thread_id="other"))
    return {"n": out["n"]}


def research(request: str) -> str:
    """Asks the helper agent."""
    out = child("helper").invoke({"messages": [{"role": "user", "content": request}]})
    return out["messages"][-1].text


def ask_human(request: str) -> str:
    """Asks a person through the asker graph."""
    return child("asker").invoke({"q": request})["a"]
'''

DELEGATE = {
    "content": "",
    "tool_calls": [{"name": "research", "args": {"request": "2+3?"}, "id": "r1"}],
}
ASK_HUMAN = {
    "content": "",
    "tool_calls": [{"name": "ask_human", "args": {"request": "ok?"}, "id": "h1"}],
}


def parent(tmp_path, body, state='q: str = ""\n    a: str = ""', extra="  checkpoint memory\n"):
    """The parent graph `boss` whose one node is `kit.BODY`."""
    (tmp_path / "kit.py").write_text(KIT)
    (tmp_path / "child.agent").write_text(CHILD)
    (tmp_path / "boss.agent").write_text(
        f'agentc 1\nuse "./kit.py" as kit\ngraph boss {{\n  state {{\n    {state}\n  }}\n'
        f"  node boss = python(kit.{body})\n  edge START -> boss\n  edge boss -> END\n{extra}}}\n"
    )
    return agentc.load_agent(tmp_path / "boss.agent", "boss")


def supervisor(tmp_path, replies, tool):
    """A create_agent supervisor whose Python tool `kit.TOOL` runs a child (the tutorial)."""
    (tmp_path / "kit.py").write_text(KIT)
    (tmp_path / "child.agent").write_text(CHILD)
    (tmp_path / "sup.agent").write_text(
        f'agentc 1\nuse "./kit.py" as kit\nagent sup {{\n'
        f'  model "scripted" {{ replies: {json.dumps(replies)} }}\n'
        f"  tools [kit.{tool}]\n  checkpoint memory\n}}\n"
    )
    return agentc.load_agent(tmp_path / "sup.agent", "sup")


def spaces(graph):
    """The namespaces the parent's checkpointer holds, each cut to its node (`boss:…`)."""
    return sorted({ns.split(":")[0] for (_, ns) in graph.checkpointer._ckpts})


# ---------------------------------------------------------------- a node that runs a child


def test_H3_a_child_a_node_invokes_saves_under_the_task_namespace(tmp_path):
    g = parent(tmp_path, "boss")
    g.invoke({"q": "x"}, T)
    assert spaces(g) == ["", "boss"] == lg_spaces()
    [child_ns] = [ns for (_, ns) in g.checkpointer._ckpts if ns]
    assert child_ns.startswith("boss:")


def test_D4_an_interrupt_in_the_child_pauses_the_parent_and_resumes_through_it(tmp_path):
    g = parent(tmp_path, "boss")
    out = g.invoke({"q": "x"}, T)
    [asked] = out["__interrupt__"]
    assert asked.value == {"q": "x"} and g.get_state(T).next == ("boss",)
    assert [i.id for i in g.get_state(T).interrupts] == [asked.id]
    out = g.invoke(Command(resume="yes"), T)
    assert out == {"q": "x", "a": "yes"} == lg_pause_and_resume()
    assert g.get_state(T).next == ()


def test_D4_two_children_of_one_task_each_have_a_namespace_and_resume(tmp_path):
    g = parent(tmp_path, "boss_twice")
    first = g.invoke({"q": ""}, T)["__interrupt__"]
    second = g.invoke(Command(resume="1"), T)["__interrupt__"]
    assert [i.value for i in first + second] == [{"q": "one"}, {"q": "two"}]
    assert first[0].id != second[0].id
    assert g.invoke(Command(resume="2"), T)["a"] == "1+2"
    first_ns, second_ns = sorted({ns for (_, ns) in g.checkpointer._ckpts if ns})
    assert first_ns.startswith("boss:") and second_ns == first_ns + ":1"


def test_D4_an_async_node_nests_with_arun_child(tmp_path):
    g = parent(tmp_path, "boss_async")
    assert g.invoke({"q": "x"}, T)["__interrupt__"][0].value == {"q": "x"}
    assert asyncio.run(g.ainvoke(Command(resume="yes"), T))["a"] == "yes"
    assert spaces(g) == ["", "boss"]


def test_H2_the_parents_recursion_limit_reaches_a_child_that_binds_none(tmp_path):
    g = parent(tmp_path, "count", state="n: int = 0", extra="")
    with pytest.raises(RecursionLimitError):
        g.invoke({}, RunConfig(recursion_limit=3))
    assert g.invoke({}, RunConfig(recursion_limit=5))["n"] == 4
    assert lg_recursion() == ("raised", 4)


def test_I1_the_childs_custom_events_show_in_the_parents_stream(tmp_path):
    g = parent(tmp_path, "boss")
    seen = [e for e in g.stream({"q": "x"}, T, mode="custom", subgraphs=True)]
    assert [(type(e), e.payload) for e in seen] == [(CustomEvent, {"asking": "x"})]
    assert seen[0].ns.startswith("boss")  # where it comes from: the node `boss`
    assert list(g.stream(Command(resume="y"), RunConfig(thread_id="t1"), mode="custom")) == []


def test_a_config_naming_another_thread_runs_the_child_detached(tmp_path):
    g = parent(tmp_path, "elsewhere", state="n: int = 0")
    assert g.invoke({}, T)["n"] == 4
    assert spaces(g) == [""]  # the child has no checkpointer of its own: nothing saved


def test_run_child_outside_a_running_graph_is_a_plain_run(tmp_path):
    parent(tmp_path, "boss")
    counter = agentc.load_agent(tmp_path / "child.agent", "counter")
    assert agentc.run_child(counter, {"n": 0}) == {"n": 4}


# ---------------------------------------------------------------- a supervisor's Python tool


def test_H3_a_python_tool_running_an_agent_saves_under_the_tool_task(tmp_path):
    sup = supervisor(tmp_path, [DELEGATE, "The helper says five."], "research")
    out = sup.invoke({"messages": [{"role": "user", "content": "2+3?"}]}, T)
    assert [m.text for m in out["messages"]][-2:] == ["five", "The helper says five."]
    assert spaces(sup) == ["", "tools"]


def test_D4_a_python_tools_child_interrupt_pauses_the_supervisor(tmp_path):
    sup = supervisor(tmp_path, [ASK_HUMAN, "Done."], "ask_human")
    out = sup.invoke({"messages": [{"role": "user", "content": "go"}]}, T)
    assert out["__interrupt__"][0].value == {"q": "ok?"}
    out = sup.invoke(Command(resume="approved"), T)
    assert [m.text for m in out["messages"]][-2:] == ["approved", "Done."]


# ---------------------------------------------------------------- LangGraph 1.2.24, the oracle


class _S(TypedDict, total=False):
    q: str
    a: str
    n: int


def _lg():
    return pytest.importorskip("langgraph.graph", reason="langgraph (the oracle) is absent")


def _line(g, *nodes):
    """A StateGraph of `nodes` ((name, fn) pairs) in a line from START to END."""
    builder = g.StateGraph(_S)
    for name, fn in nodes:
        builder.add_node(name, fn)
    names = [g.START, *(n for n, _ in nodes), g.END]
    for a, b in zip(names, names[1:], strict=False):
        builder.add_edge(a, b)
    return builder


def _lg_boss():
    g = _lg()
    from langgraph.checkpoint.memory import InMemorySaver
    from langgraph.types import interrupt

    child = _line(g, ("ask", lambda s: {"a": interrupt({"q": s["q"]})})).compile()
    boss = _line(g, ("boss", lambda s: {"a": child.invoke({"q": s["q"]})["a"]}))
    saver = InMemorySaver()
    return boss.compile(checkpointer=saver), saver


def lg_spaces():
    boss, saver = _lg_boss()
    boss.invoke({"q": "x"}, {"configurable": {"thread_id": "t1"}})
    return sorted(
        {c.config["configurable"]["checkpoint_ns"].split(":")[0] for c in saver.list(None)}
    )


def lg_pause_and_resume():
    from langgraph.types import Command as LgCommand

    boss, _ = _lg_boss()
    config = {"configurable": {"thread_id": "t1"}}
    boss.invoke({"q": "x"}, config)
    return boss.invoke(LgCommand(resume="yes"), config)


def lg_recursion():
    g = _lg()
    from langgraph.errors import GraphRecursionError

    def inc(s):
        return {"n": s.get("n", 0) + 1}

    child = _line(g, *((f"s{i}", inc) for i in range(4))).compile()
    boss = _line(g, ("count", lambda s: {"n": child.invoke({"n": 0})["n"]})).compile()
    try:
        boss.invoke({}, {"recursion_limit": 3})
        first = "finished"
    except GraphRecursionError:
        first = "raised"
    return first, boss.invoke({}, {"recursion_limit": 5})["n"]


@pytest.fixture
def fresh_specialists():
    """The example's specialists loaded anew before and after (their scripted models
    replay their replies once; `agentc run` of the example in this process uses them too)."""
    from agentc.runtime.bind import _file_module

    module = _file_module(str(EXAMPLE), "./supervisor_python.py")
    module.specialist.cache_clear()
    yield
    module.specialist.cache_clear()


EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "graphs"


def test_H3_the_supervisor_example_saves_each_specialist_under_its_tool_call(
    fresh_specialists,
):
    sup = agentc.load_agent(EXAMPLE / "supervisor_python.agent", checkpointer=MemoryCheckpointer())
    out = sup.invoke({"messages": [{"role": "user", "content": "standup at 9, tell the team"}]}, T)
    tools = [m.text for m in out["messages"] if m.type == "tool"]
    assert tools == [
        "Booked: Team standup, tomorrow at 9:00.",
        "Sent the standup invite to team@example.com.",
    ]
    namespaces = sorted({ns for (_, ns) in sup.checkpointer._ckpts})
    assert len(namespaces) == 3 and namespaces[0] == "" and spaces(sup) == ["", "tools"]


def test_D4_the_supervisor_pause_and_resume_match_langchain(tmp_path):
    """A create_agent supervisor (LangChain 1.5.2) whose @tool invokes a LangGraph child
    that asks a person: the paused question and the resumed conversation are ours."""
    pytest.importorskip("langchain.agents", reason="langchain (the oracle) is absent")
    from langchain.agents import create_agent
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
    from langchain_core.messages import AIMessage
    from langchain_core.tools import tool
    from langgraph.checkpoint.memory import InMemorySaver
    from langgraph.types import Command as LgCommand
    from langgraph.types import interrupt

    g = _lg()
    child = _line(g, ("ask", lambda s: {"a": interrupt({"q": s["q"]})})).compile()

    @tool
    def ask_human(request: str) -> str:
        """Asks a person through the asker graph."""
        return child.invoke({"q": request})["a"]

    class Model(GenericFakeChatModel):
        def bind_tools(self, tools, **kwargs):
            return self

    replies = iter([AIMessage("", tool_calls=[{**ASK_HUMAN["tool_calls"][0]}]), AIMessage("Done.")])
    theirs = create_agent(Model(messages=replies), tools=[ask_human], checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "t1"}}
    asked = theirs.invoke({"messages": [{"role": "user", "content": "go"}]}, config)
    done = theirs.invoke(LgCommand(resume="approved"), config)

    ours = supervisor(tmp_path, [ASK_HUMAN, "Done."], "ask_human")
    our_asked = ours.invoke({"messages": [{"role": "user", "content": "go"}]}, T)
    our_done = ours.invoke(Command(resume="approved"), T)
    assert our_asked["__interrupt__"][0].value == asked["__interrupt__"][0].value
    assert [(m.type, m.text) for m in our_done["messages"]] == [
        (m.type, m.text) for m in done["messages"]
    ]
