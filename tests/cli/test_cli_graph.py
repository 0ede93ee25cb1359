"""`agentc run` of `graph` blocks: each node's update as it happens (the node, the channels
it wrote, its messages as an agent's transcript shows them, its time), and `--json`."""

from __future__ import annotations

import json

from support.cli_kit import agentc

from agentc.cli import main

STEPS = '''
from agentc.runtime.context import get_stream_writer


def plan(state):
    """Two sections, told to the stream writer as it goes."""
    get_stream_writer()({"progress": "planning"})
    sections = [
        {"name": "intro", "description": "what the report is about, in a sentence or two"},
        {"name": "body", "description": "the findings, one paragraph for each of them"},
    ]
    return {"sections": sections, "count": len(sections)}


def gate(state):
    """Lets everything through and writes nothing."""
    return None


def say(state):
    """An AI message written as a dict, as LangGraph nodes may."""
    return {"messages": [{"role": "ai", "content": f"{state['count']} sections"}], "count": 0}
'''
REPORT = """agentc 1
use "./steps.py" as steps

schema Section { name: str, description: str }

graph report {
  output [messages, count]
  state {
    messages: messages
    sections: list[Section] = []
    count: int = 0
  }
  node plan = python(steps.plan)
  node gate = python(steps.gate)
  node say = python(steps.say)
  edge START -> plan
  edge plan -> gate
  edge gate -> say
  edge say -> END
}
"""


def report_file(where):
    (where / "steps.py").write_text(STEPS)
    path = where / "report.agent"
    path.write_text(REPORT)
    return path


def test_each_node_update_in_the_order_it_happens(workdir, capsys):
    assert main(["run", str(report_file(workdir)), "--input", "go"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[:2] == ["you: go", 'plan · custom: {"progress": "planning"}']
    # plan's writes are too wide for one line: one line each, under the node
    assert lines[2] == "plan →"
    assert lines[3].startswith('    sections = [{"name": "intro"') and lines[4] == "    count = 2"
    assert lines[5].startswith("  [plan · ")
    assert lines[6] == "gate → (no writes)" and lines[7].startswith("  [gate · ")
    # say wrote a channel and a message: the channel, then the message as an agent's reads
    assert lines[8:10] == ["say → count = 0", "ai: 2 sections"] and lines[10].startswith(
        "  [say · "
    )
    assert lines[11].startswith("-- done in ") and "0 model calls" in lines[11]


def test_json_prints_the_graphs_final_state(workdir, capsys):
    assert main(["run", str(report_file(workdir)), "--input", "go", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)  # stdout holds the JSON document only
    assert set(data) == {"messages", "count"}  # `output [messages, count]`
    assert data["count"] == 0 and data["messages"][-1]["content"] == "2 sections"


def test_a_graph_run_in_a_child_process(workdir):
    done = agentc("run", str(report_file(workdir)), "--input", "go", cwd=workdir)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert "gate → (no writes)" in done.stdout and "ai: 2 sections" in done.stdout


# ---------------------------------------------------------------- model nodes


def test_model_node_with_a_text_answer(workdir, capsys):
    joke = "Why did the cat sit on the laptop? To keep an eye on the mouse."
    path = workdir / "joke.agent"
    path.write_text(
        "agentc 1\n\ngraph joke {\n  input [topic]\n  output [joke]\n"
        '  state {\n    topic: str = ""\n    joke: str = ""\n  }\n'
        '  node write = model("scripted", input: "Write a short joke about {topic}", '
        f"into: joke, replies: [{json.dumps(joke)}])\n"
        "  edge START -> write\n  edge write -> END\n}\n"
    )
    assert main(["run", str(path), "--set", "topic=cats"]) == 0
    out = capsys.readouterr().out
    assert f"you → topic = cats\nwrite → joke = {joke}\n  [write · " in out
    assert "· 1 model call" in out
    assert main(["run", str(path), "--set", "topic=cats", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"joke": joke}
    # --stream: the streamed reply's line is closed before the node's writes
    assert main(["run", str(path), "--set", "topic=cats", "--stream"]) == 0
    assert f"ai: {joke}\nwrite → joke = {joke}\n" in capsys.readouterr().out


def test_model_node_on_the_conversation(workdir, capsys):
    path = workdir / "chat.agent"
    path.write_text(
        "agentc 1\n\ngraph chat {\n  state { messages: messages }\n"
        '  node think = model("scripted", prompt: "You are helpful.", replies: ["Hello to you."])\n'
        "  edge START -> think\n  edge think -> END\n}\n"
    )
    assert main(["run", str(path), "--input", "hi"]) == 0
    out = capsys.readouterr().out
    assert "you: hi\nai: Hello to you.\n  [think · " in out and "· 1 model call" in out
