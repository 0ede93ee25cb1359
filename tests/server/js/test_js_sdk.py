"""One run of the JS SDK (@langchain/langgraph-sdk, from node) against `agentc serve`, and
the same script against `langgraph dev` to prove the script."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from servekit import ServeMissing, agentc_serve, langgraph_dev, reference_missing

from agentc.testing.fake_provider import FakeReply

SCRIPT = Path(__file__).resolve().parent / "run_once.mjs"
QUESTION = "say hello"


def _run(node: str, url: str) -> dict:
    done = subprocess.run(
        [node, str(SCRIPT), url, "calc", QUESTION],
        capture_output=True,
        text=True,
        timeout=120,  # hang guard
        cwd=SCRIPT.parent,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("side", ["langgraph-dev", "agentc-serve"])
def test_js_sdk_streams_one_run(side: str, node: str, tmp_path: Path) -> None:
    if side == "langgraph-dev" and (missing := reference_missing()) is not None:
        pytest.skip(missing)
    start = langgraph_dev if side == "langgraph-dev" else agentc_serve
    try:
        with start(tmp_path) as served:
            served.fake.push(FakeReply(text="Hello from the fake model."))
            got = _run(node, served.url)
    except ServeMissing as e:
        pytest.fail(str(e))
    assert got["messages"] == [
        {"type": "human", "content": QUESTION},
        {"type": "ai", "content": "Hello from the fake model."},
    ]
    assert {"metadata", "values", "messages"} <= set(got["events"])
    assert got["state_messages"] == 2
