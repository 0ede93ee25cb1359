"""`agentc worker FILE… --db URL`: execute the runs `agentc serve` queues, as durable
workflows on PostgreSQL (DBOS), beside any number of other workers and API processes.

Input: the same `.agent` files the API processes serve, and their `postgresql://`
database. Output: none on stdout; one line on stderr when it starts; it runs until
SIGTERM or Ctrl-C. Exit codes: 0 when stopped, 1 a file does not compile, 2 usage errors
(an unreadable file, a `--db` that is not PostgreSQL or does not answer, dbos or psycopg
missing). Invariants: the connection string is shown with its password as `***`; a
worker killed at any moment loses no finished task: another worker recovers its runs
once its heartbeat has lapsed (`--heartbeat` × `LAPSE_BEATS`); a worker that
`agentc serve --workers` started leaves when that server is gone, however it ended.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from .api import LoadError
from .dotenv import load_and_say
from .runner.errors import UsageError
from .runner.inputs import readable
from .runtime.errors import AgentcRuntimeError

if TYPE_CHECKING:
    from .server.worker import Worker

LAPSE_BEATS = 5
DB_ENV = "AGENTC_DB"
PARENT_ENV = "AGENTC_SERVE_PID"  # set by `agentc serve --workers`: the worker leaves with it
PARENT_CHECK_S = 1.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", help="the .agent files served")
    parser.add_argument(
        "--db",
        metavar="URL",
        default=os.environ.get(DB_ENV),
        help=f"the servers' database: postgresql://… (default ${DB_ENV})",
    )
    parser.add_argument(
        "--concurrency",
        metavar="N",
        type=int,
        default=32,
        help="runs this worker executes at once (default 32)",
    )
    parser.add_argument(
        "--heartbeat",
        metavar="SECONDS",
        type=float,
        default=1.0,
        help=f"how often it tells the others it is alive (default 1); a worker silent for "
        f"{LAPSE_BEATS} heartbeats is taken as dead and its runs go to a live one",
    )
    parser.add_argument(
        "--verbose",
        action="store_true",
        help="log what the worker does (runs it resumes, workers it takes over from)",
    )


def run(args: argparse.Namespace) -> int:
    try:
        from .server.assistants import Registry
        from .server.backends import open_backends, redacted
        from .server.repo_pg import PostgresRepository
        from .server.worker import Worker, WorkerOptions
    except ImportError as exc:
        print(
            f"error: agentc worker needs the durable-run packages ({exc.name} is missing); "
            "install them with: pip install 'agentc[serve,postgres,dbos]'",
            file=sys.stderr,
        )
        return 2
    if args.concurrency < 1 or args.heartbeat <= 0:
        print("error: --concurrency and --heartbeat must be above 0", file=sys.stderr)
        return 2
    try:
        for file in args.files:
            readable("the .agent file", file)
        if not args.db:
            raise UsageError(f"say which database: --db postgresql://… (or ${DB_ENV})")
        if not args.db.startswith(("postgresql://", "postgres://")):
            raise UsageError(f"--db {redacted(args.db)}: a worker needs postgresql://…")
        backends = open_backends(args.db)
    except UsageError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except AgentcRuntimeError as exc:
        print(f"error: --db: {exc.message}", file=sys.stderr)
        return 2
    for file in args.files:
        load_and_say(file, args.verbose)
    try:
        registry = Registry(list(args.files), backends)
    except LoadError as exc:
        backends.close()
        print(exc, file=sys.stderr)
        return 1
    assert isinstance(backends.repo, PostgresRepository)  # open_backends of postgresql://
    lapse = args.heartbeat * LAPSE_BEATS
    options = WorkerOptions(args.db, args.concurrency, args.heartbeat, lapse, args.verbose)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING)
    worker = Worker(registry, backends.repo, options)
    return _serve(worker, backends.where, backends.close)


def _serve(worker: Worker, where: str, close: Callable[[], None]) -> int:
    """Take runs until SIGTERM or Ctrl-C, then leave; the runs in flight are taken over by
    another worker (at its next heartbeat), from their last saved tasks, as after a crash."""
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    _leave_with_parent(stop)
    worker.launch()
    print(f"worker {worker.executor_id} taking runs from {where}", file=sys.stderr, flush=True)
    try:
        stop.wait()
    finally:
        worker.stop()
        close()
    # at once, as a crash would: a tool still running in a thread must not finish a
    # superstep that the worker taking the run over is running again
    sys.stderr.flush()
    os._exit(0)


def _leave_with_parent(stop: threading.Event) -> None:
    """A worker started by `agentc serve --workers` stops as after SIGTERM once that server
    has gone, even killed with -9 (it is then no longer the worker's parent): no worker
    outlives its server."""
    parent = os.environ.get(PARENT_ENV, "")
    if not parent.isdigit():
        return

    def watch() -> None:
        while os.getppid() == int(parent):
            if stop.wait(PARENT_CHECK_S):
                return
        stop.set()

    threading.Thread(target=watch, name="agentc-parent", daemon=True).start()
