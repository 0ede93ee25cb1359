"""A throw-away PostgreSQL cluster for the tests, and SQL on a test's saved state.

`pg_cluster` (session): `initdb` + `pg_ctl start` on a temporary folder, listening on a free
port of 127.0.0.1 only, with a random superuser password (TCP logins need it: scram), and
`pg_ctl stop` at the end. As root, initdb refuses to run, so the server runs as the
`postgres` user (`runuser`). Skipped, with the reason, only when the PostgreSQL programs
(or psycopg) are not installed. `pg_url` (per test): a connection string to a fresh schema
of that cluster (`search_path`), so every test starts with empty tables and no thread
claims of another test.

A test module uses them with `from support.pg import pg_cluster, pg_url  # noqa: F401`.
"""

from __future__ import annotations

import glob
import itertools
import os
import re
import secrets
import shutil
import sqlite3
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import pytest

from .procs import free_port

START_GUARD = 60  # seconds for initdb / pg_ctl: a hang becomes a failure
_schemas = itertools.count()


def pg_bin() -> Path | None:
    """The folder of `initdb` and `pg_ctl` (Debian keeps them off PATH)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=_version)
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def _version(path: str) -> int:
    m = re.search(r"/postgresql/(\d+)/", path)
    return int(m.group(1)) if m else 0


@dataclass(frozen=True)
class Cluster:
    port: int
    password: str
    user: str = "postgres"

    def url(self, dbname: str = "postgres", *, schema: str | None = None) -> str:
        base = f"postgresql://{self.user}:{self.password}@127.0.0.1:{self.port}/{dbname}"
        return base if schema is None else f"{base}?options={quote(f'-csearch_path={schema}')}"

    def execute(self, sql: str, *args: object) -> None:
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(sql, args or None)

    def fresh_url(self) -> str:
        """A connection string to a new, empty schema."""
        schema = f"t{os.getpid()}_{next(_schemas)}"
        self.execute(f"CREATE SCHEMA {schema}")
        return self.url(schema=schema)


def _as_owner(owner: str | None, *cmd: str) -> list[str]:
    return ["runuser", "-u", owner, "--", *cmd] if owner else list(cmd)


def _start(bindir: Path, root: Path, owner: str | None) -> Cluster:
    data, password = root / "data", secrets.token_hex(12)
    pwfile = root / "pw"
    pwfile.write_text(password)
    if owner:
        shutil.chown(root, owner), shutil.chown(pwfile, owner)
    run = {"check": True, "capture_output": True, "text": True, "timeout": START_GUARD}
    subprocess.run(
        _as_owner(
            owner,
            str(bindir / "initdb"),
            "-D",
            str(data),
            "-U",
            "postgres",
            f"--pwfile={pwfile}",
            "--auth-local=trust",
            "--auth-host=scram-sha-256",
            "-E",
            "UTF8",
            "--no-instructions",
        ),
        **run,
    )
    port = free_port()
    # a test cluster: durability off (the tests kill clients, never the server)
    options = (
        f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c fsync=off "
        "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
    )
    subprocess.run(
        _as_owner(
            owner,
            str(bindir / "pg_ctl"),
            "-D",
            str(data),
            "-l",
            str(root / "log"),
            "-o",
            options,
            "-w",
            "-t",
            str(START_GUARD),
            "start",
        ),
        **run,
    )
    return Cluster(port, password)


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Cluster]:
    bindir = pg_bin()
    if bindir is None:
        pytest.skip("PostgreSQL is not installed (apt-get install postgresql)")
    pytest.importorskip("psycopg", reason="psycopg is not installed (pip install agentc[postgres])")
    owner = "postgres" if os.geteuid() == 0 else None  # initdb refuses to run as root
    root = Path(tempfile.mkdtemp(prefix="agentc-pg-"))
    try:
        cluster = _start(bindir, root, owner)
        yield cluster
    finally:
        stop = [str(bindir / "pg_ctl"), "-D", str(root / "data"), "-m", "immediate", "stop"]
        if (root / "data" / "postmaster.pid").exists():
            subprocess.run(_as_owner(owner, *stop), capture_output=True, timeout=START_GUARD)
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def pg_url(pg_cluster: Cluster) -> str:
    return pg_cluster.fresh_url()


# ---------------------------------------------------------------- SQL on saved state

_TABLES = re.compile(r"\b(checkpoints|writes|store_items)\b")


def sql(target: str, text: str, *args: object) -> list[tuple[object, ...]]:
    """Run `text` (SQLite's dialect: `?` parameters, the SQLite table names) on a SQLite
    file or, for a `postgresql://` target, on the PostgreSQL tables (`agentc_…`); the rows
    it returns. How a test edits saved state as a user (or a disk) would."""
    if not target.startswith("postgresql://"):
        conn = sqlite3.connect(target)
        try:
            rows = conn.execute(text, args).fetchall()
            conn.commit()
            return rows
        finally:
            conn.close()
    import psycopg

    pg_text = _TABLES.sub(r"agentc_\1", text).replace("?", "%s")
    with psycopg.connect(target, autocommit=True) as conn:
        cur = conn.execute(pg_text, args or None)
        return cur.fetchall() if cur.description else []


# ---------------------------------------------------------------- the backends, by name

KINDS = ("memory", "sqlite", "postgres")  # what the conformance tests run over
DURABLE = ("sqlite", "postgres")  # the ones another process (or a reopen) sees


@dataclass(frozen=True)
class Durable:
    """Saved state another checkpointer can open: a SQLite file or a PostgreSQL schema."""

    kind: str
    target: str  # the SQLite path, or the connection string

    def open(self):
        from agentc.runtime.checkpoint import PostgresCheckpointer, SqliteCheckpointer

        if self.kind == "sqlite":
            return SqliteCheckpointer(self.target)
        return PostgresCheckpointer(self.target)

    def open_store(self):
        from agentc.runtime.store import PostgresStore, SqliteStore

        return SqliteStore(self.target) if self.kind == "sqlite" else PostgresStore(self.target)

    def sql(self, text: str, *args: object) -> list[tuple[object, ...]]:
        return sql(self.target, text, *args)

    @property
    def where(self) -> str:
        """How messages name it (a connection string with its password as ***)."""
        from agentc.runtime.checkpoint.pgurl import redact

        return self.target if self.kind == "sqlite" else redact(self.target)

    @property
    def line(self) -> str:
        """The `.agent` line that opens it (PostgreSQL: through `AGENTC_TEST_DB`)."""
        if self.kind == "sqlite":
            return f'sqlite("{self.target}")'
        return 'postgres(url_env: "AGENTC_TEST_DB")'

    def env(self) -> dict[str, str]:
        """The environment a subprocess needs to open it by `line` (SQLite: none extra)."""
        extra = {"AGENTC_TEST_DB": self.target} if self.kind == "postgres" else {}
        return {**os.environ, **extra}


def durable(kind: str, request: pytest.FixtureRequest, path: str) -> Durable:
    """`kind`'s saved state: the SQLite file `path`, or a fresh PostgreSQL schema."""
    if kind == "sqlite":
        return Durable(kind, path)
    return Durable(kind, request.getfixturevalue("pg_url"))


def checkpointer(kind: str, request: pytest.FixtureRequest, path: str):
    """A fresh checkpointer of `kind` (SQLite at `path`)."""
    from agentc.runtime import MemoryCheckpointer

    return MemoryCheckpointer() if kind == "memory" else durable(kind, request, path).open()
