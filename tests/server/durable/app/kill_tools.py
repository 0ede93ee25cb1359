"""The durable-run tests' nodes and tools. Each tool call appends `<thread> <tool> start`
and `<thread> <tool> end` lines to the file `$AGENTC_KILL_DIR/calls.log` (one `write` per
line, so lines of two processes never mix); `gate` also writes `arrived.<thread>` with its
process id and waits until the test creates `release` (a file event, not a timer); `ask`
pauses the run for a person's answer (`interrupt`), records it, then waits as `gate` does."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from agentc import Send, get_config, interrupt
from agentc.stdlib.messages import AIMessage, ToolMessage

DIR = Path(os.environ.get("AGENTC_KILL_DIR", "."))


def _thread() -> str:
    return str(get_config().thread_id)


def _record(thread: str, tool: str, what: str) -> None:
    fd = os.open(DIR / "calls.log", os.O_WRONLY | os.O_APPEND | os.O_CREAT)
    try:
        os.write(fd, f"{thread} {tool} {what}\n".encode())
    finally:
        os.close(fd)


def plan(state: dict[str, Any]) -> dict[str, Any]:
    calls = [{"name": n, "args": {"n": i}, "id": f"call_{n}"}
             for i, n in enumerate(["count_a", "count_b", "gate"])]  # fmt: skip
    return {"messages": [AIMessage(content="", tool_calls=calls)]}


def plan_asking(state: dict[str, Any]) -> dict[str, Any]:
    calls = [{"name": n, "args": {"n": i}, "id": f"call_{n}"}
             for i, n in enumerate(["count_a", "count_b", "ask"])]  # fmt: skip
    return {"messages": [AIMessage(content="", tool_calls=calls)]}


def fan(state: dict[str, Any]) -> list[Send]:
    """One task per tool call of the last reply."""
    return [Send("call", {"call": c}) for c in state["messages"][-1].tool_calls]


def call(state: dict[str, Any]) -> dict[str, Any]:
    c = state["call"]
    out = TOOLS[c.name](**c.args)
    return {"messages": [ToolMessage(content=out, tool_call_id=c.id, name=c.name)]}


def count_a(n: int) -> str:
    """Count one call of a."""
    thread = _thread()
    _record(thread, "count_a", "start")
    _record(thread, "count_a", "end")
    return f"a{n}"


def count_b(n: int) -> str:
    """Count one call of b."""
    thread = _thread()
    _record(thread, "count_b", "start")
    _record(thread, "count_b", "end")
    return f"b{n}"


def gate(n: int) -> str:
    """Wait until the test opens the gate."""
    thread = _thread()
    _record(thread, "gate", "start")
    _wait_for_release(thread)
    _record(thread, "gate", "end")
    return f"g{n}"


def ask(n: int) -> str:
    """Ask a person, then wait until the test opens the gate."""
    thread = _thread()
    _record(thread, "ask", "start")
    said = interrupt({"question": f"may I use {n}?"})
    _record(thread, "ask", f"answered {said}")
    _wait_for_release(thread)
    _record(thread, "ask", "end")
    return f"ask{n}:{said}"


def answer(state: dict[str, Any]) -> dict[str, Any]:
    results = sorted(str(m.content) for m in state["messages"][1:])
    return {"messages": [AIMessage(content="done: " + ",".join(results))]}


def _wait_for_release(thread: str) -> None:
    (DIR / f"arrived.{thread}").write_text(str(os.getpid()))
    while not (DIR / "release").exists():
        time.sleep(0.01)  # waiting for the test's file, not for a time


TOOLS = {"count_a": count_a, "count_b": count_b, "gate": gate, "ask": ask}
