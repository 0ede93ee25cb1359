"""Binding an agent's middleware: one object per `MiddlewareSpec`, shared by every node.

Input: the `ir.Graph` of an agent and the `BindEnv`. Output: `BoundMiddleware` in
declaration order. The middleware's `impl` is a class (built once with its validated config
as keyword arguments; `{"$import": …}` values become the Python objects they name) or an
object (a decorated hook: used as is). The instances are kept in the env's per-graph cache
(`BOUND_MIDDLEWARE`), so the model node, the tools node and every hook node of one compiled
agent call the SAME object (a counting middleware counts across its hooks). A middleware
that wants the agent's model or base directory defines `agentc_bind(info: BindInfo)`,
called once.
"""

from __future__ import annotations

import inspect
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from ...ir import Graph, HookPoint, ImportRef, MiddlewareSpec, SourceSpan
from ...runtime.errors import AgentcRuntimeError, BindError
from ...runtime.records import dataclass
from ...runtime.types import BindEnv, Slot
from ..providers.base import ChatModel
from ..providers.plugins import from_bare_factory
from ..providers.registry import model_spec, resolve_model

if TYPE_CHECKING:
    from ...runtime.compiled import CompiledGraph


class MiddlewareSetupError(BindError, ValueError):
    """A middleware that cannot be built from its settings: where it is declared, and why."""

    code = "middleware-setup"


@dataclass(frozen=True, slots=True)
class BoundMiddleware:
    spec: MiddlewareSpec
    obj: object  # any object with LangChain's hooks (see `chain.py`)

    @property
    def name(self) -> str:
        return self.spec.name

    def has(self, point: HookPoint) -> bool:
        return point in self.spec.hooks


@dataclass(frozen=True, slots=True)
class BindInfo:
    """What a middleware may learn about its agent at bind time."""

    graph: Graph
    env: BindEnv
    spec: MiddlewareSpec

    @property
    def base_dir(self) -> str:
        return self.env.base_dir

    def model(self, text: str | None = None) -> ChatModel:
        """The chat model `text` names ("provider:name"), or the agent's own model."""
        if text is not None:
            return resolve_model(model_spec(text, span=self.spec.span), self.base_dir)
        assert self.graph.agent is not None, "middleware is bound only to an agent's graph"
        return resolve_model(self.graph.agent.model, self.base_dir)


@runtime_checkable
class Bindable(Protocol):
    """A middleware that wants to know its agent (agentc's extension of the protocol)."""

    def agentc_bind(self, info: BindInfo) -> None: ...


BOUND_MIDDLEWARE: Slot[tuple[BoundMiddleware, ...]] = Slot("agent middleware")


def resolve_refs(value: Any, env: BindEnv, span: SourceSpan | None = None) -> Any:
    """Config values with `{"$import": "module:attr"}` replaced by the objects they name, and
    `{"$model": "module:attr"}` (a factory where a model setting was) by the chat model that
    factory builds, as the agent's own `model tools.make { … }` is built."""
    if isinstance(value, dict):
        if "$model" in value and set(value) <= {"$model", "is_file", "as"}:
            module, _, attr = str(value["$model"]).rpartition(":")
            ref = ImportRef(module=module, attr=attr, is_file=bool(value.get("is_file")))
            return from_bare_factory(ref, str(value.get("as", ref.key)), env.base_dir, span)
        if "$import" in value and set(value) <= {"$import", "is_file"}:
            module, _, attr = str(value["$import"]).rpartition(":")
            return env.load(ImportRef(module=module, attr=attr, is_file=bool(value.get("is_file"))))
        return {k: resolve_refs(v, env, span) for k, v in value.items()}
    if isinstance(value, list):
        return [resolve_refs(v, env, span) for v in value]
    return value


def instantiate(spec: MiddlewareSpec, graph: Graph, env: BindEnv) -> object:
    obj = env.load(spec.impl)
    if inspect.isclass(obj):
        config = {
            k: resolve_refs(v, env, spec.config_spans.get(k, spec.span))
            for k, v in spec.config.items()
        }
        try:
            obj = obj(**config)
        except (TypeError, ValueError) as exc:
            raise _rejected(spec, exc) from exc
    if isinstance(obj, Bindable):
        try:  # it may read its settings' model strings here (`BindInfo.model`)
            obj.agentc_bind(BindInfo(graph, env, spec))
        except AgentcRuntimeError:
            raise
        except (TypeError, ValueError) as exc:
            raise _rejected(spec, exc) from exc
    return obj


def _rejected(spec: MiddlewareSpec, exc: Exception) -> MiddlewareSetupError:
    return MiddlewareSetupError(
        f"middleware `{spec.name}` ({spec.impl.key}) rejected its settings: {exc}",
        span=spec.span,
        help=f"compare the settings with what `{spec.name}` accepts in its documentation",
    )


def bound_middleware(graph: Graph, env: BindEnv) -> tuple[BoundMiddleware, ...]:
    """The agent's middleware objects, built on first use and shared afterwards."""
    specs = graph.agent.middleware if graph.agent is not None else []
    return env.shared(
        BOUND_MIDDLEWARE,
        graph.name,
        lambda: tuple(BoundMiddleware(s, instantiate(s, graph, env)) for s in specs),
    )


def middleware_of(compiled: CompiledGraph, name: str) -> object:
    """The middleware object `name` of a compiled agent (for tests and examples)."""
    graph = compiled.graph
    for b in bound_middleware(graph, compiled.env):
        if b.name == name:
            return b.obj
    raise KeyError(f"agent `{graph.name}` has no middleware `{name}`")
