"""`agentc new`: every template writes a project that checks clean, is formatted, runs
offline and passes its own tests at once; nothing is ever overwritten."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agentc.cli import main
from agentc.compiler.pipeline import compile_file
from agentc.fmt import format_source
from agentc.scaffold import TEMPLATES

RUNS = {
    "agent": ["--input", "what is 2+3?"],
    "graph": ["--input", '{"topic": "cats"}'],
    "supervisor": ["--input", "what is 2+3, doubled?"],
    "review": ["--input", "email the team", "--decisions", "approve.json"],
}


@pytest.mark.parametrize("template", sorted(TEMPLATES))
def test_a_new_project_checks_runs_and_passes_its_tests(
    template: str, tmp_path: Path, monkeypatch, capsys
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["new", "my_bot", "--template", template]) == 0
    folder = tmp_path / "my_bot"
    names = {p.name for p in folder.iterdir()}
    assert {"my_bot.agent", "tools.py", "my_bot.test.agent", ".env.example", "README.md"} <= names
    for name in ("my_bot.agent", "my_bot.test.agent"):
        result = compile_file(folder / name)
        assert result.diagnostics == (), [d.message for d in result.diagnostics]
        text = (folder / name).read_text()
        assert format_source(text, name).text == text, f"{name} is not formatted"
    assert "## my_bot" not in (folder / "README.md").read_text()  # a new README: its title
    assert "agentc test" in (folder / "README.md").read_text()
    capsys.readouterr()
    assert main(["test", str(folder)]) == 0, capsys.readouterr().out
    monkeypatch.chdir(folder)
    (folder / "approve.json").write_text(json.dumps({"decisions": [{"type": "approve"}]}))
    assert main(["run", "my_bot.agent", *RUNS[template]]) == 0, capsys.readouterr().err


def test_an_existing_file_is_never_overwritten(tmp_path: Path, capsys) -> None:
    folder = tmp_path / "p"
    folder.mkdir()
    (folder / "tools.py").write_text("# mine\n")
    assert main(["new", "p", "--dir", str(folder)]) == 2
    err = capsys.readouterr().err
    assert "tools.py already exists" in err and "Traceback" not in err
    assert (folder / "tools.py").read_text() == "# mine\n"
    assert not (folder / "p.agent").exists()  # nothing written at all


def test_an_existing_readme_gets_a_section(tmp_path: Path, capsys) -> None:
    (tmp_path / "README.md").write_text("# My repo\n")
    assert main(["new", "helper", "--template", "graph", "--dir", str(tmp_path)]) == 0
    text = (tmp_path / "README.md").read_text()
    assert text.startswith("# My repo\n") and "\n## helper\n" in text
    assert "added to" in capsys.readouterr().out


@pytest.mark.parametrize("name", ["my-bot", "1bot", "END"])
def test_a_name_that_cannot_name_an_agent_is_refused(name: str, tmp_path: Path, capsys) -> None:
    assert main(["new", name, "--dir", str(tmp_path / "x")]) == 2
    assert "cannot name an agent" in capsys.readouterr().err
    assert not (tmp_path / "x").exists()
