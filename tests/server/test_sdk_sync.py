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


def test_prune_deletes_threads_and_what_they_saved(served: Any) -> None:
    """`threads.prune` as `langgraph dev` serves it: the threads named are deleted with
    their checkpoints (ids of no thread are not counted); `keep_latest` is refused."""
    import sqlite3

    from langgraph_sdk.errors import NotFoundError, UnprocessableEntityError

    client = get_sync_client(url=served.url)
    gone, kept = (client.threads.create()["thread_id"] for _ in range(2))
    for tid in (gone, kept):
        client.runs.wait(tid, "calculator", input=QUESTION)
    db = served.log.parent / "serve.db"

    def saved(tid: str) -> int:
        with sqlite3.connect(db) as conn:
            rows = conn.execute("SELECT count(*) FROM checkpoints WHERE thread_id = ?", (tid,))
            return int(rows.fetchone()[0])

    assert saved(gone) > 0 and saved(kept) > 0
    nobody = "0b8bf2a4-6a70-4b36-8b5e-2a3c9f2c0d11"
    assert client.threads.prune([gone, gone, nobody]) == {"pruned_count": 1}
    with pytest.raises(NotFoundError):
        client.threads.get(gone)
    assert saved(gone) == 0 and saved(kept) > 0
    assert client.threads.get_state(kept)["values"]["messages"][-1]["content"]
    with pytest.raises(UnprocessableEntityError, match="keep_latest"):
        client.threads.prune([kept], strategy="keep_latest")
    assert client.threads.prune([]) == {"pruned_count": 0}


def test_copy_makes_a_thread_of_its_own(served: Any) -> None:
    """`threads.copy`: a new idle thread with the source's metadata, state and history,
    which outlives the source; copying a thread that does not exist is a 404."""
    from langgraph_sdk.errors import NotFoundError

    client = get_sync_client(url=served.url)
    source = client.threads.create(metadata={"team": "math"})["thread_id"]
    client.runs.wait(source, "calculator", input=QUESTION)
    before = client.threads.get_history(source, limit=100)

    copied = client.threads.copy(source)
    assert copied["thread_id"] != source and copied["status"] == "idle"
    assert copied["metadata"] == client.threads.get(source)["metadata"]
    assert copied["metadata"]["team"] == "math"
    history = client.threads.get_history(copied["thread_id"], limit=100)
    assert [s["checkpoint"]["checkpoint_id"] for s in history] == [
        s["checkpoint"]["checkpoint_id"] for s in before
    ]
    assert {s["checkpoint"]["thread_id"] for s in history} == {copied["thread_id"]}
    client.threads.delete(source)
    state = client.threads.get_state(copied["thread_id"])
    assert state["values"] == before[0]["values"]
    with pytest.raises(NotFoundError, match="thread"):
        client.threads.copy(source)
