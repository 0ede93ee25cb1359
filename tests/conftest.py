"""Shared pytest options: `--update-golden` (or AGENTC_UPDATE_GOLDEN=1) rewrites golden files."""

from __future__ import annotations

import os

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        default=False,
        help="rewrite tests/golden/*/ expected files from the current output",
    )


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    return bool(
        request.config.getoption("--update-golden") or os.environ.get("AGENTC_UPDATE_GOLDEN") == "1"
    )


@pytest.fixture
def fake_server():
    """A fake model provider (OpenAI and Anthropic wire formats) on a free port of 127.0.0.1."""
    from agentc.testing.fake_provider import FakeProviderServer

    with FakeProviderServer() as server:
        yield server
