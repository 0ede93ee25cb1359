"""The fenced code blocks of the user docs, for the tests that keep them true.

Input: README.md and docs/*.md. Output: `Block`s — the page, the line the block starts on,
its language and the words after the language on the fence line (```agent error
unknown-name`, ```python fragment`, ```agent dir=examples/graphs`). Conventions the tests
read from those words:

- ```agent: compiles with no errors, `use` paths relative to examples/ unless `dir=PATH`
  (relative to the repository) says where the file would sit; ```agent error CODE: its
  errors include CODE.
- ```python: runs as a script, offline, in a folder holding a copy of examples/;
  ```python fragment (a piece of a larger program) and ```python langchain (LangChain's own
  code, shown beside ours) are only shown.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from support import ROOT

FENCE = re.compile(r"^```(\S*)[ \t]*(.*)$")


@dataclass(frozen=True, slots=True)
class Block:
    page: Path
    line: int  # 1-based line of the opening fence
    lang: str
    words: tuple[str, ...]
    text: str

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"

    def option(self, key: str) -> str | None:
        """The value of `key=value` among the fence words, if given."""
        for word in self.words:
            name, eq, value = word.partition("=")
            if eq and name == key:
                return value
        return None


def user_pages() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def blocks(page: Path) -> list[Block]:
    """Every fenced block of `page`, in order (fences of four backticks are not used)."""
    out: list[Block] = []
    lines = page.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if m is None:
            i += 1
            continue
        start, body = i, []
        i += 1
        while i < len(lines) and lines[i].rstrip() != "```":
            body.append(lines[i])
            i += 1
        out.append(Block(page, start + 1, m.group(1), tuple(m.group(2).split()), "\n".join(body)))
        i += 1
    return out


def all_blocks(lang: str) -> list[Block]:
    return [b for page in user_pages() for b in blocks(page) if b.lang == lang]
