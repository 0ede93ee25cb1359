"""End to end into a real Arize Phoenix, started offline on a free port of 127.0.0.1: a run
traced with `agentc run --trace otlp://…` arrives, and Phoenix's REST and GraphQL APIs show
the run's whole tree (the sub-agent under the tool call that ran it) and its tokens.

Phoenix is found as `$AGENTC_PHOENIX`, else `phoenix` on PATH, else the CI's virtual
environment `/opt/phoenix-venv` (Phoenix's pins clash with agentc's dev dependencies, so
it lives in a venv of its own); the test is skipped only when none is installed.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest
from support.procs import free_port
from test_cli_trace import agentc
from tracing_kit import team_text, write

CI_VENV = Path("/opt/phoenix-venv/bin/phoenix")
STARTUP_GUARD_S = 120  # a hang guard for a cold start, not a speed bound


def _phoenix() -> str | None:
    found = os.environ.get("AGENTC_PHOENIX") or shutil.which("phoenix")
    return found or (str(CI_VENV) if CI_VENV.exists() else None)


def _get(url: str, body: dict | None = None) -> dict:
    data = json.dumps(body).encode() if body is not None else None
    headers = {"content-type": "application/json"} if body is not None else {}
    with urllib.request.urlopen(urllib.request.Request(url, data, headers), timeout=10) as r:
        return json.loads(r.read())


@pytest.fixture(scope="module")
def phoenix(tmp_path_factory):
    program = _phoenix()
    if program is None:
        pytest.skip("Arize Phoenix is not installed (pip install arize-phoenix)")
    work = tmp_path_factory.mktemp("phoenix")
    port = free_port()
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("OTEL_", "PHOENIX_"))},
        "PHOENIX_WORKING_DIR": str(work),
        "PHOENIX_HOST": "127.0.0.1",
        "PHOENIX_PORT": str(port),
        "PHOENIX_GRPC_PORT": str(free_port()),
        "PHOENIX_TELEMETRY_ENABLED": "false",
    }
    log = (work / "phoenix.log").open("w")
    proc = subprocess.Popen(
        [program, "serve"], env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + STARTUP_GUARD_S
    while True:
        try:
            urllib.request.urlopen(f"{base}/healthz", timeout=2)
            break
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                pytest.fail(f"phoenix did not start: {(work / 'phoenix.log').read_text()[-2000:]}")
            time.sleep(0.5)
    yield base
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
    log.close()


def _spans(base: str, count: int) -> list[dict]:
    deadline = time.monotonic() + 60  # hang guard: Phoenix writes spans in the background
    while True:
        spans = _get(f"{base}/v1/projects/default/spans?limit=100")["data"]
        if len(spans) >= count or time.monotonic() > deadline:
            return spans
        time.sleep(0.5)


def test_a_traced_run_shows_its_tree_and_tokens_in_phoenix(phoenix, tmp_path):
    path = write(tmp_path, team_text())
    target = phoenix.replace("http://", "otlp://")
    done = agentc(
        "run", str(path), "--agent", "lead", "--input", "go", "--trace", target, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    spans = _spans(phoenix, 8)
    assert len(spans) == 8
    by_id = {s["context"]["span_id"]: s for s in spans}
    root = next(s for s in spans if s["parent_id"] is None)
    assert root["name"] == "invoke_agent lead" and root["span_kind"] == "AGENT"
    sub = next(s for s in spans if s["name"] == "invoke_agent researcher")
    assert by_id[sub["parent_id"]]["name"] == "execute_tool researcher"
    assert by_id[by_id[sub["parent_id"]]["parent_id"]] is root
    add = next(s for s in spans if s["name"] == "execute_tool add")
    assert by_id[add["parent_id"]] is sub and add["span_kind"] == "TOOL"
    chats = [s for s in spans if s["name"] == "chat scripted"]
    assert {s["span_kind"] for s in chats} == {"LLM"}
    assert sorted(s["attributes"]["llm.token_count.prompt"] for s in chats) == [5, 8, 20, 30]

    # Phoenix's own sums over the trace, as its UI shows them
    trace_id = root["context"]["trace_id"]
    query = (
        "query($id: ID!) { projects { edges { node { trace(traceId: $id) { numSpans"
        " rootSpan { name cumulativeTokenCountPrompt cumulativeTokenCountCompletion } } } } } }"
    )
    answer = _get(f"{phoenix}/graphql", {"query": query, "variables": {"id": trace_id}})
    assert "errors" not in answer, answer
    trace = answer["data"]["projects"]["edges"][0]["node"]["trace"]
    assert trace["numSpans"] == 8
    top = trace["rootSpan"]
    assert top["name"] == "invoke_agent lead"
    assert top["cumulativeTokenCountPrompt"] == 20 + 30 + 5 + 8
    assert top["cumulativeTokenCountCompletion"] == 4 + 5 + 2 + 3
