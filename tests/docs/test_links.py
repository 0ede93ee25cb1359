"""Every relative link of the user docs leads somewhere: the file exists and, when the link
names a section (`models.md#the-scripted-model-offline-runs-and-tests`), the page has a
heading with that anchor as GitHub writes it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from doc_blocks import user_pages
from support import ROOT

LINK = re.compile(r"\]\(([^)\s]+)\)")


def anchor(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    text = re.sub(r"^```.*?^```", "", page.read_text(encoding="utf-8"), flags=re.S | re.M)
    return {anchor(h) for h in re.findall(r"^#{1,6} (.+)$", text, flags=re.M)}


def _links(page: Path) -> list[str]:
    text = re.sub(r"^```.*?^```", "", page.read_text(encoding="utf-8"), flags=re.S | re.M)
    text = re.sub(r"`[^`\n]*`", "", text)
    return [m for m in LINK.findall(text) if not re.match(r"[a-z]+:", m)]


PAGES = user_pages()


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_relative_links_resolve(page: Path):
    broken = []
    for link in _links(page):
        path, _, section = link.partition("#")
        target = (page.parent / path).resolve() if path else page
        if not target.exists():
            broken.append(f"{link}: no such file")
        elif section and target.suffix == ".md" and section not in anchors(target):
            broken.append(f"{link}: {target.name} has no section `#{section}`")
    assert broken == [], f"{page.relative_to(ROOT)}: " + "; ".join(broken)


def test_the_new_pages_are_linked_from_the_readme():
    links = set(_links(ROOT / "README.md"))
    for page in ("middleware", "python-api", "models", "cli", "coming-from-langchain"):
        assert f"docs/{page}.md" in links, f"README.md does not link docs/{page}.md"
    assert "docs/record-replay.md" in links
