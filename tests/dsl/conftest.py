"""The `slow` marker: the full-size property test runs only when asked for.

`pytest -m slow` runs just the slow tests; `AGENTC_FULL_PROPERTY=1` runs them with every
other test. Otherwise a `slow` test under this folder is collected and skipped, with a
reason that says how to run it.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
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
        if item.get_closest_marker("slow") and HERE in item.path.resolve().parents:
            item.add_marker(skip)
