"""How one message or value reads in the transcript, whole or while it streams.

Input: messages of the run (`ai`, `tool`, …) and streamed model deltas. Output:
`render_message` → the message's lines; `input_lines` → what the caller gave the run;
`LiveMessage` writes `ai: ` text and
`ai → name(` argument fragments as they arrive and says (`LiveShown`) what was already shown,
so a streamed message is never printed twice; `clip` shortens long text unless `--verbose`.
Invariants: tool-call arguments are shown as JSON; a clipped line says how much it left out.
"""

from __future__ import annotations

import json
from typing import Any, TextIO

CLIP = 300  # characters of a message or value shown unless --verbose


class LiveShown:
    """What of one AI message was already printed while it streamed."""

    def __init__(self, text: bool = False, calls: int = 0) -> None:
        self.text, self.calls = text, calls


class LiveMessage:
    """The AI message being streamed: `ai: ` text, then `ai → name(` argument fragments."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.text = False
        self.call: int | None = None  # index of the call whose arguments are printing
        self.call_id: str | None = None
        self.calls = 0

    def delta(self, d: Any) -> None:
        if getattr(d, "text", ""):
            self._text(d.text)
        for chunk in getattr(d, "tool_call_chunks", ()):
            if chunk.index != self.call:
                self._open_call(chunk)
            self.out.write(chunk.args)
        self.out.flush()

    def _text(self, text: str) -> None:
        if self.call is not None:
            self._close_call()
        if not self.text:
            self.out.write("ai: ")
            self.text = True
        self.out.write(text)

    def _open_call(self, chunk: Any) -> None:
        if self.call is not None:
            self._close_call()
        elif self.text:
            self.out.write("\n")
        self.out.write(f"ai → {chunk.name or '?'}(")
        self.call, self.call_id, self.calls = chunk.index, chunk.id, self.calls + 1

    def _close_call(self) -> None:
        self.out.write(f")  id={self.call_id}\n" if self.call_id else ")\n")
        self.call = self.call_id = None

    def cut(self) -> None:
        """The reply broke off (the stream failed, the run was stopped): end the half-shown
        line so what follows, an error on stderr, starts a line of its own."""
        if self.call is not None or self.text:
            self.out.write(" … (cut off)\n")
            self.out.flush()
        self.text, self.call, self.call_id, self.calls = False, None, None, 0

    def end(self) -> LiveShown:
        """Close what is open; say what was shown (the message is not printed twice)."""
        shown = LiveShown(self.text, self.calls)
        if self.call is not None:
            self._close_call()
        elif self.text:
            self.out.write("\n")
        self.text, self.call, self.calls = False, None, 0
        return shown


def render_message(m: Any, shown: LiveShown | None = None) -> list[str]:
    shown = shown or LiveShown()
    if m.type == "ai":
        lines = [f"ai: {m.text}"] if m.text and not shown.text else []
        if shown.calls < len(m.tool_calls):
            lines += [f"ai → {c.name}({show_args(c.args)})  id={c.id}" for c in m.tool_calls]
        lines += [f"ai → {c.name} (malformed arguments: {c.args!r})" for c in m.invalid_tool_calls]
        return lines or ([] if shown.text or shown.calls else ["ai: (empty reply)"])
    if m.type == "tool":
        mark = " (error)" if m.status == "error" else ""
        return [f"tool {m.name or ''}{mark}: {show(m.content)}"]
    return [f"{m.type}: {show(m.content)}"]


def clip(text: str, full: bool = False) -> str:
    if full or len(text) <= CLIP:
        return text
    return f"{text[:CLIP]}… (+{len(text) - CLIP} characters; --verbose shows all)"


def show_args(args: dict[str, Any]) -> str:
    return ", ".join(f"{k}={json.dumps(v, ensure_ascii=False)}" for k, v in args.items())


def show(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)


def usage_text(m: Any) -> str:
    usage = getattr(m, "usage_metadata", None)
    return f" · {usage.input_tokens}→{usage.output_tokens} tokens" if usage else ""


def input_lines(value: dict[str, Any] | None, conversations: frozenset[str]) -> list[str]:
    """What the caller gave the run: `you: …` for each user message (others as the
    transcript shows them), then `you → topic = cats · n = 2` for the other channels."""
    from agentc.stdlib.messages import coerce_messages

    lines: list[str] = []
    writes: list[str] = []
    for key, v in (value or {}).items():
        if key not in conversations:
            writes.append(f"{key} = {clip(show(v))}")
            continue
        for m in coerce_messages(v):  # checked readable before the run (given.py)
            human = getattr(m, "type", None) == "human"  # each message class fixes its type
            said = [f"you: {show(m.content)}"] if human else render_message(m)
            lines += [clip(line) for line in said]
    return lines + ([f"you → {' · '.join(writes)}"] if writes else [])
