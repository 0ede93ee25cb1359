"""`pii` (D14, D16): personal data found and redacted, masked, hashed or blocked.

Input: `pii_type` (email | credit_card | ip | mac_address | url, or any name with a
`detector`: a regular expression or a function text → matches), `strategy` (redact | mask |
hash | block), `apply_to_input` (true), `apply_to_output` (false), `apply_to_tool_results`
(false). Output, as langchain 1.4.10 (D14): before each model call the NEWEST human message
(input) and the tool results after the last AI message (tool results) are rewritten in the
state; after each call the last AI message's text (output). Only text leaves are touched,
never tool-call arguments. `block` raises `PIIDetectionError`.

D16: with apply_to_output or apply_to_tool_results, the model node also scrubs streamed
text before a stream reader sees it, holding back the last 128 characters so a value split
across deltas is still caught (`StreamScrubber`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..messages import AIMessage, BaseMessage, Content, HumanMessage, ToolMessage
from .base import AgentMiddleware, AgentRuntime, StateUpdate
from .pii_detect import (
    Detector,
    DetectorSpec,
    PIIDetectionError,
    PIIMatch,
    apply_strategy,
    resolve_detector,
)

__all__ = ["PII", "PIIMiddleware", "PIIDetectionError", "PIIMatch", "StreamScrubber"]

LOOKBACK = 128  # D16: characters held back from a stream reader


class PII(AgentMiddleware):
    def __init__(
        self,
        pii_type: str,
        *,
        strategy: str = "redact",
        detector: DetectorSpec | None = None,
        apply_to_input: bool = True,
        apply_to_output: bool = False,
        apply_to_tool_results: bool = False,
    ) -> None:
        if strategy not in ("block", "redact", "mask", "hash"):
            raise ValueError(f"Unknown redaction strategy: {strategy}")
        self.pii_type, self.strategy = pii_type, strategy
        self.detector = resolve_detector(pii_type, detector)
        self.apply_to_input, self.apply_to_output = apply_to_input, apply_to_output
        self.apply_to_tool_results = apply_to_tool_results

    @property
    def name(self) -> str:
        return f"PIIMiddleware[{self.pii_type}]"

    def scrub(self, content: Content) -> tuple[Content, bool]:
        """The content with the strategy applied to each text leaf; whether it changed."""
        if isinstance(content, str):
            matches = self.detector(content)
            return (
                (apply_strategy(content, matches, self.strategy), True)
                if matches
                else (content, False)
            )
        changed = False
        out: list[str | dict[str, Any]] = []
        for block in content:
            text = (
                block
                if isinstance(block, str)
                else block.get("text")
                if isinstance(block, dict)
                else None
            )
            if isinstance(text, str) and (matches := self.detector(text)):
                new = apply_strategy(text, matches, self.strategy)
                block = new if isinstance(block, str) else {**block, "text": new}
                changed = True
            out.append(block)
        return out, changed

    def before_model(self, state: Mapping[str, Any], runtime: AgentRuntime) -> StateUpdate | None:
        if not (self.apply_to_input or self.apply_to_tool_results):
            return None
        messages: list[BaseMessage] = list(state.get("messages") or [])
        changed: list[BaseMessage] = []
        if self.apply_to_input:
            at = next(
                (
                    i
                    for i in range(len(messages) - 1, -1, -1)
                    if isinstance(messages[i], HumanMessage)
                ),
                None,
            )
            if at is not None and messages[at].content:
                changed += self._rewrite(messages, at)
        if self.apply_to_tool_results:
            last_ai = next(
                (i for i in range(len(messages) - 1, -1, -1) if isinstance(messages[i], AIMessage)),
                None,
            )
            if last_ai is not None:
                for i in range(last_ai + 1, len(messages)):
                    if isinstance(messages[i], ToolMessage) and messages[i].content:
                        changed += self._rewrite(messages, i)
        return {"messages": changed} if changed else None

    def _rewrite(self, messages: list[BaseMessage], i: int) -> list[BaseMessage]:
        content, changed = self.scrub(messages[i].content)
        if not changed:
            return []
        messages[i] = messages[i].model_copy(update={"content": content})
        return [messages[i]]  # same id: add_messages replaces it in place

    def after_model(self, state: Mapping[str, Any], runtime: AgentRuntime) -> StateUpdate | None:
        if not self.apply_to_output:
            return None
        messages = state.get("messages") or []
        ai = next((m for m in reversed(messages) if isinstance(m, AIMessage)), None)
        if ai is None or not ai.content:
            return None
        content, changed = self.scrub(ai.content)
        return {"messages": [ai.model_copy(update={"content": content})]} if changed else None

    def stream_scrubber(self) -> StreamScrubber | None:
        """D16: a scrubber for one streamed reply, when this middleware watches output."""
        if not (self.apply_to_output or self.apply_to_tool_results):
            return None
        return StreamScrubber(
            self.detector, "redact" if self.strategy == "block" else self.strategy
        )


PIIMiddleware = PII


class StreamScrubber:
    """Releases streamed text with PII replaced, keeping the last LOOKBACK characters (and
    any match reaching into them) until more text or the end shows they are complete."""

    def __init__(self, detector: Detector, strategy: str, lookback: int = LOOKBACK) -> None:
        self.detector, self.strategy, self.lookback = detector, strategy, lookback
        self.pending = ""

    def feed(self, text: str) -> str:
        self.pending += text
        cut = len(self.pending) - self.lookback
        if cut <= 0:
            return ""
        matches = self.detector(self.pending)
        for m in matches:
            if m.start < cut < m.end:
                cut = m.start
        return self._release(cut, [m for m in matches if m.end <= cut])

    def flush(self) -> str:
        return self._release(len(self.pending), self.detector(self.pending))

    def _release(self, cut: int, matches: list[PIIMatch]) -> str:
        head, self.pending = self.pending[:cut], self.pending[cut:]
        return apply_strategy(head, matches, self.strategy)
