"""Shared pytest options: `--update-golden` (or AGENTC_UPDATE_GOLDEN=1) rewrites golden files.

The `slow` marker: long tests (the full-size parser property test and fuzzer, the kill
suite at full size) run only when asked for. `pytest -m slow` runs just them;
`AGENTC_FULL_PROPERTY=1` runs them with every other test. Otherwise a `slow` test is
collected and skipped, with a reason that says how to run it.
"""

from __future__ import annotations

import os

import pytest

FULL_ENV = "AGENTC_FULL_PROPERTY"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", f"slow: a long test; run it with `-m slow` or {FULL_ENV}=1")


def _asked_for_slow(config: pytest.Config) -> bool:
    return os.environ.get(FULL_ENV) == "1" or "slow" in (config.getoption("markexpr") or "")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if _asked_for_slow(config):
        return
    skip = pytest.mark.skip(reason=f"slow: run with `pytest -m slow` or {FULL_ENV}=1")
    for item in items:
        if item.get_closest_marker("slow"):
            item.add_marker(skip)


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
