"""The opening attributes of spans that do not change from call to call, built once per
construct and copied for each span: a model call's operation, provider, model, sampling
options, the backends' kind hints and its `file:line`; a tool call's name, type, hints and
line; a hook or node span's hints, line and seats.

Input: the graph facts (`facts.py`) a run or call belongs to and the call's model, provider
and options (or its tool, or its node). Output: a fresh `Attrs` dict per span, to which the
recorder adds what varies: the superstep, the node, the checkpoint, the conversation.
Invariants: a template depends only on its key (so templates are shared by every run of a
graph, from any thread: a dict read or write is atomic); a key that cannot be hashed (a
call's own options holding a list) is built each time; at most `LIMIT` templates of each
kind are kept, so options that change on every call cannot grow the cache without end.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any

from . import attrs as a
from .facts import GraphFacts

LIMIT = 256


class Templates:
    """The templates of one instrumented graph (and the sub-agents and subgraphs it runs)."""

    def __init__(self) -> None:
        self._run: dict[str, a.Attrs] = {}
        self._chat: dict[Hashable, a.Attrs] = {}
        self._tool: dict[Hashable, a.Attrs] = {}
        self._node: dict[Hashable, a.Attrs] = {}

    def run(self, facts: GraphFacts) -> a.Attrs:
        """The run's span: the agent or workflow, its model, its `file:line`."""
        found = self._run.get(facts.name)
        if found is None:
            op = facts.operation
            found = {a.OPERATION: op, a.AGENT_NAME: facts.name, **a.kind_hints(op)}
            if not facts.is_agent:
                found[a.WORKFLOW_NAME] = facts.name
            if facts.model is not None:
                found[a.PROVIDER] = a.provider_name(facts.model.provider)
                found[a.REQUEST_MODEL] = facts.model.name or facts.model.spec
            if facts.source:
                found[a.SOURCE] = facts.source
            _keep(self._run, facts.name, found)
        return dict(found)

    def chat(
        self,
        facts: GraphFacts | None,
        call: tuple[str, str, str],  # the node that called, the model and the provider
        options: Mapping[str, Any],
        stream: bool,
    ) -> a.Attrs:
        node, model, provider = call
        frozen = _frozen(options)
        key = (facts.name if facts else None, node, model, provider, stream, frozen)
        found = self._chat.get(key) if frozen is not None else None
        if found is None:
            found = _chat(facts, call, options, stream)
            _keep(self._chat, key if frozen is not None else None, found)
        return dict(found)

    def tool(self, facts: GraphFacts | None, tool: str) -> a.Attrs:
        key = (facts.name if facts else None, tool)
        found = self._tool.get(key)
        if found is None:
            known = facts.tools.get(tool) if facts is not None else None
            found = a.tool_call(tool, known.kind if known is not None else "function")
            if known is not None and known.source:
                found[a.SOURCE] = known.source
            _keep(self._tool, key, found)
        return dict(found)

    def node(self, facts: GraphFacts, node: str) -> a.Attrs:
        """A hook node's span (a middleware's before/after hook) or a graph block's node."""
        key = (facts.name, node)
        found = self._node.get(key)
        if found is None:
            hook = facts.hooks.get(node)
            found = dict(a.kind_hints("node"))
            source = hook.source if hook is not None else facts.node_source(node)
            if source:
                found[a.SOURCE] = source
            if hook is not None and hook.seats:
                found[a.SEAT] = ",".join(hook.seats)  # the seats this middleware decides
            _keep(self._node, key, found)
        return dict(found)


def _chat(
    facts: GraphFacts | None, call: tuple[str, str, str], options: Mapping[str, Any], stream: bool
) -> a.Attrs:
    node, model, provider = call
    declared = facts.declared_options(node, model, provider) if facts else {}
    attrs = a.chat_request(model, provider, {**declared, **options}, stream)  # the call's win
    source = facts.model_source(node) if facts is not None else None
    if source:
        attrs[a.SOURCE] = source
    return attrs


def _frozen(options: Mapping[str, Any]) -> Hashable | None:
    """The options as a key (None: a value cannot be hashed)."""
    if not options:
        return ()
    key = tuple(options.items())
    try:
        hash(key)
    except TypeError:
        return None
    return key


def _keep(table: dict[Any, a.Attrs], key: Hashable | None, value: a.Attrs) -> None:
    if key is not None and len(table) < LIMIT:
        table[key] = value
