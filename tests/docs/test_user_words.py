"""User docs and examples speak users' words, not the project's internal vocabulary.

Prose may not cite the project's history ("seed 002", "issue 6") or a decision id on its
own ("D9 splits per tool"): an id (A4, D9, …) may stand in a table, in code, in a link or in
parentheses after the words that say what it means ("the recursion limit (F1)"). Checked
over README.md, docs/*.md and the comments and docstrings of examples/.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from doc_blocks import user_pages
from support import ROOT

INTERNAL = [
    (re.compile(r"\bseed(s|'s|[- ]?0\d*)?\b", re.I), "the project's seed map"),
    (re.compile(r"\bissue #?[0-9]+", re.I), "an issue of the project"),
    (re.compile(r"\b[A-I][0-9]{1,2}\b"), "a bare decision id"),
]


def prose(markdown: str) -> str:
    """The running text of a page: no code blocks, tables, inline code, links, comments or
    parenthesised asides (where an id may follow its words); line breaks kept."""
    text = re.sub(
        r"^```.*?^```", lambda m: "\n" * m.group(0).count("\n"), markdown, flags=re.S | re.M
    )
    text = re.sub(r"<!--.*?-->", "", text, flags=re.S)
    text = re.sub(r"^\s*\|.*$", "", text, flags=re.M)
    text = re.sub(r"^ {4}.*$", "", text, flags=re.M)  # indented code
    text = re.sub(r"``.*?``|`[^`\n]*`", "", text)
    text = re.sub(r"\[[^\]]*\]\([^)]*\)", "", text)
    while True:  # innermost parentheses first, so nested asides go too
        shorter = re.sub(r"\([^()]*\)", "", text)
        if shorter == text:
            return text
        text = shorter


def comments(source: str) -> str:
    """The words of a `.agent` or `.py` file a reader reads as text: comments and docstrings."""
    parts = re.findall(r"#(.*)$", source, flags=re.M)
    parts += re.findall(r'"""(.*?)"""', source, flags=re.S)
    return "\n".join(parts)


def _problems(text: str) -> list[str]:
    found = []
    for n, line in enumerate(text.splitlines(), 1):
        for pattern, what in INTERNAL:
            for m in pattern.finditer(line):
                found.append(f"line {n}: {m.group(0)!r} ({what}): {line.strip()[:100]}")
    return found


PAGES = user_pages()
EXAMPLES = sorted(
    p for p in (ROOT / "examples").rglob("*") if p.suffix in (".agent", ".py") and p.is_file()
)


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_docs_prose_uses_user_words(page: Path):
    problems = _problems(prose(page.read_text(encoding="utf-8")))
    assert problems == [], f"{page.relative_to(ROOT)} speaks internal vocabulary:\n" + "\n".join(
        problems
    )


@pytest.mark.parametrize("path", EXAMPLES, ids=[str(p.relative_to(ROOT)) for p in EXAMPLES])
def test_example_comments_use_user_words(path: Path):
    problems = _problems(prose(comments(path.read_text(encoding="utf-8"))))
    assert problems == [], f"{path.relative_to(ROOT)} speaks internal vocabulary:\n" + "\n".join(
        problems
    )


def test_the_scan_finds_what_it_should():
    """The filter keeps ids in their allowed places and catches them everywhere else."""
    allowed = "The run stops at the limit (F1).\n| D9 | row |\n`A4` and [D10](x.md) stay."
    assert _problems(prose(allowed)) == []
    for bad in ("As seed 002 says, the map holds.", "Fixed in issue 6.", "D9 splits per tool."):
        assert _problems(prose(bad)), bad
