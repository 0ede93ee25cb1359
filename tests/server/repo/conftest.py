"""The repository tests run on SQLite and on PostgreSQL (`support.pg`: `pg_url` is a fresh
schema of a throw-away cluster)."""

from __future__ import annotations

from support.pg import pg_cluster, pg_url  # noqa: F401
