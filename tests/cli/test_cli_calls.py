"""`agentc run`'s `-- done … · N model calls · tokens …` line counts every model call of the
run, whichever node makes it: model nodes, agents, agents as tools, and Python nodes that
call a chat model of their own (`agentc.models.init_chat_model`), once each."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from support.cli_kit import agentc

from agentc.cli import main

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "graphs"


def done_line(out: str) -> str:
    found = re.search(r"^-- done in \d+ ms · .*$", out, re.M)
    assert found, out
    return found.group(0)


def test_python_nodes_calling_init_chat_model_are_counted(workdir, capsys):
    quickstart = str(EXAMPLES / "quickstart_python.agent")
    assert main(["run", quickstart, "--input", "Add 3 and 4, then double it."]) == 0
    out = capsys.readouterr().out
    assert out.count("  [llm_call · ") == 3  # three model calls, all from a python node
    assert done_line(out).endswith("· 3 model calls")
    evaluator = str(EXAMPLES / "evaluator_optimizer.agent")
    assert main(["run", evaluator, "--input", '{"topic": "cats"}']) == 0
    # two jokes written, two graded: every one a python node's structured or text call
    assert done_line(capsys.readouterr().out).endswith("· 4 model calls")


def test_the_count_is_the_same_under_stream_and_replay(workdir, capsys):
    """--stream sees every call's deltas and --record/--replay wrap every model: neither
    counts a call twice."""
    for name in ("quickstart_python.agent", "steps.py"):
        shutil.copy(EXAMPLES / name, workdir / name)
    shutil.copytree(EXAMPLES / "replies", workdir / "replies")
    path, tape = str(workdir / "quickstart_python.agent"), str(workdir / "run.jsonl")
    ask = ["--input", "Add 3 and 4, then double it."]
    for extra in (["--stream"], ["--record", tape], ["--replay", tape, "--stream"]):
        assert main(["run", path, *ask, *extra]) == 0, extra
        assert done_line(capsys.readouterr().out).endswith("· 3 model calls"), extra


STEPS = '''
from agentc.models import init_chat_model

llm = init_chat_model("scripted", replies=[{"content": "A second opinion.", "usage":
                      {"input_tokens": 7, "output_tokens": 3}}])


def review(state):
    """A python node that asks a model of its own."""
    return {"review": llm.invoke(f"Review: {state['joke']}").text}
'''
MIXED = """agentc 1
use "./steps.py" as steps

graph joke {
  input [topic]
  output [joke, review]
  state {
    topic: str = ""
    joke: str = ""
    review: str = ""
  }
  node write = model("scripted", input: "A joke about {topic}", into: joke,
                     replies: [{ content: "Cats own laptops.", usage: { input_tokens: 11,
                                 output_tokens: 5 } }])
  node review = python(steps.review)
  edge START -> write
  edge write -> review
  edge review -> END
}
"""


def test_model_nodes_and_python_nodes_count_once_each_with_their_tokens(workdir, capsys):
    (workdir / "steps.py").write_text(STEPS)
    path = workdir / "joke.agent"
    path.write_text(MIXED)
    assert main(["run", str(path), "--set", "topic=cats"]) == 0
    out = capsys.readouterr().out
    assert "write → joke = Cats own laptops." in out
    assert "review → review = A second opinion." in out
    assert done_line(out).endswith("· 2 model calls · tokens 18 in, 8 out")


def test_an_agent_used_as_a_tool_counts_its_own_calls(workdir):
    helper = 'agent helper "Answers sums." {\n  model "scripted" { replies: ["five"] }\n}\n'
    boss = (
        'agent boss {\n  model "scripted" { replies: [{ tool_calls: [{ name: "helper", '
        'args: { request: "2+3" }, id: "h1" }] }, "The helper says five."] }\n'
        "  tools [helper]\n}\n"
    )
    path = workdir / "team.agent"
    path.write_text("agentc 1\n" + helper + boss)
    done = agentc("run", str(path), "--agent", "boss", "--input", "2+3?", cwd=workdir)
    assert done.returncode == 0, done.stderr
    assert done_line(done.stdout).endswith("· 3 model calls")  # boss twice, helper once


def test_json_output_is_unchanged_by_the_count(workdir, capsys):
    (workdir / "steps.py").write_text(STEPS)
    path = workdir / "joke.agent"
    path.write_text(MIXED)
    assert main(["run", str(path), "--set", "topic=cats", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data == {"joke": "Cats own laptops.", "review": "A second opinion."}
