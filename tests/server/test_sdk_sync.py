"""The sync `langgraph-sdk` client against `agentc serve`: the same server, the same wire
(a thread, a streamed run, a paused graph resumed, the state and the history)."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("langgraph_sdk", reason="these tests talk through langgraph-sdk")

from langgraph_sdk import get_sync_client  # noqa: E402

QUESTION = {"messages": [{"role": "user", "content": "what is 2+3?"}]}


def test_sync_client_streams_pauses_and_resumes(served: Any) -> None:
    client = get_sync_client(url=served.url)
    tid = client.threads.create()["thread_id"]
    parts = list(client.runs.stream(tid, "calculator", input=QUESTION, stream_mode=["updates"]))
    assert parts[0].event == "metadata"
    assert [next(iter(p.data)) for p in parts[1:]] == ["model", "tools", "model"]
    post = client.threads.create()["thread_id"]
    paused = client.runs.wait(post, "post", input={"topic": "dogs"})
    assert paused["__interrupt__"][0]["value"] == {"draft": "a post about dogs"}
    done = client.runs.wait(post, "post", command={"resume": "fine"})
    assert done["verdict"] == "fine"
    state = client.threads.get_state(post)
    assert state["next"] == [] and state["values"]["log"] == ["draft", "review", "publish"]
    assert len(client.threads.get_history(post, limit=100)) >= 4
    assert client.threads.get(post)["status"] == "idle"
