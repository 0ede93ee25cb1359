"""`agentc serve FILE…`: serve the files' agents and graphs over HTTP with the LangGraph
Agent Server API, so `langgraph-sdk`, Agent Chat UI and LangGraph Studio work against them.

Input: `.agent` files and the options below. Output: a server on `--host`:`--port`
(127.0.0.1:2024 unless told otherwise) until Ctrl-C; on start, one line per assistant
and where threads are kept. Exit codes: 0 after Ctrl-C, 1 a file does not compile, 2
usage errors (an unreadable file, a bad `--db`, the port taken, the HTTP packages
missing). Invariants: the API key (`--api-key` or `AGENTC_API_KEY`) is never printed;
a server reachable from other machines without a key is warned about.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from typing import TYPE_CHECKING

from .api import LoadError
from .dotenv import load_and_say
from .runner.errors import UsageError
from .runner.inputs import readable
from .runtime.errors import AgentcRuntimeError

if TYPE_CHECKING:
    from .server import Server

KEY_ENV = "AGENTC_API_KEY"
LOOPBACK = ("127.0.0.1", "localhost", "::1")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", help="the .agent files to serve")
    parser.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)"
    )
    parser.add_argument("--port", type=int, default=2024, help="port to listen on (default 2024)")
    parser.add_argument(
        "--db",
        metavar="URL",
        default=None,
        help="where threads, runs and the store are kept: sqlite:///PATH (default "
        "sqlite:///.agentc/serve.db), postgresql://… or memory:// (forgotten at exit)",
    )
    parser.add_argument(
        "--api-key",
        metavar="KEY",
        default=None,
        help=f"require this key (x-api-key or Authorization: Bearer); default ${KEY_ENV}",
    )
    parser.add_argument(
        "--cors-origin",
        metavar="ORIGIN",
        nargs="+",
        default=[],
        help="let web pages from these origins call the server (e.g. http://localhost:3000)",
    )
    parser.add_argument(
        "--max-body",
        metavar="BYTES",
        type=int,
        default=None,
        help="largest request body (default 10 MiB)",
    )
    parser.add_argument(
        "--workers",
        metavar="N",
        type=int,
        default=0,
        help="start N `agentc worker` processes and run every run there, as a durable "
        "workflow (needs a postgresql:// --db and the dbos package); default 0",
    )
    parser.add_argument(
        "--durable",
        action="store_true",
        help="run every run in `agentc worker` processes started separately on the same "
        "--db, as --workers does, so this process holds no run state",
    )
    parser.add_argument("--verbose", action="store_true", help="log every request")


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from .server import ServeOptions, build
        from .server.app import DEFAULT_MAX_BODY, KEEP_ALIVE_S
        from .server.backends import DEFAULT_DB, DatabaseUrlError
    except ImportError as exc:
        print(
            f"error: agentc serve needs the HTTP packages ({exc.name} is missing); "
            "install them with: pip install 'agentc[serve]'",
            file=sys.stderr,
        )
        return 2
    try:
        for file in args.files:
            readable("the .agent file", file)
    except UsageError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for file in args.files:
        load_and_say(file, args.verbose)
    if args.max_body is not None and args.max_body < 1:
        print("error: --max-body is a number of bytes, at least 1", file=sys.stderr)
        return 2
    if args.workers < 0:
        print("error: --workers is a number of processes, 0 or more", file=sys.stderr)
        return 2
    key = args.api_key or os.environ.get(KEY_ENV) or None
    options = ServeOptions(
        tuple(args.files),
        db=args.db or DEFAULT_DB,
        api_key=key,
        cors_origins=tuple(args.cors_origin),
        max_body=args.max_body or DEFAULT_MAX_BODY,
        workers=args.workers,
        durable=args.durable,
    )
    try:
        server = build(options)
    except LoadError as exc:
        print(exc, file=sys.stderr)
        return 1
    except (DatabaseUrlError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except AgentcRuntimeError as exc:  # the database does not answer, psycopg is missing
        print(f"error: --db: {exc.message}" + (f"\n  = help: {exc.help}" if exc.help else ""),
              file=sys.stderr)  # fmt: skip
        return 2
    _say_started(server, args, key is not None)
    config = uvicorn.Config(
        server.app,
        host=args.host,
        port=args.port,
        log_level="info" if args.verbose else "warning",
        access_log=args.verbose,
        lifespan="on",
        timeout_keep_alive=KEEP_ALIVE_S,
    )
    workers = _start_workers(args.files, options.db, args.workers)
    try:
        uvicorn.Server(config).run()
    except (OSError, SystemExit) as exc:
        print(f"error: cannot listen on {args.host}:{args.port} ({exc})", file=sys.stderr)
        return 2
    finally:
        _stop_workers(workers)
    return 0


def _start_workers(files: list[str], db: str, n: int) -> list[subprocess.Popen[bytes]]:
    """`agentc worker` processes on the same files and database (the URL goes by the
    environment, not the command line, where `ps` would show its password); each leaves
    when this process is gone, even after a kill -9 that gives it no time to stop them."""
    env = {**os.environ, "AGENTC_DB": db, "AGENTC_SERVE_PID": str(os.getpid())}
    cmd = [sys.executable, "-m", "agentc", "worker", *files]
    return [subprocess.Popen(cmd, env=env) for _ in range(n)]


def _stop_workers(workers: list[subprocess.Popen[bytes]]) -> None:
    for proc in workers:
        proc.terminate()
    for proc in workers:
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()


def _say_started(server: Server, args: argparse.Namespace, has_key: bool) -> None:
    for a in server.context.registry.all():
        print(f"serving {a.graph_id} (assistant id {a.assistant_id})", file=sys.stderr)
    print(f"threads and runs kept in {server.backends.where}", file=sys.stderr)
    print(f"listening on http://{args.host}:{args.port} (Ctrl-C stops)", file=sys.stderr)
    if args.host not in LOOPBACK and not has_key:
        print(
            f"warning: listening on {args.host} without an API key: anyone who can reach "
            f"this address can run these agents; set --api-key or ${KEY_ENV}",
            file=sys.stderr,
        )
