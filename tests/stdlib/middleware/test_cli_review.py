"""D10 in the terminal: `agentc run` asks per pending call, or reads --decisions FILE."""

from __future__ import annotations

import builtins
import json
import shutil
import sys
from pathlib import Path

from agentc.cli import main

EXAMPLE = str(Path(__file__).resolve().parents[3] / "examples" / "human_review.agent")


def test_D10_decisions_file_answers_non_interactively(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "d.json").write_text(
        json.dumps({"decisions": [{"type": "reject", "message": "not now"}]})
    )
    code = main(["run", EXAMPLE, "--input", "what is 2+3?", "--decisions", "d.json"])
    out = capsys.readouterr().out
    assert code == 0
    assert "tool add (error): User rejected the tool call for `add` with reason: not now" in out


def test_D10_terminal_asks_each_call(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    answers = iter(["x", "s", "it is five"])
    monkeypatch.setattr(builtins, "input", lambda prompt="": next(answers))
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True)
    assert main(["run", EXAMPLE, "--input", "what is 2+3?"]) == 0
    out = capsys.readouterr().out
    assert "review 1/1: add(a=2, b=3)" in out
    assert "please answer one of: approve, edit, reject, respond" in out
    assert "tool add: it is five" in out


def test_D10_paused_run_resumed_later_with_a_file(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys.stdin, "isatty", lambda: False)
    monkeypatch.setattr(sys, "stdin", open("/dev/null"))
    agent = tmp_path / "r.agent"
    # the tools beside the file: a `use` may not reach outside the file's project
    shutil.copy(Path(EXAMPLE).parent / "tools.py", tmp_path / "tools.py")
    agent.write_text(
        Path(EXAMPLE).read_text().replace("checkpoint memory", 'checkpoint sqlite("s.db")')
    )
    assert main(["run", str(agent), "--input", "what is 2+3?", "--thread", "t1"]) == 0
    assert "paused; answer it with" in capsys.readouterr().out
    # a second answer: the scripted model starts its script again in the new process
    (tmp_path / "d.json").write_text(
        '[{"decisions": [{"type": "approve"}]}, {"decisions": [{"type": "approve"}]}]'
    )
    assert main(["run", str(agent), "--thread", "t1", "--decisions", "d.json"]) == 0
    out = capsys.readouterr().out
    assert "tool add: 5" in out and "ai: The answer is 5." in out
