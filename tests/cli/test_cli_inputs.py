"""`agentc run` input: text or a JSON object (`--input`, `--input-file`), `--set key=value`,
`--context '{…}'`; every mistake a one-paragraph usage error (exit 2) before anything runs."""

from __future__ import annotations

import json

from support.cli_kit import ADD, agent_file, agentc, one_paragraph, scripted

from agentc.cli import main

GRAPH = """agentc 1
use "./steps.py" as steps

schema Feedback { grade: "funny" | "not funny", feedback: str }

graph joke {
  state {
    topic: str = ""
    n: int = 1
    joke: str = ""
    feedback: Feedback? = none
    tags: list[str] = []
  }
  node write = python(steps.write)
  edge START -> write
  edge write -> END
}
"""
STEPS = '''
def write(state, ctx):
    """A joke of `n` parts about `topic`, for the run context's user."""
    who = (ctx.context or {}).get("user_id", "nobody")
    return {"joke": f"{state['topic']} x{state['n']} for {who}"}
'''


def joke_file(where, text=GRAPH):
    (where / "steps.py").write_text(STEPS)
    path = where / "joke.agent"
    path.write_text(text)
    return path


def run_json(capsys, *argv):
    assert main(["run", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def usage_error(workdir, *argv):
    """Exit 2 with one paragraph on stderr, nothing run (no transcript on stdout)."""
    done = agentc("run", *argv, cwd=workdir)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert one_paragraph(done.stderr) and done.stderr.startswith("error: "), done.stderr
    assert done.stdout == ""
    return done.stderr


# ---------------------------------------------------------------- setting channels


def test_set_sets_input_channels(workdir, capsys):
    path = joke_file(workdir)
    assert main(["run", str(path), "--set", "topic=cats", "--set", "n=2"]) == 0
    out = capsys.readouterr().out
    assert "you → topic = cats · n = 2" in out
    assert "write → joke = cats x2 for nobody" in out


def test_json_input_and_set_combine_and_set_wins(workdir, capsys):
    path = joke_file(workdir)
    data = run_json(capsys, str(path), "--input", '{"topic": "dogs", "n": 5}', "--set", "n=2")
    assert data["joke"] == "dogs x2 for nobody"


def test_set_value_is_json_when_it_parses_else_the_text(workdir, capsys):
    path = joke_file(workdir)
    fb = '{"grade": "funny", "feedback": "ok"}'
    data = run_json(
        capsys,
        str(path),
        "--set",
        f"feedback={fb}",
        "--set",
        'tags=["a", "b"]',
        "--set",
        "topic=owls",
    )
    assert data["feedback"] == {"grade": "funny", "feedback": "ok"}
    assert data["tags"] == ["a", "b"] and data["topic"] == "owls"


def test_set_of_a_str_channel_keeps_text_that_parses_as_json(workdir, capsys):
    path = joke_file(workdir)  # `3` parses as a number, but `topic` is a str: the text is meant
    assert run_json(capsys, str(path), "--set", "topic=3")["topic"] == "3"


def test_input_file_holds_a_json_object(workdir, capsys):
    path = joke_file(workdir)
    (workdir / "in.json").write_text('{"topic": "bees", "n": 3}\n')
    data = run_json(capsys, str(path), "--input-file", str(workdir / "in.json"))
    assert data["joke"] == "bees x3 for nobody"


def test_piped_stdin_is_read_as_input_too(workdir):
    path = joke_file(workdir)
    done = agentc("run", str(path), cwd=workdir, stdin='{"topic": "moths", "n": 4}\n')
    assert done.returncode == 0, done.stderr
    assert "write → joke = moths x4 for nobody" in done.stdout


def test_unknown_channel_is_refused_with_the_accepted_ones(workdir):
    path = joke_file(workdir)
    err = usage_error(workdir, str(path), "--set", "tpic=cats")
    assert "`tpic`" in err and "did you mean `topic`?" in err
    assert "`topic`, `n`, `joke`, `feedback`, `tags`" in err and "--set topic=" in err


def test_unknown_channel_in_json_input_is_refused(workdir):
    err = usage_error(workdir, str(joke_file(workdir)), "--input", '{"topik": "cats"}')
    assert "--input sets `topik`" in err and "did you mean `topic`?" in err


def test_value_of_the_wrong_type_is_refused(workdir):
    err = usage_error(workdir, str(joke_file(workdir)), "--set", "n=three")
    assert '`n` "three", which is not of type `int`' in err and "--set n=3" in err


def test_a_nested_mismatch_names_the_field(workdir):
    path = joke_file(workdir)
    err = usage_error(workdir, str(path), "--set", 'feedback={"grade": "meh", "feedback": "x"}')
    assert 'feedback.grade: expected one of "funny", "not funny", got "meh"' in err
    err = usage_error(workdir, str(path), "--set", 'feedback={"grade": "funny"}')
    assert "feedback.feedback: missing (required)" in err
    err = usage_error(workdir, str(path), "--set", 'tags=["a", 3]')
    assert "tags[1]: expected a string, got 3" in err


def test_text_input_to_a_graph_without_messages_is_refused(workdir):
    err = usage_error(workdir, str(joke_file(workdir)), "--input", "cats please")
    assert "has no `messages` channel" in err and "--set topic=" in err


def test_malformed_json_input_is_refused_not_sent_as_text(workdir):
    path = agent_file(workdir, scripted("hi"))
    err = usage_error(workdir, str(path), "--input", '{"messages": oops}')
    assert "looks like a JSON object but does not parse" in err


def test_set_without_a_value(workdir):
    err = usage_error(workdir, str(joke_file(workdir)), "--set", "topic")
    assert "--set needs KEY=VALUE" in err


def test_graph_input_list_limits_what_may_be_set(workdir):
    # `input [topic]`: the other channels are private to the run (ChannelSpec.input False)
    path = joke_file(workdir, GRAPH.replace("graph joke {\n", "graph joke {\n  input [topic, n]\n"))
    err = usage_error(workdir, str(path), "--set", "joke=x")
    assert "`joke`, which `joke` does not take as input" in err
    assert "its input channels: `topic`, `n`" in err


# ---------------------------------------------------------------- agents


def test_json_input_sets_an_agents_channels(workdir, capsys):
    path = agent_file(workdir, scripted(ADD, "The answer is 5."))
    given = '{"messages": [{"role": "user", "content": "2+3?"}]}'
    assert main(["run", str(path), "--input", given]) == 0
    out = capsys.readouterr().out
    assert "you: 2+3?" in out and "ai: The answer is 5." in out
    data = run_json(capsys, str(agent_file(workdir, scripted("ok"))), "--input", given)
    assert data["messages"][0]["content"] == "2+3?"  # the message, not the JSON as text


def test_set_messages_of_an_agent(workdir, capsys):
    path = agent_file(workdir, scripted("ok"))
    data = run_json(capsys, str(path), "--set", "messages=hello there")
    assert [m["content"] for m in data["messages"]] == ["hello there", "ok"]


def test_agent_refuses_a_channel_it_keeps_to_itself(workdir):
    path = agent_file(workdir, scripted("hi"))
    err = usage_error(workdir, str(path), "--input", '{"structured_response": 1}')
    assert "`structured_response`, which `calc` does not take as input" in err
    assert "its input channels: `messages`" in err


def test_agent_refuses_what_is_not_messages(workdir):
    path = agent_file(workdir, scripted("hi"))
    err = usage_error(workdir, str(path), "--input", '{"messages": [{"content": "x"}]}')
    assert "not messages" in err and "`role`" in err


def test_text_input_and_set_messages_clash(workdir):
    path = agent_file(workdir, scripted("hi"))
    err = usage_error(workdir, str(path), "--input", "hi", "--set", "messages=ho")
    assert "keep one" in err


# ---------------------------------------------------------------- the run context


def test_context_reaches_the_nodes(workdir, capsys):
    path = joke_file(workdir)
    data = run_json(capsys, str(path), "--set", "topic=cats", "--context", '{"user_id": "u1"}')
    assert data["joke"] == "cats x1 for u1"


def test_context_must_be_a_json_object(workdir):
    path = joke_file(workdir)
    assert "--context takes a JSON object" in usage_error(workdir, str(path), "--context", "u1")
    assert "--context takes a JSON object" in usage_error(workdir, str(path), "--context", "[1]")


def test_context_is_checked_against_the_graphs_context_schema(workdir, capsys):
    text = GRAPH.replace(
        "graph joke {\n", "schema Ctx { user_id: str }\ngraph joke {\n  context Ctx\n"
    )
    path = joke_file(workdir, text)
    err = usage_error(workdir, str(path), "--context", '{"user": "u1"}')
    assert "`Ctx`, the context of `joke`" in err and "user_id: missing (required)" in err
    data = run_json(capsys, str(path), "--context", '{"user_id": "u2"}', "--set", "topic=x")
    assert data["joke"] == "x x1 for u2"


def test_python_api_passes_the_context_through(workdir):
    import agentc
    from agentc.runtime import RunConfig

    graph = agentc.load(joke_file(workdir))["joke"]
    by_config = graph.invoke({"topic": "a"}, RunConfig(context={"user_id": "u3"}))
    assert by_config["joke"] == "a x1 for u3"
    by_keyword = graph.invoke({"topic": "b"}, context={"user_id": "u4"})
    assert by_keyword["joke"] == "b x1 for u4"
