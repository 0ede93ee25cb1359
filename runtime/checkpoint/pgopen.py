"""Opening what a `postgres(…)` line asks for. psycopg is optional, so the PostgreSQL
modules are imported by these two functions, after the check that it is installed, never
when agentc loads (the one reason these imports are inside functions)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from agentc.runtime.serde import TypeAllowlist

from .pgurl import database_url, require_driver

if TYPE_CHECKING:
    from agentc.runtime.store.postgres import PostgresStore

    from .postgres import PostgresCheckpointer


def open_postgres_checkpointer(
    url: str | None, url_env: str | None, *, types: TypeAllowlist | None, span: Any = None
) -> PostgresCheckpointer:
    """What `checkpoint postgres(…)` asks for."""
    require_driver("checkpointer")
    from .postgres import PostgresCheckpointer

    return PostgresCheckpointer(database_url(url, url_env, span=span), types=types)


def open_postgres_store(url: str | None, url_env: str | None, *, span: Any = None) -> PostgresStore:
    """What `store postgres(…)` asks for."""
    require_driver("store")
    from agentc.runtime.store.postgres import PostgresStore

    return PostgresStore(database_url(url, url_env, span=span))
