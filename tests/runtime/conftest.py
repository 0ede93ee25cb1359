"""Fixtures of the runtime tests; the graph builders are in `support.graphs`."""

from __future__ import annotations

import pytest
from support.graphs import GRAPHS
from support.pg import pg_cluster, pg_url  # noqa: F401  (PostgreSQL: a throw-away cluster)


@pytest.fixture
def memory():
    from agentc.runtime import MemoryCheckpointer

    return MemoryCheckpointer()


@pytest.fixture
def sqlite_store(tmp_path):
    from agentc.runtime import SqliteCheckpointer

    store = SqliteCheckpointer(str(tmp_path / ".agentc" / "state.db"))
    yield store
    store.close()


@pytest.fixture
def nodes():
    """`graphs/nodes.py` as the runtime imports it (the same module object), reset."""
    from agentc.runtime.bind import _file_module

    module = _file_module(str(GRAPHS), "./nodes.py")
    module.reset()
    return module
