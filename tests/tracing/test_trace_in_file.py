"""The `trace` line of an `.agent` file, in a child `agentc run` as a user runs it: spans to
the file's JSONL path (relative to the `.agent` file), contents when the line asks,
`--trace` winning over the line, and `trace none` keeping the OTEL_* variables from
turning tracing on (checked against a real OTLP/HTTP receiver that counts what it gets)."""

from __future__ import annotations

import json

from otlp_receiver import OtlpReceiver
from test_cli_trace import agentc
from tracing_kit import team_text, write


def _team(tmp_path, line: str):
    sub = tmp_path / "agents"
    sub.mkdir()
    return write(sub, team_text(lead_middleware=f"  {line}\n"))


def _spans(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_the_files_trace_line_sends_spans_to_its_jsonl_path(tmp_path):
    path = _team(tmp_path, 'trace "runs/spans.jsonl"')
    done = agentc("run", str(path), "--agent", "lead", "--input", "go", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    spans = _spans(tmp_path / "agents" / "runs" / "spans.jsonl")  # beside the .agent file
    assert len(spans) == 8
    root = next(s for s in spans if s["parent_span_id"] is None)
    assert root["name"] == "invoke_agent lead"
    assert "input.value" not in root["attributes"]  # no contents unless the line asks


def test_content_true_puts_the_messages_on_the_spans(tmp_path):
    path = _team(tmp_path, 'trace { to: "spans.jsonl", content: true }')
    done = agentc("run", str(path), "--agent", "lead", "--input", "hello there", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    root = next(
        s for s in _spans(tmp_path / "agents" / "spans.jsonl") if s["parent_span_id"] is None
    )
    assert "hello there" in root["attributes"]["input.value"]


def test_the_command_line_wins_over_the_files_line(tmp_path):
    path = _team(tmp_path, 'trace "from_file.jsonl"')
    out = tmp_path / "from_flag.jsonl"
    done = agentc(
        "run", str(path), "--agent", "lead", "--input", "go", "--trace", str(out), cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert len(_spans(out)) == 8
    assert not (tmp_path / "agents" / "from_file.jsonl").exists()


def test_trace_none_keeps_the_standard_variables_from_turning_tracing_on(tmp_path):
    with OtlpReceiver() as receiver:
        env = {"OTEL_EXPORTER_OTLP_ENDPOINT": f"http://127.0.0.1:{receiver.port}"}
        quiet = _team(tmp_path, "trace none")
        done = agentc("run", str(quiet), "--agent", "lead", "--input", "go", cwd=tmp_path, env=env)
        assert done.returncode == 0, done.stderr
        # the same file without the line: the variable alone turns tracing on, and the
        # receiver gets its 8 spans — so nothing arriving above was not a deaf receiver
        plain = write(tmp_path, team_text())
        done = agentc("run", str(plain), "--agent", "lead", "--input", "go", cwd=tmp_path, env=env)
        assert done.returncode == 0, done.stderr
        spans = receiver.wait_for(8)
    assert len(spans) == 8
    assert len(receiver.paths) == 1  # one export: the second run's; none from `trace none`


def test_an_otlp_line_sends_to_that_collector(tmp_path):
    with OtlpReceiver() as receiver:
        path = _team(tmp_path, f'trace "otlp://127.0.0.1:{receiver.port}"')
        done = agentc("run", str(path), "--agent", "lead", "--input", "go", cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        spans = receiver.wait_for(8)
    assert sorted(s.name for s in spans).count("chat scripted") == 4
