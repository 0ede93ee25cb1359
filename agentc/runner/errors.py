"""How `agentc run` fails: a usage error (exit 2) or one paragraph about the run (exit 1).

Input: an exception, and the `RunSite` (the program and graph being run, once known) it
was raised at. Output: `UsageError` for command lines that cannot run, and
`describe_error(exc, site)` → one paragraph, never a traceback. Invariants: a node's
failure names the node's path (`node `sub` › `inner` failed: ValueError: deep`, from
`agentc.runtime.errors`), led by the `.agent` line of the innermost node the program
declares; other runtime errors keep their own diagnostic rendering (`error[recursion-limit]:
…`); every other exception is named by its kind. The runtime is imported only once a run
has failed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import agentc.ir as ir


class UsageError(Exception):
    """A command line that cannot run: an unreadable file, clashing options (exit 2)."""


@dataclass(slots=True)
class RunSite:
    """What `agentc run` is running, filled in as it is known (a failure may come first)."""

    program: ir.Program | None = None
    graph: ir.Graph | None = None
    thread: str | None = None  # the saved thread this run writes, once bound
    kept: bool = True  # the thread outlives the process (not `checkpoint memory`)

    def saved_thread_line(self) -> str | None:
        """After a failure or Ctrl-C: where the completed steps were saved, so the run
        can be continued even when no `--thread` was given (never for a thread that
        `checkpoint memory` forgets as the process ends)."""
        if self.thread is None or not self.kept:
            return None
        thread = self.thread
        return f"progress so far is saved in thread {thread} (continue with --thread {thread})"


def describe_error(exc: BaseException, site: RunSite | None = None) -> str:
    """One paragraph: what failed and, where we know it, what to do. A node's failure
    names the node (and where it is declared); runtime errors render as their diagnostics
    (`error[recursion-limit]: …`); others name their kind."""
    from agentc.runtime.errors import (  # paid on failure
        describe_node_failure,
        failed_nodes,
        failed_tool_call,
    )

    failure = describe_node_failure(exc)
    kind = "error"
    call = failed_tool_call(exc)  # a tool's own exception: the tool and the call it answered
    if failure is not None and call is not None:
        nodes = " › ".join(f"`{n}`" for n in failed_nodes(exc))
        failure = f"node {nodes} failed: {call.message} (help: {call.help})"
        kind = f"error[{call.code}]"
    if failure is not None:
        site = site or RunSite()
        span = node_span(site.program, site.graph, failed_nodes(exc))
        return f"{span}: {kind}: {failure}" if span is not None else f"{kind}: {failure}"
    text = " ".join((str(exc).strip() or type(exc).__name__).split())
    code = getattr(exc, "code", None)
    if isinstance(code, str) and hasattr(exc, "message"):
        return text  # an AgentcRuntimeError: `[where: ]error[code]: message (help: …)`
    if isinstance(code, str):  # a model provider's or MCP server's failure
        return f"error[{code}]: {text}"
    return f"error: {text} [{type(exc).__name__}]"


def node_span(
    program: ir.Program | None, graph: ir.Graph | None, path: Sequence[str]
) -> ir.SourceSpan | None:
    """Where the innermost node of `path` (outermost first, from the run's graph down
    through subgraph and agent nodes) is declared; as deep as the program says, None
    when not even the first is found."""
    span = None
    for name in path:
        node = next((n for n in graph.nodes if n.name == name), None) if graph else None
        if node is None:
            break
        span, graph = node.span, _child(program, node)
    return span


def _child(program: ir.Program | None, node: ir.NodeSpec) -> ir.Graph | None:
    """The graph a subgraph or agent node runs, None for other nodes."""
    import agentc.ir as ir

    if program is None or node.kind not in (ir.NodeKind.SUBGRAPH, ir.NodeKind.AGENT):
        return None
    if "graph" not in node.config:
        return None
    name = ir.SubgraphNodeConfig.model_validate(node.config).graph
    return next((g for g in program.graphs if g.name == name), None)
