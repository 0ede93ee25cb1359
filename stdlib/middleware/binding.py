"""Binding an agent's middleware: one object per `MiddlewareSpec`, shared by every node.

Input: the `ir.Graph` of an agent and the `BindEnv`. Output: `BoundMiddleware` in
declaration order. The middleware's `impl` is a class (built once with its validated config
as keyword arguments; `{"$import": …}` values become the Python objects they name) or an
object (a decorated hook: used as is). The instances are cached on the env per graph, so the
model node, the tools node and every hook node of one compiled agent call the SAME object
(a counting middleware counts across its hooks, seed 002). A middleware that wants the
agent's model or base directory defines `agentc_bind(info: BindInfo)`, called once.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import Any

from ...ir import Graph, HookPoint, ImportRef, MiddlewareSpec
from ...runtime.types import Slot


class MiddlewareSetupError(ValueError):
    """A middleware that cannot be built: bad settings, an unknown model, a failing class."""


@dataclass(frozen=True, slots=True)
class BoundMiddleware:
    spec: MiddlewareSpec
    obj: Any

    @property
    def name(self) -> str:
        return self.spec.name

    def has(self, point: HookPoint) -> bool:
        return point in self.spec.hooks


@dataclass(frozen=True, slots=True)
class BindInfo:
    """What a middleware may learn about its agent at bind time."""

    graph: Graph
    env: Any
    spec: MiddlewareSpec

    @property
    def base_dir(self) -> str:
        return getattr(self.env, "base_dir", ".")

    def model(self, text: str | None = None) -> Any:
        """The chat model `text` names ("provider:name"), or the agent's own model."""
        from ..agent import model_spec_from_string, resolve_model

        agent = self.graph.agent
        spec = agent.model if text is None else model_spec_from_string(text, self.spec.span)
        return resolve_model(spec, self.base_dir)


BOUND_MIDDLEWARE: Slot[tuple[BoundMiddleware, ...]] = Slot("agent middleware")


def resolve_refs(value: Any, env: Any) -> Any:
    """Config values with `{"$import": "module:attr"}` replaced by the objects they name."""
    if isinstance(value, dict):
        if "$import" in value and set(value) <= {"$import", "is_file"}:
            module, _, attr = str(value["$import"]).rpartition(":")
            return env.load(ImportRef(module=module, attr=attr, is_file=bool(value.get("is_file"))))
        return {k: resolve_refs(v, env) for k, v in value.items()}
    if isinstance(value, list):
        return [resolve_refs(v, env) for v in value]
    return value


def instantiate(spec: MiddlewareSpec, graph: Graph, env: Any) -> Any:
    obj = env.load(spec.impl)
    if inspect.isclass(obj):
        config = resolve_refs(dict(spec.config), env)
        try:
            obj = obj(**config)
        except (TypeError, ValueError) as exc:
            raise MiddlewareSetupError(
                f"middleware `{spec.name}` ({spec.impl.key}) rejected its settings: {exc}"
            ) from exc
    bind = getattr(obj, "agentc_bind", None)
    if bind is not None:
        bind(BindInfo(graph, env, spec))
    return obj


def bound_middleware(graph: Graph, env: Any) -> tuple[BoundMiddleware, ...]:
    """The agent's middleware objects, built on first use and shared afterwards."""
    specs = graph.agent.middleware if graph.agent is not None else []
    return env.shared(
        BOUND_MIDDLEWARE,
        graph.name,
        lambda: tuple(BoundMiddleware(s, instantiate(s, graph, env)) for s in specs),
    )


def middleware_of(compiled: Any, name: str) -> Any:
    """The middleware object `name` of a compiled agent (for tests and examples)."""
    graph = compiled.graph
    for b in bound_middleware(graph, compiled.env):
        if b.name == name:
            return b.obj
    raise KeyError(f"agent `{graph.name}` has no middleware `{name}`")
