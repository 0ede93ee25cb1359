"""Where the chat's lines come from: a terminal with line editing, or a script on stdin.

Input: stdin, a terminal or not. Output: `Reader.line(prompt)` → the next line without its
newline, or None at the end of input (Ctrl-D, or the end of a piped script);
`Reader.answer(prompt)` → the same for a review pause, raising `EOFError` at the end
(`runner.pauses` asks through it). Invariants: on a terminal `input` reads (with the
standard library's `readline` line editing and history when the platform has it) and
Ctrl-C reaches the caller as `KeyboardInterrupt`; from a pipe nothing is prompted for, and
each line read is echoed after its prompt, so a scripted chat's output reads as the
conversation it was.
"""

from __future__ import annotations

import sys
from typing import TextIO


class Reader:
    """The user's side of the chat."""

    def __init__(self, stdin: TextIO, out: TextIO) -> None:
        self.stdin, self.out = stdin, out
        self.terminal = stdin.isatty()
        if self.terminal and stdin is sys.stdin:
            try:
                import readline  # noqa: F401 — importing it gives `input` line editing
            except ImportError:  # a Python built without it: plain input still works
                pass

    def line(self, prompt: str) -> str | None:
        if self.terminal:
            try:
                return input(prompt)
            except EOFError:
                print(file=self.out)  # Ctrl-D leaves the cursor after the prompt
                return None
        text = self.stdin.readline()
        if not text:
            return None
        text = text.rstrip("\r\n")
        print(f"{prompt}{text}", file=self.out, flush=True)
        return text

    def answer(self, prompt: str) -> str:
        text = self.line(prompt)
        if text is None:
            raise EOFError
        return text
