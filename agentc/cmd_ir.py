"""`agentc ir FILE`: the compiled IR as JSON (the contract the runtime executes).

Input: an `.agent` file, optionally `--graph NAME`. Output: `Program.model_dump_json()` (or
one graph's) on stdout, exit 0; the diagnostics on stderr and exit 1 when the file does not
compile or names no such graph; exit 2 when it cannot be read. Invariants: the output is the
IR's golden form, deterministic for a given file.
"""

from __future__ import annotations

import argparse
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="an .agent file")
    parser.add_argument("--graph", help="print only this graph (agent or graph block)")
    parser.add_argument("--indent", type=int, default=2)


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from .cmd_check import read_text
    from .compiler.pipeline import compile_source
    from .dsl import report

    text = read_text(args.file)
    if text is None:
        return 2
    result = compile_source(text, args.file, base_dir=str(Path(args.file).resolve().parent))
    if result.program is None:
        print(report.render_human(result.diagnostics, result.sources, color=False), file=sys.stderr)
        return 1
    if args.graph is None:
        print(result.program.model_dump_json(indent=args.indent))
        return 0
    try:
        print(result.program.graph(args.graph).model_dump_json(indent=args.indent))
    except KeyError:
        names = ", ".join(g.name for g in result.program.graphs) or "none"
        print(
            f"error: no graph named `{args.graph}` in {args.file} (it has: {names})",
            file=sys.stderr,
        )
        return 1
    return 0
