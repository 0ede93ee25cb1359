"""Contents on spans, only when asked for: messages in the GenAI conventions' JSON shape,
tool arguments and results, each text passed through the declared PII redaction and
stripped of secrets from the environment.

Input: messages (`stdlib/messages.py`), tool arguments and results, the compiled graph's
`pii` middleware objects and the environment. Output: JSON strings for
`gen_ai.input.messages`, `gen_ai.output.messages`, `gen_ai.system_instructions`,
`gen_ai.tool.call.arguments` / `.result` (and OpenInference's `input.value` /
`output.value`, which Phoenix shows). Invariants: every text leaf goes through
`Redactor.text` (a `block` strategy redacts here: a trace never stops a run); a value of a
variable whose name says it is a secret (`*_API_KEY`, `*TOKEN*`, `*SECRET*`, `*PASSWORD*`)
never reaches a span, nor any key a provider has read (`providers/errors.redact`).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Mapping
from typing import Any

from agentc.runtime.compiled import CompiledGraph
from agentc.stdlib.messages import (
    AIMessage,
    BaseMessage,
    Content,
    HumanMessage,
    SystemMessage,
    ToolMessage,
)
from agentc.stdlib.middleware.binding import instantiate
from agentc.stdlib.middleware.pii import PII
from agentc.stdlib.middleware.pii_detect import apply_strategy
from agentc.stdlib.providers.errors import redact

from .attrs import Attrs

_SECRET_NAME = re.compile(r"(API_?KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL|_KEY$)", re.IGNORECASE)
MIN_SECRET = 8  # shorter values are too common to blank out of every text


class Redactor:
    """Every text a span carries passes here: PII detectors, then known secrets."""

    def __init__(self, pii: Iterable[PII] = (), env: Mapping[str, str] | None = None) -> None:
        self.pii = tuple(pii)
        env = os.environ if env is None else env
        self.secrets = sorted(
            {v for k, v in env.items() if _SECRET_NAME.search(k) and len(v) >= MIN_SECRET},
            key=len,
            reverse=True,  # a longer secret that holds a shorter one goes first
        )

    @classmethod
    def of(cls, compiled: CompiledGraph) -> Redactor:
        """The `pii` middleware of every agent of the program (sub-agents too), built from
        their settings as the agent builds them (no other middleware is loaded)."""
        found: list[PII] = []
        for graph in compiled.program.graphs:
            for spec in graph.agent.middleware if graph.agent is not None else ():
                if (spec.impl.module, spec.impl.attr) == (PII.__module__, PII.__qualname__):
                    obj = instantiate(spec, graph, compiled.env)
                    found += [obj] if isinstance(obj, PII) else []
        return cls(found)

    def text(self, text: str) -> str:
        for pii in self.pii:
            matches = pii.detector(text)
            if matches:
                strategy = "redact" if pii.strategy == "block" else pii.strategy
                text = apply_strategy(text, matches, strategy)
        for secret in self.secrets:
            if secret in text:
                text = text.replace(secret, "[REDACTED_SECRET]")
        return redact(text)  # and every key a provider read, wherever it came from

    def value(self, value: Any) -> Any:
        """Every string inside a JSON-like value, redacted."""
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, Mapping):
            return {str(k): self.value(v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return [self.value(v) for v in value]
        return value

    def dumps(self, value: Any) -> str:
        return json.dumps(self.value(value), ensure_ascii=False, default=str)


def parts(content: Content) -> list[dict[str, Any]]:
    """A message's content as GenAI parts (text parts; other blocks by their type only)."""
    if isinstance(content, str):
        return [{"type": "text", "content": content}] if content else []
    out: list[dict[str, Any]] = []
    for block in content:
        if isinstance(block, str):
            out.append({"type": "text", "content": block})
        elif block.get("type") == "text" and isinstance(block.get("text"), str):
            out.append({"type": "text", "content": block["text"]})
        else:
            out.append({"type": str(block.get("type", "unknown"))})
    return out


def message(m: BaseMessage) -> dict[str, Any]:
    out = parts(m.content)
    if isinstance(m, AIMessage):
        out += [
            {"type": "tool_call", "id": c.id, "name": c.name, "arguments": c.args}
            for c in m.tool_calls
        ]
    if isinstance(m, ToolMessage):
        out = [{"type": "tool_call_response", "id": m.tool_call_id, "response": m.text}]
    return {"role": role(m), "parts": out}


def role(m: BaseMessage) -> str:
    if isinstance(m, AIMessage):
        return "assistant"
    if isinstance(m, ToolMessage):
        return "tool"
    if isinstance(m, SystemMessage):
        return "system"
    return "user" if isinstance(m, HumanMessage) else type(m).__name__


def chat_input(messages: Iterable[Any], r: Redactor) -> Attrs:
    known = [m for m in messages if isinstance(m, BaseMessage)]
    system = [m for m in known if isinstance(m, SystemMessage)]
    rest = [message(m) for m in known if not isinstance(m, SystemMessage)]
    attrs: Attrs = {"gen_ai.input.messages": r.dumps(rest)}
    attrs["input.value"] = attrs["gen_ai.input.messages"]
    attrs["input.mime_type"] = "application/json"
    if system:
        attrs["gen_ai.system_instructions"] = r.dumps([p for m in system for p in parts(m.content)])
    return attrs


def chat_output(reply: Any, r: Redactor) -> Attrs:
    if not isinstance(reply, AIMessage):
        return {}
    out = message(reply)
    reason = reply.response_metadata.get("finish_reason")
    if isinstance(reason, str):
        out["finish_reason"] = reason
    return {
        "gen_ai.output.messages": r.dumps([out]),
        "output.value": r.text(reply.text),
    }


def tool_input(args: Mapping[str, Any], r: Redactor) -> Attrs:
    text = r.dumps(args)
    return {"gen_ai.tool.call.arguments": text, "input.value": text}


def tool_output(result: Any, r: Redactor) -> Attrs:
    text = r.text(result.text) if isinstance(result, ToolMessage) else r.dumps(repr(result))
    return {"gen_ai.tool.call.result": text, "output.value": text}
