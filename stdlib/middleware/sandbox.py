"""The bubblewrap sandbox of `shell_tool` (D17): the command line that confines one command.

Input: the tools found on the host (`bwrap`, `prlimit`, and `setpriv` when agentc runs as
root), the workspace folder, the shell, the command, its environment and `Limits`.
Output: an argv list whose process runs the command confined.

Invariants, checked by tests/security/test_sandbox_escape.py:
- the command holds no capability and never runs as host uid 0. As root, bwrap (which
  needs root to build the namespaces without a user namespace) hands the command to
  `setpriv`, which becomes uid/gid 65534 with an empty bounding set; bwrap's
  no-new-privileges flag and nosuid mounts keep setuid binaries inert. As any other user,
  bwrap maps the caller to 65534 inside a user namespace that may not nest another.
  (Mapping root to 65534 inside a user namespace is not enough: the kernel counts such
  processes as root's and exempts them from RLIMIT_NPROC.)
- no network, no host process in sight, system folders read-only, only the workspace and a
  size-bounded /tmp writable, nothing else of the host's files.
- the limits are set by `prlimit` inside the sandbox, after the namespaces exist, so they
  bound the command and not the host user's other processes.
"""

from __future__ import annotations

import os
import shutil
import stat
from collections.abc import Mapping, Sequence
from pathlib import Path

from ...runtime.errors import InvalidConfigError
from ...runtime.records import dataclass

SANDBOX_UID = 65534  # "nobody": owns nothing on the host
SANDBOX_PATH = "/usr/local/bin:/usr/bin:/bin"
SANDBOX_HOME = "/workspace"
_MB = 1024 * 1024
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
# Privileged bwrap (as root) keeps only what `setpriv` needs to become 65534 and empty the
# bounding set; setpriv drops them before the shell starts.
_SETPRIV_CAPS = ("CAP_SETUID", "CAP_SETGID", "CAP_SETPCAP")


@dataclass(frozen=True, slots=True)
class Limits:
    """What one sandboxed command may use (item names as in the `.agent` settings)."""

    processes: int = 128  # max_processes: processes of the sandbox user at once
    memory_mb: int = 1024  # max_memory_mb: address space of each process
    file_size_mb: int = 100  # max_file_size_mb: largest file a command may write
    tmp_mb: int = 64  # tmp_size_mb: the RAM-backed /tmp

    def __post_init__(self) -> None:
        for name, value in (
            ("max_processes", self.processes),
            ("max_memory_mb", self.memory_mb),
            ("max_file_size_mb", self.file_size_mb),
            ("tmp_size_mb", self.tmp_mb),
        ):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise InvalidConfigError(
                    f"shell_tool `{name}` must be a whole number of at least 1, found {value!r}"
                )

    def prlimit_argv(self, prlimit: str) -> list[str]:
        """`prlimit` setting every limit (soft = hard, so the command cannot raise one)."""
        return [
            prlimit,
            f"--nproc={self.processes}",
            f"--as={self.memory_mb * _MB}",
            f"--fsize={self.file_size_mb * _MB}",
            "--core=0",  # a crash must not drop a core file the size of memory
            "--",
        ]


@dataclass(frozen=True, slots=True)
class SandboxTools:
    bwrap: str
    prlimit: str
    setpriv: str | None  # needed only when agentc runs as root
    env: str = "/usr/bin/env"  # as root, enters the workspace once uid 65534 (`env -C`)


def running_as_root() -> bool:
    return os.geteuid() == 0


def find_tools() -> SandboxTools | str:
    """The host's sandbox tools, or why commands are refused (D17: never run unconfined)."""
    bwrap, prlimit = shutil.which("bwrap"), shutil.which("prlimit")
    setpriv = shutil.which("setpriv")
    if bwrap is None:
        return (
            "no sandbox is available (bubblewrap `bwrap` is not installed), and this "
            "agent may not run commands on the host; install bubblewrap, or write "
            '`execution: "host"` in the agent\'s shell_tool settings'
        )
    if prlimit is None or (setpriv is None and running_as_root()):
        return (
            "the sandbox's limits cannot be enforced (`prlimit` and `setpriv` from "
            'util-linux are needed); install util-linux, or write `execution: "host"` '
            "in the agent's shell_tool settings"
        )
    return SandboxTools(bwrap, prlimit, setpriv, shutil.which("env") or "/usr/bin/env")


@dataclass(frozen=True, slots=True)
class Confined:
    """One command to confine."""

    workspace: Path
    shell: Sequence[str]
    command: str
    env: Mapping[str, str]
    limits: Limits = Limits()


def sandbox_argv(tools: SandboxTools, job: Confined, *, as_root: bool | None = None) -> list[str]:
    """The bubblewrap command line confining one shell command (D17)."""
    root = running_as_root() if as_root is None else as_root
    argv = [tools.bwrap, *(_root_namespaces() if root else _user_namespaces())]
    argv += ["--die-with-parent", "--new-session", "--clearenv"]
    for folder in _SYSTEM_DIRS:
        argv += ["--ro-bind-try", folder, folder]
    argv += ["--proc", "/proc", "--dev", "/dev"]
    argv += ["--perms", "1777", "--size", str(job.limits.tmp_mb * _MB), "--tmpfs", "/tmp"]
    argv += ["--bind", str(job.workspace), SANDBOX_HOME]
    # As root bwrap enters folders without CAP_DAC_OVERRIDE, so a private (0700) workspace
    # of uid 65534 is entered after setpriv, by `env -C`.
    argv += ["--chdir", "/" if root else SANDBOX_HOME]
    argv += ["--setenv", "PATH", SANDBOX_PATH, "--setenv", "HOME", SANDBOX_HOME]
    for key, value in job.env.items():
        argv += ["--setenv", key, value]
    if root:
        assert tools.setpriv is not None  # find_tools refuses root without setpriv
        argv += _drop_root(tools.setpriv)
    argv += job.limits.prlimit_argv(tools.prlimit)
    if root:
        argv += [tools.env, "-C", SANDBOX_HOME]
    return [*argv, *job.shell, "-c", job.command]


def _root_namespaces() -> list[str]:
    """As root: every namespace but the user one (see the module docstring), no capability
    but the three `setpriv` spends at once."""
    argv = ["--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts"]
    argv += ["--unshare-cgroup-try", "--cap-drop", "ALL"]
    for cap in _SETPRIV_CAPS:
        argv += ["--cap-add", cap]
    return argv


def _user_namespaces() -> list[str]:
    uid = str(SANDBOX_UID)
    argv = ["--unshare-all", "--unshare-user", "--uid", uid, "--gid", uid]
    return [*argv, "--disable-userns", "--cap-drop", "ALL"]


def _drop_root(setpriv: str) -> list[str]:
    uid = str(SANDBOX_UID)
    return [
        setpriv,
        f"--reuid={uid}",
        f"--regid={uid}",
        "--clear-groups",
        "--inh-caps=-all",
        "--bounding-set=-all",
        "--",
    ]


def hand_over(workspace: Path) -> None:
    """As root, give the workspace to the sandbox user so confined commands can write it.

    Symbolic links are changed themselves, never followed; a file with more than one hard
    link keeps its owner (it may be a link to a host file outside the workspace)."""
    os.chown(workspace, SANDBOX_UID, SANDBOX_UID, follow_symlinks=False)
    for top, dirs, files in os.walk(workspace, followlinks=False):
        for name in (*dirs, *files):
            path = os.path.join(top, name)
            info = os.lstat(path)
            if stat.S_ISREG(info.st_mode) and info.st_nlink > 1:
                continue
            os.chown(path, SANDBOX_UID, SANDBOX_UID, follow_symlinks=False)


def remove_tree(folder: Path) -> None:
    """Delete a temporary workspace, including folders a command made unreadable; what
    still cannot be removed is left (this runs at the agent's end and must not fail it)."""

    def unlock(_func: object, path: str, _exc: object) -> None:
        try:
            os.chmod(os.path.dirname(path), stat.S_IRWXU)
            if os.path.isdir(path) and not os.path.islink(path):
                os.chmod(path, stat.S_IRWXU)
                shutil.rmtree(path, ignore_errors=True)
            else:
                os.unlink(path)
        except OSError:
            pass

    if os.path.lexists(folder):
        shutil.rmtree(folder, onerror=unlock)
