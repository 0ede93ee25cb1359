"""Fixtures for the `agentc serve` tests: `served` and `guarded`, real servers started once
per session by `serve_kit` (see there for what each serves) and stopped at its end."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from serve_kit import KEY, MAX_BODY, ORIGIN, Served, needs_serve, start, stop


@pytest.fixture(scope="session")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    needs_serve()
    workdir = tmp_path_factory.mktemp("serve")
    proc, info = start(workdir, "--db", f"sqlite:///{workdir / 'serve.db'}")
    try:
        yield info
    finally:
        stop(proc)


@pytest.fixture(scope="session")
def guarded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    needs_serve()
    workdir = tmp_path_factory.mktemp("guarded")
    extra = ["--db", "memory://", "--api-key", KEY, "--cors-origin", ORIGIN]
    proc, info = start(workdir, *extra, "--max-body", str(MAX_BODY), name="guarded")
    try:
        yield info
    finally:
        stop(proc)
