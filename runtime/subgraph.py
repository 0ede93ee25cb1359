"""`agent(...)` / `subgraph(...)` nodes: run another graph of the same program as a node.

Input: `NodeSpec.config`, an `ir.SubgraphNodeConfig` as JSON (`graph`, and optional `input`
/ `output` maps). Output: the node's update. Without maps the child reads the parent's
channels that are its input channels and its output channels that the parent also has are
written back (LangGraph's shared-key subgraph). With `input` the child starts from exactly
the mapped values (child channel ← parent channel); with `output` only the mapped child
channels are written back (parent channel ← child channel). Either way the child's own
`input` / `output` flags hold: private channels neither come in nor go out. A child
node's `Command(graph=PARENT)` becomes this node's own `Command`. Running the child (its
own step limit H2, the parent's saver under the namespace `node:task` H3, the parent's
long-term store I1 and run context, pausing and resuming with the parent) is
`child.nest`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any, NoReturn

from pydantic import ValidationError

import agentc.ir as ir
from agentc.runtime.algo import ParentCommand
from agentc.runtime.child import nest
from agentc.runtime.errors import BindError
from agentc.runtime.types import BindEnv, Command, RunContext, factory

SubgraphNode = Callable[[Mapping[str, Any], RunContext], Awaitable[dict[str, Any] | Command]]


@factory
def subgraph_node(spec: ir.NodeSpec, graph: ir.Graph, env: BindEnv) -> SubgraphNode:
    config = _config(spec)
    child = env.subgraph(config.graph)
    inputs = child.bound.input_channels
    outputs = frozenset(child.bound.output_channels)
    parent = frozenset(c.name for c in graph.state)
    name = config.graph
    # (child channel, parent channel) pairs; each child channel must take input
    take_in = _checked_map(
        spec, config.input, True, inputs, f"an input channel of `{name}`", parent
    )
    # (parent channel, child channel) pairs; each child channel must be an output
    give_back = _checked_map(spec, config.output, False, outputs, f"an output of `{name}`", parent)

    async def run_subgraph(state: Mapping[str, Any], ctx: RunContext) -> dict[str, Any] | Command:
        if take_in is None:
            value = {k: v for k, v in state.items() if k in inputs}
        else:
            value = {c: state[p] for c, p in take_in if p in state}
        try:
            values = await nest(child, value, ctx)
        except ParentCommand as pc:
            return Command(update=pc.command.update, goto=pc.command.goto)
        if give_back is None:
            return {k: v for k, v in values.items() if k in parent}
        return {p: values[c] for p, c in give_back if c in values}

    return run_subgraph


def _config(spec: ir.NodeSpec) -> ir.SubgraphNodeConfig:
    try:
        return ir.SubgraphNodeConfig.model_validate(spec.config)
    except ValidationError as exc:
        raise BindError(
            f"node `{spec.name}` needs a subgraph config "
            f'({{"graph": "<name>", "input": {{…}}, "output": {{…}}}}): '
            f"{exc.errors()[0]['msg']}",
            span=spec.span,
        ) from None


def _checked_map(
    spec: ir.NodeSpec,
    pairs: Mapping[str, str] | None,
    into_child: bool,
    child_ok: frozenset[str],
    child_is: str,
    parent: frozenset[str],
) -> tuple[tuple[str, str], ...] | None:
    """A map's (target, source) pairs as written; `into_child`: the targets are the
    child's channels (`input`), else the parent's (`output`). The child's end of each pair
    must be in `child_ok` (`child_is` says what that is) and the parent's end a channel of
    this graph; the error names the pair's end that is not."""
    if pairs is None:
        return None
    for target, source in pairs.items():
        head = f"maps `{source}` {'into' if into_child else 'back into'} `{target}`"
        child, mine = (target, source) if into_child else (source, target)
        if child not in child_ok:
            _refuse(spec, head + _not(child, into_child, child_is))
        if mine not in parent:
            _refuse(spec, head + _not(mine, not into_child, "a channel of this graph"))
    return tuple(pairs.items())


def _not(name: str, is_target: bool, what: str) -> str:
    """`, which is not …` for the target (named last), `, but `x` is not …` for the source."""
    return f", which is not {what}" if is_target else f", but `{name}` is not {what}"


def _refuse(spec: ir.NodeSpec, what: str) -> NoReturn:
    raise BindError(f"subgraph node `{spec.name}` {what}", span=spec.span)
