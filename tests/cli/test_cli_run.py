"""`agentc run`: the transcript (timings, --json, --stream), exit codes, record/replay."""

from __future__ import annotations

import json
import re

import pytest
from support.cli_kit import ADD, KEY, agent_file, agentc, one_paragraph, scripted

from agentc.cli import main
from agentc.testing.fake_provider import FakeReply, FakeToolCall


def timings(out: str) -> dict[str, list[float]]:
    found: dict[str, list[float]] = {}
    for node, ms in re.findall(r"^  \[(\w+) · ([\d.]+) ms", out, re.M):
        found.setdefault(node, []).append(float(ms))
    return found


# ---------------------------------------------------------------- the transcript


def test_each_step_shows_its_own_time(workdir, capsys):
    slow = {"tool_calls": [{"name": "slow_add", "args": {"a": 2, "b": 3}, "id": "c1"}]}
    path = agent_file(workdir, scripted(slow, "5"), tools="kit.slow_add")
    assert main(["run", str(path), "--input", "2+3?"]) == 0
    out = capsys.readouterr().out
    took = timings(out)
    assert len(took["model"]) == 2 and len(took["tools"]) == 1
    assert took["tools"][0] >= 250  # the tool sleeps 0.3 s (less the timer's slack)
    # The steps run one after another inside the run, so their own times add up to at most
    # the run's total; times counted from the run's start (model, tools, model) would not.
    done = re.search(r"^-- done in (\d+) ms", out, re.M)
    assert done, out
    total = float(done.group(1))
    rounding = 0.5 + 3 * 0.05  # the total is printed in whole ms, each step to 0.1 ms
    assert sum(took["model"]) + took["tools"][0] <= total + rounding


def test_json_mode_prints_only_json(workdir, capsys):
    path = agent_file(workdir, scripted(ADD, "The answer is 5."))
    assert main(["run", str(path), "--input", "2+3?", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)  # the whole of stdout is one JSON document
    assert [m["type"] for m in data["messages"]] == ["human", "ai", "tool", "ai"]
    assert data["messages"][0]["content"] == "2+3?"


def test_stream_shows_text_and_tool_call_arguments_once(workdir, capsys):
    path = agent_file(workdir, scripted(ADD, "The answer is 5."))
    assert main(["run", str(path), "--input", "2+3?", "--stream"]) == 0
    out = capsys.readouterr().out
    assert 'ai → add({"a": 2, "b": 3})  id=c1' in out
    assert out.count("The answer is 5.") == 1
    assert "tool add: 5" in out


def test_stream_of_a_real_provider_shows_tool_call_chunks(
    workdir, capsys, fake_server, monkeypatch
):
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.setenv("OPENAI_BASE_URL", fake_server.openai_base_url)
    fake_server.push(
        FakeReply(tool_calls=[FakeToolCall("add", '{"a": 2, "b": 3}', "c1")]),
        FakeReply(text="It is 5.", chunks=["It ", "is ", "5."]),
    )
    path = agent_file(workdir, 'model "openai:gpt-4o-mini"')
    assert main(["run", str(path), "--input", "2+3?", "--stream"]) == 0
    out = capsys.readouterr().out
    assert re.search(r'ai → add\(\{"a": ?2, ?"b": ?3\}\)  id=c1', out), out
    assert "ai: It is 5.\n" in out and out.count("It is 5.") == 1
    assert "11→7 tokens" in out  # usage from the wire


# ---------------------------------------------------------------- exit codes


def test_exit_0_on_success(workdir):
    path = agent_file(workdir, scripted(ADD, "The answer is 5."))
    done = agentc("run", str(path), "--input", "2+3?", cwd=workdir)
    assert done.returncode == 0, done.stderr
    assert "ai: The answer is 5." in done.stdout and done.stderr == ""


def test_exit_1_recursion_limit(workdir):
    path = agent_file(workdir, scripted(ADD, ADD, ADD, "never"), extra="  limits { steps: 3 }\n")
    done = agentc("run", str(path), "--input", "q", cwd=workdir)
    assert done.returncode == 1 and one_paragraph(done.stderr), done.stderr
    assert "recursion-limit" in done.stderr


def test_exit_1_scripted_replies_exhausted(workdir):
    path = agent_file(workdir, scripted(ADD))
    done = agentc("run", str(path), "--input", "q", cwd=workdir)
    assert done.returncode == 1 and one_paragraph(done.stderr), done.stderr
    assert "1 replies but was called a 2nd time" in done.stderr


def test_exit_1_missing_api_key(workdir):
    path = agent_file(workdir, 'model "openai:gpt-4o-mini"')
    done = agentc("run", str(path), "--input", "q", cwd=workdir)
    assert done.returncode == 1 and one_paragraph(done.stderr), done.stderr
    assert "OPENAI_API_KEY" in done.stderr


def test_exit_1_model_failure(workdir, fake_server):
    fake_server.push(FakeReply(status=400, error_message="bad request body"))
    path = agent_file(workdir, 'model "openai:gpt-4o-mini" { max_retries: 0 }')
    done = agentc(
        "run",
        str(path),
        "--input",
        "q",
        cwd=workdir,
        env={"OPENAI_API_KEY": KEY, "OPENAI_BASE_URL": fake_server.openai_base_url},
    )
    assert done.returncode == 1 and one_paragraph(done.stderr), done.stderr
    assert "400" in done.stderr and KEY not in done.stderr


def test_exit_1_file_with_errors(workdir):
    bad = workdir / "bad.agent"
    bad.write_text("agentc 1\nagent x { model }\n")
    done = agentc("run", str(bad), "--input", "q", cwd=workdir)
    assert done.returncode == 1 and "Traceback" not in done.stderr and "error" in done.stderr


@pytest.mark.parametrize(
    "argv",
    [
        ["run"],  # no file
        ["run", "missing.agent", "--input", "q"],
        ["run", "calc.agent", "--input-file", "missing.txt"],
        ["run", "calc.agent", "--replay", "missing.jsonl", "--input", "q"],
        ["run", "calc.agent", "--input", "q", "--nope"],
    ],
)
def test_exit_2_usage_and_unreadable_files(workdir, argv):
    agent_file(workdir, scripted("hi"))
    done = agentc(*argv, cwd=workdir)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert "Traceback" not in done.stderr and done.stderr.strip()


def test_exit_2_thread_without_saved_state(workdir, capsys):
    path = agent_file(workdir, scripted("hi"), extra="  checkpoint none\n")
    assert main(["run", str(path), "--input", "q", "--thread", "t1"]) == 2
    assert "checkpoint none" in capsys.readouterr().err


# ---------------------------------------------------------------- record and replay


def test_record_then_replay_without_server_or_key(workdir, fake_server, monkeypatch, capsys):
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.setenv("OPENAI_BASE_URL", fake_server.openai_base_url)
    fake_server.push(
        FakeReply(tool_calls=[FakeToolCall("add", '{"a": 2, "b": 3}', "c1")]),
        FakeReply(text="It is 5."),
    )
    path = agent_file(workdir, 'model "openai:gpt-4o-mini"')
    tape = workdir / "run.jsonl"
    assert main(["run", str(path), "--input", "2+3?", "--record", str(tape)]) == 0
    live = capsys.readouterr().out
    assert len(fake_server.requests) == 2
    text = tape.read_text()
    assert KEY not in text and len(text.splitlines()) == 3  # a header and two exchanges
    fake_server.stop()
    monkeypatch.delenv("OPENAI_API_KEY")
    monkeypatch.delenv("OPENAI_BASE_URL")
    assert main(["run", str(path), "--input", "2+3?", "--replay", str(tape)]) == 0
    replayed = capsys.readouterr().out

    def lines(out):
        return [ln for ln in out.splitlines() if not ln.startswith(("  [", "--", "thread"))]

    assert lines(replayed) == lines(live)
    assert "ai: It is 5." in replayed


def test_replay_of_a_different_run_is_a_clear_error(workdir, fake_server, monkeypatch, capsys):
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.setenv("OPENAI_BASE_URL", fake_server.openai_base_url)
    fake_server.push(FakeReply(text="hello"))
    path = agent_file(workdir, 'model "openai:gpt-4o-mini"')
    tape = workdir / "run.jsonl"
    assert main(["run", str(path), "--input", "hi", "--record", str(tape)]) == 0
    capsys.readouterr()
    assert main(["run", str(path), "--input", "something else", "--replay", str(tape)]) == 1
    err = capsys.readouterr().err
    assert "differs from the recorded one" in err and "Traceback" not in err


def test_record_and_replay_an_agent_used_as_a_tool(workdir, capsys):
    (workdir / "two.agent").write_text(
        "agentc 1\n"
        f'agent helper "Answers sums." {{\n  {scripted("five")}\n}}\n'
        'agent boss {\n  model "scripted" { replies: [{ tool_calls: [{ name: "helper", '
        'args: { request: "2+3" }, id: "h1" }] }, "The helper says five."] }\n'
        "  tools [helper]\n}\n"
    )
    tape = workdir / "run.jsonl"
    argv = ["run", str(workdir / "two.agent"), "--agent", "boss", "--input", "q"]
    assert main(argv + ["--record", str(tape)]) == 0
    assert (workdir / "run.helper.jsonl").exists()  # the child's model, its own cassette
    live = capsys.readouterr().out
    assert main(argv + ["--replay", str(tape)]) == 0
    assert "The helper says five." in capsys.readouterr().out and "tool helper: five" in live


GRAPH = """agentc 1
use "./steps.py" as steps

graph count {
  state {
    n: int = 0
    log: list[str] = [] reduce append
  }
  node bump = python(steps.bump)
  edge START -> bump
  edge bump -> bump when n < 3
  edge bump -> END otherwise
}
"""
STEPS = '''
def bump(state):
    """Count one more."""
    return {"n": state["n"] + 1, "log": [f"bumped to {state['n'] + 1}"]}
'''


def graph_file(where):
    (where / "steps.py").write_text(STEPS)
    path = where / "count.agent"
    path.write_text(GRAPH)
    return path


def test_graph_block_run_shows_each_state_write(workdir, capsys):
    assert main(["run", str(graph_file(workdir)), "--input", "{}"]) == 0
    out = capsys.readouterr().out
    assert [line for line in out.splitlines() if line.startswith("bump → ")] == [
        'bump → n = 1 · log = ["bumped to 1"]',
        'bump → n = 2 · log = ["bumped to 2"]',
        'bump → n = 3 · log = ["bumped to 3"]',
    ]


def test_graph_block_input_is_a_json_object_of_its_channels(workdir, capsys):
    assert main(["run", str(graph_file(workdir)), "--input", '{"n": 2}']) == 0
    out = capsys.readouterr().out
    assert "you → n = 2" in out
    assert "bump → n = 3 ·" in out and "bump → n = 1 ·" not in out


def test_graph_block_refuses_text_input_with_a_hint(workdir, capsys):
    assert main(["run", str(graph_file(workdir)), "--input", "hello"]) == 2
    err = capsys.readouterr().err
    assert "has no `messages` channel" in err and "n, log" in err


def test_long_values_are_clipped_unless_verbose(workdir, capsys):
    reply = {"tool_calls": [{"name": "echo", "args": {"text": "x" * 1000}, "id": "e1"}]}
    (workdir / "echo.py").write_text(
        'def echo(text: str) -> str:\n    """Echo."""\n    return text\n'
    )
    path = workdir / "echo.agent"
    path.write_text(
        'use "./echo.py" as e\nagent a {\n  model "scripted" { replies: ['
        + json.dumps(reply)
        + ', "done"] }\n  tools [e.echo]\n}\n'
    )
    assert main(["run", str(path), "--input", "go"]) == 0
    assert "characters; --verbose shows all" in capsys.readouterr().out
    assert main(["run", str(path), "--input", "go", "--verbose"]) == 0
    assert "tool echo: " + "x" * 1000 in capsys.readouterr().out


def _saved_steps(path, thread):
    from agentc import runtime
    from agentc.api import load_agent
    from agentc.runtime.checkpoint.sqlite import SqliteCheckpointer

    graph = load_agent(path, checkpointer=SqliteCheckpointer(".agentc/state.db"))
    return len(graph.get_state_history(runtime.RunConfig(thread_id=thread)))


def test_F11_run_saves_every_step_by_default_exit_saves_once(workdir, capsys):
    path = agent_file(workdir, scripted(ADD, "The answer is 5."))
    assert main(["run", str(path), "--input", "2+3?", "--thread", "t-sync"]) == 0
    path = agent_file(workdir, scripted(ADD, "The answer is 5."))
    assert (
        main(["run", str(path), "--input", "2+3?", "--thread", "t-exit", "--durability", "exit"])
        == 0
    )
    every, once = _saved_steps(path, "t-sync"), _saved_steps(path, "t-exit")
    assert every >= 4 and once < every  # input, model, tools, model … vs the end only


def test_F11_durability_from_the_file(workdir, capsys):
    path = agent_file(
        workdir,
        scripted(ADD, "The answer is 5."),
        extra='  checkpoint sqlite(".agentc/state.db", durability: "exit")\n',
    )
    assert main(["run", str(path), "--input", "2+3?", "--thread", "t-file"]) == 0
    path_sync = agent_file(
        workdir,
        scripted(ADD, "The answer is 5."),
        name="sync.agent",
        extra='  checkpoint sqlite(".agentc/state.db")\n',
    )
    assert main(["run", str(path_sync), "--input", "2+3?", "--thread", "t-default"]) == 0
    assert _saved_steps(path, "t-file") < _saved_steps(path_sync, "t-default")
