"""`agentc run` says what happens: provider retries, a stream that breaks off, a run that
stops on malformed tool-call arguments, no private bookkeeping, a prompt for the message at
a terminal, and the `.env` files it loads (names only, never values)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from support.cli_kit import ADD, KEY, agent_file, agentc, scripted

from agentc.cli import main
from agentc.testing.fake_provider import FakeReply

# ---------------------------------------------------------------- retries and broken streams


def openai_agent(workdir, monkeypatch, fake_server):
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.setenv("OPENAI_BASE_URL", fake_server.openai_base_url)
    return agent_file(workdir, 'model "openai:gpt-4.1-mini"')


def test_a_retry_is_shown_as_it_waits(workdir, capsys, monkeypatch, fake_server):
    path = openai_agent(workdir, monkeypatch, fake_server)
    fake_server.push(FakeReply(status=429, headers={"retry-after": "1"}), FakeReply(text="five"))
    assert main(["run", str(path), "--input", "2+3?"]) == 0
    out = capsys.readouterr().out
    line = "retrying openai:gpt-4.1-mini after HTTP 429 (retry-after 1 s), attempt 2 of 3\n"
    assert line in out
    assert out.index(line) < out.index("ai: five")
    assert KEY not in out


def test_a_broken_stream_ends_its_line_before_the_error(workdir, capsys, monkeypatch, fake_server):
    path = openai_agent(workdir, monkeypatch, fake_server)
    fake_server.push(FakeReply(text="one two three four", truncate_after=3))
    assert main(["run", str(path), "--input", "count", "--stream"]) == 1
    captured = capsys.readouterr()
    assert "ai: one two" in captured.out
    assert captured.out.endswith(" … (cut off)\n"), repr(captured.out)  # the line is ended
    assert "error: node `model` failed" in captured.err, captured.err


# ---------------------------------------------------------------- how a run ended


def test_a_run_ending_on_malformed_tool_call_arguments_says_so(workdir):
    bad = {
        "invalid_tool_calls": [
            {"name": "add", "args": '{"a": 2,', "id": "c1", "error": "unterminated JSON"}
        ]
    }
    path = agent_file(workdir, scripted(bad))
    done = agentc("run", str(path), "--input", "2+3?", cwd=workdir)
    assert done.returncode == 1, done.stdout
    stopped = next(line for line in done.stdout.splitlines() if line.startswith("-- stopped: "))
    assert "`add` (unterminated JSON)" in stopped and "no tool ran" in stopped
    quiet = agentc("run", str(path), "--input", "2+3?", "--json", cwd=workdir)
    assert quiet.returncode == 1 and json.loads(quiet.stdout)["messages"]
    assert "no tool ran" in quiet.stderr


def test_private_bookkeeping_stays_out_of_the_transcript(workdir):
    review = "  middleware {\n    human_review { interrupt_on: { add: true } }\n  }\n"
    path = agent_file(
        workdir, scripted(ADD, "5", "again"), extra=review + '  checkpoint sqlite("s.db")\n'
    )
    (workdir / "ok.json").write_text('{"decisions": {"c1": {"type": "approve"}}}')
    done = agentc("run", str(path), "--input", "2+3?", "--decisions", "ok.json", cwd=workdir)
    assert done.returncode == 0, done.stderr
    assert "tool add: 5" in done.stdout
    assert "hitl_edited_tool_calls" not in done.stdout
    limited = agent_file(
        workdir,
        scripted("five", "six"),
        extra="  middleware { model_call_limit { thread: 1 } }\n",
        name="limited.agent",
    )
    first = agentc("run", str(limited), "--input", "2+3?", "--thread", "t", cwd=workdir)
    again = agentc("run", str(limited), "--input", "more", "--thread", "t", cwd=workdir)
    assert first.returncode == again.returncode == 0, again.stderr
    for text in (first.stdout, again.stdout):
        assert "jump_to" not in text and "model_call_count" not in text, text


# ---------------------------------------------------------------- the message at a terminal


def test_at_a_terminal_the_message_is_asked_for(workdir):
    path = agent_file(workdir, scripted("It is 5."))
    primary, secondary = os.openpty()  # stdin is a terminal; stdout a pipe, as `| tee`
    try:
        child = subprocess.Popen(
            [sys.executable, "-m", "agentc", "run", str(path)],
            cwd=workdir,
            stdin=secondary,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        os.write(primary, b"2+3?\n")
        out, err = child.communicate(timeout=60)
    finally:
        os.close(primary)
        os.close(secondary)
    assert child.returncode == 0, err
    assert out.startswith("you> ") and "you: 2+3?" in out and "ai: It is 5." in out
    assert "input is None" not in out + err


def test_without_a_terminal_or_input_the_message_names_input(workdir):
    path = agent_file(workdir, scripted("It is 5."))
    done = agentc("run", str(path), cwd=workdir)
    assert done.returncode == 2
    assert "--input" in done.stderr and "input is None" not in done.stderr
    fresh = agentc("run", str(path), "--thread", "new", cwd=workdir)  # nothing saved in it
    assert fresh.returncode == 2, fresh.stderr
    assert "thread new has no saved run to continue" in fresh.stderr
    assert "--input" in fresh.stderr and "input is None" not in fresh.stderr
    assert agentc("run", str(path), "--input", "hi", "--thread", "old", cwd=workdir).returncode == 0
    ended = agentc("run", str(path), "--thread", "old", cwd=workdir)  # its run had finished
    assert ended.returncode == 2 and "the next message with --input" in ended.stderr


# ---------------------------------------------------------------- .env

ENV_PY = '''
import os


def show(state):
    """What the run's environment holds for the names a test wrote in .env files."""
    names = ["AGENTC_T_PLAIN", "AGENTC_T_QUOTED", "AGENTC_T_SINGLE", "AGENTC_T_EXPORTED",
             "AGENTC_T_SHELL", "AGENTC_T_NEAR", "AGENTC_T_CWD"]
    return {"seen": {n: os.environ.get(n) for n in names}}
'''
ENV_GRAPH = """agentc 1
use "./envs.py" as envs

graph peek {
  state { seen: map[any] = {} }
  output [seen]
  node show = python(envs.show)
  edge START -> show
  edge show -> END
}
"""


def test_dotenv_files_are_loaded_and_never_printed(workdir):
    project = workdir / "project"
    project.mkdir()
    (project / "envs.py").write_text(ENV_PY)
    (project / "peek.agent").write_text(ENV_GRAPH)
    (project / ".env").write_text(
        "# beside the file\n"
        "AGENTC_T_PLAIN=plain value  # a comment\n"
        'AGENTC_T_QUOTED="two\\nlines # not a comment"\n'
        "AGENTC_T_SINGLE='$HOME stays'\n"
        "export AGENTC_T_EXPORTED=yes\n"
        "AGENTC_T_SHELL=from-file\n"
        "AGENTC_T_NEAR=beside\n"
        "not a line\n"
    )
    (workdir / ".env").write_text("AGENTC_T_NEAR=cwd\nAGENTC_T_CWD=secret-cwd-value\n")
    env = {"AGENTC_T_SHELL": "from-shell"}
    done = agentc("run", "project/peek.agent", "--json", cwd=workdir, env=env)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["seen"] == {
        "AGENTC_T_PLAIN": "plain value",
        "AGENTC_T_QUOTED": "two\nlines # not a comment",
        "AGENTC_T_SINGLE": "$HOME stays",
        "AGENTC_T_EXPORTED": "yes",
        "AGENTC_T_SHELL": "from-shell",  # the environment wins
        "AGENTC_T_NEAR": "beside",  # the file beside the .agent wins over the cwd's
        "AGENTC_T_CWD": "secret-cwd-value",
    }
    assert ".env" not in done.stderr
    told = agentc("run", "project/peek.agent", "--verbose", cwd=workdir, env=env)
    assert told.returncode == 0, told.stderr
    assert f"loaded {project / '.env'}: AGENTC_T_PLAIN, AGENTC_T_QUOTED" in told.stderr
    assert "already set, kept: AGENTC_T_SHELL" in told.stderr
    assert f"loaded {workdir / '.env'}: AGENTC_T_CWD; already set, kept: AGENTC_T_NEAR" in (
        told.stderr
    )
    assert "secret-cwd-value" not in told.stderr and "plain value" not in told.stderr


# ---------------------------------------------------------------- --model on a graph block


def test_model_on_a_graph_block_is_refused_not_ignored(capsys):
    """A graph block's model nodes name their own models: `--model` has nothing to replace,
    and saying nothing would run the file's models as if the flag had worked."""
    path = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "graphs")
    path = os.path.join(path, "prompt_chaining.agent")
    code = main(["run", path, "--set", "topic=cats", "--model", "openai:gpt-4o"])
    err = capsys.readouterr().err
    assert code == 2
    assert "--model replaces an agent's model" in err
    assert "`prompt_chaining` is a graph block" in err
