"""`agentc studio FILE…`: serve the files as `agentc serve` does and open the studio page
on them — the graph with the running node lit, a chat on a thread, each step's state and
what it changed, forks and edits from any checkpoint, human reviews answered in the page.

Input: `.agent` files, `--host`, `--port` (2025), `--db`. Output: the server (with the
page at `/studio/`) until Ctrl-C, after one line with the page's address. Exit codes are
`agentc serve`'s. Invariants: the page is served by the same app `agentc serve` builds,
so what it shows is what any client of that API sees; 127.0.0.1 unless `--host` says
otherwise.
"""

from __future__ import annotations

import argparse
import sys

from . import cmd_serve

DEFAULT_PORT = 2025  # one above `agentc serve`'s, so both can run side by side


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", help="the .agent files to open")
    parser.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)"
    )
    parser.add_argument(
        "--port", type=int, default=DEFAULT_PORT, help=f"port to listen on (default {DEFAULT_PORT})"
    )
    parser.add_argument(
        "--db",
        metavar="URL",
        default=None,
        help="where threads and runs are kept: sqlite:///PATH (default "
        "sqlite:///.agentc/serve.db) or memory:// (forgotten at exit)",
    )
    parser.add_argument("--verbose", action="store_true", help="log every request")


def run(args: argparse.Namespace) -> int:
    serve_args = argparse.Namespace(
        files=args.files,
        host=args.host,
        port=args.port,
        db=args.db,
        api_key=None,  # the page cannot send a key yet: a studio is for this machine
        cors_origin=[],
        max_body=None,
        verbose=args.verbose,
        workers=0,  # runs in this process: the page's traces are of this process's runs
        durable=False,
    )
    shown = "127.0.0.1" if args.host in ("0.0.0.0", "::") else args.host
    print(f"studio page: http://{shown}:{args.port}/studio/", file=sys.stderr)
    return cmd_serve.run(serve_args)
