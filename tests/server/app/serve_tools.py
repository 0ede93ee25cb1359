"""Tools and nodes for the `agentc serve` tests: plain functions, one async tool that
sleeps (so a run stays busy long enough to be cancelled or queued behind), one that writes
the long-term store, and the steps of a small graph that streams `custom` events and
pauses with `interrupt()`."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from agentc import get_stream_writer, interrupt
from agentc.stdlib.tools import InjectedStore


def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


async def nap(seconds: float) -> str:
    """Wait a while."""
    await asyncio.sleep(seconds)
    return "rested"


def remember(fact: str, store: Annotated[Any, InjectedStore]) -> str:
    """Remember a fact."""
    store.put(("facts",), fact, {"fact": fact})
    return "saved"


def draft(state: dict[str, Any]) -> dict[str, Any]:
    get_stream_writer()({"drafting": state["topic"]})
    return {"draft": f"a post about {state['topic']}", "log": ["draft"]}


def review(state: dict[str, Any]) -> dict[str, Any]:
    verdict = interrupt({"draft": state["draft"]})
    return {"verdict": verdict, "log": ["review"]}


def publish(state: dict[str, Any]) -> dict[str, Any]:
    return {"log": ["publish"]}
