"""`agentc run --trace …` in a child process, as a user runs it: spans to a JSONL file, to
a real OTLP/HTTP receiver by `otlp://HOST:PORT` and by OTEL_EXPORTER_OTLP_ENDPOINT alone,
usage errors for a bad target, and no OpenTelemetry import when tracing is off."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from otlp_receiver import OtlpReceiver
from tracing_kit import team_text, write

ENV_OFF = ("OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")


def agentc(*args: str, cwd, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    base = {k: v for k, v in os.environ.items() if not k.startswith("OTEL_")}
    return subprocess.run(
        [sys.executable, "-m", "agentc", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env={**base, **(env or {})},
        timeout=60,
    )


def test_trace_to_a_jsonl_file_one_span_a_line(tmp_path):
    path = write(tmp_path, team_text())
    out = tmp_path / "trace" / "spans.jsonl"
    done = agentc(
        "run", str(path), "--agent", "lead", "--input", "go", "--trace", str(out), cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    by_id = {s["span_id"]: s for s in lines}
    assert len(lines) == 8
    root = next(s for s in lines if s["parent_span_id"] is None)
    assert root["name"] == "invoke_agent lead"
    thread = root["attributes"]["gen_ai.conversation.id"]
    assert f"--thread {thread}" in done.stdout + done.stderr
    sub = next(s for s in lines if s["name"] == "invoke_agent researcher")
    assert by_id[sub["parent_span_id"]]["name"] == "execute_tool researcher"
    assert root["resource"]["service.name"] == "agentc"
    assert {s["trace_id"] for s in lines} == {root["trace_id"]}


def test_trace_to_otlp_host_port(tmp_path):
    path = write(tmp_path, team_text())
    with OtlpReceiver() as receiver:
        target = f"otlp://127.0.0.1:{receiver.port}"
        done = agentc(
            "run", str(path), "--agent", "lead", "--input", "go", "--trace", target, cwd=tmp_path
        )
        assert done.returncode == 0, done.stderr
        spans = receiver.wait_for(8)
    assert receiver.paths[0] == "/v1/traces"
    names = sorted(s.name for s in spans)
    assert names.count("chat scripted") == 4 and "invoke_agent lead" in names
    root = next(s for s in spans if s.name == "invoke_agent lead")
    assert root.parent_id == "" and root.attributes["gen_ai.usage.input_tokens"] == 63


def test_the_standard_endpoint_variable_alone_turns_tracing_on(tmp_path):
    path = write(tmp_path, team_text())
    with OtlpReceiver() as receiver:
        env = {
            "OTEL_EXPORTER_OTLP_ENDPOINT": f"http://127.0.0.1:{receiver.port}",
            "OTEL_SERVICE_NAME": "my-agents",
            "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT": "true",
        }
        done = agentc(
            "run", str(path), "--agent", "lead", "--input", "hello there", cwd=tmp_path, env=env
        )
        assert done.returncode == 0, done.stderr
        spans = receiver.wait_for(8)
    assert spans[0].resource["service.name"] == "my-agents"
    root = next(s for s in spans if s.name == "invoke_agent lead")
    assert "hello there" in root.attributes["input.value"]


def test_a_bad_trace_target_is_a_usage_error_before_anything_runs(tmp_path):
    path = write(tmp_path, team_text())
    done = agentc(
        "run", str(path), "--agent", "lead", "--input", "go", "--trace", "somewhere", cwd=tmp_path
    )
    assert done.returncode == 2
    assert "otlp://HOST:PORT" in done.stderr and "FILE.jsonl" in done.stderr
    assert "Traceback" not in done.stderr and "you: go" not in done.stdout


def test_trace_content_without_a_target_is_a_usage_error(tmp_path):
    path = write(tmp_path, team_text())
    done = agentc(
        "run", str(path), "--agent", "lead", "--input", "go", "--trace-content", cwd=tmp_path
    )
    assert done.returncode == 2
    assert "--trace WHERE" in done.stderr


def test_a_grpc_protocol_is_refused_with_what_to_set(tmp_path):
    path = write(tmp_path, team_text())
    env = {
        "OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4317",
        "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc",
    }
    done = agentc("run", str(path), "--agent", "lead", "--input", "go", cwd=tmp_path, env=env)
    assert done.returncode == 2
    assert "http/protobuf" in done.stderr


PROBE = """
import sys
from agentc.cli import main
code = main(["run", sys.argv[1], "--agent", "lead", "--input", "go", "--json"])
loaded = sorted(m for m in sys.modules if m.startswith("opentelemetry"))
print(code, loaded[:3], file=sys.stderr)
"""


def test_a_run_without_tracing_imports_nothing_of_opentelemetry(tmp_path):
    path = write(tmp_path, team_text())
    base = {k: v for k, v in os.environ.items() if not k.startswith("OTEL_")}
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(path)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=base,
        timeout=60,
    )
    assert done.stderr.strip().splitlines()[-1] == "0 []", done.stderr


def test_an_unreachable_collector_is_one_note_and_the_run_still_succeeds(tmp_path):
    path = write(tmp_path, team_text())
    with OtlpReceiver() as receiver:
        port = receiver.port  # a port that was free a moment ago, and is closed now
    target = f"otlp://127.0.0.1:{port}"
    done = agentc(
        "run", str(path), "--agent", "lead", "--input", "go", "--trace", target, cwd=tmp_path
    )
    assert done.returncode == 0
    assert "8 spans of this run could not be sent" in done.stderr
    assert "Transient error" not in done.stderr and "Traceback" not in done.stderr


def test_a_trace_file_that_cannot_be_written_is_a_usage_error(tmp_path):
    path = write(tmp_path, team_text())
    target = f"{path}/spans.jsonl"  # under a file: no one can create it, root neither
    done = agentc(
        "run", str(path), "--agent", "lead", "--input", "go", "--trace", target, cwd=tmp_path
    )
    assert done.returncode == 2
    assert "cannot write the file" in done.stderr and "you: go" not in done.stdout
