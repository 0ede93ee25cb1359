"""Running one `shell_tool` command: its output is read as it comes and never held whole.

Input: a `Spawn` (argv, working folder, environment, timeout, `max_output_chars`).
Output: an `Outcome` (the output, cut, and the exit code) whose `text()` is the tool answer.
Invariants: at most about `max_chars * 4` bytes of output are ever held (UTF-8's widest
character); once the output passes `max_chars` the command's process group is killed, and
the model is told the command was stopped there; a command past its timeout is killed the
same way. Nothing here decides what is confined: the argv arrives ready.
"""

from __future__ import annotations

import os
import selectors
import signal
import subprocess
import time
from collections.abc import Mapping
from pathlib import Path

from ...runtime.records import dataclass

_CHUNK = 65536
_GRACE = 5.0  # seconds a killed command gets to be reaped


@dataclass(frozen=True, slots=True)
class Outcome:
    output: str
    code: int | None  # None: not run (refused) or stopped before it ended
    refused: str | None = None
    notes: tuple[str, ...] = ()

    def text(self) -> str:
        if self.refused is not None:
            return f"Error: command refused: {self.refused}"
        tail = f"\n[exit code {self.code}]" if self.code not in (0, None) else ""
        notes = "".join(f"\n[{note}]" for note in self.notes)
        return (self.output or "") + tail + notes


@dataclass(frozen=True, slots=True)
class Spawn:
    argv: list[str]
    cwd: Path
    env: Mapping[str, str]
    timeout: float
    max_chars: int


@dataclass(slots=True)
class _Reading:
    data: bytearray
    cut: bool = False
    timed_out: bool = False


def run_streamed(spawn: Spawn) -> Outcome:
    """Run `spawn.argv`, reading its output until it ends, passes the cut, or times out."""
    try:
        proc = subprocess.Popen(
            spawn.argv,
            cwd=spawn.cwd,
            env=dict(spawn.env),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # one process group to kill at the cut or the timeout
        )
    except OSError as exc:
        return Outcome(f"Error: the shell could not be started: {exc}", None)
    deadline = time.monotonic() + spawn.timeout
    try:
        reading = _read(proc, deadline, spawn.max_chars)
        if not (reading.cut or reading.timed_out):
            reading.timed_out = not _wait(proc, deadline)
    finally:
        _stop(proc)
    return _outcome(reading, proc.returncode, spawn)


def _read(proc: subprocess.Popen[bytes], deadline: float, max_chars: int) -> _Reading:
    assert proc.stdout is not None
    reading = _Reading(bytearray())
    fd = proc.stdout.fileno()
    with selectors.DefaultSelector() as selector:
        selector.register(fd, selectors.EVENT_READ)
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                reading.timed_out = True
                return reading
            if not selector.select(left):
                continue
            chunk = os.read(fd, _CHUNK)
            if not chunk:
                return reading
            reading.data += chunk
            # Bytes >= characters, so only a long buffer can be over; decoding it is cheap
            # because it never grows past max_chars * 4 + one chunk.
            if len(reading.data) > max_chars and len(_decode(reading.data)) > max_chars:
                reading.cut = True
                return reading


def _wait(proc: subprocess.Popen[bytes], deadline: float) -> bool:
    try:
        proc.wait(timeout=max(deadline - time.monotonic(), 0.001))
    except subprocess.TimeoutExpired:
        return False
    return True


def _stop(proc: subprocess.Popen[bytes]) -> None:
    """Kill what is left of the command's process group and reap it."""
    if proc.returncode is None:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    try:
        proc.wait(timeout=_GRACE)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    if proc.stdout is not None:
        proc.stdout.close()


def _decode(data: bytes | bytearray) -> str:
    return bytes(data).decode("utf-8", errors="replace")


def _outcome(reading: _Reading, code: int | None, spawn: Spawn) -> Outcome:
    text = _decode(reading.data)
    if reading.cut:
        text = text[: spawn.max_chars]
        note = f"output cut at {spawn.max_chars} characters: the command was stopped there"
        return Outcome(text, None, notes=(note,))
    if reading.timed_out:
        note = f"Error: the command timed out after {spawn.timeout:g} s and was stopped"
        return Outcome(text, None, notes=(note,))
    return Outcome(text, code)
