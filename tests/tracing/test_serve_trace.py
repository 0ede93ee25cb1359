"""`agentc serve` traces the runs it serves, as `agentc run` does: with the standard
OTEL_EXPORTER_OTLP_ENDPOINT set, or a served file's `trace` line, a real server in a child
process sends each run's spans (the run naming its thread and its run id) to a real
OTLP/HTTP receiver on 127.0.0.1; `trace none` keeps the variables from turning it on."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
from otlp_receiver import OtlpReceiver
from tracing_kit import team_text, write

pytest.importorskip("uvicorn", reason="agentc serve needs the serve extra")
ROOT = Path(__file__).resolve().parents[2]
READY_S = 60.0  # hang guard for the server's start


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def serving(file: Path, env: dict[str, str]) -> Iterator[str]:
    port = _port()
    base = {k: v for k, v in os.environ.items() if not k.startswith("OTEL_")}
    base["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), base.get("PYTHONPATH")) if p)
    base["OTEL_BSP_SCHEDULE_DELAY"] = "100"  # the batch processor exports soon after a run
    log = file.parent / "serve.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "agentc", "serve", str(file), "--port", str(port)]
            + ["--db", "memory://"],
            cwd=file.parent,
            env={**base, **env},
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + READY_S
        while True:
            assert proc.poll() is None, log.read_text()
            try:
                if httpx.get(f"{url}/ok", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def _run(url: str) -> tuple[str, str]:
    """One run of `lead` on a new thread, to its end: the thread id and the run id."""
    with httpx.Client(base_url=url, timeout=60) as client:
        body = {"assistant_id": "lead", "input": {"messages": [{"role": "user", "content": "go"}]}}
        tid = client.post("/threads", json={}).json()["thread_id"]
        run = client.post(f"/threads/{tid}/runs", json=body).json()
        client.get(f"/threads/{tid}/runs/{run['run_id']}/join")
        return tid, run["run_id"]


def test_the_otlp_variables_trace_every_served_run(tmp_path):
    path = write(tmp_path, team_text())
    with OtlpReceiver() as receiver:
        env = {"OTEL_EXPORTER_OTLP_ENDPOINT": f"http://127.0.0.1:{receiver.port}"}
        with serving(path, env) as url:
            tid, run_id = _run(url)
            spans = receiver.wait_for(8)
    assert len(spans) == 8
    root = next(s for s in spans if s.name == "invoke_agent lead")
    assert root.attributes["gen_ai.conversation.id"] == tid
    assert root.attributes["agentc.run_id"] == run_id
    assert sorted(s.name for s in spans).count("chat scripted") == 4
    ids = {s.span_id for s in spans}
    assert all(s.parent_id in ids for s in spans if s is not root)  # one tree
    assert root.resource["service.name"] == "agentc"


def test_a_served_files_trace_line_sends_there(tmp_path):
    with OtlpReceiver() as receiver:
        line = f'  trace "otlp://127.0.0.1:{receiver.port}"\n'
        path = write(tmp_path, team_text(lead_middleware=line))
        with serving(path, {}) as url:
            _, run_id = _run(url)
            spans = receiver.wait_for(8)
    assert len(spans) == 8
    root = next(s for s in spans if s.name == "invoke_agent lead")
    assert root.attributes["agentc.run_id"] == run_id


def test_trace_none_keeps_a_served_file_untraced(tmp_path):
    with OtlpReceiver() as receiver:
        env = {"OTEL_EXPORTER_OTLP_ENDPOINT": f"http://127.0.0.1:{receiver.port}"}
        quiet = tmp_path / "quiet"
        quiet.mkdir()
        path = write(quiet, team_text(lead_middleware="  trace none\n"))
        with serving(path, env) as url:
            _run(url)
        plain = write(tmp_path, team_text())  # the same server, no line: traced
        with serving(plain, env) as url:
            _run(url)
            spans = receiver.wait_for(8)
    assert len(spans) == 8  # the second server's run only
    assert len({s.attributes.get("agentc.run_id") for s in spans} - {None}) == 1
