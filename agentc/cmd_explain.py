"""`agentc explain FILE` / `agentc explain --diff OLD NEW`: the decision map of an agent.

For every seat of create_agent: the question, who holds it in this agent, and the line of the
`.agent` file that makes it so (agentc/review/). `--diff` lists the seats whose holder
moved, then those whose answer changed, between two versions of a file; `--exit-code`
makes a moved holder exit 1 (for CI). Exit codes as in cli.py.

Input: one `.agent` file, or `--diff OLD NEW`. Output: the decision map (text, Markdown or
JSON) or its diff on stdout. Invariants: OLD's graph is matched to NEW's by name, so a
renamed agent is still compared with itself; nothing is run.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="*", metavar="FILE", help="an .agent file")
    parser.add_argument(
        "--agent",
        "--graph",
        dest="agent",
        metavar="NAME",
        help="the agent or graph block (default: the only one, else the one no other uses)",
    )
    parser.add_argument("--format", "-f", choices=("text", "json", "markdown"), default="text")
    parser.add_argument(
        "--diff",
        nargs=2,
        metavar=("OLD", "NEW"),
        help="show the seats that moved holder between two files",
    )
    parser.add_argument(
        "--exit-code", action="store_true", help="with --diff: exit 1 when some seat moved holder"
    )


EXPLAINING = ("explaining", "explain")  # the stderr note when the graph was chosen for you


def run(args: argparse.Namespace) -> int:
    if args.diff:
        if args.files:
            print("error: give either FILE or --diff OLD NEW, not both", file=sys.stderr)
            return 2
        return _run_diff(args)
    if len(args.files) != 1:
        print("error: give one .agent file (or --diff OLD NEW)", file=sys.stderr)
        return 2
    return _run_one(args)


def _run_one(args: argparse.Namespace) -> int:
    from . import review
    from .cmd_graph import load_graph

    graph, code = load_graph(args.files[0], args.agent, EXPLAINING)
    if graph is None:
        return code
    dmap = review.decision_map(graph)
    if args.format == "json":
        print(json.dumps(review.to_json(dmap), indent=2, ensure_ascii=False))
    elif args.format == "markdown":
        sys.stdout.write(review.render_markdown(dmap))
    else:
        sys.stdout.write(review.render_text(dmap))
    return 0


def _run_diff(args: argparse.Namespace) -> int:
    from . import review
    from .cmd_graph import load_graph

    old_path, new_path = args.diff
    new_graph, code = load_graph(new_path, args.agent, EXPLAINING)
    if new_graph is None:
        return code
    old_graph, code = _old_graph(old_path, args.agent, new_graph.name)
    if old_graph is None:
        return code
    old, new = review.decision_map(old_graph), review.decision_map(new_graph)
    changes = review.diff(old, new)
    if args.format == "json":
        print(json.dumps(review.diff_json(old, new, changes), indent=2, ensure_ascii=False))
    else:
        sys.stdout.write(review.render_diff(old, new, changes))
    return 1 if args.exit_code and any(c.moved for c in changes) else 0


def _old_graph(path: str, asked: str | None, new_name: str) -> tuple[Any, int]:
    """OLD's graph: the one asked for, else the one named as NEW's, else OLD's own choice
    by `agentc run`'s rule (a renamed agent is still the same agent under review)."""
    from .cmd_graph import load_program, select_graph

    program, code = load_program(path)
    if program is None:
        return None, code
    names = {g.name for g in program.graphs}
    name = asked or (new_name if new_name in names else None)
    graph = select_graph(program, name, path)
    return graph, (0 if graph is not None else 2)
