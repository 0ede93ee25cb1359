"""`shell_tool` (D17, D18): a `shell` tool that runs the model's commands — confined unless
the `.agent` file says otherwise.

Input: `workspace_root` (none: a fresh temporary folder), `execution` ("sandbox" | "host"),
`env`, `timeout`, `startup_commands` / `shutdown_commands` (run at the agent's start and
end), `shell_command`, `tool_name`, `tool_description`, `max_output_chars`.
Output: one tool `shell(command)` whose answer is the command's output (stdout and stderr
together, cut to `max_output_chars`) and its exit code when not 0.

D17, reach: the default `execution: "sandbox"` runs every command under bubblewrap
(`bwrap`): no network, no other processes, the system folders read-only, only the workspace
writable, and nothing else of the host's files. When `bwrap` is not installed the command
is NOT run: the model is told it was refused and why. Running on the host (whatever the
process user can reach, LangChain's default HostExecutionPolicy) needs `execution: "host"`
written in the file. D18, environment: commands see only `env` (plus a default PATH in the
sandbox), never the host process's variables (LangChain's actual behaviour, not its
docstring). Each command is a fresh shell in the workspace (no persistent session: `cd` and
variables do not carry over; `restart` only says so).
"""

from __future__ import annotations

import enum
import shutil
import subprocess
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..tools import make_tool
from .base import AgentMiddleware, AgentRuntime
from .binding import BindInfo

DEFAULT_DESCRIPTION = (
    "Execute a shell command in the agent's workspace folder and return its output. Each "
    "call starts a fresh shell in the workspace: `cd` and variables do not carry over to "
    "the next call."
)
SANDBOX_PATH = "/usr/local/bin:/usr/bin:/bin"
SANDBOX_HOME = "/workspace"
_SYSTEM_DIRS = (
    "/usr",
    "/bin",
    "/sbin",
    "/lib",
    "/lib32",
    "/lib64",
    "/etc/alternatives",
    "/etc/ssl",
    "/etc/ld.so.cache",
)


class Execution(str, enum.Enum):
    SANDBOX = "sandbox"  # D17: bubblewrap, no network, only the workspace writable
    HOST = "host"  # the host itself, unconfined: only when the file says so


class ShellSetupError(RuntimeError):
    """A startup or shutdown command failed or was refused."""


@dataclass(frozen=True, slots=True)
class Outcome:
    output: str
    code: int | None  # None: not run (refused) or timed out
    refused: str | None = None

    def text(self) -> str:
        if self.refused is not None:
            return f"Error: command refused: {self.refused}"
        tail = f"\n[exit code {self.code}]" if self.code not in (0, None) else ""
        return (self.output or "") + tail


def sandbox_argv(
    bwrap: str, workspace: Path, shell: Sequence[str], command: str, env: Mapping[str, str]
) -> list[str]:
    """The bubblewrap command line confining one shell command (D17)."""
    argv = [bwrap, "--unshare-all", "--die-with-parent", "--new-session", "--clearenv"]
    for folder in _SYSTEM_DIRS:
        argv += ["--ro-bind-try", folder, folder]
    argv += [
        "--proc",
        "/proc",
        "--dev",
        "/dev",
        "--tmpfs",
        "/tmp",
        "--bind",
        str(workspace),
        SANDBOX_HOME,
        "--chdir",
        SANDBOX_HOME,
        "--setenv",
        "PATH",
        SANDBOX_PATH,
        "--setenv",
        "HOME",
        SANDBOX_HOME,
    ]
    for key, value in env.items():
        argv += ["--setenv", key, value]
    return [*argv, *shell, "-c", command]


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
    ) -> None:
        self.execution = Execution(execution)
        self.workspace_root = workspace_root
        self.workspace: Path | None = None
        self.startup = list(startup_commands or ())
        self.shutdown = list(shutdown_commands or ())
        shell = shell_command or ["/bin/bash"]
        self.shell = [shell] if isinstance(shell, str) else list(shell)
        self.env = {str(k): str(v) for k, v in (env or {}).items()}  # D18: only these
        self.timeout = timeout
        self.max_output = max_output_chars
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
        if self.workspace is None:
            if self.workspace_root is None:
                self.workspace = Path(tempfile.mkdtemp(prefix="agentc-shell-"))
            else:
                self.workspace = (Path(self.base_dir) / self.workspace_root).resolve()
                self.workspace.mkdir(parents=True, exist_ok=True)
        return self.workspace

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
        try:
            done = subprocess.run(
                argv,
                cwd=self.folder(),
                env=self.env if self.execution is Execution.HOST else {},
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                timeout=self.timeout,
                check=False,
            )
        except subprocess.TimeoutExpired:
            return Outcome(f"Error: the command timed out after {self.timeout:g} s", None)
        except OSError as exc:
            return Outcome(f"Error: the shell could not be started: {exc}", None)
        text = done.stdout.decode("utf-8", errors="replace")
        if len(text) > self.max_output:
            text = text[: self.max_output] + f"\n[output cut at {self.max_output} characters]"
        return Outcome(text, done.returncode)

    def argv(self, command: str) -> list[str] | str:
        """The command line for `command`, or why it is refused (D17)."""
        if self.execution is Execution.HOST:
            return [*self.shell, "-c", command]
        bwrap = shutil.which("bwrap")
        if bwrap is None:
            return (
                "no sandbox is available (bubblewrap `bwrap` is not installed), and this "
                "agent may not run commands on the host; install bubblewrap, or write "
                '`execution: "host"` in the agent\'s shell_tool settings'
            )
        return sandbox_argv(bwrap, self.folder(), self.shell, command, self.env)

    # ------------------------------------------------------------ session commands

    def before_agent(self, state: Mapping[str, Any], runtime: AgentRuntime) -> None:
        self._session(self.startup, "startup")

    def after_agent(self, state: Mapping[str, Any], runtime: AgentRuntime) -> None:
        self._session(self.shutdown, "shutdown")

    def _session(self, commands: list[str], what: str) -> None:
        for command in commands:
            outcome = self.run(command)
            if outcome.code != 0:
                raise ShellSetupError(
                    f"shell_tool {what} command `{command}` failed: {outcome.text().strip()}"
                )


ShellToolMiddleware = ShellTool
