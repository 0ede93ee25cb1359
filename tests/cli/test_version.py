"""The version agentc reports is the one pyproject.toml releases."""

from __future__ import annotations

import tomllib
from pathlib import Path

from agentc.cli import main
from agentc.version import __version__

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


def test_version_module_matches_pyproject():
    project = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]
    assert __version__ == project["version"]


def test_cli_reports_that_version(capsys):
    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"agentc {__version__}\n"
