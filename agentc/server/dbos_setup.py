"""How agentc uses DBOS: one configuration for the workers and the API processes' client.

Input: the `postgresql://` URL the server and its workers share. Output: the DBOS config
(`config`), a client for processes that only enqueue and read (`client`), and the names
both sides agree on (the workflow, the queue, the application version). Invariants:
DBOS stores everything through `JsonSerializer` — JSON text, never DBOS's default pickle
(an exception is stored as its type name and message); the system tables live in a schema
of their own next to agentc's (`dbos` beside `public`, `<schema>_dbos` beside another
schema), so two agentc setups in one database do not share a queue; every process names
the same application version, so any live worker may dequeue or recover any run.
"""

from __future__ import annotations

import json
from typing import Any

import psycopg
from dbos import DBOS, DBOSClient, DBOSConfig
from dbos._serialization import PortableWorkflowError, Serializer

from agentc.version import __version__

WORKFLOW = "agentc_run"
QUEUE = "agentc_runs"
APP_VERSION = f"agentc-{__version__}"
# how often a worker looks at the queue (DBOS's default is 1 s): each look costs a worker
# a few statements that DBOS builds anew, whatever the queue holds; at 0.05 s the four
# workers of `--workers 4` spent a quarter of their time looking (a run now waits 0.25 s
# for a worker on average)
POLL_S = 0.5


class JsonSerializer(Serializer):
    """DBOS's values as JSON: workflow inputs and outputs, step outputs, errors."""

    def serialize(self, data: Any) -> str:
        if isinstance(data, BaseException):
            data = {"__error__": {"type": type(data).__name__, "message": str(data)}}
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"))

    def deserialize(self, serialized_data: str) -> Any:
        data = json.loads(serialized_data)
        if isinstance(data, dict) and set(data) == {"__error__"}:
            err = data["__error__"]
            return PortableWorkflowError(str(err.get("message")), str(err.get("type")))
        return data

    def name(self) -> str:
        return "agentc_json"


def system_schema(url: str) -> str:
    """Where DBOS keeps its tables for the agentc tables `url` reaches."""
    with psycopg.connect(url, autocommit=True, connect_timeout=10) as conn:
        row = conn.execute("SELECT current_schema()").fetchone()
    schema = str(row[0]) if row and row[0] else "public"
    return "dbos" if schema == "public" else f"{schema}_dbos"


def config(url: str, executor_id: str, *, verbose: bool = False) -> DBOSConfig:
    return {
        "log_level": "INFO" if verbose else "WARNING",
        "name": "agentc",
        "system_database_url": url,
        "serializer": JsonSerializer(),
        "executor_id": executor_id,
        "application_version": APP_VERSION,
        "dbos_system_schema": system_schema(url),
        "sys_db_pool_size": 10,
        "notification_listener_polling_interval_sec": 0.05,
        # agentc sends and reads no DBOS events or streams: their notifier need not wake
        # every 10 ms (DBOS's default) in every process
        "notification_coalesce_sec": 0.5,
        # no round trip to test each connection taken from the pool: DBOS retries a
        # statement whose connection turns out dead
        "db_engine_kwargs": {"pool_pre_ping": False},
    }


def client(url: str) -> DBOSClient:
    """A client of the workers' queue; DBOS's tables are created first (a client never
    creates them, and an API process may take a run before any worker has started)."""
    schema = system_schema(url)
    DBOS.migrate(url, schema=schema)
    return DBOSClient(
        system_database_url=url, serializer=JsonSerializer(), dbos_system_schema=schema
    )
