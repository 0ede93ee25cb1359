"""The grammar-aware fuzzer in the test suite: no input crashes, hangs or breaks a promise.

CI puts 3,000 inputs through every command that reads a file (in chunks, so a failure
names its seed); the `slow` marker runs 10,000 more with other seeds. Inputs that once
broke a promise are kept in `corpus/` and run every time. What counts as broken is in
`grammar_fuzz.py`; a failing input is reproduced with
`python -m tests.fuzz.grammar_fuzz --seed S --count N --save DIR`.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.fuzz.grammar_fuzz import HANG_S, REPO, Hang, hang_guard, run
from tests.fuzz.grammar_fuzz import exercise as put_through

CORPUS = sorted((Path(__file__).parent / "corpus").glob("*.agent"))
CHUNK = 300


@pytest.fixture(autouse=True)
def _own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))  # the IR cache too


def _report(problems: list) -> str:
    return "\n".join(f"{p.seed}: {p.what}\n--- input ---\n{p.text[:2000]}" for p in problems[:5])


@pytest.mark.parametrize("chunk", range(10))
def test_fuzzed_inputs_keep_every_promise(chunk: int, tmp_path: Path) -> None:
    problems = run(seed=1000 + chunk, count=CHUNK, scratch=tmp_path)
    assert not problems, _report(problems)


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(10))
def test_fuzzed_inputs_keep_every_promise_at_full_size(chunk: int, tmp_path: Path) -> None:
    problems = run(seed=5000 + chunk, count=1000, scratch=tmp_path)
    assert not problems, _report(problems)


@pytest.mark.parametrize("path", CORPUS, ids=[p.stem for p in CORPUS])
def test_inputs_that_once_broke_a_promise(path: Path, tmp_path: Path) -> None:
    """Each in a copy of examples/, so the modules and replies a mutated example uses are
    found and binding is reached, as in the fuzzing run that found it."""
    home = tmp_path / "home"
    ignore = shutil.ignore_patterns("__pycache__", "*.db*", "*.agent", "replies")
    shutil.copytree(REPO / "examples", home, ignore=ignore)
    try:
        with hang_guard(HANG_S):
            problems = put_through(path.read_text(encoding="utf-8"), home)
    except Hang as e:
        problems = [f"hang: {e}"]
    assert problems == []


def test_the_fuzzer_notices_a_broken_promise(tmp_path: Path, monkeypatch) -> None:
    """The oracle can fail: a command that raises is reported, not swallowed."""
    from agentc import cmd_check

    def explode(args: object) -> int:
        raise RuntimeError("boom")

    monkeypatch.setattr(cmd_check, "run", explode)
    problems = put_through('agentc 1\nagent a { model "scripted" }\n', tmp_path)
    assert any("raised RuntimeError: boom" in p for p in problems)
