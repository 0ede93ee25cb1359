"""One way to open a PostgreSQL database, shared by the checkpointer and the long-term store.

Input: a libpq connection string (`postgresql://user@host:5432/db`, or `host=… dbname=…`)
from a `postgres(…)` line or an environment variable it names. Output: a `Database`: a
psycopg 3 connection pool (autocommit connections) over agentc's tables, migrated to the
newest schema. Invariants: the connection string is shown only through `redact` (its
password as `***`), in every message; a database that does not answer is
`DatabaseUnreachableError` naming host and port and what to check, never psycopg's raw
error; migrations run in one transaction under a transaction-level advisory lock, so two
processes opening one database at once upgrade it once; a schema newer than this agentc
knows is refused (`DatabaseSchemaError`), never written in a layout it cannot read.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
from psycopg.conninfo import conninfo_to_dict
from psycopg_pool import ConnectionPool, PoolTimeout

from agentc.runtime.errors import (
    CheckpointWriteError,
    DatabaseSchemaError,
    DatabaseUnreachableError,
    DatabaseUrlError,
)

from .pgurl import redact

CONNECT_TIMEOUT_S = 10  # unless the connection string sets `connect_timeout`
POOL_TIMEOUT_S = 15.0  # waiting for a pooled connection (the database went away)
POOL_MAX = 8  # the saver's writer thread, readers, store calls from tool threads
MIGRATION_LOCK = 0x616765_6E7463  # "agentc": one key for every agentc schema change

Connection = psycopg.Connection[tuple[Any, ...]]

# ---------------------------------------------------------------- the schema, by version

V1 = """
CREATE TABLE agentc_checkpoints (
  seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  thread_id text NOT NULL, ns text NOT NULL, id text NOT NULL, parent_id text,
  data text NOT NULL,
  UNIQUE (thread_id, ns, id));
CREATE INDEX agentc_checkpoints_thread ON agentc_checkpoints (thread_id, ns, seq);
CREATE TABLE agentc_writes (
  seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  thread_id text NOT NULL, ns text NOT NULL, checkpoint_id text NOT NULL,
  task_id text NOT NULL, kind text NOT NULL, data text NOT NULL);
CREATE INDEX agentc_writes_checkpoint ON agentc_writes (thread_id, ns, checkpoint_id, seq);
CREATE TABLE agentc_store_items (
  seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  ns text COLLATE "C" NOT NULL, key text NOT NULL, value text NOT NULL,
  created_at double precision NOT NULL, updated_at double precision NOT NULL,
  UNIQUE (ns, key));
"""

# v2: a checkpoint's step and source in columns, so `search` filters in the database
# instead of reading every row of every thread; older rows are filled from their data
V2 = """
ALTER TABLE agentc_checkpoints ADD COLUMN step integer, ADD COLUMN source text;
CREATE INDEX agentc_checkpoints_source_step ON agentc_checkpoints (source, step, seq);
"""


def _v1(conn: Connection) -> None:
    conn.execute(V1)


def _v2(conn: Connection) -> None:
    conn.execute(V2)
    rows = conn.execute("SELECT seq, data FROM agentc_checkpoints").fetchall()
    filled = [(*_step_and_source(data), seq) for seq, data in rows]
    with conn.cursor() as cur:
        cur.executemany("UPDATE agentc_checkpoints SET step=%s, source=%s WHERE seq=%s", filled)


def _step_and_source(data: str) -> tuple[int | None, str | None]:
    """A row's step and source; a row that is not what agentc wrote keeps NULLs (reading
    it still reports the damage, naming the checkpoint)."""
    try:
        d = json.loads(data)
        step, source = d["step"], d["source"]
    except (ValueError, TypeError, KeyError, RecursionError):
        return None, None
    ok = type(step) is int and type(source) is str
    return (step, source) if ok else (None, None)


MIGRATIONS: tuple[Callable[[Connection], None], ...] = (_v1, _v2)  # index + 1 = version
LATEST = len(MIGRATIONS)


def migrate(conn: Connection, where: str) -> int:
    """Bring agentc's tables to `LATEST`; returns the version found before."""
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
        conn.execute(
            "CREATE TABLE IF NOT EXISTS agentc_schema_versions (version integer PRIMARY KEY, "
            "applied_at timestamptz NOT NULL DEFAULT now())"
        )
        row = conn.execute("SELECT coalesce(max(version), 0) FROM agentc_schema_versions")
        found = int(row.fetchone()[0])  # type: ignore[index]
        if found > LATEST:
            raise DatabaseSchemaError(
                f"the agentc tables in {where} have schema version {found}, newer than this "
                f"agentc reads (up to {LATEST})",
                help="upgrade agentc on this machine, or point it at another database",
            )
        for version in range(found + 1, LATEST + 1):
            MIGRATIONS[version - 1](conn)
            conn.execute("INSERT INTO agentc_schema_versions (version) VALUES (%s)", (version,))
    return found


# ---------------------------------------------------------------- connection strings


def _parsed(url: str, where: str) -> dict[str, Any]:
    try:
        return conninfo_to_dict(url)
    except psycopg.ProgrammingError as e:
        raise DatabaseUrlError(
            f"{where} is not a PostgreSQL connection string: {_reason(e, url)}",
            help="write it as postgresql://user@host:5432/dbname",
        ) from None


def _endpoint(info: dict[str, Any]) -> str:
    host = str(info.get("host") or os.environ.get("PGHOST") or "localhost")
    port = str(info.get("port") or os.environ.get("PGPORT") or "5432")
    return f"{host}:{port}"


def _reason(e: BaseException, url: str) -> str:
    """psycopg's words, on one line, without anything of the connection string's password."""
    text = " ".join(str(e).split()).removeprefix("connection failed: ")
    password = _password(url)
    return text.replace(password, "***") if password else text


def _password(url: str) -> str | None:
    try:
        password = conninfo_to_dict(url).get("password")
        return str(password) if password else None
    except psycopg.ProgrammingError:
        return None


# ---------------------------------------------------------------- errors


def is_unreachable(e: BaseException) -> bool:
    """A lost or refused connection (as opposed to a statement the server refused)."""
    if isinstance(e, PoolTimeout):
        return True
    state = getattr(e, "sqlstate", None)
    return isinstance(e, psycopg.OperationalError) and (
        state is None or state.startswith(("08", "57P", "28", "3D"))
    )


def unreachable(url: str, e: BaseException) -> DatabaseUnreachableError:
    where, reason = redact(url), _reason(e, url)
    endpoint = _endpoint(_parsed(url, where))
    if "password authentication" in reason or getattr(e, "sqlstate", "") in ("28P01", "28000"):
        check = (
            "check the user name and password: keep the password in PGPASSWORD, ~/.pgpass or "
            "the variable that holds the connection string, never in the .agent file"
        )
    elif "does not exist" in reason:
        check = "create the database (createdb NAME) or name one that exists"
    elif isinstance(e, PoolTimeout):
        check = f"check that PostgreSQL is still running at {endpoint}"
    else:
        check = (
            f"check that PostgreSQL is running at {endpoint} and accepts TCP connections: "
            "listen_addresses in postgresql.conf, pg_hba.conf, a firewall"
        )
    return DatabaseUnreachableError(
        f"could not reach the PostgreSQL database at {endpoint} ({where}): {reason}",
        help=check,
    )


# ---------------------------------------------------------------- the database


class Database:
    """agentc's tables in one PostgreSQL database, behind a pool of autocommit connections."""

    def __init__(self, url: str, *, pool_max: int = POOL_MAX) -> None:
        self.where = redact(url)
        info = _parsed(url, self.where)
        self._url = url
        self._kwargs: dict[str, Any] = {"autocommit": True}
        if "connect_timeout" not in info:
            self._kwargs["connect_timeout"] = CONNECT_TIMEOUT_S
        with self.connect() as conn:
            try:
                migrate(conn, self.where)
            except psycopg.Error as e:
                if is_unreachable(e):
                    raise unreachable(url, e) from None
                raise CheckpointWriteError(
                    f"could not set up agentc's tables in {self.where}: {_reason(e, url)}",
                    help="let a user who may create tables in the schema open it once",
                ) from None
        self.pool: ConnectionPool[Connection] = ConnectionPool(
            url,
            min_size=1,
            max_size=pool_max,
            kwargs=self._kwargs,
            timeout=POOL_TIMEOUT_S,
            open=True,
            name="agentc",
        )

    def connect(self) -> Connection:
        """A connection of its own (migrations, the thread claims' session)."""
        try:
            return psycopg.connect(self._url, **self._kwargs)
        except psycopg.Error as e:
            raise unreachable(self._url, e) from None

    @contextmanager
    def connection(self) -> Iterator[Connection]:
        with self.pool.connection() as conn:
            yield conn

    def unreachable(self, e: BaseException) -> DatabaseUnreachableError:
        return unreachable(self._url, e)

    def reason(self, e: BaseException) -> str:
        return _reason(e, self._url)

    def close(self) -> None:
        self.pool.close()
