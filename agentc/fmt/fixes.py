"""Machine-applicable fixes: the exact replacement a diagnostic's `help` names.

Input: a diagnostic and the source it points into. Output: a `Fix` (one edit of that file)
or None. The checker states a replacement as its help sentence ``did you mean `x`?`` with
the primary label on the misspelt text; a fix is derived only when that label covers
exactly one name, dotted name, or one `:`-separated part of a plain string (`"opnai:gpt-4o"`
→ `openai`), and the suggested text is of the same kind, so applying it cannot change
anything but the one word. Anything else (advice in words, several choices) is no fix.
Used by `agentc check --fix` and the language server's code actions.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from ..dsl.codes import Severity
from ..dsl.diagnostics import Diagnostic
from ..dsl.source import SourceFile
from ..dsl.suggest import suggest

_DID_YOU_MEAN = re.compile(r"did you mean `([^`\n]+)`\?")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")
_PLAIN_STRING = re.compile(r'"([^"\\\n]*)"')
_STRING_PART = re.compile(r"[^\s:\"\\]+")


@dataclass(frozen=True, slots=True)
class Edit:
    """Replace `text[start:end]` (code-point offsets) with `new_text`."""

    start: int
    end: int
    new_text: str


@dataclass(frozen=True, slots=True)
class Fix:
    diagnostic: Diagnostic
    file: str
    edit: Edit
    old_text: str

    @property
    def title(self) -> str:
        return f"replace `{self.old_text}` with `{self.edit.new_text}`"


def suggested(d: Diagnostic) -> str | None:
    """The replacement a diagnostic's help names, if it names exactly one."""
    if d.help is None:
        return None
    found = _DID_YOU_MEAN.findall(d.help)
    return found[0] if len(found) == 1 else None


def fix_of(d: Diagnostic, source: SourceFile) -> Fix | None:
    new = suggested(d)
    if new is None or d.span.file != source.name:
        return None
    start, end = d.span.start.offset, d.span.end.offset
    old = source.text[start:end]
    edit = _name_edit(source.text, start, old, new) or _string_edit(start, old, new)
    if edit is None or source.text[edit.start : edit.end] == edit.new_text:
        return None
    return Fix(d, source.name, edit, source.text[edit.start : edit.end])


def _name_edit(text: str, start: int, old: str, new: str) -> Edit | None:
    if not _NAME.fullmatch(old) or not _NAME.fullmatch(new):
        return None
    if "." in new and "." not in old:  # `tools.ad` → `tools.add`: the label is on `ad`
        owner, _, last = new.rpartition(".")
        if not text[:start].endswith(owner + "."):
            return None
        new = last
    return Edit(start, start + len(old), new)


def _string_edit(start: int, old: str, new: str) -> Edit | None:
    """One part of a plain string literal: the whole content, or the one part close to
    the suggestion (`"opnai:gpt-4o"` with `openai`)."""
    m = _PLAIN_STRING.fullmatch(old)
    if m is None or not _STRING_PART.fullmatch(new.replace(":", "x")):
        return None
    content = m.group(1)
    if suggest(content, [new]) == new:
        return Edit(start + 1, start + 1 + len(content), new)
    parts = [p for p in _STRING_PART.finditer(content) if suggest(p.group(), [new]) == new]
    if len(parts) != 1:
        return None
    part = parts[0]
    return Edit(start + 1 + part.start(), start + 1 + part.end(), new)


def fixes(
    diagnostics: Iterable[Diagnostic], source: SourceFile, *, errors_only: bool = False
) -> list[Fix]:
    """Every derivable fix in `source`, at most one per place, in file order."""
    out: dict[tuple[int, int], Fix] = {}
    for d in diagnostics:
        if errors_only and d.severity is not Severity.ERROR:
            continue
        fix = fix_of(d, source)
        if fix is not None:
            out.setdefault((fix.edit.start, fix.edit.end), fix)
    return [out[k] for k in sorted(out)]


def apply(text: str, edits: Iterable[Edit]) -> str:
    """`text` with every non-overlapping edit applied (an overlapping one is skipped)."""
    chosen: list[Edit] = []
    for e in sorted(edits, key=lambda e: (e.start, e.end)):
        if chosen and e.start < chosen[-1].end:
            continue
        chosen.append(e)
    for e in reversed(chosen):
        text = text[: e.start] + e.new_text + text[e.end :]
    return text


ROUNDS = 5  # a fix can uncover another (a typo'd node in a typo'd edge); never loop forever


def fix_text(text: str, path: str) -> tuple[str, list[Fix]]:
    """`text` with every error's exact replacement applied, re-checked after each round."""
    from ..compiler.pipeline import compile_source

    base_dir = str(Path(path).resolve().parent)
    applied: list[Fix] = []
    for _ in range(ROUNDS):
        result = compile_source(text, path, base_dir=base_dir)
        found = fixes(result.diagnostics, result.sources[path], errors_only=True)
        if not found:
            break
        fixed = apply(text, [f.edit for f in found])
        if fixed == text:
            break
        applied += found
        text = fixed
    return text, applied


def fix_files(paths: Iterable[str]) -> int:
    """Rewrite each readable file with its fixes applied; print each fix (stderr); the
    count."""
    count = 0
    for path in paths:
        try:
            text = Path(path).read_bytes().decode("utf-8-sig")
        except (OSError, UnicodeDecodeError):
            continue  # the check that follows says why it cannot be read
        fixed, applied = fix_text(text, path)
        if fixed != text:
            Path(path).write_text(fixed, encoding="utf-8", newline="")
        for f in applied:
            # on stderr: stdout stays the check's own output (`--format json` parses)
            print(f"fixed {f.diagnostic.span}: {f.title} [{f.diagnostic.code}]", file=sys.stderr)
        count += len(applied)
    return count
