"""One writer per thread: the claim a run holds on its thread while it may save.

Input: a thread id. Output: a `ThreadClaim`, released once when the run has flushed its
last save, or `ThreadBusyError` (`thread-busy`) when another run holds the thread. Two runs
writing one thread would each hang their checkpoints off the head they loaded, forking its
history and losing one run's messages; so the second is refused, never queued (a queue
would resume it from a head it did not load).

Invariants: a claim never outlives its holder. In one process, claims are a set under a
lock (`LocalClaims`), which serves event loops and OS threads alike. Across processes
(`FileClaims`, SQLite), a claim is also a Linux open-file-description lock
(`F_OFD_SETLK`) on one byte of a sidecar lock file, the byte chosen by a 62-bit hash of the
thread id: one small file for every thread of a database (flock would need a file per
thread), the kernel drops the lock when the process dies (a SIGKILLed run never blocks its
thread), and unlike classic POSIX record locks an OFD lock belongs to its open file, so
closing some other descriptor of the same file in this process cannot drop it. The file is
opened close-on-exec, so subprocesses (tools, sandboxes) never inherit it (a child forked
without exec shares it, as it would share the database connection). Runs on different
threads never block each other (two ids share a byte with odds of 2**-62).
"""

from __future__ import annotations

import errno
import hashlib
import os
import struct
import sys
import threading
from collections.abc import Callable

from agentc.runtime.errors import CheckpointWriteError, ThreadBusyError
from agentc.runtime.records import dataclass

# struct flock: l_type, l_whence, l_start, l_len, l_pid (0 for OFD locks), padded to 32
_FLOCK = struct.Struct("@hhqqi")
_FLOCK_SIZE = 32
_BUSY = frozenset({errno.EAGAIN, errno.EACCES})


@dataclass(frozen=True, slots=True)
class ThreadClaim:
    """A held claim on `thread`; the run calls `release()` exactly once, at its end."""

    thread: str
    release: Callable[[], None]


def busy(thread: str, who: str) -> ThreadBusyError:
    return ThreadBusyError(
        f"thread `{thread}` is being written by another run ({who}); wait for it to "
        "finish or use another thread id (--thread)"
    )


class LocalClaims:
    """The threads claimed by runs of this process, for one checkpointer."""

    __slots__ = ("_held", "_lock")

    def __init__(self) -> None:
        self._held: set[str] = set()
        self._lock = threading.Lock()

    def claim(self, thread: str) -> ThreadClaim:
        with self._lock:
            if thread in self._held:
                raise busy(thread, "a run in this process")
            self._held.add(thread)
        return ThreadClaim(thread, lambda: self.drop(thread))

    def drop(self, thread: str) -> None:
        with self._lock:
            self._held.discard(thread)


class FileClaims:
    """Claims that other processes see: `LocalClaims` plus a lock on a byte of `path`."""

    __slots__ = ("path", "_local", "_fd", "_lock")

    def __init__(self, path: str) -> None:
        self.path = path
        self._local = LocalClaims()
        self._fd: int | None = None  # opened at the first claim: reading needs no lock file
        self._lock = threading.Lock()

    def claim(self, thread: str) -> ThreadClaim:
        local = self._local.claim(thread)
        try:
            offset = _offset(thread)
            if not self._lock_byte(offset, take=True):
                raise busy(thread, f"another process or connection holds its lock in {self.path}")
        except BaseException:
            local.release()
            raise
        return ThreadClaim(thread, lambda: self._release(thread, offset))

    def _release(self, thread: str, offset: int) -> None:
        try:
            self._lock_byte(offset, take=False)
        finally:
            self._local.drop(thread)

    def _lock_byte(self, offset: int, *, take: bool) -> bool:
        """Take or drop the lock on one byte, never waiting; False when another process
        holds it. (`fcntl` is imported here: the in-process claims need no POSIX module.)"""
        import fcntl

        fd = self._open()
        try:
            if sys.platform == "linux":  # OFD locks: Linux 3.15 and later
                kind = fcntl.F_WRLCK if take else fcntl.F_UNLCK
                arg = _FLOCK.pack(kind, os.SEEK_SET, offset, 1, 0).ljust(_FLOCK_SIZE, b"\0")
                fcntl.fcntl(fd, fcntl.F_OFD_SETLK, arg)
            else:  # classic POSIX locks: other processes see them, this one's do not clash
                fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB if take else fcntl.LOCK_UN, 1, offset)
        except OSError as e:
            if e.errno in _BUSY and take:
                return False
            raise CheckpointWriteError(
                f"could not lock a thread in {self.path}: {e.strerror or e}",
                help="the lock file must be on a local file system agentc can write",
            ) from None
        return True

    def _open(self) -> int:
        with self._lock:
            if self._fd is None:
                try:
                    self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
                except OSError as e:
                    raise CheckpointWriteError(
                        f"could not open the thread lock file {self.path}: {e.strerror or e}",
                        help="fix the folder's permissions or free disk space",
                    ) from None
            return self._fd

    def close(self) -> None:
        """Close the lock file (dropping every lock this checkpointer still holds)."""
        with self._lock:
            if self._fd is not None:
                os.close(self._fd)
                self._fd = None


def _offset(thread: str) -> int:
    """The byte of the lock file that stands for `thread` (below 2**62: l_start + l_len
    stays a valid signed 64-bit offset)."""
    digest = hashlib.blake2b(thread.encode("utf-8", "surrogatepass"), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 2
