"""Binding: `ir.Graph` → callables, channel factories and precomputed routing tables.

Input: an `ir.Program`, a graph name, the directory that file-relative `ImportRef`s start
from. Output: a `BoundGraph` the executor reads and never changes (shared by concurrent
runs). Invariants: every `ImportRef` is imported once, here; a node's arity (`fn(state)`
or `fn(state, ctx)`) and async-ness are inspected once; `when` conditions compile to
closures once; the runtime imports stdlib modules only by these references.
"""

from __future__ import annotations

import copy
import hashlib
import importlib
import importlib.util
import inspect
import operator
import os
import sys
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

import agentc.ir as ir
from agentc.runtime.barriers import Flow
from agentc.runtime.channels import MISSING, Channel, ReducerChannel
from agentc.runtime.errors import BindError
from agentc.runtime.inline import SyncPolicy
from agentc.runtime.records import dataclass
from agentc.runtime.schema import Schema, find_schema, program_defs
from agentc.runtime.types import Slot

if TYPE_CHECKING:
    from agentc.runtime.compiled import CompiledGraph


@dataclass(frozen=True, slots=True)
class Callee:
    """A bound node or router callable and how to call it."""

    fn: Callable[..., Any]
    wants_ctx: bool
    is_async: bool
    state_only: bool = False  # a router marked `state_only`: called without a task context


@dataclass(frozen=True, slots=True)
class BoundNode:
    name: str
    callee: Callee
    retry: ir.RetryPolicy | None
    timeout_s: float | None
    spec: ir.NodeSpec
    policy: SyncPolicy  # where a sync node's calls run (`inline.py`)
    goto: frozenset[str] | None = None  # the declared Command(goto) targets; None: any
    payload: PayloadSchema | None = None  # what a Send to this node must carry
    cache: ir.CachePolicy | None = None


@dataclass(frozen=True, slots=True)
class PayloadSchema:
    """A node's `input: Schema`: the name (for errors), the JSON Schema a Send's payload
    is checked against, and the program's schemas its `$ref`s may name."""

    name: str
    schema: dict[str, Any]
    defs: Mapping[str, Schema]


@dataclass(frozen=True, slots=True)
class BoundBranch:
    source: str
    spec: ir.BranchSpec
    router: Callee | None  # ROUTER
    cases: tuple[tuple[Callable[[Any], bool] | None, str], ...]  # WHEN: (test, target)


@dataclass(frozen=True, slots=True)
class ChannelMaker:
    spec: ir.ChannelSpec
    make: Callable[[], Channel]


@dataclass(frozen=True, slots=True)
class BoundGraph:
    graph: ir.Graph
    nodes: dict[str, BoundNode]
    edges: dict[str, tuple[str, ...]]  # source → static targets (END dropped)
    branches: dict[str, tuple[BoundBranch, ...]]
    channels: tuple[ChannelMaker, ...]
    input_channels: frozenset[str]
    output_channels: tuple[str, ...]
    ephemeral: frozenset[str]
    last_value: frozenset[str]  # one write per step
    flow: Flow | None = None  # joins and deferred nodes; None: the graph has neither

    def new_channels(self) -> dict[str, Channel]:
        return {m.spec.name: m.make() for m in self.channels}


T = TypeVar("T")


class Env:
    """The `BindEnv` factories get: imports refs, compiles sibling graphs on demand."""

    def __init__(
        self,
        program: ir.Program,
        base_dir: str,
        compile_graph: Callable[[str], CompiledGraph],
    ) -> None:
        self.program = program
        self.base_dir = base_dir
        self._compile = compile_graph
        self._graphs: dict[str, CompiledGraph] = {}
        self._shared: dict[tuple[str, str], Any] = {}

    def shared(self, slot: Slot[T], graph: str, make: Callable[[], T]) -> T:
        key = (slot.name, graph)
        if key not in self._shared:
            self._shared[key] = make()
        value: T = self._shared[key]
        return value

    def load(self, ref: ir.ImportRef) -> Any:
        try:
            module = (
                _file_module(self.base_dir, ref.module)
                if ref.is_file
                else importlib.import_module(ref.module)
            )
            obj: Any = module
            for part in ref.attr.split("."):
                obj = getattr(obj, part)
            return obj
        except BindError:
            raise
        except (ImportError, AttributeError, OSError) as exc:
            raise BindError(
                f"cannot import `{ref.key}`: {exc}",
                span=ref.span,
                help="check the module path and the name after `:`",
            ) from exc

    def subgraph(self, name: str) -> CompiledGraph:
        if name not in self._graphs:
            try:
                self.program.graph(name)
            except KeyError:
                raise BindError(f"no graph named `{name}` in this program") from None
            self._graphs[name] = self._compile(name)
        return self._graphs[name]


def _file_module(base_dir: str, rel: str) -> Any:
    """Import a Python file named relative to the .agent file, under a unique module name."""
    path = os.path.realpath(os.path.join(base_dir, rel))
    name = f"agentc_user_{hashlib.sha1(path.encode()).hexdigest()[:12]}"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None or not os.path.exists(path):
        raise BindError(f"no Python file at `{path}`")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)  # importing the user's module is the point of `use`
    except BaseException:
        del sys.modules[name]
        raise
    return module


def callee(obj: Any, spec: ir.NodeSpec | ir.BranchSpec, graph: ir.Graph, env: Env) -> Callee:
    """A factory is called once with (spec, graph, env); a plain callable is taken as is."""
    if getattr(obj, "__agentc_factory__", False):
        obj = obj(spec, graph, env)
    if not callable(obj):
        ref = spec.impl if isinstance(spec, ir.NodeSpec) else spec.router
        raise BindError(f"`{ref.key if ref is not None else spec}` is not callable", span=spec.span)
    wants_ctx = _wants_ctx(obj)
    state_only = not wants_ctx and getattr(obj, "__agentc_state_only__", False) is True
    return Callee(obj, wants_ctx, _is_async(obj), state_only)


def _is_async(fn: Any) -> bool:
    # an object whose `__call__` is async (not whether it is callable at all)
    call = getattr(fn, "__call__", None)  # noqa: B004
    return inspect.iscoroutinefunction(fn) or inspect.iscoroutinefunction(call)


def _wants_ctx(fn: Any) -> bool:
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return False
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    if any(p.kind is inspect.Parameter.VAR_POSITIONAL for p in params):
        return True
    # `fn(state, ctx)`; a second parameter with a default (`lambda s, w=w:`) is not a ctx.
    required = [p for p in params if p.kind in kinds and p.default is inspect.Parameter.empty]
    return len(required) >= 2


# ---------------------------------------------------------------- conditions

_OPS: dict[str, Callable[[Any, Any], bool]] = {
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
    "in": lambda a, b: a in b,
}


def condition(cond: ir.Condition, env: Env) -> Callable[[Any], Any]:
    """Compile an `ir.Condition` to a function of the state view (once, at bind time)."""
    if isinstance(cond, ir.FieldCond):
        return _field_getter(cond.name, tuple(cond.path))
    if isinstance(cond, ir.LiteralCond):
        value = cond.value
        return lambda s: value
    if isinstance(cond, ir.CompareCond):
        op, left, right = _OPS[cond.op], condition(cond.left, env), condition(cond.right, env)
        return lambda s: _safe_compare(op, left(s), right(s))
    if isinstance(cond, ir.NotCond):
        inner = condition(cond.operand, env)
        return lambda s: not inner(s)
    if isinstance(cond, ir.PredicateCond):
        fn = env.load(cond.ref)
        return lambda s: fn(s)
    parts = tuple(condition(c, env) for c in cond.operands)
    if cond.kind == "and":
        return lambda s: all(p(s) for p in parts)
    return lambda s: any(p(s) for p in parts)  # or


def _field_getter(name: str, path: tuple[str, ...]) -> Callable[[Any], Any]:
    def get(state: Any) -> Any:
        value = state.get(name)
        for part in path:
            if value is None:
                return None
            value = value.get(part) if isinstance(value, dict) else getattr(value, part, None)
        return value

    return get


def _safe_compare(op: Callable[[Any, Any], bool], a: Any, b: Any) -> bool:
    try:
        return bool(op(a, b))
    except TypeError:
        return False  # `none < 3`: an unset field fails the comparison instead of crashing


# ---------------------------------------------------------------- the graph


def bind_graph(program: ir.Program, graph: ir.Graph, env: Env) -> BoundGraph:
    nodes = {n.name: _bind_node(n, graph, env) for n in graph.nodes}
    edges: dict[str, list[str]] = {}
    for e in graph.edges:
        if e.target != ir.END:
            edges.setdefault(e.source, []).append(e.target)
    branches: dict[str, list[BoundBranch]] = {}
    for b in graph.branches:
        branches.setdefault(b.source, []).append(_bind_branch(b, graph, env))
    channels = tuple(_channel_maker(c, env) for c in graph.state)
    return BoundGraph(
        graph=graph,
        nodes=nodes,
        edges={k: tuple(dict.fromkeys(v)) for k, v in edges.items()},
        branches={k: tuple(v) for k, v in branches.items()},
        channels=channels,
        input_channels=frozenset(c.name for c in graph.state if c.input),
        output_channels=tuple(c.name for c in graph.state if c.output),
        ephemeral=frozenset(c.name for c in graph.state if c.ephemeral),
        last_value=frozenset(c.name for c in graph.state if c.reducer is None),
        flow=Flow.of(graph),
    )


def _bind_node(n: ir.NodeSpec, graph: ir.Graph, env: Env) -> BoundNode:
    c = callee(env.load(n.impl), n, graph, env)
    goto = frozenset(n.goto) if n.goto is not None else None
    payload = _payload_schema(n, env.program) if n.input_schema is not None else None
    return BoundNode(
        n.name, c, n.retry, n.timeout_s, n, SyncPolicy.of(c.fn), goto, payload, n.cache
    )


def _payload_schema(n: ir.NodeSpec, program: ir.Program) -> PayloadSchema:
    assert n.input_schema is not None
    try:
        schema = find_schema(program, n.input_schema)
        return PayloadSchema(n.input_schema, schema, program_defs(program))
    except KeyError:
        raise BindError(
            f"node `{n.name}` takes `input: {n.input_schema}`, but the program has no schema "
            "of that name",
            span=n.span,
        ) from None


def _bind_branch(b: ir.BranchSpec, graph: ir.Graph, env: Env) -> BoundBranch:
    if b.kind is ir.BranchKind.ROUTER:
        if b.router is None:
            raise BindError(f"the branch out of `{b.source}` names no router", span=b.span)
        return BoundBranch(b.source, b, callee(env.load(b.router), b, graph, env), ())
    cases = tuple(
        (condition(c.condition, env) if c.condition is not None else None, c.target)
        for c in b.cases
    )
    return BoundBranch(b.source, b, None, cases)


def _channel_maker(c: ir.ChannelSpec, env: Env) -> ChannelMaker:
    default = c.default if c.has_default else MISSING
    if c.reducer is None:
        return ChannelMaker(c, lambda: Channel(c.name, _fresh(default)))
    reducer = env.load(c.reducer)
    own = getattr(reducer, "__agentc_channel__", None)
    if own is not None:
        return ChannelMaker(c, lambda: own(c.name, _fresh(default)))
    return ChannelMaker(c, lambda: ReducerChannel(c.name, reducer, _fresh(default)))


def _fresh(default: Any) -> Any:
    # Defaults are JSON; a mutable one is copied so runs never share it.
    if isinstance(default, (list, dict)):
        return copy.deepcopy(default)
    return default
