"""What the differential test against `langgraph dev` found, pinned against our own server:
the shapes of `/info`, a new thread and an assistant; a rollback on a new thread; the run's
labels; the id on streamed chunks."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
import pytest
from serve_kit import needs_serve

needs_serve()

from langgraph_sdk.client import LangGraphClient  # noqa: E402
from test_runs import QUESTION, drive, until_running  # noqa: E402


def test_info_has_langgraph_keys_and_flags(served: Any) -> None:
    got = httpx.get(f"{served.url}/info").json()
    assert set(got) == {"version", "langgraph_py_version", "flags", "host"}
    assert set(got["flags"]) == {
        "assistants",
        "crons",
        "langsmith",
        "langsmith_tracing_replicas",
        "langsmith_tracing_session_on_runs",
    }
    assert got["flags"]["crons"] is True
    assert got["flags"]["langsmith"] is False  # a feature agentc lacks is flagged off


def test_a_new_thread_has_no_interrupts_key(served: Any) -> None:
    created = httpx.post(f"{served.url}/threads", json={}).json()
    assert "interrupts" not in created and created["values"] is None


def test_an_assistant_never_shows_an_absolute_path(served: Any) -> None:
    found = httpx.post(f"{served.url}/assistants/search", json={}).json()
    files = [a["metadata"]["file"] for a in found]
    assert files and not any(Path(f).is_absolute() for f in files)


def test_rolling_back_a_new_threads_first_run_leaves_it_empty(served: Any) -> None:
    async def body(client: LangGraphClient) -> None:
        tid = (await client.threads.create())["thread_id"]
        gone = await client.runs.create(tid, "looping", input=QUESTION)
        await until_running(client, tid, gone["run_id"])
        await asyncio.sleep(0.5)  # let it save its input and a step
        await client.runs.cancel(tid, gone["run_id"], wait=True, action="rollback")
        assert (await client.threads.get_state(tid))["values"] == {}
        out = await client.runs.wait(tid, "quick", input=QUESTION)
        assert [m["content"] for m in out["messages"]] == ["hello", "ok"]

    drive(served.url, body)


def test_run_labels_reach_the_runs_config_metadata(served: Any) -> None:
    async def body(client: LangGraphClient) -> None:
        tid = (await client.threads.create())["thread_id"]
        run = await client.runs.create(tid, "quick", input=QUESTION, metadata={"mine": 1})
        await client.runs.join(tid, run["run_id"])
        meta = (await client.runs.get(tid, run["run_id"]))["kwargs"]["config"]["metadata"]
        assert meta["mine"] == 1 and meta["run_id"] == run["run_id"]
        assert meta["thread_id"] == tid and meta["graph_id"] == "quick"

    drive(served.url, body)


@pytest.mark.parametrize("mode", ["messages-tuple"])
def test_every_streamed_chunk_has_the_final_messages_id(served: Any, mode: str) -> None:
    async def body(client: LangGraphClient) -> None:
        tid = (await client.threads.create())["thread_id"]
        parts = [
            p async for p in client.runs.stream(tid, "quick", input=QUESTION, stream_mode=mode)
        ]
        ids = {p.data[0]["id"] for p in parts if p.event == "messages"}
        final = (await client.threads.get_state(tid))["values"]["messages"][-1]["id"]
        assert ids == {final}

    drive(served.url, body)


def test_a_rollback_strategy_run_starts_where_the_thread_was(served: Any) -> None:
    async def body(client: LangGraphClient) -> None:
        tid = (await client.threads.create())["thread_id"]
        first = await client.runs.create(tid, "looping", input=QUESTION)
        await until_running(client, tid, first["run_id"])
        await asyncio.sleep(0.5)  # it has saved its input and a step
        second = await client.runs.create(
            tid, "quick", input=QUESTION, multitask_strategy="rollback"
        )
        out = await client.runs.join(tid, second["run_id"])
        assert [m["content"] for m in out["messages"]] == ["hello", "ok"]

    drive(served.url, body)


def _kinds(parts: list[Any]) -> list[tuple[str, str]]:
    return [(p.data["event"], p.data["name"]) for p in parts if p.event == "events"]


def test_events_name_the_graph_each_node_and_each_streamed_token(served: Any) -> None:
    async def body(client: LangGraphClient) -> None:
        tid = (await client.threads.create())["thread_id"]
        stream = client.runs.stream(tid, "quick", input=QUESTION, stream_mode="events")
        kinds = _kinds([p async for p in stream])
        assert kinds[0] == ("on_chain_start", "quick") and kinds[-1] == ("on_chain_end", "quick")
        at = kinds.index(("on_chain_start", "model"))
        inside = [k for k, _ in kinds[at : kinds.index(("on_chain_end", "model"))]]
        assert inside[1] == "on_chat_model_start" and "on_chat_model_stream" in inside
        assert inside[-2:] == ["on_chat_model_end", "on_chain_stream"]

    drive(served.url, body)


def test_only_events_are_sent_when_only_events_are_asked(served: Any) -> None:
    async def body(client: LangGraphClient) -> None:
        tid = (await client.threads.create())["thread_id"]
        stream = client.runs.stream(tid, "quick", input=QUESTION, stream_mode="events")
        assert {p.event async for p in stream} == {"metadata", "events"}

    drive(served.url, body)


def test_a_streamed_reply_ends_with_a_closing_chunk(served: Any) -> None:
    async def body(client: LangGraphClient) -> None:
        tid = (await client.threads.create())["thread_id"]
        stream = client.runs.stream(tid, "quick", input=QUESTION, stream_mode="messages-tuple")
        chunks = [p.data[0] async for p in stream if p.event == "messages"]
        assert [c["chunk_position"] for c in chunks][-1] == "last"
        assert all(c["chunk_position"] is None for c in chunks[:-1])
        assert chunks[-1]["content"] == "" and "".join(c["content"] for c in chunks) == "ok"

    drive(served.url, body)


def test_a_private_channel_is_in_the_state_not_in_updates(served: Any) -> None:
    async def body(client: LangGraphClient) -> None:
        tid = (await client.threads.create())["thread_id"]
        await client.runs.wait(tid, "careful", input=QUESTION)  # pauses for a review
        stream = client.runs.stream(
            tid, "careful", command={"resume": {"decisions": [{"type": "approve"}]}},
            stream_mode="updates",
        )  # fmt: skip
        updates = [p.data async for p in stream if p.event == "updates"]
        review = next(
            u["human_review.after_model"] for u in updates if "human_review.after_model" in u
        )
        assert set(review) == {"messages"} and review["messages"][0]["tool_calls"]
        state = await client.threads.get_state(tid)
        assert state["values"]["hitl_edited_tool_calls"] == {}

    drive(served.url, body)
