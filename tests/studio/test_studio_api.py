"""The studio's own endpoints on a real `agentc studio` server (plain HTTP, no browser):
the decision map of an assistant, a run's spans with tokens, and the 404s that say why."""

from __future__ import annotations

import httpx
import pytest
from studio_kit import EXAMPLE, ROOT, Studio

from agentc import review
from agentc.api import compile_program

pytest.importorskip("opentelemetry.sdk", reason="the trace endpoints need the otel extra")


def test_the_decision_map_is_the_one_agentc_explain_prints(studio: Studio) -> None:
    got = httpx.get(f"{studio.url}/studio/api/assistants/careful/decisions", timeout=30)
    assert got.status_code == 200
    program = compile_program(str(EXAMPLE))
    want = review.to_json(review.decision_map(program.graph("careful"), program=program))
    data = got.json()
    assert data["graph"] == "careful"
    assert [(s["topic"], s["text"]) for s in data["summary"]] == [
        (s["topic"], s["text"]) for s in want["summary"]
    ]
    assert [(s["id"], s["holder"], s["changed"]) for s in data["seats"]] == [
        (s["id"], s["holder"], s["changed"]) for s in want["seats"]
    ]
    reviews = next(s for s in data["summary"] if s["topic"] == "reviews")
    assert reviews["text"] == "held for a person's review: `add`"
    assert str(ROOT) not in got.text  # file names as the assistants show them, never absolute


def test_an_unknown_assistant_or_run_is_a_404_that_says_why(studio: Studio) -> None:
    with httpx.Client(base_url=studio.url, timeout=30) as client:
        missing = client.get("/studio/api/assistants/nobody/decisions")
        assert missing.status_code == 404
        assert "nobody" in missing.json()["detail"]
        run = client.get("/studio/api/runs/no-such-run/trace")
        assert run.status_code == 404
        assert "no-such-run" in run.json()["detail"]
        assert "this process" in run.json()["expected"]


def test_a_runs_trace_has_its_model_and_tool_spans_with_tokens(counting: Studio) -> None:
    with httpx.Client(base_url=counting.url, timeout=60) as client:
        assert client.get("/studio/api/tracing").json()["available"] is True
        tid = client.post("/threads", json={}).json()["thread_id"]
        body = {
            "assistant_id": "counting",
            "input": {"messages": [{"role": "user", "content": "2+3?"}]},
        }
        done = client.post(f"/threads/{tid}/runs/wait", json=body)
        assert done.status_code == 200
        run_id = client.get(f"/threads/{tid}/runs").json()[0]["run_id"]
        trace = client.get(f"/studio/api/runs/{run_id}/trace")
    assert trace.status_code == 200
    spans = trace.json()["spans"]
    root = spans[0]
    assert root["name"] == "invoke_agent counting" and root["parent_id"] is None
    assert root["attributes"]["agentc.run_id"] == run_id
    assert root["attributes"]["gen_ai.conversation.id"] == tid
    assert root["tokens"] == {"input": 32, "output": 7}
    chats = [s for s in spans if s["name"] == "chat scripted"]
    assert [c["tokens"] for c in chats] == [{"input": 12, "output": 3}, {"input": 20, "output": 4}]
    tool = next(s for s in spans if s["name"] == "execute_tool add")
    assert tool["parent_id"] == root["span_id"]
    assert tool["attributes"]["agentc.source"] == "counting.agent:12"  # shown, not absolute
    assert all(s["duration_ms"] is not None for s in spans)
