"""`agentc lsp`: run the language server on stdin/stdout for an editor.

Input: none on the command line (`--stdio` is accepted, as editors' clients pass it); the
LSP session on stdin. Output: LSP messages on stdout; exit 0 when the client shuts the
server down, 2 when the server's optional dependencies (pygls, lsprotocol) are missing.
Invariant: the command line `agentc lsp` stays stable: editor extensions start it as is.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--stdio", action="store_true", help="speak LSP on stdin/stdout (the default and only way)"
    )


def run(args: argparse.Namespace) -> int:
    missing = [m for m in ("pygls", "lsprotocol") if importlib.util.find_spec(m) is None]
    if missing:
        print(
            f"error: the language server needs {' and '.join(missing)}: "
            "install them with `pip install 'agentc[lsp]'`",
            file=sys.stderr,
        )
        return 2
    from .lsp.server import serve

    serve()
    return 0
