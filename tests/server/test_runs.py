"""Background runs, joins, rejoining a stream after a given event, cancelling, and a second
run on a busy thread under each multitask strategy — through the real async SDK."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

import httpx
import pytest

pytest.importorskip("langgraph_sdk", reason="these tests talk through langgraph-sdk")

from langgraph_sdk import get_client  # noqa: E402
from langgraph_sdk.client import LangGraphClient  # noqa: E402
from langgraph_sdk.errors import ConflictError, NotFoundError  # noqa: E402

QUESTION = {"messages": [{"role": "user", "content": "hello"}]}
GUARD_S = 60


def drive(url: str, body: Callable[[LangGraphClient], Awaitable[None]]) -> None:
    async def main() -> None:
        await asyncio.wait_for(body(get_client(url=url)), GUARD_S)

    asyncio.run(main())


async def until_running(client: LangGraphClient, tid: str, rid: str) -> None:
    while (await client.runs.get(tid, rid))["status"] == "pending":
        await asyncio.sleep(0.05)


def test_background_run_join_and_rejoin_after_an_event(served: Any) -> None:
    async def body(client: LangGraphClient) -> None:
        tid = (await client.threads.create())["thread_id"]
        run = await client.runs.create(
            tid, "slow", input=QUESTION, stream_mode=["values", "updates"]
        )
        assert run["status"] == "pending" and run["thread_id"] == tid
        listed = await client.runs.list(tid)
        assert [r["run_id"] for r in listed] == [run["run_id"]]
        result = await client.runs.join(tid, run["run_id"])
        assert result["messages"][-1]["content"] == "done"
        assert (await client.runs.get(tid, run["run_id"]))["status"] == "success"
        everything = [p async for p in client.runs.join_stream(tid, run["run_id"])]
        assert everything[0].event == "metadata"
        ids = [int(p.id) for p in everything]
        assert [p.event for p in everything].count("updates") == 3  # model, tools, model
        assert ids == list(range(1, len(ids) + 1))
        after = [p async for p in client.runs.join_stream(tid, run["run_id"], last_event_id="3")]
        assert [int(p.id) for p in after] == ids[3:]  # nothing missed, nothing repeated
        assert [p.data for p in after] == [p.data for p in everything[3:]]
        only = [p async for p in client.runs.join_stream(tid, run["run_id"], stream_mode="updates")]
        assert {p.event for p in only} <= {"metadata", "updates"} and any(
            p.event == "updates" for p in only
        )

    drive(served.url, body)


def test_rejoin_a_live_run_misses_nothing(served: Any) -> None:
    async def body(client: LangGraphClient) -> None:
        tid = (await client.threads.create())["thread_id"]
        run = await client.runs.create(tid, "slow", input=QUESTION, stream_mode="updates")
        first = None
        async for part in client.runs.join_stream(tid, run["run_id"]):
            first = part
            break  # the client goes away after one event
        assert first is not None
        rest = [
            p async for p in client.runs.join_stream(tid, run["run_id"], last_event_id=first.id)
        ]
        assert [int(p.id) for p in rest] == list(
            range(int(first.id) + 1, int(first.id) + 1 + len(rest))
        )
        assert [next(iter(p.data)) for p in rest if p.event == "updates"] == [
            "model",
            "tools",
            "model",
        ]

    drive(served.url, body)


def test_cancel_interrupt_and_rollback(served: Any) -> None:
    async def body(client: LangGraphClient) -> None:
        tid = (await client.threads.create())["thread_id"]
        run = await client.runs.create(tid, "looping", input=QUESTION)
        await until_running(client, tid, run["run_id"])
        await asyncio.sleep(0.5)  # let it save a step, so there is a state to go back to
        await client.runs.cancel(tid, run["run_id"], wait=True)
        assert (await client.runs.get(tid, run["run_id"]))["status"] == "interrupted"
        assert (await client.threads.get(tid))["status"] == "interrupted"
        kept = await client.threads.get_state(tid)
        gone = await client.runs.create(tid, "looping", input=QUESTION)
        await until_running(client, tid, gone["run_id"])
        await asyncio.sleep(0.5)  # let it write a step or two
        await client.runs.cancel(tid, gone["run_id"], wait=True, action="rollback")
        with pytest.raises(NotFoundError):
            await client.runs.get(tid, gone["run_id"])
        back = await client.threads.get_state(tid)
        assert back["checkpoint"] == kept["checkpoint"]  # as it was before the rolled-back run

    drive(served.url, body)


def test_multitask_reject_enqueue_interrupt_rollback(served: Any) -> None:
    async def body(client: LangGraphClient) -> None:
        tid = (await client.threads.create())["thread_id"]
        busy = await client.runs.create(tid, "looping", input=QUESTION)
        await until_running(client, tid, busy["run_id"])
        with pytest.raises(ConflictError) as refused:
            await client.runs.create(tid, "quick", input=QUESTION, multitask_strategy="reject")
        assert "busy" in str(refused.value)
        # interrupt: the running run stops, the new one runs
        second = await client.runs.create(
            tid, "looping", input=QUESTION, multitask_strategy="interrupt"
        )
        assert (await client.runs.get(tid, busy["run_id"]))["status"] == "interrupted"
        await until_running(client, tid, second["run_id"])
        # rollback: the running run is deleted, the new one runs
        third = await client.runs.create(tid, "slow", input=QUESTION, multitask_strategy="rollback")
        with pytest.raises(NotFoundError):
            await client.runs.get(tid, second["run_id"])
        # enqueue: waits for the one before it
        fourth = await client.runs.create(
            tid, "quick", input=QUESTION, multitask_strategy="enqueue"
        )
        assert (await client.runs.get(tid, fourth["run_id"]))["status"] == "pending"
        out = await client.runs.join(tid, fourth["run_id"])
        assert out["messages"][-1]["content"] == "ok"
        assert (await client.runs.get(tid, third["run_id"]))["status"] == "success"
        statuses = {r["run_id"]: r["status"] for r in await client.runs.list(tid)}
        assert statuses == {
            busy["run_id"]: "interrupted",
            third["run_id"]: "success",
            fourth["run_id"]: "success",
        }

    drive(served.url, body)


def test_on_disconnect_cancel_stops_the_run(served: Any) -> None:
    with httpx.Client(base_url=served.url, timeout=30) as http:
        tid = http.post("/threads", json={}).json()["thread_id"]
        body = {"assistant_id": "looping", "input": QUESTION, "on_disconnect": "cancel"}
        with http.stream("POST", f"/threads/{tid}/runs/stream", json=body) as res:
            run_id = res.headers["content-location"].rsplit("/", 1)[1]
            for line in res.iter_lines():
                if line.startswith("event: values"):
                    break  # hang up mid-run
        for _ in range(300):  # hang guard: 30 s
            status = http.get(f"/threads/{tid}/runs/{run_id}").json()["status"]
            if status not in ("pending", "running"):
                break
            time.sleep(0.1)
        assert status == "interrupted"


def test_a_quiet_run_gets_heartbeats(served: Any) -> None:
    """A tool that takes longer than the heartbeat period: the stream sends an SSE comment
    and the waited answer leading newlines meanwhile, so neither connection goes quiet."""

    async def stream(http: httpx.AsyncClient) -> list[str]:
        tid = (await http.post("/threads", json={})).json()["thread_id"]
        body = {"assistant_id": "sleepy", "input": QUESTION, "stream_mode": "updates"}
        async with http.stream("POST", f"/threads/{tid}/runs/stream", json=body) as res:
            return [line async for line in res.aiter_lines()]

    async def wait(http: httpx.AsyncClient) -> bytes:
        body = {"assistant_id": "sleepy", "input": QUESTION}  # stateless: a script of its own
        return (await http.post("/runs/wait", json=body)).content

    async def main() -> tuple[list[str], bytes]:
        async with httpx.AsyncClient(base_url=served.url, timeout=30) as http:
            return await asyncio.wait_for(asyncio.gather(stream(http), wait(http)), GUARD_S)

    lines, waited = asyncio.run(main())
    assert ": heartbeat" in lines
    updates = [i for i, line in enumerate(lines) if line == "event: updates"]
    assert updates[0] < lines.index(": heartbeat") < updates[1]  # while the tool ran
    assert waited.startswith(b"\n") and waited.strip().startswith(b"{")


def test_cancel_several_runs_at_once(served: Any) -> None:
    async def body(client: LangGraphClient) -> None:
        tid = (await client.threads.create())["thread_id"]
        first = await client.runs.create(tid, "looping", input=QUESTION)
        queued = await client.runs.create(tid, "looping", input=QUESTION)
        await until_running(client, tid, first["run_id"])
        await client.runs.cancel_many(thread_id=tid, run_ids=[first["run_id"], queued["run_id"]])
        for run in (first, queued):
            assert (await client.runs.get(tid, run["run_id"]))["status"] == "interrupted"
        other = (await client.threads.create())["thread_id"]
        going = await client.runs.create(other, "looping", input=QUESTION)
        await until_running(client, other, going["run_id"])
        await client.runs.cancel_many(status="running")
        assert (await client.runs.get(other, going["run_id"]))["status"] == "interrupted"

    drive(served.url, body)
