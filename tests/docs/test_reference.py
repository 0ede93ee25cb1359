"""The generated reference pages (docs/middleware.md, docs/cli.md, the provider tables of
docs/models.md) are what docs/make_reference.py writes from the code today, and every
middleware, setting and command has the words a reader needs."""

from __future__ import annotations

import argparse
import importlib.util
import sys
import tomllib
from types import ModuleType

import pytest
from support import ROOT

DOCS = ROOT / "docs"


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_reference", DOCS / "make_reference.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("make_reference", module)
    spec.loader.exec_module(module)
    return module


GEN = _generator()


@pytest.mark.parametrize("page", ["middleware.md", "cli.md", "models.md"])
def test_the_generated_page_is_fresh(page: str):
    path = DOCS / page
    want = GEN.pages()[path]
    have = path.read_text(encoding="utf-8") if path.exists() else ""
    assert have == want, f"docs/{page} is stale: run python docs/make_reference.py"


def test_every_prelude_middleware_has_a_description_and_an_example():
    notes = tomllib.loads((DOCS / "reference" / "middleware.toml").read_text(encoding="utf-8"))
    names = [m.name for m in GEN.prelude_middleware()]
    assert len(names) >= 19  # the prelude was read, not an empty list
    missing = [n for n in names if not {"short", "summary", "example"} <= set(notes.get(n, {}))]
    assert missing == [], f"describe these in docs/reference/middleware.toml: {missing}"
    stale = sorted(set(notes) - set(names))
    assert stale == [], f"docs/reference/middleware.toml describes no such middleware: {stale}"


def test_every_middleware_setting_is_described():
    notes = tomllib.loads((DOCS / "reference" / "middleware.toml").read_text(encoding="utf-8"))
    bare = [
        f"{m.name}.{p.name}"
        for m in GEN.prelude_middleware()
        for p in m.params
        if not p.doc and p.name not in notes.get(m.name, {}).get("params", {})
    ]
    assert bare == [], (
        "give these settings a description in the prelude or in "
        f"docs/reference/middleware.toml under [NAME.params]: {bare}"
    )


def test_every_command_has_words_and_examples():
    from agentc.cli import COMMANDS

    notes = tomllib.loads((DOCS / "reference" / "cli.toml").read_text(encoding="utf-8"))
    missing = [c for c in COMMANDS if not {"about", "examples"} <= set(notes.get(c, {}))]
    assert missing == [], f"describe these commands in docs/reference/cli.toml: {missing}"


def test_no_generated_page_has_a_placeholder():
    for page in ("middleware.md", "cli.md"):
        assert GEN.MISSING not in GEN.pages()[DOCS / page], f"docs/{page} has undescribed parts"


def test_every_flag_of_every_command_is_on_the_page():
    from agentc.cli import COMMANDS

    page = GEN.cli_page()
    for name in COMMANDS:
        for action in GEN._parser(name)._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            for flag in action.option_strings:
                assert f"`{flag}`" in page, f"`agentc {name} {flag}` is not in docs/cli.md"


def test_the_middleware_page_lists_every_setting_with_its_default():
    page = GEN.middleware_page()
    for mw in GEN.prelude_middleware():
        section = page.split(f"\n## {mw.name}\n", 1)[1].split("\n## ", 1)[0]
        for p in mw.params:
            row = next((r for r in section.splitlines() if r.startswith(f"| `{p.name}` |")), None)
            assert row is not None, f"{mw.name}.{p.name} has no row"
            if p.default is not None and len(p.default) <= GEN.LONG:
                assert GEN._cell(GEN._code(p.default)) in row, f"{mw.name}.{p.name}: default"
