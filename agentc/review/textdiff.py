"""A word diff of two texts: what a reviewer reads when a prompt or a description changed.

Input: an old and a new text. Output: `word_diff` → `WordOp`s (equal, delete, insert runs
of words and the whitespace between them, in order), `inline` → one string marked as
`[-removed-]{+added+}` (git's --word-diff=plain), long unchanged stretches shortened to a
few words of context. Invariants: pure; difflib from the standard library only; joining
the equal and delete runs gives the old text back, the equal and insert runs the new one.
"""

from __future__ import annotations

import difflib
import enum
import re
from dataclasses import dataclass

_TOKEN = re.compile(r"\s+|[^\s]+")
CONTEXT = 6  # words (with their spaces) kept on each side of a change when eliding


class OpKind(str, enum.Enum):
    EQUAL = "equal"
    DELETE = "delete"
    INSERT = "insert"


@dataclass(frozen=True, slots=True)
class WordOp:
    kind: OpKind
    text: str


def tokens(text: str) -> list[str]:
    """Words and whitespace runs, so that a changed space is a change too."""
    return _TOKEN.findall(text)


@dataclass(frozen=True, slots=True)
class _Change:
    removed: str
    added: str


def word_diff(old: str, new: str) -> tuple[WordOp, ...]:
    a, b = tokens(old), tokens(new)
    runs: list[WordOp | _Change] = []
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            runs.append(WordOp(OpKind.EQUAL, "".join(a[i1:i2])))
        else:
            runs.append(_Change("".join(a[i1:i2]), "".join(b[j1:j2])))
    return tuple(op for run in _joined(runs) for op in _ops(run))


def _joined(runs: list[WordOp | _Change]) -> list[WordOp | _Change]:
    """Changes apart only by a space read as one: `[-DO NOT-]{+You MAY+}`, not
    `[-DO-]{+You+} [-NOT-]{+MAY+}`."""
    out: list[WordOp | _Change] = []
    for run in runs:
        if isinstance(run, _Change) and len(out) >= 2:
            space, before = out[-1], out[-2]
            if isinstance(space, WordOp) and space.text.isspace() and isinstance(before, _Change):
                del out[-2:]
                run = _Change(
                    before.removed + space.text + run.removed, before.added + space.text + run.added
                )
        out.append(run)
    return out


def _ops(run: WordOp | _Change) -> list[WordOp]:
    if isinstance(run, WordOp):
        return [run]
    ops = [WordOp(OpKind.DELETE, run.removed)] if run.removed else []
    return ops + ([WordOp(OpKind.INSERT, run.added)] if run.added else [])


def _elide(text: str, head: bool, tail: bool) -> str:
    """An unchanged run, cut to CONTEXT tokens after the change before it (`head`) and
    before the change after it (`tail`); the cut is shown as `…`."""
    parts = tokens(text)
    keep = 2 * CONTEXT  # words and the spaces between them
    if len(parts) <= 2 * keep + 1:
        return text
    left = "".join(parts[:keep]) if head else ""
    right = "".join(parts[-keep:]) if tail else ""
    return f"{left}…{right}"


def inline(ops: tuple[WordOp, ...], shorten: bool = True) -> str:
    """`[-DO NOT-]{+You MAY+} make any DML`: removed and added runs marked in place."""
    out = []
    for i, op in enumerate(ops):
        if op.kind is OpKind.DELETE:
            out.append(f"[-{op.text}-]")
        elif op.kind is OpKind.INSERT:
            out.append(f"{{+{op.text}+}}")
        elif shorten:
            out.append(_elide(op.text, head=i > 0, tail=i < len(ops) - 1))
        else:
            out.append(op.text)
    return "".join(out)


def ops_json(ops: tuple[WordOp, ...]) -> list[dict[str, str]]:
    return [{"op": op.kind.value, "text": op.text} for op in ops]
