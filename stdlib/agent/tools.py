"""Binding an agent's tools and structured output: the IR's specs made callable, once.

Input: the agent's `ir.Graph` and the `BindEnv`. Output: the agent's local `Tool`s (B5: the
model is offered every one, every call), its bound `StructuredOutput` (B7) and the names of
its structured-output tools, and its MCP toolset (A9), shared by the nodes of one graph.
Invariants: A7 — tools are keyed by name and a later one wins: middleware tools first, then
the agent's, then (for the tools node) MCP tools; the spec's name and flags are
authoritative over what the Python object says.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from ...ir import AgentSpec, Graph, OutputSpec, OutputStrategy, ToolSpec
from ...runtime.errors import ToolSchemaError
from ...runtime.types import BindEnv, Slot
from ..middleware.binding import BoundMiddleware, bound_middleware
from ..structured_output import OutputSchema, StructuredOutput, schema_from_spec
from ..tools import Tool, ToolDefinitionError, as_tool, make_tool
from .agent_tools import agent_tool
from .spec import AgentSetupError, agent_of, all_tool_specs

if TYPE_CHECKING:
    from ..mcp import McpToolset


def bind_tool(spec: ToolSpec, env: BindEnv, own: Mapping[str, Tool] | None = None) -> Tool:
    """A tool of the IR made callable; the spec's name and flags are authoritative. A tool
    a middleware adds (no `ref`) is the middleware object's own (`own`, by name)."""
    if spec.agent is not None:
        return agent_tool(spec, env)
    if spec.ref is None and own is not None and spec.name in own:
        return own[spec.name]
    if spec.ref is None:
        raise AgentSetupError(f"tool `{spec.name}` names no Python function")
    obj = env.load(spec.ref)
    try:
        t = as_tool(obj) if isinstance(obj, Tool) else make_tool(obj, name=spec.name)
    except ToolDefinitionError as exc:
        raise AgentSetupError(f"tool `{spec.name}` ({spec.ref.key}): {exc}") from None
    except ToolSchemaError as exc:  # located at the tool's entry in the file
        exc.span = exc.span or spec.span
        raise
    return t.with_options(
        name=spec.name,
        return_direct=spec.return_direct or t.return_direct,
        response_format=spec.response_format,
    )


def middleware_tools(bound: Sequence[BoundMiddleware]) -> dict[str, Tool]:
    """The tools middleware objects bring (their `tools` attribute), by name."""
    own: dict[str, Tool] = {}
    for b in bound:
        for t in getattr(b.obj, "tools", None) or ():  # any object may bring tools
            try:
                made = as_tool(t)
            except ToolDefinitionError as exc:
                raise AgentSetupError(
                    f"middleware `{b.name}` brings a tool that is not one: {exc}"
                ) from None
            own[made.name] = made
    return own


LOCAL_TOOLS: Slot[tuple[Tool, ...]] = Slot("agent local tools")


def bind_tools(graph: Graph, env: BindEnv) -> list[Tool]:
    """Every local tool of the agent (A7: later names win), middleware tools included.

    Made once per bound graph and shared by its model node, tools node and hook nodes:
    each tool's argument model and JSON schema cost about half a millisecond, which an
    agent with 100 tools and five middleware hook nodes would otherwise pay six times."""
    return list(env.shared(LOCAL_TOOLS, graph.name, lambda: _make_tools(graph, env)))


def _make_tools(graph: Graph, env: BindEnv) -> tuple[Tool, ...]:
    agent = agent_of(graph)
    own = middleware_tools(bound_middleware(graph, env))
    tools = {s.name: bind_tool(s, env, own) for s in all_tool_specs(agent)}
    if any(n.name == "tools" for n in graph.nodes):  # a Python middleware's `tools` too
        for name, t in own.items():
            tools.setdefault(name, t)
    return tuple(tools.values())


def bind_output(agent: AgentSpec, env: BindEnv) -> StructuredOutput | None:
    """The agent's `output` clause with its schemas bound (B7), or None."""
    return None if agent.output is None else bind_output_spec(agent.output, env)


def bind_output_spec(output: OutputSpec, env: BindEnv) -> StructuredOutput:
    """An `output` clause (an agent's, or a graph model node's) with its schemas bound."""
    schemas: dict[str, OutputSchema] = {}
    for name in output.schemas:
        spec = next((s for s in env.program.schemas if s.name == name), None)
        if spec is None:
            raise AgentSetupError(f"output schema `{name}` is not declared in the program")
        schemas[name] = schema_from_spec(spec, env.load)
    return StructuredOutput.from_spec(output, schemas)


def structured_names(agent: AgentSpec, env: BindEnv) -> frozenset[str]:
    """The structured-output tool names (B7), as the model node names them."""
    if agent.output is None or agent.output.strategy is OutputStrategy.PROVIDER:
        return frozenset()
    output = bind_output(agent, env)
    return output.tool_names if output is not None else frozenset()


def merged_tools(local: Sequence[Tool], mcp: Sequence[Tool]) -> tuple[Tool, ...]:
    """A7: keyed by name, MCP tools after the local ones. A server tool never replaces a
    local one: a clash stops the run (`duplicate-tool`), as two local tools of one name are
    refused by `agentc check` (docs/divergences.md, A7)."""
    if mcp:
        from ..mcp.tools import refuse_shadowing  # lazy: only agents with MCP tools get here

        refuse_shadowing(local, mcp)
    by_name = {t.name: t for t in local}
    by_name.update((t.name, t) for t in mcp)
    return tuple(by_name.values())


MCP_TOOLSET: Slot[McpToolset] = Slot("agent MCP toolset")


def mcp_toolset(graph: Graph, env: BindEnv) -> McpToolset | None:
    """The agent's MCP toolset, one per bound graph so its nodes share one listing (A9)."""
    agent = agent_of(graph)
    if not agent.mcp_tools:
        return None
    from ..mcp import McpToolset  # the MCP client loads only for agents that use a server

    return env.shared(MCP_TOOLSET, graph.name, lambda: McpToolset(agent.mcp_tools))
