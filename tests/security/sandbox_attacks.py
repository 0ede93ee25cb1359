"""The sandbox escape suite's data: each attack is a shell command run in `shell_tool`'s
sandbox plus a check on the HOST that nothing happened.

Commands are templates over a `Host` (the targets the test prepared: a folder outside the
workspace, the agent's own file, a secret, a TCP and an abstract-socket server, a sleeper
process). A check returns None when the host is unchanged, else what escaped. Any output
with the word ESCAPED (printed by a probe that got further than it may) is an escape too.
"""

from __future__ import annotations

import os
import socket
import stat
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Listener:
    """A server on the host that counts who connects (the sandbox has no network)."""

    sock: socket.socket
    contacts: int = 0
    _thread: threading.Thread | None = None

    @classmethod
    def tcp(cls) -> Listener:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(("127.0.0.1", 0))
        return cls._serve(sock)

    @classmethod
    def abstract(cls, name: str) -> Listener:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.bind("\0" + name)
        return cls._serve(sock)

    @classmethod
    def _serve(cls, sock: socket.socket) -> Listener:
        sock.listen(16)
        listener = cls(sock)
        listener._thread = threading.Thread(target=listener._accept, daemon=True)
        listener._thread.start()
        return listener

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.contacts += 1
            conn.close()

    def close(self) -> None:
        self.sock.close()


@dataclass
class Host:
    """What the attacks aim at; owned by the user the sandbox runs for, so only the
    sandbox (not file permissions) stands between the command and each target."""

    base: Path  # outside the workspace
    workspace: Path
    agent_file: Path  # "the agent's own files"
    marker: str  # a file name no attack may create on the host
    secret: str  # in a host file, the host environment and nowhere in the sandbox
    secret_file: Path
    shadow_line: str  # the host's /etc/shadow first line ("" when unreadable)
    hostname: str
    sleeper_pid: int
    tcp: Listener
    unix: Listener
    unix_name: str
    agent_text: str = field(init=False)

    def __post_init__(self) -> None:
        self.agent_text = self.agent_file.read_text()

    def values(self) -> dict[str, object]:
        return {
            "base": self.base,
            "agent_file": self.agent_file,
            "marker": self.marker,
            "secret_file": self.secret_file,
            "pid": self.sleeper_pid,
            "port": self.tcp.sock.getsockname()[1],
            "unix": self.unix_name,
        }

    def marker_paths(self) -> list[Path]:
        folders = ["/usr", "/usr/local", "/usr/local/share", "/etc", "/tmp", "/", "/root"]
        return [Path(f) / self.marker for f in folders] + [self.base / self.marker]

    def clean(self) -> None:
        """Remove what an escape left, so the next attack is judged alone (and the host
        is left as it was)."""
        for path in self.marker_paths():
            if os.path.lexists(path):
                path.unlink()
        self.agent_file.write_text(self.agent_text)
        self.tcp.contacts = self.unix.contacts = 0


Check = Callable[[Host, str], str | None]


@dataclass(frozen=True)
class Attack:
    name: str
    command: str
    checks: tuple[Check, ...]

    def render(self, host: Host) -> str:
        return self.command.format(**host.values())


# ---------------------------------------------------------------- host checks


def no_marker(host: Host, output: str) -> str | None:
    made = [str(p) for p in host.marker_paths() if os.path.lexists(p)]
    return f"created {made}" if made else None


def agent_file_intact(host: Host, output: str) -> str | None:
    changed = host.agent_file.read_text() != host.agent_text
    return f"changed {host.agent_file}" if changed else None


def secret_hidden(host: Host, output: str) -> str | None:
    return "read the host's secret" if host.secret in output else None


def shadow_hidden(host: Host, output: str) -> str | None:
    leaked = host.shadow_line and host.shadow_line in output
    return "read the host's /etc/shadow" if leaked else None


def root_listing_hidden(host: Host, output: str) -> str | None:
    names = [n for n in os.listdir("/root") if len(n) > 4] if os.access("/root", os.R_OK) else []
    seen = [n for n in names if n in output]
    return f"listed the host's /root: {seen}" if seen else None


def no_contact(host: Host, output: str) -> str | None:
    contacts = host.tcp.contacts + host.unix.contacts
    return f"{contacts} connection(s) reached the host" if contacts else None


def sleeper_untouched(host: Host, output: str) -> str | None:
    try:
        state = Path(f"/proc/{host.sleeper_pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return "killed a host process"
    return f"host process is in state {state}" if state not in ("S", "R") else None


def not_host_root(host: Host, output: str) -> str | None:
    owned = host.workspace / "who-owns-this"
    if not owned.exists():
        return None
    return "the command runs as the host's root" if owned.stat().st_uid == 0 else None


def no_device(host: Host, output: str) -> str | None:
    for top, _dirs, files in os.walk(host.workspace):
        for name in files:
            mode = os.lstat(os.path.join(top, name)).st_mode
            if stat.S_ISBLK(mode) or stat.S_ISCHR(mode):
                return f"made the device {name} on the host's disk"
    return None


def hostname_kept(host: Host, output: str) -> str | None:
    return "renamed the host" if socket.gethostname() != host.hostname else None


def no_survivor(host: Host, output: str) -> str | None:
    """No process of the command outlives it (waits for the kernel's asynchronous kill of a
    finished sandbox; a hang guard, not a speed bound)."""
    deadline = time.monotonic() + 30
    while (left := _processes_with(host.marker)) and time.monotonic() < deadline:
        time.sleep(0.1)
    return f"processes {left} outlived the command" if left else None


def _processes_with(word: str) -> list[str]:
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if word.encode() in Path(f"/proc/{pid}/cmdline").read_bytes():
                found.append(pid)
        except OSError:
            continue
    return found


MARK = (no_marker,)
PY = "python3 -c"

ATTACKS: tuple[Attack, ...] = (
    Attack(
        "remount /usr read-write",
        "mount -o remount,rw,bind /usr && touch /usr/local/share/{marker}",
        MARK,
    ),
    Attack("mount over /usr", "mount -t tmpfs none /usr/local && touch /usr/local/{marker}", MARK),
    Attack("write /usr", "touch /usr/{marker} /usr/local/share/{marker}", MARK),
    Attack("write /etc", "touch /etc/{marker}; echo x >> /etc/ld.so.cache", MARK),
    Attack("write the host /tmp", "touch /tmp/{marker} {base}/{marker}", MARK),
    Attack("write /", "touch /{marker} /root/{marker}", MARK),
    Attack(
        "write the agent's own files",
        "echo pwned >> {agent_file}; echo pwned >> ../agent.agent; echo pwned >> ../../agent.agent",
        (agent_file_intact,),
    ),
    Attack("read a host file", "cat {secret_file}; cat ../secret.txt", (secret_hidden,)),
    Attack("read /root", "ls -la /root/ /root/.*", (root_listing_hidden,)),
    Attack("read /home", "ls -la /home; cat /home/*/* 2>&1 | head -c 2000", (secret_hidden,)),
    Attack("read /etc/shadow", "cat /etc/shadow", (shadow_hidden,)),
    Attack(
        "read the host environment",
        "env; cat /proc/1/environ /proc/self/environ; cat /proc/*/environ",
        (secret_hidden,),
    ),
    Attack(
        "connect to 127.0.0.1",
        "(exec 3<>/dev/tcp/127.0.0.1/{port} && echo hi >&3 && echo ESCAPED);"
        f" {PY} \"import socket; socket.create_connection(('127.0.0.1', {{port}}), 2)"
        "; print('ESCAPED')\"",
        (no_contact,),
    ),
    Attack(
        "connect to a host abstract socket",
        f'{PY} "import socket; s = socket.socket(socket.AF_UNIX)'
        "; s.connect('\\0{unix}'); print('ESCAPED')\"",
        (no_contact,),
    ),
    Attack(
        "kill a host process", "kill -9 {pid}; kill -STOP {pid}; kill -9 -1", (sleeper_untouched,)
    ),
    Attack(
        "ptrace a host process",
        f'{PY} "import ctypes; libc = ctypes.CDLL(None)'
        "; print('ESCAPED' if libc.ptrace(16, {pid}, 0, 0) == 0 else 'denied')\"",
        (sleeper_untouched,),
    ),
    Attack(
        "see host processes",
        "test -d /proc/{pid} && echo ESCAPED; ls /proc | grep -c '^[0-9]'",
        (),
    ),
    Attack(
        "mknod a disk",
        "mknod disk b 254 0 && head -c 1 disk >/dev/null && echo ESCAPED;"
        " mknod /tmp/disk b 8 0 && echo ESCAPED; mknod mem c 1 1 && echo ESCAPED",
        (no_device,),
    ),
    Attack(
        "host devices",
        "for d in /dev/vd* /dev/sd* /dev/nvme* /dev/mem /dev/kmem /dev/port /dev/kmsg;"
        " do test -e $d && echo ESCAPED $d; done; true",
        (),
    ),
    Attack(
        "chroot",
        "mkdir -p r && /usr/sbin/chroot r /bin/true && echo ESCAPED;"
        " /usr/sbin/chroot / true && echo ESCAPED",
        (),
    ),
    Attack(
        "unshare again",
        "unshare -Urm sh -c 'mount -o remount,rw,bind /usr && touch /usr/local/share/{marker}';"
        " unshare -m sh -c 'mount -o remount,rw /usr; touch /usr/{marker}';"
        " unshare -Urm sh -c 'mount --bind /tmp /usr && touch /usr/{marker}'",
        MARK,
    ),
    Attack(
        "setuid binaries",
        "su -c 'touch /usr/local/share/{marker}' root </dev/null;"
        " mount -o remount,rw /usr && touch /usr/{marker};"
        " cp /bin/bash ./rootsh && chmod 4755 ./rootsh"
        " && ./rootsh -p -c 'test $(id -u) = 0 && echo ESCAPED && touch /etc/{marker}'",
        MARK,
    ),
    Attack(
        "outlive the command",
        "cp /bin/sleep ./{marker}; (setsid ./{marker} 300 &); (nohup ./{marker} 300 &) 2>/dev/null;"
        " echo started",
        (no_survivor,),
    ),
    Attack(
        "type into the host terminal",
        f"{PY} \"import fcntl, termios; fd = open('/dev/tty', 'rb')"
        "; fcntl.ioctl(fd, termios.TIOCSTI, b'x'); print('ESCAPED')\"",
        (),
    ),
    Attack("run as the host's root", "touch who-owns-this; id", (not_host_root,)),
    Attack(
        "write through /proc/self/root",
        "echo x > /proc/self/root/usr/{marker}; echo x > /proc/1/root/etc/{marker};"
        " echo x > /proc/self/cwd/../../tmp/{marker}; echo x > /proc/1/cwd/../{marker}",
        MARK,
    ),
    Attack(
        "symlink to host paths",
        "ln -s {base} out; echo x > out/{marker}; ln -s {agent_file} af; echo pwned >> af;"
        " ln -s /etc/passwd pw; ln -s / rootlink; echo x > rootlink/tmp/{marker}",
        (no_marker, agent_file_intact),
    ),
    Attack(
        "hard link to host files",
        "ln {agent_file} hl && echo pwned >> hl; ln /usr/bin/su su2 && echo ESCAPED",
        (agent_file_intact,),
    ),
    Attack(
        "rename the host",
        "hostname escaped-host; echo escaped > /proc/sys/kernel/hostname",
        (hostname_kept,),
    ),
    Attack(
        "write kernel settings",
        # writes back the value already there: harmless even where it gets through
        "v=$(cat /proc/sys/vm/swappiness); echo $v > /proc/sys/vm/swappiness && echo ESCAPED",
        (),
    ),
)


def escapes(host: Host, attack: Attack, output: str) -> list[str]:
    """What `attack` achieved on the host (nothing, when the sandbox held)."""
    found = [f"printed: {line.strip()}" for line in output.splitlines() if "ESCAPED" in line]
    found += [what for check in attack.checks if (what := check(host, output))]
    return found
