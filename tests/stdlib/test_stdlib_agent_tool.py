"""An agent listed in another agent's `tools [...]`: H1 (delegation is a tool call the model
chooses), H2 (the child's own step limit), H3 (the parent's saver, the tool task's namespace)."""

from __future__ import annotations

import json

import pytest

from agentc.api import load_agent
from agentc.runtime import Command, RunConfig
from agentc.runtime.errors import RecursionLimitError

TOOLS = '''
from agentc.runtime import interrupt


def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


def ask_human(question: str) -> str:
    """Ask a person."""
    return interrupt(question)
'''


def write(tmp_path, child_body: str, parent_body: str) -> str:
    (tmp_path / "kit.py").write_text(TOOLS)
    path = tmp_path / "two.agent"
    path.write_text(
        f'agentc 1\nuse "./kit.py" as kit\n\n'
        f'agent helper "Does sums for the boss." {{\n{child_body}\n}}\n\n'
        f"agent boss {{\n{parent_body}\n}}\n"
    )
    return str(path)


def scripted(*replies) -> str:
    return f'  model "scripted" {{ replies: {json.dumps(list(replies))} }}'


def delegate(request: str, id: str = "d1") -> dict:
    return {"tool_calls": [{"name": "helper", "args": {"request": request}, "id": id}]}


ADD = {"tool_calls": [{"name": "add", "args": {"a": 2, "b": 3}, "id": "a1"}]}
ASK = {"messages": [{"role": "user", "content": "what is 2+3?"}]}


def test_H1_agent_as_tool_answers_with_its_last_message(tmp_path):
    path = write(
        tmp_path,
        scripted(ADD, "five") + "\n  tools [kit.add]",
        scripted(delegate("add 2 and 3"), "The helper says five.") + "\n  tools [helper]",
    )
    from agentc.stdlib.providers import scripted as sc

    sc.CREATED.clear()
    boss = load_agent(path, "boss")
    result = boss.invoke(ASK)
    tool = result["messages"][2]
    assert (tool.type, tool.name, tool.content, tool.tool_call_id) == (
        "tool",
        "helper",
        "five",
        "d1",
    )
    assert result["messages"][-1].content == "The helper says five."
    # the model sees the agent as a tool: its doc string, one `request` argument
    boss_model = next(m for m in sc.CREATED if m.replies[-1].content == "The helper says five.")
    (offered,) = boss_model.calls[0].tools
    assert (offered.name, offered.description) == ("helper", "Does sums for the boss.")
    assert list(offered.parameters["properties"]) == ["request"]


def test_H1_child_receives_the_request_as_its_user_message(tmp_path):
    path = write(
        tmp_path, scripted("ok"), scripted(delegate("please add"), "done") + "\n  tools [helper]"
    )
    from agentc.stdlib.providers import scripted as sc

    sc.CREATED.clear()
    load_agent(path, "boss").invoke(ASK)
    child = next(m for m in sc.CREATED if m.replies[-1].content == "ok")
    assert [(m.type, m.content) for m in child.calls[0].messages] == [("human", "please add")]


def test_H2_child_keeps_its_own_step_limit(tmp_path):
    # the parent may take only 4 steps, the child needs 5: the child's own limit applies
    path = write(
        tmp_path,
        scripted(ADD, ADD, "ten") + "\n  tools [kit.add]",
        scripted(delegate("go"), "fine") + "\n  tools [helper]\n  limits { steps: 4 }",
    )
    result = load_agent(path, "boss").invoke(ASK)
    assert result["messages"][-2].content == "ten"


def test_H2_child_stops_at_its_own_limit(tmp_path):
    path = write(
        tmp_path,
        scripted(ADD, ADD, "ten") + "\n  tools [kit.add]\n  limits { steps: 3 }",
        scripted(delegate("go"), "fine") + "\n  tools [helper]",
    )
    with pytest.raises(RecursionLimitError):
        load_agent(path, "boss").invoke(ASK)


def test_H3_child_saves_into_the_parents_store_under_the_task_namespace(tmp_path):
    path = write(
        tmp_path,
        scripted(ADD, "five") + "\n  tools [kit.add]",
        scripted(delegate("go"), "fine") + "\n  tools [helper]\n  checkpoint memory",
    )
    boss = load_agent(path, "boss")
    boss.invoke(ASK, RunConfig(thread_id="t1"))
    store = boss.checkpointer
    spaces = {ns for (thread, ns) in store._ckpts if thread == "t1"}
    child = [ns for ns in spaces if ns]
    assert "" in spaces and len(child) == 1 and child[0].startswith("tools:")
    saved = store.list("t1", child[0])
    assert [c.ran for c in saved][-3:] == [("model",), ("tools",), ("model",)]
    assert saved[-1].next == ()  # the child's run finished and was saved
    # same saver, not the same history: the parent's thread holds only its own messages
    parent = boss.get_state(RunConfig(thread_id="t1")).values["messages"]
    assert [m.content for m in parent][-2:] == ["five", "fine"]
    assert "go" not in [m.content for m in parent]


def test_H3_child_without_parent_checkpointer_saves_nothing(tmp_path):
    path = write(
        tmp_path, scripted("five"), scripted(delegate("go"), "fine") + "\n  tools [helper]"
    )
    result = load_agent(path, "boss").invoke(ASK)
    assert result["messages"][-1].content == "fine"


def test_H3_child_checkpoint_none_opts_out(tmp_path):
    path = write(
        tmp_path,
        scripted("five") + "\n  checkpoint none",
        scripted(delegate("go"), "fine") + "\n  tools [helper]\n  checkpoint memory",
    )
    boss = load_agent(path, "boss")
    boss.invoke(ASK, RunConfig(thread_id="t1"))
    assert {ns for (_, ns) in boss.checkpointer._ckpts} == {""}


def test_H3_pause_inside_child_pauses_parent_and_resumes(tmp_path):
    ask = {"tool_calls": [{"name": "ask_human", "args": {"question": "ok?"}, "id": "h1"}]}
    path = write(
        tmp_path,
        scripted(ask, "child done") + "\n  tools [kit.ask_human]",
        scripted(delegate("go"), "parent done") + "\n  tools [helper]\n  checkpoint memory",
    )
    boss = load_agent(path, "boss")
    config = RunConfig(thread_id="t1")
    paused = boss.invoke(ASK, config)
    assert [i.value for i in paused["__interrupt__"]] == ["ok?"]
    result = boss.invoke(Command(resume="yes"), config)
    assert [m.content for m in result["messages"]][-2:] == ["child done", "parent done"]


def test_H1_agent_as_a_node_of_a_graph(tmp_path):
    (tmp_path / "kit.py").write_text(TOOLS)
    path = tmp_path / "g.agent"
    path.write_text(
        'agentc 1\nuse "./kit.py" as kit\n'
        f"agent helper {{\n{scripted(ADD, 'five')}\n  tools [kit.add]\n"
        "  limits { steps: 5 }\n}\n"
        "graph flow {\n  state { messages: messages }\n"
        "  node helper = agent(helper)\n  edge START -> helper\n"
        "  edge helper -> END\n  limits { steps: 2 }\n}\n"
    )
    result = load_agent(str(path), "flow").invoke(ASK)  # H2: the child's 5, not the 2
    assert [m.type for m in result["messages"]] == ["human", "ai", "tool", "ai"]
    assert result["messages"][-1].content == "five"
