"""Fixtures for `agentc run` tests: a fake provider server, and a scratch working directory."""

from __future__ import annotations

import pytest


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    """The test's own directory as cwd (the CLI's `.agentc/state.db` lands here)."""
    monkeypatch.chdir(tmp_path)
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    return tmp_path
