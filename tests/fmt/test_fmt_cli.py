"""`agentc fmt` and `agentc check --fix` through `main(argv)` and a real subprocess."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from agentc.cli import main
from agentc.compiler.pipeline import compile_source
from agentc.fmt.fixes import fix_text

REPO = Path(__file__).resolve().parents[2]
MESSY = 'agent a {\nmodel   "openai:gpt-4o-mini"  # the model\n}\n'
TIDY = 'agent a {\n  model "openai:gpt-4o-mini"  # the model\n}\n'


def test_fmt_rewrites_in_place(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "a.agent"
    path.write_text(MESSY)
    assert main(["fmt", str(path)]) == 0
    assert path.read_text() == TIDY
    assert "reformatted" in capsys.readouterr().err
    assert main(["fmt", str(path)]) == 0  # already formatted: nothing to do
    assert "already formatted" in capsys.readouterr().err


def test_fmt_check_names_the_file_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    messy, tidy = tmp_path / "messy.agent", tmp_path / "tidy.agent"
    messy.write_text(MESSY)
    tidy.write_text(TIDY)
    assert main(["fmt", "--check", str(messy), str(tidy)]) == 1
    out = capsys.readouterr().out
    assert f"would reformat {messy}" in out and str(tidy) not in out
    assert messy.read_text() == MESSY
    assert main(["fmt", "--check", str(tidy)]) == 0


def test_fmt_diff_prints_a_unified_diff(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "a.agent"
    path.write_text(MESSY)
    assert main(["fmt", "--diff", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"--- {path}" in out
    assert '-model   "openai:gpt-4o-mini"  # the model' in out
    assert '+  model "openai:gpt-4o-mini"  # the model' in out
    assert path.read_text() == MESSY


def test_fmt_refuses_a_file_with_a_syntax_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "broken.agent"
    broken = "agent a {\n  model \n"
    path.write_text(broken)
    assert main(["fmt", str(path)]) == 1
    err = capsys.readouterr().err
    assert re.search(rf"--> {re.escape(str(path))}:\d+:\d+", err)
    assert path.read_text() == broken


def test_fmt_unreadable_file_exits_2(tmp_path: Path) -> None:
    assert main(["fmt", str(tmp_path / "missing.agent")]) == 2


def test_fmt_reads_stdin_with_a_dash() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "agentc", "fmt", "-"],
        input=MESSY,
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout == TIDY


# ---------------------------------------------------------------- check --fix

TYPOS = """agentc 1
use "./tools.py" as tools

agent calculator {
  model "openai:gpt-4o-mini" { temprature: 0 }
  tools [tools.ad]
  middleware {
    sumarization { model: "openai:gpt-4o-mini" }
  }
}

graph g {
  node answer = pyton(tools.add)
  edge START -> answr
  edge answer -> END
}
"""


def test_check_fix_applies_each_suggested_replacement(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "tools.py").write_text((REPO / "examples" / "tools.py").read_text())
    path = tmp_path / "typos.agent"
    path.write_text(TYPOS)
    assert main(["check", str(path)]) == 1
    capsys.readouterr()
    assert main(["check", "--fix", str(path)]) == 0
    captured = capsys.readouterr()
    out, err = captured.out, captured.err
    fixed = path.read_text()
    for old, new in [
        ("temprature", "temperature"),
        ("tools.ad]", "tools.add]"),
        ("sumarization", "summarization"),
        ("pyton(", "python("),
        ("-> answr", "-> answer"),
    ]:
        assert old not in fixed and new in fixed
        assert f"with `{new.strip('(]-> ').split('.')[-1]}`" in err
    assert f"{path}: ok" in out


def test_check_fix_leaves_advice_in_words_alone(tmp_path: Path) -> None:
    text = 'agent a {\n  model "openai:gpt-4o-mini"\n  limits { steps: -1 }\n}\n'
    fixed, applied = fix_text(text, str(tmp_path / "a.agent"))
    assert applied == [] and fixed == text


def test_check_fix_leaves_warnings_alone(tmp_path: Path) -> None:
    """A model name missing from the table may be newer than the table: a warning, and no
    fix is applied for it (the language server still offers it)."""
    text = 'agent a { model "openai:gpt-4o-mnii" }\n'
    fixed, applied = fix_text(text, str(tmp_path / "a.agent"))
    assert applied == [] and fixed == text


def _check_chunks_with_suggestions() -> list[tuple[str, str]]:
    out = []
    for path in sorted((REPO / "tests" / "checks").glob("*.agent")):
        for n, chunk in enumerate(re.split(r"(?m)^---[ \t]*$", path.read_text())):
            found = compile_source(chunk, path.name, base_dir=path.parent).errors
            if "did you mean" in str([d.help for d in found]):
                out.append((f"{path.name}::{n}", chunk))
    return out


CHUNKS = _check_chunks_with_suggestions()


@pytest.mark.parametrize("name,chunk", CHUNKS, ids=[c[0] for c in CHUNKS])
def test_check_fix_on_check_file_cases(name: str, chunk: str) -> None:
    """Every error fixed in a check-file case is gone after the fix, and the fix changed
    nothing but the words it names (a fix may uncover another error: `[helper, helpr]`
    becomes a duplicate tool, which `check` then reports)."""
    where = REPO / "tests" / "checks" / "fixed.agent"
    fixed, applied = fix_text(chunk, str(where))
    assert applied, "a `did you mean` error in this case has no exact replacement"
    after = compile_source(fixed, str(where), base_dir=where.parent)
    for f in applied:
        assert not any(
            d.code == f.diagnostic.code and d.message == f.diagnostic.message for d in after.errors
        ), f.title
    words = re.compile(r"[\w.:-]+|\S")
    changed = [
        (a, b) for a, b in zip(words.findall(chunk), words.findall(fixed), strict=False) if a != b
    ]
    assert len(changed) <= len(applied)


def test_fmt_of_a_folder_formats_every_agent_file_under_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / ".hidden").mkdir()
    nested, hidden, other = (
        tmp_path / "sub" / "b.agent",
        tmp_path / ".hidden" / "c.agent",
        tmp_path / "notes.txt",
    )
    for path in (tmp_path / "a.agent", nested, hidden, other):
        path.write_text(MESSY)
    assert main(["fmt", "--check", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert f"would reformat {tmp_path / 'a.agent'}" in out and f"would reformat {nested}" in out
    assert str(hidden) not in out and str(other) not in out  # hidden folders, other files
    assert main(["fmt", str(tmp_path)]) == 0
    assert nested.read_text() == TIDY and hidden.read_text() == MESSY
