"""Graph blocks written as `.agent` text, compiled by the real pipeline and run: the model
node's answer kinds, a tools loop with `tools_condition`, a Send-fed node with `{ input:
Schema }`, a `messages:`/`into:` conversation channel and model options on the wire."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from agentc.compiler.pipeline import compile_source
from agentc.runtime import compile
from agentc.stdlib.messages import AIMessage, ToolMessage
from agentc.stdlib.providers import scripted
from agentc.testing.fake_provider import FakeReply

STEPS = '''
from agentc.runtime.types import Send


def add(a: int, b: int) -> int:
    """Add two numbers."""
    return a + b


def plan(state):
    return {
        "sections": [
            {"name": "Intro", "description": "start"},
            {"name": "End", "description": "finish"},
        ]
    }


def assign(state):
    return [Send("worker", s) for s in state["sections"]]
'''


def run(tmp_path: Path, text: str, name: str, value: Any) -> dict[str, Any]:
    (tmp_path / "steps.py").write_text(STEPS)
    result = compile_source(text, "t.agent", base_dir=tmp_path)
    assert result.program is not None, [str(d) for d in result.diagnostics]
    return compile(result.program, name, base_dir=str(tmp_path)).invoke(value)


def requests(model_name: str) -> list[Any]:
    return next(m for m in reversed(scripted.CREATED) if m.name == model_name).calls


JOKE = """agentc 1
schema Feedback { grade: "funny" | "not funny", feedback: str }

graph joke {
  state {
    messages: messages
    topic: str = ""
    joke: str = ""
    feedback: Feedback? = none
  }
  node write = model("scripted", name: "w", replies: ["A cat joke."],
                     input: "Write a short joke about {topic}", into: joke)
  node grade = model("scripted", name: "g",
                     replies: [{tool_calls: [{name: "Feedback", id: "c1",
                                              args: {grade: "funny", feedback: "ha"}}]}],
                     prompt: "Grade jokes.", input: "Grade: {joke}",
                     output: Feedback, via: tool, into: feedback)
  edge START -> write
  edge write -> grade
  edge grade -> END
}
"""


def test_text_then_structured_answers(tmp_path):
    out = run(tmp_path, JOKE, "joke", {"topic": "cats"})
    assert out["joke"] == "A cat joke."
    assert out["feedback"] == {"grade": "funny", "feedback": "ha"}
    assert not out.get("messages")  # neither node writes the conversation
    (write,) = requests("w")
    assert [(m.type, m.text) for m in write.messages] == [
        ("human", "Write a short joke about cats")
    ]
    (grade,) = requests("g")
    assert [(m.type, m.text) for m in grade.messages] == [
        ("system", "Grade jokes."),
        ("human", "Grade: A cat joke."),
    ]
    assert [t.name for t in grade.tools] == ["Feedback"] and grade.tool_choice == "any"


LOOP = """agentc 1
use "./steps.py" as steps

graph calc {
  state { messages: messages }
  node think = model("scripted", name: "t", prompt: "You add.", tools: [steps.add],
                     replies: [{tool_calls: [{name: "add", args: {a: 2, b: 3}, id: "c1"},
                                             {name: "add", args: {a: 1, b: 1}, id: "c2"}]},
                               "5 and 2."])
  node act = tools([steps.add])
  edge START -> think
  route think by tools_condition { tools -> act, end -> END }
  edge act -> think
}
"""


def test_a_tools_loop_with_tools_condition(tmp_path):
    out = run(tmp_path, LOOP, "calc", {"messages": [("user", "add")]})
    shapes = [(m.type, m.text) for m in out["messages"]]
    assert shapes == [
        ("human", "add"),
        ("ai", ""),
        ("tool", "5"),
        ("tool", "2"),
        ("ai", "5 and 2."),
    ]
    assert [m.tool_call_id for m in out["messages"] if isinstance(m, ToolMessage)] == ["c1", "c2"]
    first, second = requests("t")
    assert [t.name for t in first.tools] == [t.name for t in second.tools] == ["add"]  # B5
    assert [m.type for m in second.messages] == ["system", "human", "ai", "tool", "tool"]  # B1


SENDS = """agentc 1
use "./steps.py" as steps
schema Section { name: str, description: str }

graph report {
  state {
    sections: list[Section] = []
    done: list[str] = [] reduce append
  }
  node plan = python(steps.plan)
  node worker = model("scripted", name: "wk", replies: ["one", "two"],
                      input: "Write {name}: {description}", into: done) { input: Section }
  edge START -> plan
  route plan by steps.assign [worker]
  edge worker -> END
}
"""


def test_a_send_fed_model_node_reads_its_payload(tmp_path):
    out = run(tmp_path, SENDS, "report", {})
    assert sorted(out["done"]) == ["one", "two"]
    assert sorted(r.messages[0].text for r in requests("wk")) == [
        "Write End: finish",
        "Write Intro: start",
    ]


def test_a_text_answer_into_an_appended_list_is_written_as_one_item(tmp_path):
    # as a LangGraph worker returning `{"done": [msg.content]}`: the `updates` stream shows
    # the one-item list the reducer appends, not the bare text
    (tmp_path / "steps.py").write_text(STEPS)
    result = compile_source(SENDS, "t.agent", base_dir=tmp_path)
    assert result.program is not None
    graph = compile(result.program, "report", base_dir=str(tmp_path))
    updates = [e.update for e in graph.stream({}, mode="updates") if e.node == "worker"]
    assert sorted(u["done"] for u in updates) == [["one"], ["two"]]


CHAT = """agentc 1
graph chat {
  state { history: messages }
  node chat = model("openai:gpt-4o-mini", messages: history, into: history, temperature: 0,
                    prompt: "Be brief.")
  edge START -> chat
  edge chat -> END
}
"""


def test_a_named_conversation_channel_and_model_options_on_the_wire(
    tmp_path, fake_server, monkeypatch
):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-0123456789")
    monkeypatch.setenv("OPENAI_BASE_URL", fake_server.openai_base_url)
    fake_server.push(FakeReply(text="Hi."))
    out = run(
        tmp_path, CHAT, "chat", {"history": [AIMessage(content="Hello", id="a1"), ("user", "hey")]}
    )
    assert [(m.type, m.text) for m in out["history"]] == [
        ("ai", "Hello"),
        ("human", "hey"),
        ("ai", "Hi."),
    ]
    body = fake_server.requests[0].body
    assert body["temperature"] == 0
    assert [m["role"] for m in body["messages"]] == ["system", "assistant", "user"]
