"""What to tell the model when a sandboxed command ran into one of the sandbox's limits.

Input: a command's output, its exit code and the `Limits` it ran under.
Output: notes naming the limit and the setting that raises it (shown after the output).
Invariants: a note only when the output or the exit code shows the limit; the command's
own words stay as they are (the kernel reports a limit as EAGAIN, ENOSPC, ENOMEM or
SIGXFSZ, and each program words those its own way, so these are recognised by the usual
wordings; an unrecognised one still leaves the program's own message in the output).
"""

from __future__ import annotations

import signal

from .sandbox import Limits

_SIGXFSZ_EXIT = 128 + signal.SIGXFSZ  # how a shell reports a child killed by SIGXFSZ
_FORK = ("fork: retry", "fork: Resource temporarily unavailable", "Cannot fork")
_MEMORY = ("MemoryError", "Cannot allocate memory", "memory exhausted", "std::bad_alloc")
_FULL = ("No space left on device",)
_TOO_BIG = ("File size limit exceeded", "File too large")


def limit_notes(output: str, code: int | None, limits: Limits) -> tuple[str, ...]:
    notes = []
    if any(word in output for word in _FORK):
        notes.append(f"the sandbox allows {limits.processes} processes at once (`max_processes`)")
    if any(word in output for word in _MEMORY):
        notes.append(
            f"each process in the sandbox may use {limits.memory_mb} MB of memory (`max_memory_mb`)"
        )
    if code == _SIGXFSZ_EXIT or any(word in output for word in _TOO_BIG):
        notes.append(
            f"a file in the sandbox may not grow past {limits.file_size_mb} MB (`max_file_size_mb`)"
        )
    if any(word in output for word in _FULL):
        notes.append(
            f"the sandbox's /tmp holds {limits.tmp_mb} MB (`tmp_size_mb`); if the "
            "workspace is full instead, its disk is"
        )
    return tuple(f"sandbox limit: {note}" for note in notes)
