"""Where `agentc serve` keeps its data, chosen by the `--db URL`.

Input: the URL (`sqlite:///relative/path`, `sqlite:////absolute/path`, a bare path,
`postgresql://user@host:5432/db`, or `memory://` for a server that forgets everything at
exit). Output: `Backends`: the checkpointer every thread's runs save to, the long-term
store the store endpoints and the graphs' tools share, and the repository of threads and
runs — all three behind their protocols (`Checkpointer`, `Store`, `Repository`), so no
route knows which database it is. Invariants: one database for all three; PostgreSQL's
modules are imported only for a `postgresql://` URL (psycopg is optional); the URL is never
echoed with a password in it (`redacted`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

from agentc.runtime import InMemoryStore, MemoryCheckpointer
from agentc.runtime.checkpoint import Checkpointer
from agentc.runtime.store import ItemStore

from .repo import Repository, SqliteRepository

DEFAULT_DB = "sqlite:///.agentc/serve.db"


class DatabaseUrlError(ValueError):
    """A `--db` URL the server cannot open."""


@dataclass(frozen=True, slots=True)
class Backends:
    checkpointer: Checkpointer
    store: ItemStore
    repo: Repository
    where: str  # for the start-up line: the file, or "memory"

    def close(self) -> None:
        self.repo.close()
        self.store.close()
        self.checkpointer.close()


def redacted(url: str) -> str:
    """The URL with any password replaced, for messages and logs."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    user = f"{parts.username}:***@" if parts.username else "***@"
    port = f":{parts.port}" if parts.port else ""
    return urlunsplit((parts.scheme, f"{user}{host}{port}", parts.path, parts.query, ""))


def open_backends(url: str, base_dir: str = ".") -> Backends:
    if url == "memory://":
        return Backends(MemoryCheckpointer(), InMemoryStore(), _memory_repo(), "memory")
    scheme = url.split("://", 1)[0] if "://" in url else ""
    if scheme in ("postgres", "postgresql"):
        return _postgres(url)
    if scheme not in ("", "sqlite"):
        raise DatabaseUrlError(
            f"--db {redacted(url)}: unknown database kind `{scheme}`; "
            "expected sqlite:///PATH, postgresql://… or memory://"
        )
    path = url[len("sqlite:///") :] if scheme else url
    if not path:
        raise DatabaseUrlError("--db sqlite:///PATH needs a file path after sqlite:///")
    return _sqlite(os.path.normpath(os.path.join(base_dir, path)))


def _sqlite(path: str) -> Backends:
    from agentc.runtime import SqliteStore
    from agentc.runtime.checkpoint.sqlite import SqliteCheckpointer

    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    return Backends(SqliteCheckpointer(path), SqliteStore(path), SqliteRepository(path), path)


def _postgres(url: str) -> Backends:
    """Checkpoints, store, threads and runs in one PostgreSQL database (psycopg 3)."""
    from agentc.runtime.checkpoint.pgurl import require_driver

    require_driver("server")
    from agentc.runtime.checkpoint.postgres import PostgresCheckpointer
    from agentc.runtime.store.postgres import PostgresStore

    from .repo_pg import PostgresRepository

    checkpointer = PostgresCheckpointer(url)
    try:
        return Backends(checkpointer, PostgresStore(url), PostgresRepository(url), redacted(url))
    except BaseException:
        checkpointer.close()
        raise


def _memory_repo() -> Repository:
    return SqliteRepository(":memory:")
