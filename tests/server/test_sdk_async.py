"""`agentc serve` through the real async `langgraph-sdk` client: assistants, threads,
streaming in every served mode, a review paused and resumed, history, branching, state
updates, waited and stateless runs, and the store (what a tool saved is read over HTTP)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

pytest.importorskip("langgraph_sdk", reason="these tests talk through langgraph-sdk")

from langgraph_sdk import get_client  # noqa: E402
from langgraph_sdk.client import LangGraphClient  # noqa: E402

QUESTION = {"messages": [{"role": "user", "content": "what is 2+3?"}]}
GUARD_S = 60  # hang guard


def drive(url: str, body: Callable[[LangGraphClient], Awaitable[None]]) -> None:
    async def main() -> None:
        await asyncio.wait_for(body(get_client(url=url)), GUARD_S)

    asyncio.run(main())


async def collect(stream: Any) -> list[Any]:
    return [part async for part in stream]


def test_assistants_search_get_graph_schemas(served: Any) -> None:
    async def body(client: LangGraphClient) -> None:
        found = await client.assistants.search(limit=100)
        by_graph = {a["graph_id"]: a for a in found}
        assert {"calculator", "careful", "post", "quick"} <= set(by_graph)
        calc = by_graph["calculator"]
        assert calc["assistant_id"] == "0d1ff216-6054-5926-941a-33f750dff0a5"  # UUID5, stable
        assert (await client.assistants.get(calc["assistant_id"]))["graph_id"] == "calculator"
        assert (await client.assistants.get("calculator"))["assistant_id"] == calc["assistant_id"]
        only = await client.assistants.search(graph_id="post")
        assert [a["graph_id"] for a in only] == ["post"]
        graph = await client.assistants.get_graph("calculator")
        ids = [n["id"] for n in graph["nodes"]]
        assert ids[0] == "__start__" and "model" in ids and "tools" in ids
        assert {"source": "__start__", "target": "model"} in [
            {k: e[k] for k in ("source", "target")} for e in graph["edges"]
        ]
        assert any(e.get("conditional") for e in graph["edges"])
        schemas = await client.assistants.get_schemas("post")
        assert set(schemas["state_schema"]["properties"]) == {"topic", "draft", "verdict", "log"}
        assert schemas["graph_id"] == "post"

    drive(served.url, body)


def test_thread_crud_and_search(served: Any) -> None:
    async def body(client: LangGraphClient) -> None:
        t = await client.threads.create(metadata={"owner": "ann", "team": {"id": 7}})
        assert t["status"] == "idle" and t["metadata"]["owner"] == "ann"
        same = await client.threads.create(thread_id=t["thread_id"], if_exists="do_nothing")
        assert same["thread_id"] == t["thread_id"]
        other = await client.threads.create(metadata={"owner": "bob"})
        assert (await client.threads.get(t["thread_id"]))["metadata"]["team"] == {"id": 7}
        patched = await client.threads.update(t["thread_id"], metadata={"tag": "x"})
        assert patched["metadata"] == {"owner": "ann", "team": {"id": 7}, "tag": "x"}
        found = await client.threads.search(metadata={"owner": "ann", "team": {"id": 7}})
        assert [f["thread_id"] for f in found] == [t["thread_id"]]
        idle = await client.threads.search(status="idle", limit=1000)
        assert {t["thread_id"], other["thread_id"]} <= {f["thread_id"] for f in idle}
        page = await client.threads.search(
            limit=1, offset=0, sort_by="created_at", sort_order="asc"
        )
        assert len(page) == 1
        await client.threads.delete(other["thread_id"])
        assert not await client.threads.search(metadata={"owner": "bob"})

    drive(served.url, body)


def test_stream_every_mode(served: Any) -> None:
    async def body(client: LangGraphClient) -> None:
        t = await client.threads.create()
        modes = ["values", "updates", "messages-tuple", "events"]
        parts = await collect(
            client.runs.stream(t["thread_id"], "calculator", input=QUESTION, stream_mode=modes)
        )
        events = [p.event for p in parts]
        assert events[0] == "metadata" and "run_id" in parts[0].data
        assert all(p.id is not None for p in parts)  # every event has an id to rejoin after
        assert [int(p.id) for p in parts] == list(range(1, len(parts) + 1))
        assert {"values", "updates", "messages", "events"} <= set(events)
        last_values = [p.data for p in parts if p.event == "values"][-1]
        assert [m["type"] for m in last_values["messages"]] == ["human", "ai", "tool", "ai"]
        assert last_values["messages"][-1]["content"] == "The answer is 5."
        updates = [next(iter(p.data)) for p in parts if p.event == "updates"]
        assert updates == ["model", "tools", "model"]
        chunk, meta = next(p.data for p in parts if p.event == "messages")
        assert chunk["type"] == "AIMessageChunk" and meta["langgraph_node"] == "model"
        kinds = [p.data["event"] for p in parts if p.event == "events"]
        assert "on_chat_model_start" in kinds and "on_tool_end" in kinds
        labelled = await client.threads.get(t["thread_id"])  # as LangGraph's server labels it
        assert labelled["metadata"]["graph_id"] == "calculator"
        listed = await client.threads.search(metadata={"graph_id": "calculator"}, limit=1000)
        assert t["thread_id"] in [x["thread_id"] for x in listed]
        assert labelled["values"]["messages"][-1]["content"] == "The answer is 5."
        partial = await collect(
            client.runs.stream(t["thread_id"], "calculator", input=QUESTION, stream_mode="messages")
        )
        names = [p.event for p in partial]
        assert "messages/metadata" in names and "messages/partial" in names
        texts = [p.data[0]["content"] for p in partial if p.event == "messages/partial"]
        assert "The answer is 5." in texts

    drive(served.url, body)


def test_custom_mode_interrupt_and_resume_on_a_graph(served: Any) -> None:
    async def body(client: LangGraphClient) -> None:
        t = await client.threads.create()
        tid = t["thread_id"]
        parts = await collect(
            client.runs.stream(
                tid, "post", input={"topic": "cats"}, stream_mode=["custom", "values"]
            )
        )
        assert {"drafting": "cats"} in [p.data for p in parts if p.event == "custom"]
        paused = [p.data for p in parts if p.event == "values"][-1]
        assert paused["__interrupt__"][0]["value"] == {"draft": "a post about cats"}
        assert (await client.threads.get(tid))["status"] == "interrupted"
        state = await client.threads.get_state(tid)
        assert state["next"] == ["review"] and state["interrupts"][0]["id"]
        done = await client.runs.wait(tid, "post", command={"resume": "ship it"})
        assert done["verdict"] == "ship it" and done["log"] == ["draft", "review", "publish"]
        assert (await client.threads.get(tid))["status"] == "idle"

    drive(served.url, body)


def test_review_interrupt_then_resume_with_command(served: Any) -> None:
    async def body(client: LangGraphClient) -> None:
        t = await client.threads.create()
        tid = t["thread_id"]
        paused = await client.runs.wait(tid, "careful", input=QUESTION)
        request = paused["__interrupt__"][0]["value"]
        assert request["action_requests"][0]["name"] == "add"
        thread = await client.threads.get(tid)
        assert thread["status"] == "interrupted" and thread["interrupts"]
        parts = await collect(
            client.runs.stream(
                tid, "careful", command={"resume": {"decisions": [{"type": "approve"}]}},
                stream_mode="updates",
            )
        )  # fmt: skip
        assert "tools" in [next(iter(p.data)) for p in parts if p.event == "updates"]
        final = await client.threads.get_state(tid)
        assert final["values"]["messages"][-1]["content"] == "The answer is 5."

    drive(served.url, body)


def test_history_branch_and_update_state(served: Any) -> None:
    async def body(client: LangGraphClient) -> None:
        tid = (await client.threads.create())["thread_id"]
        await client.runs.wait(tid, "calculator", input=QUESTION)
        history = await client.threads.get_history(tid, limit=100)
        assert len(history) >= 4 and history[0]["next"] == []
        assert (
            history[0]["parent_checkpoint"]["checkpoint_id"]
            == history[1]["checkpoint"]["checkpoint_id"]
        )
        older = await client.threads.get_history(
            tid, before={"checkpoint_id": history[0]["checkpoint"]["checkpoint_id"]}, limit=2
        )
        assert [h["checkpoint"] for h in older] == [h["checkpoint"] for h in history[1:3]]
        # the state before the last model call: branch from it and ask again
        before_answer = next(h for h in history if h["next"] == ["model"] and
                             len(h["values"]["messages"]) == 3)  # fmt: skip
        cid = before_answer["checkpoint"]["checkpoint_id"]
        at = await client.threads.get_state(tid, checkpoint_id=cid)
        assert len(at["values"]["messages"]) == 3
        branched = await client.runs.wait(tid, "calculator", input=None, checkpoint_id=cid)
        kept = [m["id"] for m in at["values"]["messages"]]
        assert [m["id"] for m in branched["messages"][:3]] == kept  # it went on from there
        assert branched["messages"][-1]["content"] == "The answer is 5."
        fork = await client.threads.get_history(tid, limit=100)
        assert len(fork) > len(history)  # the branch's checkpoints were added, none lost
        # update_state as a node, then read it back
        done = await client.threads.update_state(
            tid, {"messages": [{"role": "user", "content": "thanks"}]}, as_node="model"
        )
        assert done["checkpoint"]["checkpoint_id"]
        now = await client.threads.get_state(tid)
        assert now["values"]["messages"][-1]["content"] == "thanks"
        assert now["checkpoint"]["checkpoint_id"] == done["checkpoint"]["checkpoint_id"]

    drive(served.url, body)


def test_stateless_runs_and_if_not_exists(served: Any) -> None:
    async def body(client: LangGraphClient) -> None:
        out = await client.runs.wait(None, "calculator", input=QUESTION)
        assert out["messages"][-1]["content"] == "The answer is 5."
        parts = await collect(client.runs.stream(None, "quick", input=QUESTION))
        assert [p.event for p in parts] == ["metadata", "values", "values"]
        tid = "7b0c3f52-5a1e-4c39-9d43-0e5b8f0a4f11"
        made = await client.runs.wait(tid, "quick", input=QUESTION, if_not_exists="create")
        assert made["messages"][-1]["content"] == "ok"
        assert (await client.threads.get(tid))["metadata"]["graph_id"] == "quick"

    drive(served.url, body)


def test_a_stateless_run_with_on_completion_keep_leaves_its_thread(served: Any) -> None:
    """Without a thread a run's state is forgotten, unless it asks to keep it: then its
    thread is one like any other, found by search, with the run's state and runs."""

    async def body(client: LangGraphClient) -> None:
        before = {t["thread_id"] for t in await client.threads.search(limit=1000)}
        await client.runs.wait(None, "quick", input=QUESTION)
        after_forgotten = {t["thread_id"] for t in await client.threads.search(limit=1000)}
        await client.runs.wait(None, "quick", input=QUESTION, on_completion="keep")
        kept = {t["thread_id"] for t in await client.threads.search(limit=1000)} - before
        assert after_forgotten == before and len(kept) == 1
        tid = kept.pop()
        state = await client.threads.get_state(tid)
        assert state["values"]["messages"][-1]["content"] == "ok"
        thread = await client.threads.get(tid)
        assert thread["status"] == "idle" and thread["metadata"]["graph_id"] == "quick"
        runs = await client.runs.list(tid)
        assert [r["status"] for r in runs] == ["success"]
        assert runs[0]["kwargs"]["temporary"] is False

    drive(served.url, body)


def test_store_items_and_a_tool_writing_the_store(served: Any) -> None:
    async def body(client: LangGraphClient) -> None:
        await client.store.put_item(["users", "ann"], "prefs", {"tea": True, "n": 3})
        await client.store.put_item(["users", "bob"], "prefs", {"tea": False, "n": 5})
        item = await client.store.get_item(["users", "ann"], "prefs")
        assert item["value"] == {"tea": True, "n": 3} and item["namespace"] == ["users", "ann"]
        found = await client.store.search_items(["users"], filter={"tea": True})
        assert [i["namespace"] for i in found["items"]] == [["users", "ann"]]
        spaces = await client.store.list_namespaces(prefix=["users"])
        assert ["users", "ann"] in spaces["namespaces"] and ["users", "bob"] in spaces["namespaces"]
        await client.store.delete_item(["users", "bob"], "prefs")
        from langgraph_sdk.errors import NotFoundError

        with pytest.raises(NotFoundError):
            await client.store.get_item(["users", "bob"], "prefs")
        await client.runs.wait(None, "memo", input=QUESTION)
        saved = await client.store.get_item(["facts"], "likes tea")
        assert saved["value"] == {"fact": "likes tea"}

    drive(served.url, body)


def test_breakpoints_and_a_failing_run(served: Any) -> None:
    async def body(client: LangGraphClient) -> None:
        tid = (await client.threads.create())["thread_id"]
        paused = await client.runs.wait(
            tid, "calculator", input=QUESTION, interrupt_before=["tools"]
        )
        assert paused["messages"][-1]["tool_calls"][0]["name"] == "add"
        assert (await client.threads.get_state(tid))["next"] == ["tools"]
        assert (await client.threads.get(tid))["status"] == "interrupted"
        done = await client.runs.wait(tid, "calculator", input=None)
        assert done["messages"][-1]["content"] == "The answer is 5."
        bad = {"messages": [{"role": "robot", "content": "?"}]}
        parts = await collect(client.runs.stream(tid, "quick", input=bad))
        assert parts[-1].event == "error" and parts[-1].data["error"] == "bad-message"
        assert "robot" in parts[-1].data["message"]
        assert (await client.threads.get(tid))["status"] == "error"
        with pytest.raises(Exception, match="bad-message: unknown message role"):
            await client.runs.wait(None, "quick", input=bad)  # the SDK raises `__error__`

    drive(served.url, body)


def test_stream_subgraphs_names_events_by_namespace(served: Any) -> None:
    async def body(client: LangGraphClient) -> None:
        modes = ["updates", "messages-tuple"]
        nested = await collect(
            client.runs.stream(
                None, "boss", input=QUESTION, stream_mode=modes, stream_subgraphs=True
            )
        )
        inner = [p.event for p in nested if "|" in p.event]
        assert inner and all(e.startswith("messages|tools:") for e in inner)
        assert [next(iter(p.data)) for p in nested if p.event == "updates"] == [
            "model",
            "tools",
            "model",
        ]
        flat = await collect(client.runs.stream(None, "boss", input=QUESTION, stream_mode=modes))
        assert not [p.event for p in flat if "|" in p.event]

    drive(served.url, body)
