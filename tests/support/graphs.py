"""Runtime test helpers (`tests/runtime/`): graphs written as `.agent` files, and IR builders
for the rest.

Most tests run graphs from `graphs/*.agent` (compiled once per file by the real pipeline;
node functions in `graphs/nodes.py`): `agent_graph("supersteps", "fan_reversed")`. What the
language cannot say (private / ephemeral channels, lambdas closed over test data) is built
as IR here: node and router functions are registered in an in-memory module so the runtime
binds them through `ImportRef`s exactly as it binds user code.
"""

from __future__ import annotations

import functools
import itertools
import sys
import types
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

from agentc import ir

MOD = "agentc_runtime_testfns"
_module = sys.modules.setdefault(MOD, types.ModuleType(MOD))
_ids = itertools.count()

SPAN = ir.SourceSpan(
    file="test.agent", line=1, col=1, end_line=1, end_col=2, offset=0, end_offset=1
)
START, END = ir.START, ir.END

REDUCERS = {
    "append": ir.ImportRef(module="agentc.runtime.reducers", attr="append"),
    "merge": ir.ImportRef(module="agentc.runtime.reducers", attr="merge"),
    "add": ir.ImportRef(module="agentc.runtime.reducers", attr="add"),
    "replace": ir.ImportRef(module="agentc.runtime.reducers", attr="replace"),
    "messages": ir.ImportRef(module="agentc.stdlib.messages", attr="add_messages"),
}
_NO = object()


def ref(obj: Any) -> ir.ImportRef:
    """Register `obj` and return the ImportRef that names it."""
    name = f"f{next(_ids)}_{getattr(obj, '__name__', 'obj')}"
    setattr(_module, name, obj)
    return ir.ImportRef(module=MOD, attr=name)


def chan(
    name: str,
    reducer: str | None = None,
    default: Any = _NO,
    *,
    input: bool = True,
    output: bool = True,
    ephemeral: bool = False,
) -> ir.ChannelSpec:
    return ir.ChannelSpec(
        name=name,
        type=ir.TypeSpec(display="any", json_schema={}),
        reducer=REDUCERS[reducer] if reducer else None,
        default=None if default is _NO else default,
        has_default=default is not _NO,
        input=input,
        output=output,
        ephemeral=ephemeral,
        span=SPAN,
    )


def node(
    name: str,
    fn: Callable[..., Any] | ir.ImportRef,
    *,
    kind: ir.NodeKind = ir.NodeKind.PYTHON,
    retry: ir.RetryPolicy | None = None,
    timeout: float | None = None,
    config: dict[str, Any] | None = None,
    cache: float | None | bool = False,
    defer: bool = False,
    goto: list[str] | None = None,
    input_schema: str | None = None,
) -> ir.NodeSpec:
    """A node. `cache=60` caches it for 60 s (`cache=None`: no expiry; False: no cache);
    `goto` lists its declared Command(goto) targets (END as `END`); `input_schema` names a
    `schema(...)` its Sends must match."""
    impl = fn if isinstance(fn, ir.ImportRef) else ref(fn)
    return ir.NodeSpec(
        name=name,
        kind=kind,
        impl=impl,
        config=config or {},
        retry=retry,
        timeout_s=timeout,
        span=SPAN,
        cache=None if cache is False else ir.CachePolicy(ttl_s=cache),  # type: ignore[arg-type]
        defer=defer,
        goto=goto,
        input_schema=input_schema,
    )


def subgraph(
    name: str,
    graph: str,
    *,
    input: dict[str, str] | None = None,
    output: dict[str, str] | None = None,
) -> ir.NodeSpec:
    """A subgraph node; `input` maps child channel ← parent channel, `output` parent
    channel ← child channel (ir.SubgraphNodeConfig)."""
    config = ir.SubgraphNodeConfig(graph=graph, input=input, output=output)
    return node(
        name,
        ir.ImportRef(module="agentc.runtime.subgraph", attr="subgraph_node"),
        kind=ir.NodeKind.SUBGRAPH,
        config=config.model_dump(mode="json"),
    )


def schema(name: str, json_schema: dict[str, Any]) -> ir.SchemaSpec:
    """A `Program.schemas` entry (pass it to `program(…, schemas=[…])` / `compiled`)."""
    return ir.SchemaSpec(name=name, json_schema=json_schema, span=SPAN)


def obj(required: dict[str, str], optional: dict[str, Any] | None = None) -> dict[str, Any]:
    """An object JSON schema: required fields by JSON type, optional ones `{name: default}`."""
    props: dict[str, Any] = {k: {"type": t} for k, t in required.items()}
    for k, default in (optional or {}).items():
        props[k] = {"default": default}
    return {"type": "object", "properties": props, "required": list(required)}


def when(source: str, *cases: tuple[Any, str]) -> ir.BranchSpec:
    return ir.BranchSpec(
        source=source,
        kind=ir.BranchKind.WHEN,
        span=SPAN,
        cases=[ir.BranchCase(condition=c, target=t, span=SPAN) for c, t in cases],
    )


def router(
    source: str, fn: Callable[..., Any], routes: dict[str, str] | None = None
) -> ir.BranchSpec:
    return ir.BranchSpec(
        source=source, kind=ir.BranchKind.ROUTER, router=ref(fn), routes=routes or {}, span=SPAN
    )


def sends(source: str, fn: Callable[..., Any], targets: list[str]) -> ir.BranchSpec:
    """`route source by fn [targets]`: labels are node names; Sends only to `targets`."""
    return ir.BranchSpec(
        source=source,
        kind=ir.BranchKind.ROUTER,
        router=ref(fn),
        routes={t: t for t in targets},
        sends=True,
        span=SPAN,
    )


def field(name: str, *path: str) -> ir.FieldCond:
    return ir.FieldCond(name=name, path=list(path))


def cmp(left: Any, op: str, right: Any) -> ir.CompareCond:
    def wrap(v: Any) -> Any:
        return v if hasattr(v, "kind") else ir.LiteralCond(value=v)

    return ir.CompareCond(op=op, left=wrap(left), right=wrap(right))


def graph(
    name: str = "g",
    *,
    state: list[ir.ChannelSpec],
    nodes: list[ir.NodeSpec],
    edges: list[tuple[str, str]] = (),
    branches: list[ir.BranchSpec] = (),
    interrupts: list[tuple[str, str]] = (),
    steps: int = 25,
    step_timeout: float | None = None,
    joins: list[tuple[list[str], str]] = (),
    context: str | None = None,
) -> ir.Graph:
    """A `graph` block; `joins` are `edge [a, b] -> c` as `(["a", "b"], "c")`, `context`
    names the run-context schema."""
    return ir.Graph(
        name=name,
        kind=ir.GraphKind.GRAPH,
        state=state,
        nodes=nodes,
        edges=[ir.EdgeSpec(source=s, target=t, span=SPAN) for s, t in edges],
        joins=[ir.JoinSpec(sources=list(s), target=t, span=SPAN) for s, t in joins],
        context=context,
        branches=list(branches),
        interrupts=[
            ir.InterruptSpec(when=ir.InterruptWhen(w), node=n, span=SPAN) for w, n in interrupts
        ],
        limits=ir.Limits(
            steps=ir.Bound(value=steps, span=SPAN),
            step_timeout_s=ir.Bound(value=step_timeout) if step_timeout else None,
        ),
        checkpoint=ir.CheckpointSpec(kind=ir.CheckpointKind.NONE),
        span=SPAN,
    )


def program(*graphs: ir.Graph, schemas: list[ir.SchemaSpec] = ()) -> ir.Program:
    return ir.Program(
        source=ir.SourceRef(file="test.agent", sha256="0"),
        graphs=list(graphs),
        schemas=list(schemas),
    )


def compiled(
    g: ir.Graph,
    *others: ir.Graph,
    checkpointer: Any = None,
    store: Any = None,
    cache: Any = None,
    schemas: list[ir.SchemaSpec] = (),
) -> Any:
    from agentc.runtime import compile

    return compile(
        program(g, *others, schemas=schemas),
        g.name,
        checkpointer=checkpointer,
        store=store,
        cache=cache,
    )


def log(name: str) -> Callable[[Any], dict[str, Any]]:
    """A node function named `name` that appends its name to the `log` channel."""

    def write(state: Any) -> dict[str, Any]:
        return {"log": [name]}

    write.__name__ = name
    return write


def chain(*names: str) -> list[tuple[str, str]]:
    """START -> a -> b -> … -> END."""
    seq = [START, *names, END]
    return list(zip(seq, seq[1:], strict=False))


# ---------------------------------------------------------------- graphs written as .agent files

GRAPHS = Path(__file__).resolve().parents[1] / "runtime" / "graphs"
_DECLARED = object()


@functools.cache
def agent_program(file: str) -> ir.Program:
    from agentc.compiler.pipeline import compile_source

    path = GRAPHS / f"{file}.agent"
    result = compile_source(path.read_text(), path.name, base_dir=GRAPHS)
    assert result.program is not None, [str(d) for d in result.diagnostics]
    return result.program


def agent_graph(file: str, name: str, *, checkpointer: Any = _DECLARED) -> Any:
    """Graph `name` of `graphs/FILE.agent`, with the checkpointer the file declares (a fresh
    store per call) unless one is given."""
    from agentc.runtime import checkpointer_for, compile

    program = agent_program(file)
    if checkpointer is _DECLARED:
        checkpointer = checkpointer_for(program.graph(name).checkpoint, str(GRAPHS))
    return compile(program, name, checkpointer=checkpointer, base_dir=str(GRAPHS))


# ---------------------------------------------------------------- the LangGraph twin (oracle)
#
# `lg_twin(g)` builds LangGraph 1.2.24's StateGraph from the same IR and the same Python
# functions (our Send / Command answers converted to LangGraph's), so a test runs one graph
# on both runtimes and compares `steps(...)`: each superstep's task results, as sorted
# (node, canonical update) pairs, from each side's debug stream. LangGraph is imported only
# when a test asks for a twin.


def ask(value: Any) -> Any:
    """`interrupt(value)` on whichever runtime runs the calling node."""
    from agentc.runtime.context import _CURRENT, interrupt

    if _CURRENT.get() is not None:
        return interrupt(value)
    from langgraph.types import interrupt as lg_interrupt

    return lg_interrupt(value)


def run_context() -> Any:
    """The run's context on whichever runtime runs the calling node."""
    from agentc.runtime.context import _CURRENT, get_context

    if _CURRENT.get() is not None:
        return get_context()
    from langgraph.runtime import get_runtime

    return get_runtime().context


def _to_lg(value: Any) -> Any:
    from langgraph.types import Command as LGCommand
    from langgraph.types import Send as LGSend

    from agentc.runtime.types import Command, Send

    if isinstance(value, Send):
        return LGSend(value.node, value.arg)
    if isinstance(value, Command):
        goto = value.goto
        goto = [_to_lg(x) for x in goto] if isinstance(goto, list) else _to_lg(goto)
        return LGCommand(update=value.update, goto=goto if goto is not None else ())
    if isinstance(value, list):
        return [_to_lg(x) for x in value]
    return value


def _lg_reducer(c: ir.ChannelSpec) -> Any:
    import operator

    if c.reducer is None:
        return Any
    if c.reducer.attr == "add_messages":
        from langgraph.graph.message import add_messages

        return Annotated[list, add_messages]
    items: Any = list if c.reducer.attr == "append" else Any
    return Annotated[items, operator.add]


def lg_twin(
    g: ir.Graph, *, checkpointer: Any = None, cache: Any = None, context_schema: Any = None
) -> Any:
    from typing import TypedDict

    from langgraph.graph import StateGraph
    from langgraph.types import CachePolicy

    state = TypedDict(f"{g.name}_state", {c.name: _lg_reducer(c) for c in g.state})  # type: ignore[misc]
    b = StateGraph(state, context_schema=context_schema)
    for n in g.nodes:
        fn = getattr(_module, n.impl.attr)
        b.add_node(
            n.name,
            _lg_node(fn),
            defer=n.defer,
            cache_policy=CachePolicy(ttl=n.cache.ttl_s) if n.cache is not None else None,
        )
    for e in g.edges:
        b.add_edge(e.source, e.target)
    for j in g.joins:
        b.add_edge(list(j.sources), j.target)
    for br in g.branches:
        assert br.router is not None, "the twin takes router branches only"
        route = getattr(_module, br.router.attr)
        b.add_conditional_edges(br.source, _lg_node(route), br.routes or None)
    return b.compile(checkpointer=checkpointer, cache=cache)


def _lg_node(fn: Callable[..., Any]) -> Callable[..., Any]:
    def run(state: Any) -> Any:
        return _to_lg(fn(state))

    run.__name__ = getattr(fn, "__name__", "node")
    return run


def _canon(value: Any) -> str:
    import json

    def plain(v: Any) -> Any:
        if isinstance(v, dict):
            return {k: plain(x) for k, x in v.items()}
        if isinstance(v, (list, tuple)) or type(v).__name__ == "ListView":
            return [plain(x) for x in v]
        return v

    return json.dumps(plain(value), sort_keys=True, default=repr)


Steps = list[list[tuple[str, str]]]


def lg_steps(lg: Any, value: Any, config: Any = None, **kw: Any) -> Steps:
    """LangGraph's supersteps: each one's finished tasks as sorted (node, update) pairs."""
    by_step: dict[int, list[tuple[str, str]]] = {}
    for ev in lg.stream(value, config, stream_mode="debug", **kw):
        p = ev["payload"]
        if ev["type"] == "task_result" and not p.get("error") and not p.get("interrupts"):
            by_step.setdefault(ev["step"], []).append((p["name"], _canon(p["result"])))
    return [sorted(v) for _, v in sorted(by_step.items())]


def ac_steps(g: Any, value: Any, config: Any = None, **kw: Any) -> Steps:
    """agentc's supersteps, in the same form as `lg_steps`."""
    from agentc.runtime.events import DebugEvent, DebugKind

    by_step: dict[int, list[tuple[str, str]]] = {}
    for ev in g.stream(value, config, mode="debug", **kw):
        if isinstance(ev, DebugEvent) and ev.kind is DebugKind.TASK_RESULT:
            p = ev.payload
            by_step.setdefault(ev.step, []).append((p["node"], _canon(p["writes"])))
    return [sorted(v) for _, v in sorted(by_step.items())]


def lg_updates(lg: Any, value: Any, config: Any = None, **kw: Any) -> list[dict[str, Any]]:
    """LangGraph's `updates` chunks (interrupts as `{"__interrupt__": [values]}`)."""
    out = []
    for chunk in lg.stream(value, config, stream_mode="updates", **kw):
        if "__interrupt__" in chunk:
            chunk = {"__interrupt__": [i.value for i in chunk["__interrupt__"]]}
        out.append(chunk)
    return out


def ac_updates(g: Any, value: Any, config: Any = None, **kw: Any) -> list[dict[str, Any]]:
    """agentc's `updates` events in LangGraph's chunk shape (`__metadata__` on a cache hit)."""
    from agentc.runtime.events import InterruptEvent, UpdatesEvent

    out: list[dict[str, Any]] = []
    for ev in g.stream(value, config, mode="updates", **kw):
        if isinstance(ev, UpdatesEvent):
            chunk: dict[str, Any] = {ev.node: ev.update or None}
            if ev.cached:
                chunk["__metadata__"] = {"cached": True}
            out.append(chunk)
        elif isinstance(ev, InterruptEvent):
            out.append({"__interrupt__": [i.value for i in ev.interrupts]})
    return out
