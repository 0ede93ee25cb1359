"""How one chat turn reads while it runs: the runtime's events, printed compactly.

Input: the runtime's stream events of a turn (`messages` for the model's text as it
arrives, `updates` for what each node wrote), from the event loop and from worker
threads. Output: lines on `out` — the model's answer token by token (`ai: …`), each tool
call (`ai → add(…)`) and its result (`tool add: 5`), and in a `graph` block the other
channels a node wrote (`check → approved = true`). Invariants: each message is printed
once (a streamed reply is not printed again when its node's update arrives); private
bookkeeping (channels kept out of the output, such as `jump_to`) is never shown; a
sub-agent's own stream (`ns` set) stays out of the answer.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any, TextIO

from agentc.runner.lines import LiveMessage, LiveShown, clip, render_message, show

if TYPE_CHECKING:
    import agentc.ir as ir
    from agentc.runtime.events import Event


class ChatView:
    """Prints one thread's turns as the runtime reports them."""

    def __init__(self, out: TextIO, graph: ir.Graph, full: bool = False) -> None:
        self.out, self.full = out, full
        self.conversations, self.private = conversations_of(graph), private_of(graph)
        self.graph_block = graph.agent is None
        self.live = LiveMessage(out)
        self.seen: set[str] = set()
        self.lock = threading.Lock()  # tools in worker threads emit too

    def sink(self, event: Event) -> None:
        from agentc.runtime.events import MessagesEvent, UpdatesEvent

        with self.lock:
            if isinstance(event, MessagesEvent) and not event.ns:
                self.live.delta(event.payload)
            elif isinstance(event, UpdatesEvent) and isinstance(event.update, dict):
                self.update(event.node, event.update)

    def stop(self) -> None:
        """Close a line a stopped answer left open."""
        with self.lock:
            self.live.end()

    def update(self, node: str, update: dict[str, Any]) -> None:
        shown = self.live.end()  # what streamed of this node's reply
        if self.graph_block:
            self.writes(node, update)
        for m in self.new_messages(update):
            for line in render_message(m, shown if m.type == "ai" else LiveShown()):
                print(clip(line, self.full), file=self.out)
            shown = LiveShown() if m.type == "ai" else shown
        self.out.flush()

    def new_messages(self, update: dict[str, Any]) -> list[Any]:
        """The update's messages not shown before, the user's own excluded (they typed it)."""
        fresh = []
        for key in sorted(self.conversations & update.keys()):
            value = update[key]
            for m in value if isinstance(value, (list, tuple)) else [value]:
                m = as_message(m)
                if m is None or getattr(m, "type", None) in ("human", "remove"):
                    continue
                mark = getattr(m, "id", None) or str(id(m))
                if mark not in self.seen:
                    self.seen.add(mark)
                    fresh.append(m)
        return fresh

    def writes(self, node: str, update: dict[str, Any]) -> None:
        """A graph node's writes to its other channels, on one line."""
        parts = [
            f"{k} = {clip(show(v), self.full)}"
            for k, v in update.items()
            if k not in self.conversations and k not in self.private and not k.startswith("_")
        ]
        if parts:
            print(f"{node} → {' · '.join(parts)}", file=self.out)


def conversations_of(graph: ir.Graph) -> frozenset[str]:
    """The graph's channels of type `messages`: shown as a conversation."""
    return frozenset(c.name for c in graph.state if c.type.display == "messages")


def private_of(graph: ir.Graph) -> frozenset[str]:
    """Private bookkeeping: channels kept out of the run's result (LangChain's
    `OmitFromOutput`, e.g. `hitl_edited_tool_calls`) or cleared after each step (`jump_to`)."""
    return frozenset(c.name for c in graph.state if not c.output or c.ephemeral)


def as_message(value: Any) -> Any:
    """A written entry as a message (python nodes may write dicts or strings, A6); None
    for what the channel would not read as one."""
    if hasattr(value, "type"):
        return value
    from agentc.stdlib.messages import MessageCoercionError, coerce_message

    try:
        return coerce_message(value)
    except (MessageCoercionError, TypeError):
        return None


def state_lines(values: dict[str, Any], graph: ir.Graph, full: bool = False) -> list[str]:
    """`/state`: each public channel's value; a conversation as its messages, one a line."""
    conversations, private = conversations_of(graph), private_of(graph)
    lines: list[str] = []
    for key, value in values.items():
        if key in private or key.startswith("_"):
            continue
        if key not in conversations:
            lines.append(f"{key} = {clip(show(value), full)}")
            continue
        messages = [m for m in map(as_message, value or ()) if m is not None]
        lines.append(f"{key}: {len(messages)} message{'' if len(messages) == 1 else 's'}")
        for m in messages:
            said = [f"you: {show(m.content)}"] if m.type == "human" else render_message(m)
            lines += [f"  {clip(line, full)}" for line in said]
    return lines or ["(the thread is empty)"]
