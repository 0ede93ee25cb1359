"""`agentc graph FILE`: draw the compiled graph (mermaid, dot, svg, png, html).

Text formats (mermaid, dot) go to stdout unless `-o` names a file; binary ones (svg, png)
and the html page go to `-o`, or to `<graph>.<format>` beside the working directory. SVG,
PNG and the html page need Graphviz's `dot`; without it the command says which package
installs it (exit 2) and mermaid/dot text still work. Exit codes as in cli.py.

Input: an `.agent` file and the drawing options. Output: the diagram's bytes on stdout or in
a file; an agent used as a tool is drawn as a sub-agent node beside the tools node that
runs it, and `--expand` (`--xray`) draws subgraph, agent and sub-agent nodes as clusters
of their child's nodes. Invariants: drawings are deterministic (the IR's order); `load_program`,
`select_graph` and `load_graph` are shared with `agentc explain`, and print why before
returning None.
"""

from __future__ import annotations

import argparse
import enum
import sys
from collections.abc import Mapping
from pathlib import Path

from . import ir


class Format(str, enum.Enum):
    MERMAID = "mermaid"
    DOT = "dot"
    SVG = "svg"
    PNG = "png"
    HTML = "html"


TEXT_FORMATS = (Format.MERMAID, Format.DOT)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="an .agent file")
    parser.add_argument(
        "--agent",
        "--graph",
        dest="agent",
        metavar="NAME",
        help="the agent or graph block to draw (default: the only one, else the one no other uses)",
    )
    parser.add_argument(
        "--format",
        "-f",
        choices=[f.value for f in Format],
        default=Format.MERMAID.value,
        help="mermaid (default, as LangGraph's draw_mermaid), dot, svg, png, "
        "or html (one self-contained page: diagram and decision map)",
    )
    parser.add_argument(
        "-o",
        "--output",
        metavar="PATH",
        help="write here (default: stdout for mermaid/dot, <graph>.<format> otherwise)",
    )
    parser.add_argument(
        "--no-legend",
        action="store_true",
        help="leave out the legend (limits, checkpointer, interrupts)",
    )
    parser.add_argument(
        "--expand",
        "--xray",
        dest="expand",
        action="store_true",
        help="draw subgraph, agent and sub-agent nodes as a cluster of the child's own nodes "
        "(as LangGraph's get_graph(xray=True)); collapsed by default",
    )


# ---------------------------------------------------------------- loading (shared with explain)


def load_program(path: str) -> tuple[ir.Program | None, int]:
    """The compiled program, or None and an exit code after printing why."""
    from .cmd_check import read_text
    from .compiler.pipeline import compile_source
    from .dsl import report

    text = read_text(path)
    if text is None:
        return None, 2
    result = compile_source(text, path, base_dir=str(Path(path).resolve().parent))
    if result.program is None:
        print(
            report.render_human(result.diagnostics, result.sources, color=False).rstrip("\n"),
            file=sys.stderr,
        )
        return None, 1
    return result.program, 0


def select_graph(
    program: ir.Program, name: str | None, path: str, doing: tuple[str, str] | None = None
) -> ir.Graph | None:
    """The graph named `name`, else `agentc run`'s choice (`api.choose_graph`: the only one,
    else the one no other uses, said on stderr as `doing`, e.g. ("drawing", "draw"), when
    given); None after printing why (a usage error: the names, and `--agent NAME`)."""
    from .api import PickError, choose_graph

    if name is not None:
        return _named(program, name, path)
    try:
        choice = choose_graph(program, None, path, doing[1] if doing else "draw")
    except PickError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return None
    note = choice.note(*doing) if doing else None
    if note:
        print(note, file=sys.stderr)
    return choice.graph


def _named(program: ir.Program, name: str, path: str) -> ir.Graph | None:
    """`--agent NAME`: that graph (a used file's too, by its qualified name)."""
    from .dsl.suggest import suggest

    try:
        return program.graph(name)
    except KeyError:
        names = [g.name for g in program.graphs]
        near = suggest(name, names)
        guess = f"; did you mean `{near}`?" if near else ""
        listed = ", ".join(f"`{n}`" for n in names)
        print(
            f"error: no agent or graph named `{name}` in {path} (it has: {listed}){guess}",
            file=sys.stderr,
        )
        return None


def load_graph(
    path: str, name: str | None, doing: tuple[str, str] | None = None
) -> tuple[ir.Graph | None, int]:
    program, code = load_program(path)
    if program is None:
        return None, code
    graph = select_graph(program, name, path, doing)
    return graph, (0 if graph is not None else 2)


# ---------------------------------------------------------------- drawing


def draw(
    graph: ir.Graph,
    fmt: Format,
    legend: bool = True,
    expand: Mapping[str, ir.Graph] | None = None,
    graphs: Mapping[str, ir.Graph] | None = None,
    program: ir.Program | None = None,
) -> bytes:
    """The diagram in `fmt`: sub-agents described from `graphs` (the program's graphs by
    name), and subgraph, agent and sub-agent nodes expanded from `expand` (the same
    mapping, `--xray`) when given; raises render.DotNotFound for svg/png/html without
    `dot`."""
    from .compiler import render

    d = render.diagram(graph, expand=expand, graphs=graphs)
    if fmt is Format.MERMAID:
        return render.to_mermaid(d, legend=legend).encode("utf-8")
    dot_text = render.to_dot(d, legend=legend)
    if fmt is Format.DOT:
        return dot_text.encode("utf-8")
    if fmt is Format.HTML:
        from .review.html import page

        svg = render.render_dot(dot_text, render.BinaryFormat.SVG).decode("utf-8")
        return page(graph, svg, program).encode("utf-8")  # schemas, sub-agents: the program
    return render.render_dot(dot_text, render.BinaryFormat(fmt.value))


def output_path(args: argparse.Namespace, graph: ir.Graph, fmt: Format) -> str | None:
    """Where to write: `-o`, stdout (None) for text formats, else `<graph>.<format>`."""
    if args.output and args.output != "-":
        return args.output
    if fmt in TEXT_FORMATS or args.output == "-":
        return None
    return f"{graph.name}.{fmt.value}"


def run(args: argparse.Namespace) -> int:
    from .compiler.render import DotNotFound

    fmt = Format(args.format)
    program, code = load_program(args.file)
    if program is None:
        return code
    graph = select_graph(program, args.agent, args.file, ("drawing", "draw"))
    if graph is None:
        return 2
    graphs = {g.name: g for g in program.graphs}
    try:
        data = draw(
            graph,
            fmt,
            legend=not args.no_legend,
            expand=graphs if args.expand else None,
            graphs=graphs,
            program=program,
        )
    except DotNotFound as exc:
        print(f"error: cannot draw {fmt.value}: {exc}", file=sys.stderr)
        return 2
    target = output_path(args, graph, fmt)
    if target is None:
        sys.stdout.buffer.write(data) if fmt not in TEXT_FORMATS else sys.stdout.write(
            data.decode("utf-8")
        )
        return 0
    try:
        Path(target).write_bytes(data)
    except OSError as exc:
        print(f"error: cannot write `{target}`: {exc.strerror or exc}", file=sys.stderr)
        return 2
    print(f"wrote {target}", file=sys.stderr)
    return 0
