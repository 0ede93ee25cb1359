"""Every ```python block of the user docs runs, and every name the docs import exists.

Each page's blocks run in order, each as its own script (`python -c`), in one scratch folder
per page holding a copy of examples/, so a block may read the example files and the files
an earlier block of its page wrote. Offline: the models are scripted, no key is set.
Blocks marked ```python fragment or ```python langchain are shown, not run (doc_blocks.py).
A `# → text` comment in a block says what it prints: the block's output must contain it.
"""

from __future__ import annotations

import importlib
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from doc_blocks import Block, all_blocks, blocks, user_pages
from support import ROOT

SHOWN_ONLY = {"fragment", "langchain"}
RUNNABLE = [b for b in all_blocks("python") if not SHOWN_ONLY & set(b.words)]
PAGES = sorted({b.page for b in RUNNABLE})
IMPORT = re.compile(r"from (agentc[\w.]*) import (\([^)]*\)|[\w, ]+)")


def _run(block: Block, folder: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    env["AGENTC_NO_IR_CACHE"] = "1"
    done = subprocess.run(
        [sys.executable, "-c", block.text],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,  # a hang guard, not a speed bound
    )
    assert done.returncode == 0, f"{block.where} failed:\n{done.stderr}"
    for expected in re.findall(r"# → (.+)$", block.text, flags=re.M):
        assert expected.strip() in done.stdout, (
            f"{block.where}: the block says it prints {expected.strip()!r}; it printed:\n"
            + done.stdout
        )


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_python_blocks_run(page: Path, tmp_path: Path):
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    for block in RUNNABLE:
        if block.page == page:
            _run(block, tmp_path)


def test_the_api_page_runs_its_examples():
    api = [b for b in RUNNABLE if b.page.name == "python-api.md"]
    assert len(api) >= 8, "docs/python-api.md shows an example per part"


def _imported_names() -> list[tuple[str, str, str]]:
    """(where, module, name) for each `from agentc… import …` in the docs, code and prose."""
    out = []
    for page in user_pages():
        text = page.read_text(encoding="utf-8")
        for m in IMPORT.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            for name in re.split(r"[,\s()]+", m.group(2)):
                if name and name != "…":
                    out.append((f"{page.relative_to(ROOT)}:{line}", m.group(1), name))
    return out


NAMES = _imported_names()


def test_the_docs_import_agentc_names():
    pages = {where.split(":")[0] for where, _, _ in NAMES}
    assert "docs/python-api.md" in pages


@pytest.mark.parametrize("where,module,name", NAMES, ids=[f"{m}.{n}" for _, m, n in NAMES])
def test_every_name_the_docs_import_is_importable(where: str, module: str, name: str):
    mod = importlib.import_module(module)
    assert hasattr(mod, name), f"{where}: `from {module} import {name}` fails"


def test_fences_use_known_words():
    """A typo in a fence's words (```python fragmnt) would silently run or skip a block."""
    known = {"python": SHOWN_ONLY, "agent": {"error"}}
    for page in user_pages():
        for b in blocks(page):
            if b.lang not in known:
                continue
            words = [w for w in b.words if "=" not in w]
            if b.lang == "agent" and words[:1] == ["error"]:
                words = words[2:]  # `error CODE`
            extra = set(words) - known[b.lang]
            assert not extra, f"{b.where}: unknown words on the fence: {sorted(extra)}"
