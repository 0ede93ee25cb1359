"""IR builders for the graph model/tools node tests: nodes whose configs are the typed
`ir.ModelNodeConfig` / `ir.ToolNodeConfig` the compiler writes, run by the real runtime."""

from __future__ import annotations

import re
from typing import Any

from support.graphs import END, SPAN, START, chan, graph, node, ref

from agentc import ir
from agentc.runtime import compile
from agentc.stdlib.providers import scripted

TOOLS_CONDITION = ir.ImportRef(module="agentc.stdlib.routing", attr="tools_condition")
NODES = "agentc.stdlib.nodes"


def tpl(text: str) -> ir.Template:
    """`{name}` / `{name.key}` split as the compiler splits them."""
    parts: list[Any] = []
    for i, piece in enumerate(re.split(r"\{([\w.]+)\}", text)):
        if i % 2:
            name, *path = piece.split(".")
            parts.append(ir.TemplateField(name=name, path=path))
        elif piece:
            parts.append(piece)
    return ir.Template(parts=parts, span=SPAN)


def scripted_spec(replies: list[Any], name: str, **options: Any) -> ir.ModelSpec:
    return ir.ModelSpec(
        spec="scripted",
        provider="scripted",
        name="",
        options={"replies": replies, "name": name, **options},
        span=SPAN,
    )


def model_node(
    name: str,
    replies: list[Any] | None = None,
    *,
    model: ir.ModelSpec | None = None,
    answer: ir.AnswerKind = ir.AnswerKind.MESSAGE,
    into: str = "messages",
    prompt: str | None = None,
    input: str | None = None,
    **fields: Any,
) -> ir.NodeSpec:
    config = ir.ModelNodeConfig(
        model=model or scripted_spec(replies or [], name),
        prompt=tpl(prompt) if prompt is not None else None,
        input=tpl(input) if input is not None else None,
        into=into,
        answer=answer,
        span=SPAN,
        **fields,
    )
    return node(
        name,
        ir.ImportRef(module=NODES, attr="model_node"),
        kind=ir.NodeKind.MODEL,
        config=config.model_dump(mode="json"),
    )


def run_graph(g: ir.Graph, value: Any, schemas: list[ir.SchemaSpec] = (), **kw: Any) -> Any:
    program = ir.Program(
        source=ir.SourceRef(file="t.agent", sha256="0"), graphs=[g], schemas=list(schemas)
    )
    return compile(program, g.name, **kw).invoke(value)


def calls_of(name: str) -> list[Any]:
    """The requests the scripted model named `name` received (newest such model)."""
    model = next(m for m in reversed(scripted.CREATED) if m.name == name)
    return model.calls


def messages_chan() -> ir.ChannelSpec:
    return chan("messages", "messages", [])


def one_node(n: ir.NodeSpec, *channels: ir.ChannelSpec) -> ir.Graph:
    return graph(state=list(channels), nodes=[n], edges=[(START, n.name), (n.name, END)])


def tool_spec(fn: Any) -> ir.ToolSpec:
    return ir.ToolSpec(
        name=fn.__name__,
        description=fn.__doc__,
        parameters={"type": "object", "properties": {}},
        ref=ref(fn),
        span=SPAN,
    )


def tools_node(
    name: str, fns: list[Any], messages: str = "messages", wrap: list[Any] = ()
) -> ir.NodeSpec:
    config = ir.ToolNodeConfig(
        tools=[tool_spec(f) for f in fns], messages=messages, wrap=list(wrap), span=SPAN
    )
    return node(
        name,
        ir.ImportRef(module=NODES, attr="tool_node"),
        kind=ir.NodeKind.TOOLS,
        config=config.model_dump(mode="json"),
    )
