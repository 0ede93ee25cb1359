"""`agentc new NAME [--template agent|graph|supervisor|review] [--dir PATH]`: a ready project.

Input: the project's name, its template (default: agent) and its folder (default: ./NAME).
Output: the files written (the `.agent` file, `tools.py`, `NAME.test.agent`,
`.env.example`, a README.md section), listed with what to run next. Exit 0 when written,
2 when the name, the template or an existing file stops it (nothing is written then).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .scaffold import TEMPLATES, ScaffoldError, plan, write


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("name", metavar="NAME", help="the project's name (the agent's name too)")
    parser.add_argument(
        "--template",
        default="agent",
        choices=list(TEMPLATES),
        help="what to start from (default: agent)",
    )
    parser.add_argument("--dir", metavar="PATH", help="the folder to write into (default: ./NAME)")


def run(args: argparse.Namespace) -> int:
    folder = Path(args.dir) if args.dir else Path(args.name)
    try:
        files = plan(args.name, args.template, folder)
        write(files)
    except ScaffoldError as exc:
        print(f"agentc new: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"agentc new: cannot write into {folder}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    for f in files:
        print(f"{'added to' if f.append else 'wrote'} {f.path}")
    agent = folder / f"{args.name}.agent"
    print(f"next: cd {folder} && agentc test && agentc run {agent.name}")
    return 0
