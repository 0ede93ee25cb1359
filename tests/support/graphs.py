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
from typing import Any

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
) -> ir.NodeSpec:
    impl = fn if isinstance(fn, ir.ImportRef) else ref(fn)
    return ir.NodeSpec(
        name=name,
        kind=kind,
        impl=impl,
        config=config or {},
        retry=retry,
        timeout_s=timeout,
        span=SPAN,
    )


def subgraph(name: str, graph: str) -> ir.NodeSpec:
    return node(
        name,
        ir.ImportRef(module="agentc.runtime.subgraph", attr="subgraph_node"),
        kind=ir.NodeKind.SUBGRAPH,
        config={"graph": graph},
    )


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
) -> ir.Graph:
    return ir.Graph(
        name=name,
        kind=ir.GraphKind.GRAPH,
        state=state,
        nodes=nodes,
        edges=[ir.EdgeSpec(source=s, target=t, span=SPAN) for s, t in edges],
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


def program(*graphs: ir.Graph) -> ir.Program:
    return ir.Program(source=ir.SourceRef(file="test.agent", sha256="0"), graphs=list(graphs))


def compiled(g: ir.Graph, *others: ir.Graph, checkpointer: Any = None) -> Any:
    from agentc.runtime import compile

    return compile(program(g, *others), g.name, checkpointer=checkpointer)


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
