"""A node that fails at run time: `agentc run` prints one paragraph naming the node's path
(`node `sub` › `inner` failed: ValueError: deep`), led by the `.agent` line that declares
the innermost node, exits 1, and shows the traceback only with --verbose."""

from __future__ import annotations

import re

from support.cli_kit import agentc, one_paragraph

from agentc.cli import main

STEPS = '''
def deep(state):
    """Fails inside a subgraph."""
    raise ValueError("deep")


def needs_topic(state):
    """Reads a channel nobody set, as a LangGraph node would."""
    return {"joke": "about " + state["topic"]}


def ask(state):
    """Hands the agent node a question."""
    return {"messages": [{"role": "user", "content": "2+3?"}]}
'''
NESTED = """agentc 1
use "./steps.py" as steps

graph child {
  state { n: int = 0 }
  node inner = python(steps.deep)
  edge START -> inner
  edge inner -> END
}

graph parent {
  state { n: int = 0 }
  node sub = subgraph(child)
  edge START -> sub
  edge sub -> END
}
"""


SAVED = re.compile(r"progress so far is saved in thread (\w+) \(continue with --thread \1\)")


def nested(where):
    (where / "steps.py").write_text(STEPS)
    (where / "nested.agent").write_text(NESTED)
    return "nested.agent"


def test_a_failing_node_in_a_subgraph_is_named_by_its_path_and_line(workdir):
    done = agentc("run", nested(workdir), cwd=workdir)
    assert done.returncode == 1 and one_paragraph(done.stderr), done.stderr
    # `inner` is declared on line 6 of the file (column 3), inside `child`, run by `sub`
    first, error, saved = done.stderr.splitlines()
    assert first == (
        "running `parent`, the one agent or graph no other uses; "
        "run another with --agent NAME (child)"
    )
    assert error == "nested.agent:6:3: error: node `sub` › `inner` failed: ValueError: deep"
    # no --thread was given: the thread made for the run is named, so it can be continued
    assert SAVED.fullmatch(saved), saved
    assert "-- done" not in done.stdout


def test_verbose_adds_the_traceback_with_the_nodes_notes(workdir):
    done = agentc("run", nested(workdir), "--agent", "parent", "--verbose", cwd=workdir)
    assert done.returncode == 1
    assert done.stderr.startswith("Traceback (most recent call last):")
    assert 'raise ValueError("deep")' in done.stderr and "During node `inner`" in done.stderr
    error, saved = done.stderr.strip().splitlines()[-2:]
    assert error == "nested.agent:6:3: error: node `sub` › `inner` failed: ValueError: deep"
    assert SAVED.fullmatch(saved), saved


def test_a_python_nodes_key_error_names_the_node(workdir, capsys):
    (workdir / "steps.py").write_text(STEPS)
    path = workdir / "joke.agent"
    path.write_text(
        'agentc 1\nuse "./steps.py" as steps\n\ngraph joke {\n'
        '  state {\n    topic: str\n    joke: str = ""\n  }\n'
        "  node write = python(steps.needs_topic)\n"
        "  edge START -> write\n  edge write -> END\n}\n"
    )
    for extra in ([], ["--json"]):
        assert main(["run", str(path), "--input", "{}", *extra]) == 1
        got = capsys.readouterr()
        error, saved = got.err.splitlines()
        assert error == f"{path}:9:3: error: node `write` failed: KeyError: 'topic'"
        assert SAVED.fullmatch(saved), saved
        assert "Traceback" not in got.err
    assert got.out == ""  # --json: stdout holds a JSON document or nothing


def test_an_agent_node_failing_names_the_agents_node(workdir):
    (workdir / "steps.py").write_text(STEPS)
    (workdir / "flow.agent").write_text(
        'agentc 1\nuse "./steps.py" as steps\n\n'
        'agent helper "Answers sums." {\n  model "scripted" { replies: [] }\n}\n\n'
        "graph flow {\n  state { messages: messages }\n  node ask = python(steps.ask)\n"
        "  node help = agent(helper)\n  edge START -> ask\n  edge ask -> help\n"
        "  edge help -> END\n}\n"
    )
    done = agentc("run", "flow.agent", "--agent", "flow", cwd=workdir)
    assert done.returncode == 1 and one_paragraph(done.stderr), done.stderr
    # the agent's model node is declared by its `agent` block (line 4)
    assert done.stderr.startswith("flow.agent:4:1: error: node `help` › `model` failed: ")
    assert "ScriptedRepliesExhausted: the scripted model has 0 replies" in done.stderr


def test_a_failure_outside_any_node_keeps_its_own_paragraph(workdir):
    (workdir / "steps.py").write_text(STEPS)
    (workdir / "loop.agent").write_text(
        'agentc 1\nuse "./steps.py" as steps\n\ngraph loop {\n  state { messages: messages }\n'
        "  limits { steps: 2 }\n  node ask = python(steps.ask)\n"
        "  edge START -> ask\n  edge ask -> ask\n}\n"
    )
    done = agentc("run", "loop.agent", cwd=workdir)
    assert done.returncode == 1 and one_paragraph(done.stderr), done.stderr
    assert "error[recursion-limit]" in done.stderr and "node `ask` failed" not in done.stderr
