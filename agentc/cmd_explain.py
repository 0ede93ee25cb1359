"""`agentc explain FILE` / `agentc explain --diff OLD NEW`: the decision map of an agent.

For every seat of create_agent: the question, who holds it in this agent, and the line of the
`.agent` file that makes it so (agentc/review/). `--diff` lists, between two versions of a
file, the seats whose holder moved, those whose answer changed, a word diff of every text
that steers the model and every setting that changed (its own and its sub-agents');
`--exit-code` exits 1 when anything that changes behaviour changed (for CI), and 0 when only
comments or layout did. Exit codes as in cli.py.

Input: one `.agent` file, or `--diff OLD NEW`. Output: the decision map (text, Markdown or
JSON) or its diff on stdout. Invariants: OLD's graph is matched to NEW's by name, so a
renamed agent is still compared with itself; nothing is run.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from . import ir


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
        "--all",
        action="store_true",
        help="list every seat of create_agent, not only those this file changes "
        "(JSON always has every seat)",
    )
    parser.add_argument(
        "--diff",
        nargs=2,
        metavar=("OLD", "NEW"),
        help="compare two versions: seats that moved holder or changed answer, a word diff "
        "of every text the model reads (prompts, tool descriptions, schema and middleware "
        "texts), and every setting",
    )
    parser.add_argument(
        "--exit-code",
        action="store_true",
        help="with --diff: exit 1 when the two versions behave differently (any seat, text "
        "or setting changed; comments and layout do not count)",
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
    from .cmd_graph import load_program, select_graph

    program, code = load_program(args.files[0])
    if program is None:
        return code
    graph = select_graph(program, args.agent, args.files[0], EXPLAINING)
    if graph is None:
        return 2
    dmap = review.decision_map(graph, program=program)  # the program: sub-agents, schemas
    if args.format == "json":
        print(json.dumps(review.to_json(dmap), indent=2, ensure_ascii=False))
    elif args.format == "markdown":
        sys.stdout.write(review.render_markdown(dmap, full=args.all))
    else:
        sys.stdout.write(review.render_text(dmap, full=args.all))
    return 0


def _run_diff(args: argparse.Namespace) -> int:
    from .cmd_graph import load_program, select_graph

    old_path, new_path = args.diff
    new_program, code = load_program(new_path)
    if new_program is None:
        return code
    new_graph = select_graph(new_program, args.agent, new_path, EXPLAINING)
    if new_graph is None:
        return 2
    old_program, old_graph, code = _old_graph(old_path, args.agent, new_graph.name)
    if old_program is None or old_graph is None:
        return code
    # The programs come along: schemas and sub-agents (agents used as tools) live there.
    from .review.compare import render_review, review_diff, review_json

    found = review_diff(old_graph, new_graph, old_program, new_program)
    if args.format == "json":
        print(json.dumps(review_json(found), indent=2, ensure_ascii=False))
    else:
        sys.stdout.write(render_review(found))
    return 1 if args.exit_code and found.behaviour_changed else 0


def _old_graph(
    path: str, asked: str | None, new_name: str
) -> tuple[ir.Program | None, ir.Graph | None, int]:
    """OLD's program and graph: the one asked for, else the one named as NEW's, else OLD's
    own choice by `agentc run`'s rule (a renamed agent is still the same agent under review)."""
    from .cmd_graph import load_program, select_graph

    program, code = load_program(path)
    if program is None:
        return None, None, code
    names = {g.name for g in program.graphs}
    name = asked or (new_name if new_name in names else None)
    graph = select_graph(program, name, path)
    return program, graph, (0 if graph is not None else 2)
