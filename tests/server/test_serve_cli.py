"""`agentc serve` on the command line: what it refuses before it listens (a file that does
not compile, an unreadable file, a database URL it cannot open, with no password shown),
and that it is a listed command."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="agentc serve needs starlette (the serve extra)")
pytest.importorskip("uvicorn", reason="agentc serve needs uvicorn (the serve extra)")

from agentc.cli import COMMANDS, main  # noqa: E402


def test_serve_is_a_command() -> None:
    assert COMMANDS["serve"][0] == "agentc.cmd_serve"


def test_a_file_with_mistakes_is_exit_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.agent"
    bad.write_text('agentc 1\nagent bot {\n  model "scripted"\n  tools [nope]\n}\n')
    assert main(["serve", str(bad), "--db", "memory://"]) == 1
    assert "nope" in capsys.readouterr().err


def test_an_unreadable_file_is_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", str(tmp_path / "missing.agent")]) == 2
    assert "cannot read" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("url", "words"),
    [
        # a closed port of this machine: PostgreSQL is tried, and its refusal named
        ("postgresql://ann:hunter2@127.0.0.1:1/agents?connect_timeout=5", "could not reach"),
        ("mysql://ann:hunter2@db.example/agents", "unknown database kind `mysql`"),
        ("sqlite:///", "needs a file path"),
    ],
)
def test_a_database_url_it_cannot_open_is_exit_2(
    url: str, words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    app = Path(__file__).resolve().parent / "app" / "serve_app.agent"
    assert main(["serve", str(app), "--db", url]) == 2
    err = capsys.readouterr().err
    assert words in err and "hunter2" not in err


def test_worker_processes_without_postgresql_are_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    app = Path(__file__).resolve().parent / "app" / "serve_app.agent"
    sqlite = f"sqlite:///{tmp_path / 'x.db'}"
    assert main(["serve", str(app), "--workers", "2", "--db", sqlite]) == 2
    assert "need a PostgreSQL database" in capsys.readouterr().err
    assert main(["serve", str(app), "--workers", "-1"]) == 2
    assert "--workers" in capsys.readouterr().err
    assert main(["worker", str(app), "--db", "sqlite:///x.db"]) == 2
    assert "a worker needs postgresql://" in capsys.readouterr().err
