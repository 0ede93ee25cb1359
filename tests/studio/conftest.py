"""Fixtures for the studio tests: `studio`, `counting` and `served` are real servers
started by `studio_kit.start` for one test and stopped after; `browser_page` is a page of a
headless Debian Chromium (`/usr/bin/chromium`) driven by Playwright (no browser download).
The tests skip, saying so, when Playwright or Chromium is not installed.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from studio_kit import CHROMIUM, COUNTING, ROOT, Studio, start, stop

if TYPE_CHECKING:
    from playwright.sync_api import Page


@pytest.fixture
def studio(tmp_path: Path) -> Iterator[Studio]:
    proc, info = start(tmp_path, "studio")
    try:
        yield info
    finally:
        stop(proc)


@pytest.fixture
def counting(tmp_path: Path) -> Iterator[Studio]:
    """The studio on `COUNTING` (its tools are the examples' own)."""
    (tmp_path / "tools.py").write_text((ROOT / "examples" / "tools.py").read_text())
    file = tmp_path / "counting.agent"
    file.write_text(COUNTING)
    proc, info = start(tmp_path, "studio", file)
    try:
        yield info
    finally:
        stop(proc)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Studio]:
    """`agentc serve` on the same file: it serves the page too."""
    proc, info = start(tmp_path, "serve")
    try:
        yield info
    finally:
        stop(proc)


@pytest.fixture
def browser_page() -> Iterator[Page]:
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="the studio tests need Playwright (pip install playwright)"
    )
    if not CHROMIUM.exists():
        pytest.skip(f"the studio tests need Chromium at {CHROMIUM} (apt-get install chromium)")
    with sync_api.sync_playwright() as pw:
        args = ["--no-sandbox"] if os.geteuid() == 0 else []
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=args)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 860})
            page.set_default_timeout(30_000)  # hang guard for every wait below
            yield page
        finally:
            browser.close()
