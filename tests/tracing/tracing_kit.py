"""Files and helpers for the tracing tests: a lead agent that hands a question to a
researcher agent (a sub-agent used as a tool, which calls a tool of its own), scripted
replies with usage, and an in-memory span exporter behind a real SDK provider."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

import agentc
from agentc.tracing import instrument

TOOLS = '''
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


def lookup(email: str) -> str:
    """Find a person by email."""
    return f"{email} is Bob"


def broken(x: int) -> int:
    """Always fails."""
    raise RuntimeError("tool exploded")
'''

RESEARCH_CALL = {
    "tool_calls": [{"name": "add", "args": {"a": 1, "b": 2}, "id": "r1"}],
    "usage": {"input_tokens": 5, "output_tokens": 2},
}
LEAD_CALL = {
    "tool_calls": [{"name": "researcher", "args": {"request": "find it"}, "id": "c1"}],
    "id": "resp-1",
    "usage": {
        "input_tokens": 20,
        "output_tokens": 4,
        "input_token_details": {"cache_read": 6, "cache_creation": 3},
        "output_token_details": {"reasoning": 2},
    },
}


def _usage(inp: int, out: int) -> dict[str, int]:
    return {"input_tokens": inp, "output_tokens": out}


def team_text(
    lead_middleware: str = "", lead_tools: str = "researcher", lead_replies: list | None = None
) -> str:
    research = [RESEARCH_CALL, {"content": "found 3", "usage": _usage(8, 3)}]
    lead = lead_replies or [LEAD_CALL, {"content": "Done: 3", "usage": _usage(30, 5)}]
    return (
        'agentc 1\nuse "./tools.py" as tools\n\n'
        'agent researcher "Looks things up." {\n'
        f'  model "scripted" {{ replies: {json.dumps(research)} }}\n'
        "  tools [tools.add]\n}\n\n"
        "agent lead {\n"
        f'  model "scripted" {{ replies: {json.dumps(lead)}, temperature: 0.2 }}\n'
        '  prompt "You lead the team."\n'
        f"  tools [{lead_tools}]\n"
        f"{lead_middleware}"
        "}\n"
    )


def write(where: Path, text: str, name: str = "team.agent") -> Path:
    (where / "tools.py").write_text(TOOLS)
    path = where / name
    path.write_text(text)
    return path


class Spans:
    """A real SDK provider whose spans are kept in memory."""

    def __init__(self) -> None:
        self.exporter = InMemorySpanExporter()
        self.provider = TracerProvider()
        self.provider.add_span_processor(SimpleSpanProcessor(self.exporter))

    def run(self, path: Path, name: str, value: Any, content: bool = False, **kw: Any) -> Any:
        graph = instrument(
            agentc.load_agent(path, name), tracer_provider=self.provider, content=content
        )
        return graph.invoke(value, **kw)

    @property
    def finished(self) -> tuple[ReadableSpan, ...]:
        return tuple(self.exporter.get_finished_spans())

    def named(self, name: str) -> list[ReadableSpan]:
        return [s for s in self.finished if s.name == name]

    def one(self, name: str) -> ReadableSpan:
        found = self.named(name)
        assert len(found) == 1, (name, [s.name for s in self.finished])
        return found[0]

    def parent_of(self, span: ReadableSpan) -> ReadableSpan | None:
        if span.parent is None:
            return None
        return next(s for s in self.finished if s.context.span_id == span.parent.span_id)


def ask(text: str) -> dict[str, Any]:
    return {"messages": [{"role": "user", "content": text}]}


def all_values(spans: Iterable[ReadableSpan]) -> str:
    """Every attribute value, status text and event of the spans, as one text."""
    out = []
    for s in spans:
        out += [s.name, str(s.status.description or "")]
        out += [f"{k}={v}" for k, v in (s.attributes or {}).items()]
        out += [f"{e.name}:{dict(e.attributes or {})}" for e in s.events]
        out += [f"{k}={v}" for k, v in s.resource.attributes.items()]
    return "\n".join(out)
