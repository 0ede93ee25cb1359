"""`shell_tool` (D17, D18): a `shell` tool that runs the model's commands — confined unless
the `.agent` file says otherwise.

Input: `workspace_root` (none: a fresh temporary folder), `execution` ("sandbox" | "host"),
`env`, `timeout`, `startup_commands` / `shutdown_commands` (run at the agent's start and
end), `shell_command`, `tool_name`, `tool_description`, `max_output_chars`, and the
sandbox's limits `max_processes`, `max_memory_mb`, `max_file_size_mb`, `tmp_size_mb`.
Output: one tool `shell(command)` whose answer is the command's output (stdout and stderr
together, cut to `max_output_chars`) and its exit code when not 0.

D17, reach: the default `execution: "sandbox"` runs every command under bubblewrap
(`bwrap`, see `sandbox.py`): no network, no other processes, no capability, never as the
host's root (uid 65534 instead), the system folders read-only, only the workspace and /tmp
writable, and nothing else of the host's files. When `bwrap` (or util-linux's `prlimit`,
and `setpriv` as root) is not installed the command is NOT run: the model is told it was
refused and why. Running on the host (whatever the process user can reach, LangChain's
default HostExecutionPolicy) needs `execution: "host"` written in the file; the limits
below do not apply there, the output cut and the timeout do. D18, environment: commands
see only `env` (plus a default PATH in the sandbox), never the host process's variables
(LangChain's actual behaviour, not its docstring). Each command is a fresh shell in the
workspace (no persistent session: `cd` and variables do not carry over; `restart` only
says so).

Limits of each sandboxed command (when one is hit the model is told which):
- `max_processes` (128): processes the sandbox user may have at once (a fork bomb stops
  there). As root the sandbox user is host uid 65534, so concurrent commands share it.
- `max_memory_mb` (1024): address space of each process.
- `max_file_size_mb` (100): the largest file a command may write, in the workspace or /tmp.
- `tmp_size_mb` (64): the sandbox's /tmp, which lives in RAM.
- `max_output_chars` (20000, host too): output is read as it comes; past this many
  characters the command is stopped and the model is told so.
- `timeout` (30 s, host too): the command is stopped and the model is told so.

Workspace: a temporary one (no `workspace_root`) is removed when the agent ends (after
the shutdown commands); a `workspace_root` the file names is never removed. As root, the
workspace's files are given to uid 65534 so the confined commands can write them. A
sandboxed command reads `/proc/self/mountinfo`, which shows the workspace folder's path
within its filesystem: a temporary workspace's path is a random name under the system's
temporary folder; a named `workspace_root` shows its own path.
"""

from __future__ import annotations

import enum
import tempfile
import threading
import weakref
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ...runtime.errors import AgentcRuntimeError
from ..tools import make_tool
from .base import AgentMiddleware, AgentRuntime
from .binding import BindInfo
from .sandbox import (
    SANDBOX_HOME,
    SANDBOX_PATH,
    Confined,
    Limits,
    SandboxTools,
    find_tools,
    hand_over,
    remove_tree,
    running_as_root,
    sandbox_argv,
)
from .shell_limits import limit_notes
from .shell_stream import Outcome, Spawn, run_streamed

__all__ = [
    "SANDBOX_HOME",
    "SANDBOX_PATH",
    "Confined",
    "Execution",
    "Limits",
    "Outcome",
    "SandboxTools",
    "ShellSetupError",
    "ShellTool",
    "ShellToolMiddleware",
    "sandbox_argv",
]

DEFAULT_DESCRIPTION = (
    "Execute a shell command in the agent's workspace folder and return its output. Each "
    "call starts a fresh shell in the workspace: `cd` and variables do not carry over to "
    "the next call."
)


class Execution(str, enum.Enum):
    SANDBOX = "sandbox"  # D17: bubblewrap, no network, only the workspace writable
    HOST = "host"  # the host itself, unconfined: only when the file says so


class ShellSetupError(AgentcRuntimeError):
    """A startup or shutdown command failed or was refused."""

    code = "shell-setup-failed"


class ShellTool(AgentMiddleware):
    def __init__(
        self,
        workspace_root: str | None = None,
        *,
        execution: str = "sandbox",
        startup_commands: Sequence[str] | None = None,
        shutdown_commands: Sequence[str] | None = None,
        tool_description: str | None = None,
        tool_name: str = "shell",
        shell_command: Sequence[str] | str | None = None,
        env: Mapping[str, object] | None = None,
        timeout: float = 30.0,
        max_output_chars: int = 20000,
        max_processes: int = 128,
        max_memory_mb: int = 1024,
        max_file_size_mb: int = 100,
        tmp_size_mb: int = 64,
    ) -> None:
        self.execution = Execution(execution)
        self.workspace_root = workspace_root
        self.workspace: Path | None = None
        self._cleanup: weakref.finalize | None = None
        self._lock = threading.Lock()
        self.startup = list(startup_commands or ())
        self.shutdown = list(shutdown_commands or ())
        shell = shell_command or ["/bin/bash"]
        self.shell = [shell] if isinstance(shell, str) else list(shell)
        self.env = {str(k): str(v) for k, v in (env or {}).items()}  # D18: only these
        self.timeout = timeout
        self.max_output = max_output_chars
        self.limits = Limits(max_processes, max_memory_mb, max_file_size_mb, tmp_size_mb)
        self.base_dir = "."
        self.tools = [
            make_tool(
                self.shell_tool, name=tool_name, description=tool_description or DEFAULT_DESCRIPTION
            )
        ]

    def agentc_bind(self, info: BindInfo) -> None:
        self.base_dir = info.base_dir

    def folder(self) -> Path:
        """The workspace: `workspace_root` (relative to the `.agent` file) or a temp folder."""
        with self._lock:  # parallel tool calls of one reply share one workspace (E5)
            return self._folder()

    def _folder(self) -> Path:
        if self.workspace is None:
            if self.workspace_root is None:
                self.workspace = Path(tempfile.mkdtemp(prefix="agentc-"))
                # Removed at the agent's end; this is the fallback when that never comes.
                self._cleanup = weakref.finalize(self, remove_tree, self.workspace)
            else:
                self.workspace = (Path(self.base_dir) / self.workspace_root).resolve()
                self.workspace.mkdir(parents=True, exist_ok=True)
            if self.execution is Execution.SANDBOX and running_as_root():
                hand_over(self.workspace)
        return self.workspace

    def release(self) -> None:
        """Remove a temporary workspace (never a named `workspace_root`)."""
        with self._lock:
            if self._cleanup is not None:
                self._cleanup()  # runs remove_tree once, then detaches
                self._cleanup = None
            self.workspace = None  # the next run makes (or hands over) its workspace again

    # ------------------------------------------------------------ the tool

    def shell_tool(self, command: str | None = None, restart: bool | None = None) -> str:
        """Run a shell command in the workspace and return its output."""
        if restart:
            return "Each command already runs in a fresh shell; nothing to restart."
        if not command:
            return "Error: give a `command` to run"
        return self.run(command).text()

    def run(self, command: str) -> Outcome:
        argv = self.argv(command)
        if isinstance(argv, str):
            return Outcome("", None, argv)
        host = self.execution is Execution.HOST
        spawn = Spawn(
            argv=argv,
            cwd=self.folder() if host else Path("/"),
            env=self.env if host else {},
            timeout=self.timeout,
            max_chars=self.max_output,
        )
        outcome = run_streamed(spawn)
        if host:
            return outcome
        notes = limit_notes(outcome.output, outcome.code, self.limits)
        return Outcome(outcome.output, outcome.code, notes=(*outcome.notes, *notes))

    def argv(self, command: str) -> list[str] | str:
        """The command line for `command`, or why it is refused (D17)."""
        if self.execution is Execution.HOST:
            return [*self.shell, "-c", command]
        tools = find_tools()
        if isinstance(tools, str):
            return tools
        job = Confined(self.folder(), self.shell, command, self.env, self.limits)
        return sandbox_argv(tools, job)

    # ------------------------------------------------------------ session commands

    def before_agent(self, state: Mapping[str, Any], runtime: AgentRuntime) -> None:
        try:
            self._session(self.startup, "startup")
        except ShellSetupError:
            self.release()  # the agent ends here: after_agent will not run
            raise

    def after_agent(self, state: Mapping[str, Any], runtime: AgentRuntime) -> None:
        try:
            self._session(self.shutdown, "shutdown")
        finally:
            self.release()

    def _session(self, commands: list[str], what: str) -> None:
        for command in commands:
            outcome = self.run(command)
            if outcome.code != 0:
                raise ShellSetupError(
                    f"shell_tool {what} command `{command}` failed: {outcome.text().strip()}"
                )


ShellToolMiddleware = ShellTool
