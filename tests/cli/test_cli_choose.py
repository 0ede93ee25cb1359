"""Which agent or graph `agentc run` (and `agentc.load_agent`, `agentc graph`, `agentc
explain`) takes without a name: the only one, else the one no other uses (a supervisor, not
its sub-agents), else a clear refusal."""

from __future__ import annotations

import json

import pytest
from support.cli_kit import agentc, one_paragraph

from agentc.api import PickError, load_agent
from agentc.cli import main

HELPER = 'agent helper "Answers sums." {\n  model "scripted" { replies: ["five"] }\n}\n'
BOSS = (
    'agent boss {\n  model "scripted" { replies: [{ tool_calls: [{ name: "helper", '
    'args: { request: "2+3" }, id: "h1" }] }, "The helper says five."] }\n'
    "  tools [helper]\n}\n"
)
OTHER = 'agent other {\n  model "scripted" { replies: ["other here"] }\n}\n'
STEPS = '''
def ask(state):
    """Ask the sub-agent."""
    return {"messages": [{"role": "user", "content": "2+3?"}]}
'''


def write(where, *blocks, name="team.agent"):
    path = where / name
    path.write_text("agentc 1\n" + "".join(blocks))
    return path


def test_a_supervisor_runs_without_agent_and_says_so(workdir):
    path = write(workdir, HELPER, BOSS)  # `helper` first: it used to be run
    done = agentc("run", str(path), "--input", "q", cwd=workdir)
    assert done.returncode == 0, done.stderr
    assert "ai: The helper says five." in done.stdout
    assert done.stderr.startswith("running `boss`") and "--agent NAME (helper)" in done.stderr


def test_a_graph_that_runs_an_agent_as_a_node_is_the_one_run(workdir):
    graph = (
        "graph flow {\n  state { messages: messages }\n  node ask = python(steps.ask)\n"
        "  node help = agent(helper)\n  edge START -> ask\n  edge ask -> help\n"
        "  edge help -> END\n}\n"
    )
    (workdir / "steps.py").write_text(STEPS)
    path = write(workdir, 'use "./steps.py" as steps\n', HELPER, graph)
    done = agentc("run", str(path), cwd=workdir)
    assert done.returncode == 0, done.stderr
    assert "running `flow`" in done.stderr and "ai: five" in done.stdout


def test_a_parent_graph_runs_not_its_subgraph(workdir):
    child = (
        "graph child {\n  state { n: int = 0 }\n  node inc = python(steps.inc)\n"
        "  edge START -> inc\n  edge inc -> END\n}\n"
    )
    parent = (
        "graph parent {\n  state { n: int = 0 }\n  node sub = subgraph(child)\n"
        "  edge START -> sub\n  edge sub -> END\n}\n"
    )
    (workdir / "steps.py").write_text('def inc(state):\n    return {"n": state["n"] + 1}\n')
    path = write(workdir, 'use "./steps.py" as steps\n', child, parent)
    done = agentc("run", str(path), "--set", "n=4", cwd=workdir)
    assert done.returncode == 0, done.stderr
    assert "running `parent`" in done.stderr and "sub → n = 5" in done.stdout


def test_several_unused_agents_are_refused_with_their_names(workdir):
    path = write(workdir, HELPER, OTHER)
    done = agentc("run", str(path), "--input", "q", cwd=workdir)
    assert done.returncode == 2 and one_paragraph(done.stderr), done.stderr
    assert "(`helper`, `other`)" in done.stderr and "--agent NAME" in done.stderr
    assert done.stdout == ""


def test_only_the_unused_ones_are_listed(workdir):
    path = write(workdir, HELPER, BOSS, OTHER)
    done = agentc("run", str(path), "--input", "q", cwd=workdir)
    assert done.returncode == 2, done.stderr
    assert "(`boss`, `other`)" in done.stderr and "`helper`" not in done.stderr


def test_agent_names_the_one_to_run(workdir):
    path = write(workdir, HELPER, OTHER)
    done = agentc("run", str(path), "--agent", "other", "--input", "q", cwd=workdir)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert "ai: other here" in done.stdout


def test_an_unknown_agent_is_a_did_you_mean(workdir):
    path = write(workdir, HELPER, BOSS)
    done = agentc("run", str(path), "--agent", "bos", "--input", "q", cwd=workdir)
    assert done.returncode == 2 and one_paragraph(done.stderr), done.stderr
    assert "no agent or graph `bos`; did you mean `boss`?" in done.stderr
    assert "It declares `helper`, `boss`." in done.stderr


def test_a_single_agent_runs_without_a_note(workdir):
    path = write(workdir, OTHER)
    done = agentc("run", str(path), "--input", "q", cwd=workdir)
    assert done.returncode == 0 and done.stderr == "", done.stderr


def test_the_python_api_chooses_the_same_way(workdir):
    assert load_agent(write(workdir, HELPER, BOSS)).name == "boss"
    with pytest.raises(PickError, match=r"\(`helper`, `other`\).*--agent NAME"):
        load_agent(write(workdir, HELPER, OTHER, name="two.agent"))
    with pytest.raises(PickError, match="did you mean `boss`"):
        load_agent(workdir / "team.agent", "bos")
    assert load_agent(workdir / "two.agent", "other").name == "other"


# ---------------------------------------------------------------- agentc graph / explain

CHILD = (
    "graph child {\n  state { n: int = 0 }\n  node inc = python(steps.inc)\n"
    "  edge START -> inc\n  edge inc -> END\n}\n"
)
PARENT = (
    "graph parent {\n  state { n: int = 0 }\n  node sub = subgraph(child)\n"
    "  edge START -> sub\n  edge sub -> END\n}\n"
)
LONER = (
    "graph loner {\n  state { n: int = 0 }\n  node solo = python(steps.inc)\n"
    "  edge START -> solo\n  edge solo -> END\n}\n"
)


def nested(where, *blocks):
    (where / "steps.py").write_text('def inc(state):\n    return {"n": state["n"] + 1}\n')
    return write(where, 'use "./steps.py" as steps\n', *blocks, name="nested.agent")


def test_graph_and_explain_choose_as_run_does(workdir, capsys):
    path = str(nested(workdir, CHILD, PARENT))  # `child` first: it used to be drawn
    assert main(["graph", path]) == 0
    drawn = capsys.readouterr()
    assert "sub[[sub" in drawn.out and "inc" not in drawn.out  # the parent, collapsed
    assert drawn.err == (
        "drawing `parent`, the one agent or graph no other uses; "
        "draw another with --agent NAME (child)\n"
    )
    assert main(["explain", path]) == 0
    explained = capsys.readouterr()
    assert explained.out.startswith("decision map of graph `parent`")
    assert explained.err.startswith("explaining `parent`, the one agent or graph no other uses")
    assert main(["explain", "--diff", path, path, "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["graph"] == "parent"


def test_graph_and_explain_refuse_an_unclear_choice_with_the_names(workdir, capsys):
    path = str(nested(workdir, CHILD, PARENT, LONER))
    for command, verb in (("graph", "draw"), ("explain", "explain")):
        assert main([command, path]) == 2
        got = capsys.readouterr()
        assert got.out == "" and one_paragraph(got.err), got.err
        assert f"(`parent`, `loner`), so which to {verb} is unclear" in got.err
        assert "--agent NAME (e.g. --agent parent)" in got.err and "`child`" not in got.err


def test_graph_and_explain_take_the_named_one_without_a_note(workdir, capsys):
    path = str(nested(workdir, CHILD, PARENT, LONER))
    for flag in ("--agent", "--graph"):
        assert main(["graph", path, flag, "child"]) == 0
        drawn = capsys.readouterr()
        assert "inc" in drawn.out and drawn.err == ""
    assert main(["explain", path, "--agent", "loner"]) == 0
    explained = capsys.readouterr()
    assert explained.out.startswith("decision map of graph `loner`") and explained.err == ""
    assert main(["graph", path, "--agent", "lonr"]) == 2
    assert "did you mean `loner`?" in capsys.readouterr().err


def test_a_single_graph_is_drawn_without_a_note(workdir):
    path = nested(workdir, LONER)
    done = agentc("graph", str(path), cwd=workdir)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert "solo" in done.stdout
