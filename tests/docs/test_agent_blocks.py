"""Every ```agent block of the user docs compiles (or fails with the error it says it shows).

A block is compiled as a file beside examples/ (or beside `dir=PATH`), so its `use
"./tools.py"` lines read the example modules; the checker runs as `agentc check` does.
"""

from __future__ import annotations

import pytest
from doc_blocks import Block, all_blocks
from support import ROOT

from agentc.compiler.pipeline import compile_source
from agentc.dsl.diagnostics import Severity

BLOCKS = all_blocks("agent")


def _errors(block: Block) -> list[str]:
    base = ROOT / (block.option("dir") or "examples")
    result = compile_source(block.text + "\n", str(base / "_doc_block.agent"), base_dir=base)
    return [
        f"{d.code.value}: {d.message} (block line {d.primary.span.start.line})"
        for d in result.diagnostics
        if d.severity is Severity.ERROR
    ]


def test_the_docs_have_agent_blocks():
    pages = {b.page.name for b in BLOCKS}
    for page in ("middleware.md", "models.md", "coming-from-langchain.md"):
        assert page in pages, f"docs/{page} shows no ```agent block"


@pytest.mark.parametrize("block", BLOCKS, ids=[b.where for b in BLOCKS])
def test_agent_block_compiles(block: Block):
    errors = _errors(block)
    if block.words[:1] == ("error",):
        codes = block.words[1:2]
        assert codes, f"{block.where}: write the expected code after `agent error`"
        assert any(e.startswith(f"{codes[0]}:") for e in errors), (
            f"{block.where}: expected error {codes[0]}, got {errors}"
        )
    else:
        assert errors == [], f"{block.where} does not compile:\n" + "\n".join(errors)
