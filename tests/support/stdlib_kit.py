"""Builders for stdlib unit tests: IR pieces and a bind env, without the compiler."""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any

from agentc import ir

SPAN = ir.SourceSpan(file="t.agent", line=1, col=1, end_line=1, end_col=2, offset=0, end_offset=1)


@dataclass
class FakeEnv:
    program: Any
    base_dir: str = "."
    objects: dict[str, Any] = field(default_factory=dict)
    memo: dict[tuple[str, str], Any] = field(default_factory=dict)

    def shared(self, slot: Any, graph: str, make: Any) -> Any:
        if (slot.name, graph) not in self.memo:
            self.memo[slot.name, graph] = make()
        return self.memo[slot.name, graph]

    def load(self, ref: ir.ImportRef) -> Any:
        if ref.key in self.objects:
            return self.objects[ref.key]
        return getattr(importlib.import_module(ref.module), ref.attr)

    def subgraph(self, name: str) -> Any:
        raise KeyError(name)


@dataclass
class FakeCtx:
    """A `RunContext` for calling a node directly: records what it emits, streams nothing."""

    config: Any
    store: Any = None
    step: int = 0
    node: str = "model"
    task_id: str = "t"
    ns: str = ""
    run_id: str = "r"
    events: list = field(default_factory=list)

    def emit(self, mode: Any, payload: Any) -> None:
        self.events.append((mode, payload))

    def streams(self, mode: Any) -> bool:
        return False

    def interrupt(self, value: Any, response_schema: Any = None) -> Any:
        raise AssertionError(f"a node called directly asked {value!r}")


def tool_spec(name: str, return_direct: bool = False, injected=()) -> ir.ToolSpec:
    return ir.ToolSpec(
        name=name,
        description=name,
        parameters={},
        span=SPAN,
        ref=ir.ImportRef(module="test", attr=name),
        return_direct=return_direct,
        injected=list(injected),
    )


def make_agent(
    replies,
    *,
    tools=(),
    objects=None,
    prompt=None,
    output=None,
    schemas=(),
    provider_tools=(),
    profile=None,
    model_options=None,
):
    options = {"replies": list(replies), **(model_options or {})}
    if profile:
        options["profile"] = profile
    model = ir.ModelSpec(spec="scripted", provider="scripted", name="", options=options, span=SPAN)
    agent = ir.AgentSpec(
        model=model,
        prompt=prompt,
        tools=list(tools),
        output=output,
        provider_tools=[ir.ProviderToolSpec(definition=d, span=SPAN) for d in provider_tools],
    )
    graph = ir.Graph(
        name="a",
        kind=ir.GraphKind.AGENT,
        state=[],
        nodes=[],
        edges=[],
        limits=ir.Limits(steps=ir.Bound(value=9999)),
        checkpoint=ir.CheckpointSpec(kind=ir.CheckpointKind.NONE),
        agent=agent,
        span=SPAN,
    )
    program = ir.Program(
        source=ir.SourceRef(file="t.agent", sha256="0"), graphs=[graph], schemas=list(schemas)
    )
    return graph, FakeEnv(program, objects=objects or {})
