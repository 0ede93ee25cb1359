"""Runtime errors: each carries a stable diagnostic code and, where known, an IR span.

Input: nothing (definitions only). The runtime raises these for user mistakes (a bad
update, a limit reached, a resume that cannot be honoured); a bug stays a plain exception.
"""

from __future__ import annotations

from typing import Any


class AgentcRuntimeError(Exception):
    """Base of every user-facing runtime error; `code` is a stable kebab-case slug."""

    code = "runtime-error"

    def __init__(self, message: str, *, span: Any = None, help: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.span = span
        self.help = help

    def __str__(self) -> str:
        where = f"{self.span}: " if self.span is not None else ""
        hint = f" (help: {self.help})" if self.help else ""
        return f"{where}error[{self.code}]: {self.message}{hint}"


class InvalidUpdateError(AgentcRuntimeError):
    """A write the channels cannot take (LangGraph's InvalidUpdateError)."""

    code = "invalid-update"


class RecursionLimitError(AgentcRuntimeError):
    """F1: the run needed more supersteps than its recursion limit allows."""

    code = "recursion-limit"


class StepTimeoutError(AgentcRuntimeError, TimeoutError):
    """F2: a step (or one node with `timeout`) ran longer than allowed."""

    code = "step-timeout"


class EmptyInputError(AgentcRuntimeError):
    """A5: `None` input with nothing to resume."""

    code = "empty-input"


class CheckpointerRequiredError(AgentcRuntimeError):
    """D4: resuming, reading or updating state needs a checkpointer and a thread id."""

    code = "checkpointer-required"


class ResumeError(AgentcRuntimeError):
    """A `Command(resume=…)` that does not fit the pending interrupts."""

    code = "bad-resume"


class ResumeValidationError(ResumeError):
    """D5: the answer does not match the interrupt's response schema."""

    code = "invalid-resume"


class SerializationError(AgentcRuntimeError):
    """A value of a type that is not registered for checkpoints (never pickled)."""

    code = "unserializable-value"


class UnknownStoredTypeError(SerializationError):
    """D6: a checkpoint names a type this process has not registered; refused."""

    code = "unknown-stored-type"


class InvalidConfigError(AgentcRuntimeError, ValueError):
    """A `RunConfig` setting the runtime cannot use (a recursion limit below 1, not an int)."""

    code = "invalid-config"


class DamagedCheckpointError(AgentcRuntimeError):
    """Saved state that cannot be read back: a row or file that is not what agentc wrote
    (bad JSON, a missing key, a value nested too deep, a parent chain that loops or breaks,
    a corrupt database file). Never repaired by guessing, never pickled or evaluated."""

    code = "damaged-checkpoint"

    def __init__(
        self,
        what: str,
        *,
        thread: str | None = None,
        where: str | None = None,
        checkpoint: str | None = None,
    ) -> None:
        self.thread, self.where, self.checkpoint, self.what = thread, where, checkpoint, what
        subject = (
            f"the saved state of thread `{thread}`" if thread is not None else "the saved state"
        )
        place = f" in {where}" if where else ""
        ckpt = f" (checkpoint {checkpoint})" if checkpoint else ""
        super().__init__(
            f"{subject}{place} is damaged{ckpt}: {what}",
            help="restore the file from a backup, or start a new thread",
        )


class CheckpointWriteError(AgentcRuntimeError):
    """A save that failed (disk full, a read-only file): saving stops, so the thread's
    saved chain stays whole and resumes from its last good checkpoint."""

    code = "checkpoint-write-failed"


class BindError(AgentcRuntimeError):
    """An `ImportRef` that cannot be imported or is not callable the right way."""

    code = "bind-error"


class GraphStructureError(AgentcRuntimeError):
    """A route, goto or Send that names no node of the graph."""

    code = "unknown-target"


class UndeclaredTargetError(GraphStructureError):
    """A `Command(goto=…)` outside the node's declared `goto` list, or a router's `Send` to a
    node outside the route's target list."""

    code = "undeclared-target"


class InvalidSendError(AgentcRuntimeError):
    """A `Send` payload that does not match the target node's `input: Schema`."""

    code = "invalid-send"


class InvalidContextError(AgentcRuntimeError, ValueError):
    """A run's context that does not match the graph's `context Schema`."""

    code = "invalid-context"


class StoreRequiredError(AgentcRuntimeError, ValueError):
    """E4 / I1: a tool declares the long-term store (`InjectedStore`) but the run has none."""

    code = "store-required"


# ---------------------------------------------------------------- a node's own failure

_NODES_ATTR = "__agentc_nodes__"


def mark_failed_node(exc: BaseException, node: str, task_id: str, ns: str = "") -> None:
    """Name the node an exception left, without wrapping it: the user's exception keeps its
    class (callers catch it by type, as LangGraph re-raises it) and gains a note for
    tracebacks, as LangGraph adds one. A failure inside a subgraph is marked by the inner
    node first, then by each enclosing node."""
    where = f" in `{ns}`" if ns else ""
    exc.add_note(f"During node `{node}` (task {task_id}{where})")
    try:
        nodes = getattr(exc, _NODES_ATTR, None)
        if not isinstance(nodes, list):
            nodes = []
            setattr(exc, _NODES_ATTR, nodes)
        nodes.append(node)
    except (AttributeError, TypeError):  # an exception type that takes no attributes
        pass


def failed_nodes(exc: BaseException) -> tuple[str, ...]:
    """The nodes `exc` left, outermost first (`("sub", "inner")`); () when no node raised it."""
    nodes = getattr(exc, _NODES_ATTR, None)
    return tuple(reversed(nodes)) if isinstance(nodes, list) else ()


def describe_node_failure(exc: BaseException) -> str | None:
    """One paragraph for a node's failure: `node `sub` › `inner` failed: KeyError: 'boom'`;
    None when no node raised `exc`. Runtime errors keep their own diagnostic text."""
    nodes = failed_nodes(exc)
    if not nodes:
        return None
    path = " › ".join(f"`{n}`" for n in nodes)
    text = " ".join((str(exc).strip() or type(exc).__name__).split())
    if isinstance(exc, AgentcRuntimeError):
        return f"node {path} failed: {text}"
    code = getattr(type(exc), "code", None)  # a model provider's error: its stable slug
    if isinstance(code, str):
        return f"node {path} failed: {text} [{code}]"
    return f"node {path} failed: {type(exc).__name__}: {text}"


class ThreadBusyError(AgentcRuntimeError):
    """F11: a run or update_state on a thread another run is writing (one writer per thread)."""

    code = "thread-busy"


class ResponseSchemaError(AgentcRuntimeError):
    """D5: an `interrupt(…, response_schema=X)` whose X pydantic cannot read as a type."""

    code = "bad-response-schema"


class ModelPluginError(AgentcRuntimeError):
    """A chat model from outside agentc (a factory in the file, an installed provider) that
    cannot be built or is not a chat model."""

    code = "bad-model-plugin"


class ForeignObjectError(AgentcRuntimeError, TypeError):
    """A LangGraph or LangChain object given where agentc has its own kind (a LangGraph
    checkpointer or store); the message names agentc's."""

    code = "foreign-object"


class GraphvizMissingError(AgentcRuntimeError):
    """A PNG drawing asked for where Graphviz's `dot` program is not installed."""

    code = "graphviz-missing"


class ToolCallError(AgentcRuntimeError):
    """A tool raised while answering one of the model's calls. The exception the tool
    raised keeps its class for Python callers (E3: LangGraph re-raises it) and carries this
    error, which names the tool, the call's id and its arguments' keys: what `agentc run`
    shows (`failed_tool_call`)."""

    code = "tool-failed"

    def __init__(self, tool: str, call_id: str, arg_keys: tuple[str, ...], cause: BaseException):
        self.tool, self.call_id, self.arg_keys, self.cause = tool, call_id, arg_keys, cause
        text = " ".join((str(cause).strip() or type(cause).__name__).split())
        keys = ", ".join(f"`{k}`" for k in arg_keys) or "none"
        call = f"call `{call_id}`, " if call_id else ""
        super().__init__(
            f"tool `{tool}` raised {type(cause).__name__}: {text} ({call}arguments: {keys})",
            help="fix the tool; to let the model read a failure instead, raise ToolException "
            "from a tool marked `@tool(handle_tool_error=True)`",
        )


_TOOL_CALL_ATTR = "__agentc_tool_call__"


def mark_failed_tool_call(exc: BaseException, error: ToolCallError) -> None:
    """Attach `error` to the exception a tool raised, without wrapping it (as
    `mark_failed_node`): the innermost call is kept when a nested run's tool failed."""
    if failed_tool_call(exc) is not None:
        return
    exc.add_note(f"During tool call `{error.tool}` ({error.call_id or 'no id'})")
    try:
        setattr(exc, _TOOL_CALL_ATTR, error)
    except (AttributeError, TypeError):  # an exception type that takes no attributes
        pass


def failed_tool_call(exc: BaseException) -> ToolCallError | None:
    """The tool call `exc` left, as an `AgentcRuntimeError`; None when no tool raised it."""
    found = getattr(exc, _TOOL_CALL_ATTR, None)
    return found if isinstance(found, ToolCallError) else None


class ToolSchemaError(AgentcRuntimeError):
    """A tool parameter whose type no JSON schema can describe (a plain class), found while
    building the schema the model is sent: named by tool, parameter, module and line."""

    code = "tool-schema"

    def __init__(self, tool: str, param: str, type_name: str, where: str) -> None:
        self.tool, self.param, self.type_name, self.where = tool, param, type_name, where
        super().__init__(
            f"tool `{tool}`: parameter `{param}` has type `{type_name}` ({where}), which no "
            "JSON schema can describe",
            help=f"make `{type_name.rsplit('.', 1)[-1]}` a pydantic model, a dataclass or a "
            "TypedDict, or take its fields as parameters",
        )


class DatabaseUnreachableError(AgentcRuntimeError):
    """A PostgreSQL database (a `postgres(…)` checkpointer or store) that does not answer or
    refuses the login: named by host and port, with the server's own reason and what to
    check. The connection string is shown with its password as `***`."""

    code = "database-unreachable"


class DatabaseUrlError(AgentcRuntimeError):
    """A PostgreSQL connection string that is missing (its environment variable is unset)
    or is not one libpq can read."""

    code = "bad-database-url"


class DatabaseSchemaError(AgentcRuntimeError):
    """A database whose agentc tables were set up by a newer agentc (a schema version this
    one does not know): refused rather than written in a layout it cannot read."""

    code = "database-too-new"


class DatabaseDriverMissingError(AgentcRuntimeError):
    """A `postgres(…)` checkpointer or store in an installation without psycopg."""

    code = "postgres-driver-missing"
