"""PostgreSQL connection strings before any driver is loaded: where a `postgres(…)` line's
string comes from (written, or an environment variable it names), how it is shown (`redact`:
the password as `***`, in every message and log line), and a clear error when psycopg is
not installed. Nothing here imports psycopg, so a file without `postgres(…)` never needs it.
"""

from __future__ import annotations

import os
import re
from typing import Any
from urllib.parse import parse_qsl, quote, urlencode, urlsplit, urlunsplit

from agentc.runtime.errors import DatabaseDriverMissingError, DatabaseUrlError


def redact(url: str) -> str:
    """The connection string as it may be shown: a password (in the user part, a
    `?password=` parameter or a `password=` keyword) becomes `***`."""
    if "://" not in url:
        return re.sub(r"(\bpassword\s*=\s*)('(?:[^'\\]|\\.)*'|\S+)", r"\1***", url)
    try:
        parts = urlsplit(url)
        netloc = parts.netloc
        if "@" in netloc:
            user, _, hosts = netloc.rpartition("@")
            name, colon, _ = user.partition(":")
            netloc = f"{name}:***@{hosts}" if colon else f"{name}@{hosts}"
        query = [(k, "***" if k == "password" else v) for k, v in parse_qsl(parts.query, True)]
        safe = urlencode(query, safe="*=/:", quote_via=quote)
        return urlunsplit((parts.scheme, netloc, parts.path, safe, ""))
    except ValueError:  # not even a URL: show its scheme only
        return url.split("://", 1)[0] + "://…"


def database_url(url: str | None, url_env: str | None, *, span: Any = None) -> str:
    """The connection string a `postgres(…)` line gives: written in it, or read from the
    environment variable it names (`url_env`, so no password is written in the file)."""
    if url_env is None:
        if not url:
            raise DatabaseUrlError("a `postgres(…)` line gives no connection string", span=span)
        return url
    value = os.environ.get(url_env, "").strip()
    if not value:
        raise DatabaseUrlError(
            f"the environment variable `{url_env}`, which should hold the PostgreSQL "
            "connection string, is not set",
            span=span,
            help=f"set {url_env}=postgresql://user:password@host:5432/dbname, or keep the "
            "password in PGPASSWORD or ~/.pgpass",
        )
    return value


def require_driver(what: str) -> None:
    """psycopg and its pool, or `DatabaseDriverMissingError` saying how to install them."""
    try:
        import psycopg  # noqa: F401
        import psycopg_pool  # noqa: F401
    except ImportError:
        raise DatabaseDriverMissingError(
            f"the PostgreSQL {what} needs psycopg 3 and psycopg-pool, which are not installed",
            help="pip install 'agentc[postgres]' (or: pip install 'psycopg[binary]' psycopg-pool)",
        ) from None
