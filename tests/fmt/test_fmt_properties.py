"""The formatter's promises over every `.agent` text we have, and over fuzzed ones:

- formatting twice changes nothing (`fmt(fmt(x)) == fmt(x)`);
- every comment survives, in the same order;
- a file that compiles compiles, once formatted, to the same IR (spans and hashes aside);
- a file the parser refuses is refused with a located diagnostic.

Inputs: examples/, tests/golden, each chunk of tests/checks, the fuzz corpus, the prelude
(`corpus.files`), and derivations/mutations from the grammar-aware fuzzer.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from agentc.compiler.pipeline import compile_source
from agentc.fmt import format_source
from agentc.fmt.comments import comments
from tests.fmt.corpus import files, fuzzed, strip_spans

FILES = list(files())
FUZZ_CHUNKS = 4
FUZZ_PER_CHUNK = 150


def _promises(text: str, where: Path) -> list[str]:
    first = format_source(text, "input.agent")
    if first.text is None:
        if not first.diagnostics or not all(d.is_error for d in first.diagnostics):
            return ["refused without an error diagnostic"]
        return []
    problems: list[str] = []
    second = format_source(first.text, "input.agent")
    if second.text != first.text:
        problems.append("formatting the formatted text changed it again")
    if [c.text for c in comments(text)] != [c.text for c in comments(first.text)]:
        problems.append("comments were lost, merged or reordered")
    before = compile_source(text, "input.agent", base_dir=where)
    if before.program is not None:
        after = compile_source(first.text, "input.agent", base_dir=where)
        if after.program is None:
            problems.append(f"the formatted file no longer compiles: {after.errors[:2]}")
        elif strip_spans(after.program.model_dump()) != strip_spans(before.program.model_dump()):
            problems.append("the formatted file compiles to a different IR")
    return problems


@pytest.mark.parametrize("name,text,where", FILES, ids=[f[0] for f in FILES])
def test_every_file_keeps_the_promises(name: str, text: str, where: Path) -> None:
    assert _promises(text, where) == []


@pytest.mark.parametrize("chunk", range(FUZZ_CHUNKS))
def test_fuzzed_inputs_keep_the_promises(chunk: int) -> None:
    broken = {}
    for name, text, where in fuzzed(700 + chunk, FUZZ_PER_CHUNK):
        problems = _promises(text, where)
        if problems:
            broken[name] = (problems, text[:400])
    assert broken == {}


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(10))
def test_fuzzed_inputs_keep_the_promises_at_full_size(chunk: int) -> None:
    broken = [n for n, t, w in fuzzed(9000 + chunk, 1000) if _promises(t, w)]
    assert broken == []


def test_the_corpus_is_what_it_says() -> None:
    names = [f[0] for f in FILES]
    assert any(n.startswith("examples/") for n in names)
    assert any(n.startswith("tests/golden/") for n in names)
    assert any("::" in n for n in names)  # check-file chunks
    assert any(n.startswith("tests/fuzz/corpus/") for n in names)
    formatted = sum(format_source(t).text is not None for _, t, _ in FILES)
    assert formatted > len(FILES) // 2  # most inputs parse: the properties are exercised
