"""The one `langgraph-sdk` script run against both servers, step by step.

Each step is a named coroutine that talks to one server through the async client and
returns what it saw (JSON values). Before a step the side's fake model is reset and given
exactly the replies the step needs, so one step's failure cannot shift the next one's
replies. Steps read what earlier steps left in `ctx.memo` (a thread id, a checkpoint id).
A step that raises is recorded as its error (an HTTP status, or the exception's type), so
every later step still runs.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
from langgraph_sdk import get_client
from langgraph_sdk.client import LangGraphClient

from agentc.testing.fake_provider import FakeProviderServer, FakeReply, FakeToolCall

HANG_S = 60.0  # a step that takes longer has hung: recorded as a failure, not waited for
AGENT, GRAPH = "calc", "flow"
ASK = {"messages": [{"role": "user", "content": "what is 2+3?"}]}
APPROVE = {"decisions": [{"type": "approve"}]}


def add_call() -> FakeReply:
    return FakeReply(tool_calls=[FakeToolCall("add", json.dumps({"a": 2, "b": 3}), "c1")])


def text(words: str, delay_s: float = 0.0) -> FakeReply:
    return FakeReply(text=words, delay_s=delay_s)


@dataclass
class Ctx:
    client: LangGraphClient
    fake: FakeProviderServer
    memo: dict[str, Any] = field(default_factory=dict)

    async def thread(self) -> str:
        return (await self.client.threads.create())["thread_id"]

    async def model_called(self, times: int = 1) -> None:
        """Wait until the fake model has been asked `times` times: the run is mid-call."""
        deadline = time.monotonic() + HANG_S
        while len(self.fake.requests) < times:
            if time.monotonic() > deadline:
                raise TimeoutError(f"the model was asked {len(self.fake.requests)}/{times} times")
            await asyncio.sleep(0.02)


StepFn = Callable[[Ctx], Awaitable[Any]]


@dataclass(frozen=True)
class Step:
    name: str
    replies: tuple[Callable[[], FakeReply], ...]
    run: StepFn


def parts(stream: Any) -> Awaitable[list[dict[str, Any]]]:
    async def collect() -> list[dict[str, Any]]:
        return [{"event": p.event, "data": p.data} async for p in stream]

    return collect()


# ------------------------------------------------------------------ stream modes


def stream_step(mode: Any, graph: str = AGENT, input: Any = ASK) -> StepFn:
    async def run(ctx: Ctx) -> Any:
        thread = await ctx.thread()
        got = await parts(ctx.client.runs.stream(thread, graph, input=input, stream_mode=mode))
        if mode == "events":  # the events mode's payloads are LangChain callback dumps
            return [(p["event"], _event_kind(p["data"])) for p in got]
        return got

    return run


def _event_kind(data: Any) -> Any:
    if isinstance(data, dict):
        return [data.get("event"), data.get("name")]
    return data


# ------------------------------------------------------------------ the agent: review


async def interrupt(ctx: Ctx) -> Any:
    ctx.memo["review"] = thread = await ctx.thread()
    return await parts(ctx.client.runs.stream(thread, AGENT, input=ASK, stream_mode="updates"))


async def state_paused(ctx: Ctx) -> Any:
    return await ctx.client.threads.get_state(ctx.memo["review"])


async def resume(ctx: Ctx) -> Any:
    stream = ctx.client.runs.stream(
        ctx.memo["review"], AGENT, command={"resume": APPROVE}, stream_mode="updates"
    )
    return await parts(stream)


async def state_done(ctx: Ctx) -> Any:
    return await ctx.client.threads.get_state(ctx.memo["review"])


async def history(ctx: Ctx) -> Any:
    return await ctx.client.threads.get_history(ctx.memo["review"], limit=20)


async def thread_copy(ctx: Ctx) -> Any:
    """A copy of the reviewed thread: a new idle thread with its state and history."""
    copied = await ctx.client.threads.copy(ctx.memo["review"])
    ctx.memo["copy"] = tid = copied["thread_id"]
    # LangGraph's copy leaves `values` out where its new threads send null; agentc sends
    # null for both (the schema's field is optional): compared without it
    return {
        "thread": {k: v for k, v in copied.items() if not (k == "values" and v is None)},
        "state": await ctx.client.threads.get_state(tid),
        "history": await ctx.client.threads.get_history(tid, limit=20),
    }


async def copy_goes_on(ctx: Ctx) -> Any:
    """A run on the copy continues its conversation and leaves the source as it was."""
    done = await ctx.client.runs.wait(
        ctx.memo["copy"], AGENT, input={"messages": [{"role": "user", "content": "thanks"}]}
    )
    source = await ctx.client.threads.get_state(ctx.memo["review"])
    return {"copy": done, "source": source["values"]}


# ------------------------------------------------------------------ crons

NEW_YEAR = "0 0 1 1 *"  # due once a year: never within the script


async def cron_create(ctx: Ctx) -> Any:
    ctx.memo["cron_thread"] = thread = await ctx.thread()
    cron = await ctx.client.crons.create_for_thread(
        thread, AGENT, schedule=NEW_YEAR, input=ASK, metadata={"suite": "diff"}
    )
    ctx.memo["cron"] = cron["cron_id"]
    return cron


async def cron_create_threadless(ctx: Ctx) -> Any:
    cron = await ctx.client.crons.create(
        GRAPH, schedule=NEW_YEAR, input={"topic": "owls"}, timezone="Europe/Paris",
        on_run_completed="keep",
    )  # fmt: skip
    ctx.memo["cron_threadless"] = cron["cron_id"]
    return cron


async def cron_search(ctx: Ctx) -> Any:
    mine = await ctx.client.crons.search(thread_id=ctx.memo["cron_thread"])
    every = await ctx.client.crons.search(sort_by="created_at", sort_order="asc", limit=5)
    count = await ctx.client.crons.count(thread_id=ctx.memo["cron_thread"])
    return {"mine": mine, "every": [c["cron_id"] for c in every], "count": count}


async def cron_update(ctx: Ctx) -> Any:
    return await ctx.client.crons.update(ctx.memo["cron"], enabled=False, schedule="0 12 1 1 *")


async def cron_delete(ctx: Ctx) -> Any:
    for cron_id in (ctx.memo["cron"], ctx.memo["cron_threadless"]):
        await ctx.client.crons.delete(cron_id)
    return {"left": await ctx.client.crons.count()}


# ------------------------------------------------------------------ the graph: branch


async def flow_wait(ctx: Ctx) -> Any:
    ctx.memo["flow"] = thread = await ctx.thread()
    return await ctx.client.runs.wait(thread, GRAPH, input={"topic": "cats"})


async def flow_resume(ctx: Ctx) -> Any:
    return await ctx.client.runs.wait(ctx.memo["flow"], GRAPH, command={"resume": True})


async def flow_history(ctx: Ctx) -> Any:
    states = await ctx.client.threads.get_history(ctx.memo["flow"], limit=20)
    before = [s for s in states if s["next"] == ["draft"]]
    ctx.memo["fork_at"] = before[0]["checkpoint"]["checkpoint_id"] if before else None
    return states


async def flow_branch(ctx: Ctx) -> Any:
    """Run again from the checkpoint before `draft`: a new branch that asks again."""
    return await ctx.client.runs.wait(
        ctx.memo["flow"], GRAPH, input=None, checkpoint_id=ctx.memo["fork_at"]
    )


async def flow_branch_resume(ctx: Ctx) -> Any:
    """Answer the branch's question the other way."""
    return await ctx.client.runs.wait(ctx.memo["flow"], GRAPH, command={"resume": False})


async def flow_state(ctx: Ctx) -> Any:
    return await ctx.client.threads.get_state(ctx.memo["flow"])


async def flow_update(ctx: Ctx) -> Any:
    return await ctx.client.threads.update_state(
        ctx.memo["flow"], {"log": ["edited"]}, as_node="publish"
    )


async def flow_after_update(ctx: Ctx) -> Any:
    state = await ctx.client.threads.get_state(ctx.memo["flow"])
    return {"values": state["values"], "next": state["next"], "source": _source(state)}


def _source(state: dict[str, Any]) -> Any:
    meta = state.get("metadata") or {}
    return [meta.get("source"), meta.get("step")]


async def stateless_wait(ctx: Ctx) -> Any:
    return await ctx.client.runs.wait(None, GRAPH, input={"topic": "dogs"})


# ------------------------------------------------------------------ background runs


def multitask(strategy: str) -> StepFn:
    """A second run on a thread whose first run is mid-model-call."""

    async def run(ctx: Ctx) -> Any:
        thread = await ctx.thread()
        first = await ctx.client.runs.create(thread, AGENT, input=ASK)
        await ctx.model_called()
        seen: dict[str, Any] = {}
        try:
            second = await ctx.client.runs.create(
                thread, AGENT, input=ASK, multitask_strategy=strategy
            )
        except httpx.HTTPStatusError as e:
            seen["second"] = {"status": e.response.status_code}
            second = None
        if second is not None:
            await ctx.client.runs.join(thread, second["run_id"])
            seen["second"] = (await ctx.client.runs.get(thread, second["run_id"]))["status"]
        try:
            await ctx.client.runs.join(thread, first["run_id"])
            seen["first"] = (await ctx.client.runs.get(thread, first["run_id"]))["status"]
        except httpx.HTTPStatusError as e:
            seen["first"] = {"status": e.response.status_code}
        state = await ctx.client.threads.get_state(thread)
        seen["messages"] = [m["content"] for m in state["values"].get("messages", [])]
        return seen

    return run


async def cancel(ctx: Ctx) -> Any:
    thread = await ctx.thread()
    run = await ctx.client.runs.create(thread, AGENT, input=ASK)
    await ctx.model_called()
    await ctx.client.runs.cancel(thread, run["run_id"], wait=True)
    return {
        "run": (await ctx.client.runs.get(thread, run["run_id"]))["status"],
        "thread": (await ctx.client.threads.get(thread))["status"],
    }


async def background_join(ctx: Ctx) -> Any:
    thread = await ctx.thread()
    run = await ctx.client.runs.create(thread, AGENT, input=ASK)
    joined = await ctx.client.runs.join(thread, run["run_id"])
    listed = await ctx.client.runs.list(thread)
    return {"joined": joined, "runs": [r["status"] for r in listed]}


async def rejoin(ctx: Ctx) -> Any:
    """Read two events, hang up, rejoin after the second one's id: nothing lost."""
    thread = await ctx.thread()
    stream = ctx.client.runs.stream(
        thread,
        AGENT,
        input=ASK,
        stream_mode="values",
        stream_resumable=True,
        on_disconnect="continue",
    )
    head: list[Any] = []
    last_id, run_id = None, None
    async for p in stream:
        head.append({"event": p.event, "data": p.data})
        run_id = run_id or (p.data or {}).get("run_id")
        last_id = p.id
        if len(head) == 2:
            break
    await stream.aclose()  # type: ignore[attr-defined]
    tail = await parts(ctx.client.runs.join_stream(thread, run_id, last_event_id=last_id))
    return {"head": head, "tail": tail, "had_event_id": last_id is not None}


# ------------------------------------------------------------------ the script


async def info(ctx: Ctx) -> Any:
    """The fields of /info a client may branch on (versions and hosts differ by design)."""
    got = await ctx.client.http.get("/info")
    return {"keys": sorted(got), "flags": sorted(got.get("flags") or {})}


STEPS: tuple[Step, ...] = (
    Step("info", (), info),
    Step("assistants-search", (), lambda ctx: ctx.client.assistants.search(graph_id=AGENT)),
    Step("thread-create", (), lambda ctx: ctx.client.threads.create(metadata={"suite": "diff"})),
    Step("stream-values", (lambda: text("Hello."),), stream_step("values")),
    Step("stream-updates", (lambda: text("Hello."),), stream_step("updates")),
    Step("stream-messages-tuple", (lambda: text("Hello there."),), stream_step("messages-tuple")),
    Step("stream-custom", (), stream_step("custom", GRAPH, {"topic": "cats"})),
    Step("stream-events", (lambda: text("Hello."),), stream_step("events")),
    Step(
        "stream-several-modes",
        (lambda: text("Hello."),),
        stream_step(["values", "updates", "messages-tuple", "custom"]),
    ),
    Step("interrupt", (add_call,), interrupt),
    Step("state-paused", (), state_paused),
    Step("resume", (lambda: text("The answer is 5."),), resume),
    Step("state-after-resume", (), state_done),
    Step("history", (), history),
    Step("thread-copy", (), thread_copy),
    Step("thread-copy-runs", (lambda: text("You are welcome."),), copy_goes_on),
    Step("graph-wait-interrupts", (), flow_wait),
    Step("graph-resume", (), flow_resume),
    Step("graph-history", (), flow_history),
    Step("graph-branch", (), flow_branch),
    Step("graph-branch-resume", (), flow_branch_resume),
    Step("graph-state-after-branch", (), flow_state),
    Step("graph-update-state", (), flow_update),
    Step("graph-state-after-update", (), flow_after_update),
    Step("stateless-wait", (), stateless_wait),
    Step("cron-create", (), cron_create),
    Step("cron-create-threadless", (), cron_create_threadless),
    Step("cron-search", (), cron_search),
    Step("cron-update", (), cron_update),
    Step("cron-delete", (), cron_delete),
    *(
        Step(
            f"multitask-{s}",
            (lambda: text("first", delay_s=1.5), lambda: text("second")),
            multitask(s),
        )
        for s in ("reject", "enqueue", "interrupt", "rollback")
    ),
    Step("cancel", (lambda: text("never read", delay_s=3.0),), cancel),
    Step("background-join", (lambda: text("Hello."),), background_join),
    Step("rejoin-stream", (lambda: text("Hello.", delay_s=0.5),), rejoin),
)

STEP_NAMES = [s.name for s in STEPS]


@dataclass(frozen=True)
class Outcome:
    ok: bool
    value: Any  # what the step returned, or {"error": …} when it failed


async def run_script(url: str, fake: FakeProviderServer) -> dict[str, Outcome]:
    ctx = Ctx(get_client(url=url, timeout=HANG_S), fake)
    out: dict[str, Outcome] = {}
    for step in STEPS:
        fake.reset()
        fake.push(*(make() for make in step.replies))
        try:
            value = await asyncio.wait_for(step.run(ctx), HANG_S)
            out[step.name] = Outcome(True, value)
        except httpx.HTTPStatusError as e:
            out[step.name] = Outcome(False, {"error": "http", "status": e.response.status_code})
        except Exception as e:  # a step's failure is recorded; the next step still runs
            out[step.name] = Outcome(False, {"error": type(e).__name__, "message": str(e)[:300]})
    return out
