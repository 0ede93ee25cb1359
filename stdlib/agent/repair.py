"""B4/E10: malformed tool calls the model made, answered before the next model call.

Input: the message history a model call is about to send. Output: None when nothing needs
repair, else the history with an error `ToolMessage` after each AI message for each of its
malformed calls that has an id and no answer yet (LangChain's wording, factory.py 1.4.10).
Invariants: `needs_repair` agrees with `patch_invalid_tool_calls` and costs O(new messages)
per call on a growing history (`RepairScan`); a call without an id is never answered.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...runtime.channels import list_parts
from ..messages import AIMessage, BaseMessage, InvalidToolCall, ToolMessage


def invalid_call_message(call: InvalidToolCall) -> ToolMessage | None:
    """The answer LangChain gives a malformed call with an id (factory.py 1.4.10)."""
    if call.id is None:
        return None
    name = call.name or "unknown"
    return ToolMessage(
        content=f"Tool call {name} with id {call.id} could not be executed - "
        "arguments were malformed or truncated.",
        name=name,
        tool_call_id=call.id,
        status="error",
    )


def patch_invalid_tool_calls(messages: Sequence[BaseMessage]) -> list[BaseMessage] | None:
    """B4/E10: the history with malformed, unanswered calls answered; None when unchanged."""
    if not any(isinstance(m, AIMessage) and m.invalid_tool_calls for m in messages):
        return None
    answered = {m.tool_call_id for m in messages if isinstance(m, ToolMessage)}
    patched: list[BaseMessage] = []
    changed = False
    for m in messages:
        patched.append(m)
        if not isinstance(m, AIMessage):
            continue
        for call in m.invalid_tool_calls:
            if call.id in answered:
                continue
            answer = invalid_call_message(call)
            if answer is not None:
                patched.append(answer)
                answered.add(answer.tool_call_id)
                changed = True
    return patched if changed else None


class RepairScan:
    """B4/E10 without rescanning the history each call: what was learned about one history
    up to `upto` — the ids of tool answers seen, and the malformed calls with an id still
    unanswered. A later call on the same history (same first message, and the message at
    `upto - 1` still the same object: the runtime's message list only grows, and a
    replacement or removal makes a new list) scans only the messages added since."""

    __slots__ = ("first", "last", "upto", "answered", "pending")
    LIMIT = 1024  # histories remembered per model node (concurrent runs); a miss rescans

    def __init__(self, first: BaseMessage) -> None:
        self.first: BaseMessage = first
        self.last: BaseMessage | None = None
        self.upto = 0
        self.answered: set[str] = set()
        self.pending: set[str] = set()

    def fits(self, history: Sequence[BaseMessage], n: int) -> bool:
        """`history[:n]` (n ≤ len) is the history scanned so far, grown."""
        return n >= self.upto and (self.upto == 0 or history[self.upto - 1] is self.last)

    def advance(self, history: Sequence[BaseMessage], n: int) -> bool:
        """Scan the new messages of `history[:n]`; True when some malformed call is
        unanswered."""
        for m in history[self.upto : n]:  # one slice, not an index per message
            if isinstance(m, ToolMessage):
                self.answered.add(m.tool_call_id)
                self.pending.discard(m.tool_call_id)
            elif isinstance(m, AIMessage) and m.invalid_tool_calls:
                self.pending.update(
                    c.id
                    for c in m.invalid_tool_calls
                    if c.id is not None and c.id not in self.answered
                )
        self.upto = n
        self.last = history[n - 1] if n else None
        return bool(self.pending)


def needs_repair(scans: dict[int, RepairScan], history: Sequence[BaseMessage]) -> bool:
    """Whether `patch_invalid_tool_calls` would change `history` (amortised O(new))."""
    # the state's history is a `ListView`: read the list under it, not item by item
    items, n = list_parts(history)
    if not n:
        return False
    first = items[0]
    scan = scans.get(id(first))
    if scan is None or scan.first is not first or not scan.fits(items, n):
        if len(scans) >= RepairScan.LIMIT:
            scans.pop(next(iter(scans)))
        scan = scans[id(first)] = RepairScan(first)
    return scan.advance(items, n)
