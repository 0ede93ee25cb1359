"""The durable-run tests need PostgreSQL (`support.pg`: `pg_url` is a fresh schema of a
throw-away cluster), dbos and the HTTP packages."""

from __future__ import annotations

import pytest
from support.pg import pg_cluster, pg_url  # noqa: F401

pytest.importorskip("dbos", reason="durable runs need dbos (pip install 'agentc[dbos]')")
pytest.importorskip("starlette", reason="agentc serve needs starlette (the serve extra)")
pytest.importorskip("langgraph_sdk", reason="the client side is langgraph-sdk")
