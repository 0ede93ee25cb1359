"""Python nodes and routers for the runtime's `.agent` test graphs (`graphs/*.agent`).

Tests observe them through module-level records (`CALLS`, `SEEN`, `PEAK`) that the
`nodes` fixture clears before each test, and steer them through `KNOBS`.
"""

import asyncio
import threading
import time
from dataclasses import dataclass

from agentc.runtime import Command, CommandGraph, Send, interrupt

CALLS: list = []  # what ran, in the order it ran
SEEN: list = []  # what nodes read
KNOBS: dict = {}  # per-test switches (e.g. a store to watch)
_lock = threading.Lock()
PEAK = {"active": 0, "peak": 0}


def reset():
    CALLS.clear(), SEEN.clear(), KNOBS.clear()
    PEAK.update(active=0, peak=0)


# ---------------------------------------------------------------- plain steps


def noop(state):
    return None


def inc(state):
    return {"n": state["n"] + 1, "log": [str(state["n"])]}


def _say(word, state):
    CALLS.append(word)
    return {"log": [word]}


def say_a(state):
    return _say("a", state)


def say_b(state):
    return _say("b", state)


def say_c(state):
    return _say("c", state)


def say_model(state):
    return _say("model", state)


def say_tools(state):
    return _say("tools", state)


def say_before(state):
    return _say("before", state)


def say_after(state):
    return _say("after", state)


def say_zeta(state):
    return _say("zeta", state)


def say_alpha(state):
    return _say("alpha", state)


def write_x_1(state):
    return {"x": 1}


def write_x_2(state):
    return {"x": 2}


def write_y(state):
    return {"y": 1}


def tools_step(state):
    CALLS.append("tools")
    return {"n": state["n"] + 1, "log": ["tools"]}


def returns_str(state):
    return "oops"


def mutate(state):
    state["x"] = 2


def reducers_a(state):
    return {"log": ["a"], "m": {"a": 1}, "k": 1}


def reducers_b(state):
    return {"log": "b", "m": {"b": 2}, "k": 2}


def goto_c(state):
    return Command(update={"log": "a"}, goto="c")


def c_two_updates(state):
    return [{"log": "c1"}, Command(update=[("log", "c2")])]


def record(state):
    SEEN.append(dict(state))
    return None


# ---------------------------------------------------------------- routers


def send_items(state):
    return [Send("work", i) for i in state["items"]] or "done"


def send_two(state):
    return [Send("work", 1), Send("work", 2)]


def yes_or_no(state, ctx):
    return "t" if state["flag"] else "f"


def maybe(state):
    return "maybe"


def tools_or_end(state):
    return "tools" if state["n"] < 2 else "end"


# ---------------------------------------------------------------- fan-out workers


async def work_reversed(i):  # later items finish first (E5)
    await asyncio.sleep(0.01 * (5 - i))
    return {"results": [i]}


def work_threads(i):
    """E5: every task waits at `KNOBS["meet"]` (a Barrier) until all of them run at once."""
    with _lock:
        PEAK["active"] += 1
        PEAK["peak"] = max(PEAK["peak"], PEAK["active"])
    KNOBS["meet"].wait()  # broken (the test fails) unless the tasks overlap
    with _lock:
        PEAK["active"] -= 1
    return {"results": [i]}


async def work_sleepy(i):
    PEAK["active"] += 1
    PEAK["peak"] = max(PEAK["peak"], PEAK["active"])
    await asyncio.sleep(0.1)
    PEAK["active"] -= 1
    return {"results": [i]}


async def work_fail_fast(i):
    if i == 0:
        await asyncio.sleep(0.01)
        raise KeyError("boom")
    if i == 1:
        return {"results": [i]}
    try:
        await asyncio.sleep(5)
    except asyncio.CancelledError:
        KNOBS["cancelled"] = True
        raise


async def work_flaky_first(i):
    CALLS.append(i)
    if i == 0:
        await asyncio.sleep(0.05)
        if len(CALLS) <= 2:
            raise KeyError("first time")
    return {"results": [i]}


async def work_slow(i):
    try:  # waits for an event nobody sets: only the step timeout ends it, however slow
        await asyncio.Event().wait()
    except asyncio.CancelledError:
        KNOBS["cancelled"] = True
        raise


async def work_watch_store(i):
    """F11: task 1 waits until task 0's writes are in the store, then fails once."""
    CALLS.append(i)
    if i == 1:
        deadline = time.monotonic() + 2
        while not KNOBS["saved"]() and time.monotonic() < deadline:
            await asyncio.sleep(0.005)
        KNOBS["saw_saved"] = KNOBS["saved"]()
        if CALLS.count(1) == 1:
            raise KeyError("crash after a sibling finished")
    return {"results": [i]}


async def ask_each(i, ctx):
    return {"results": [f"{i}={ctx.interrupt(f'q{i}')}"]}


# ---------------------------------------------------------------- retries and timeouts


def flaky(state):
    CALLS.append(1)
    if len(CALLS) < 3:
        raise ConnectionError("down")
    return {"x": len(CALLS)}


def buggy(state):
    CALLS.append(1)
    raise ValueError("a bug, not a blip")


def down(state):
    CALLS.append(1)
    raise ConnectionError("down")


async def sleeps(state):
    await asyncio.Event().wait()  # never set: only the node timeout ends it


# ---------------------------------------------------------------- interrupts


def ask_ctx(state, ctx):
    return {"answer": ctx.interrupt("ok?")}


def ask_module(state):
    return {"answer": interrupt("ok?")}


def ask_twice(state, ctx):
    return {"answer": [ctx.interrupt("first"), ctx.interrupt("second")]}


async def ask_async(state):
    await asyncio.sleep(0)
    return {"answer": interrupt("async?")}


def ask_with_x(state):
    return {"log": [f"b:{interrupt('q')}:{state['x']}"]}


def reply(state):
    return {"messages": [("ai", f"echo {state['messages'][-1].text}")]}


@dataclass
class Decision:
    approve: bool


def ask_decision(state, ctx):
    return {"answer": ctx.interrupt("ok?", response_schema=Decision)}


def ask_dict_schema(state, ctx):
    return {"answer": ctx.interrupt("ok?", response_schema={"type": "x"})}


def ask_plain(state):
    return {"messages": [("ai", f"answer {interrupt('go?')}")]}


def chat_model(state):
    return {"messages": [("ai", f"m{state['n']}")]}


def chat_tools(state):
    return {
        "messages": [{"role": "tool", "content": f"t{state['n']}", "tool_call_id": "c"}],
        "n": state["n"] + 1,
    }


def point(state):
    return {"p": KNOBS["point"], "messages": [("ai", "x")]}


def inc_and_record(state):
    SEEN.append(state["log"])  # the view this step read
    return {"n": state["n"] + 1, "log": [str(state["n"])]}


def which_thread(state):
    CALLS.append(threading.get_ident())
    if KNOBS.get("slow"):
        time.sleep(0.02)
    return {"n": state["n"] + 1, "log": [str(state["n"])]}


def write_x_10(state):
    return {"x": 10}


async def stream_tokens(state, ctx):
    for tok in ("he", "llo"):
        ctx.emit("messages", tok)
    await asyncio.wait_for(KNOBS["release"].wait(), 2)  # only the reader can release us
    ctx.emit("custom", {"done": True})
    return {"x": 1}


def emit_from_thread(state, ctx):
    ctx.emit("custom", "from thread")
    return {"x": 1}


def emit_c(state, ctx):
    ctx.emit("custom", "c")


def child_step(state):
    return {"k": state["k"] + 1, "messages": [("ai", "c")]}


def child_ask(state):
    return {"messages": [("ai", interrupt("go?"))]}


def jump_to_parent(state):
    return Command(update={"log": "jumped"}, goto="other", graph=CommandGraph.PARENT)


def say_other(state):
    return _say("other", state)


def goto_parent_at_root(state):
    return Command(goto="x", graph=CommandGraph.PARENT)


def ask_odd(i, ctx):
    CALLS.append(i)
    if i % 2:
        return {"results": [f"{i}={ctx.interrupt(f'q{i}')}"]}
    return {"results": [f"{i} done"]}
