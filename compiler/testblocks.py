"""Checks of `test` blocks (`agentc test`) against the program they test.

Input: a file's `test` blocks (`ast.Module.tests`) and the `ir.Program` of the tested file
(`NAME.test.agent` tests `NAME.agent`; any other file tests itself). Output: diagnostics:
an agent the file does not declare, a tool, node or state channel an expectation names
that the agent does not have, and every statement the test block does not know.
Invariants: test blocks are never lowered (the IR of the tested file is the same with or
without tests); this module only reads the AST and the IR, and names the vocabulary
`agentc.agenttest` runs with.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import agentc.ir as ir

from ..dsl import ast
from ..dsl.astclass import Record, record
from ..dsl.codes import Code
from ..dsl.diagnostics import Diagnostic, error, warning
from ..dsl.source import SourceFile
from .models import resolve_model
from .suggest import did_you_mean

TEST_SUFFIX = ".test.agent"
SUBJECTS = ("answer", "tools", "tool", "route", "state", "output", "interrupt", "usage")
MATCHERS = ("contains", "matches", "at_most", "at_least")
DECISIONS = ("approve", "edit", "reject", "respond", "resume")
USAGE_KEYS = (
    "model_calls",
    "tool_calls",
    "input_tokens",
    "output_tokens",
    "total_tokens",
    "steps",
)
HIDDEN_CHANNELS = ("jump_to", "remaining_steps")


def tested_path(path: Path) -> Path | None:
    """The file a test file tests: `x.test.agent` → `x.agent`; None: the file itself."""
    if path.name.endswith(TEST_SUFFIX):
        return path.with_name(path.name[: -len(TEST_SUFFIX)] + ".agent")
    return None


def missing_target(source: SourceFile, target: Path, why: str) -> Diagnostic:
    return error(
        Code.BAD_TEST,
        f"`{target.name}`, the file these tests test, {why}",
        source.span(0, 0),
        "tests of that file",
        help=f"run `agentc check {target.name}`",
    )


@record
class Facts(Record):
    """What an expectation of one graph may name (None: not known before the run)."""

    graph: ir.Graph
    tools: frozenset[str] | None
    nodes: frozenset[str]
    channels: frozenset[str]
    models: frozenset[str]  # the graph's model nodes
    inputs: frozenset[str]  # the channels a run's input may set


def facts(graph: ir.Graph) -> Facts:
    tools: set[str] = set()
    known = graph.agent is not None and not graph.agent.mcp_tools
    if graph.agent is not None:
        tools.update(t.name for t in graph.agent.tools)
        if graph.agent.output is not None:
            tools.update(graph.agent.output.schemas)
    for node in graph.nodes:
        listed = node.config.get("tools")
        if isinstance(listed, list):
            known = True
            tools.update(t["name"] for t in listed if isinstance(t, dict) and "name" in t)
    return Facts(
        graph,
        frozenset(tools) if known else None,
        frozenset(n.name for n in graph.nodes),
        frozenset(c.name for c in graph.state if c.name not in HIDDEN_CHANNELS),
        frozenset(
            n.name for n in graph.nodes if n.kind is ir.NodeKind.MODEL and graph.agent is None
        ),
        frozenset(c.name for c in graph.state if c.input and c.name not in HIDDEN_CHANNELS),
    )


def check_tests(
    tests: tuple[ast.TestDecl, ...], program: ir.Program, tested: str
) -> Iterator[Diagnostic]:
    """Every problem of every test block; `tested` names the tested file in messages."""
    for test in tests:
        yield from check_test(test, program, tested)


def check_test(test: ast.TestDecl, program: ir.Program, tested: str) -> Iterator[Diagnostic]:
    yield from _order(test)
    graph = None
    agent = next((s for s in test.body if isinstance(s, ast.TestAgent)), None)
    if agent is not None:
        graph = _graph(program, agent.name.text)
        if graph is None:
            yield _unknown_agent(agent, program, tested)
    else:
        local = [g for g in program.graphs if "." not in g.name]
        graph = local[0] if len(local) == 1 else None
    known = facts(graph) if graph is not None else None
    for stmt in test.body:
        yield from _statement(stmt, known)


def _graph(program: ir.Program, name: str) -> ir.Graph | None:
    return next((g for g in program.graphs if g.name == name), None)


def _unknown_agent(stmt: ast.TestAgent, program: ir.Program, tested: str) -> Diagnostic:
    names = [g.name for g in program.graphs]
    return error(
        Code.UNKNOWN_NAME,
        f"`{stmt.name.text}` is not an agent or graph of `{tested}`",
        stmt.name.span,
        "no such agent",
        help=did_you_mean(stmt.name.text, names)
        or f"name one of: {', '.join(names) or 'none (it declares no agent)'}",
    )


def _order(test: ast.TestDecl) -> Iterator[Diagnostic]:
    """Setup (`agent`, `model`, `replay`) once each, before the first `input`; an input."""
    started = False
    has_input = any(isinstance(s, ast.TestInput) for s in test.body)
    seen: set[tuple[str, str]] = set()
    for stmt in test.body:
        if isinstance(stmt, ast.TestInput):
            started = True
        elif isinstance(stmt, (ast.TestAgent, ast.TestModel, ast.TestReplay)):
            kind = _setup_key(stmt)
            if started:
                yield _bad(stmt.span, "a test's setup comes before its first `input`", "too late")
            elif kind in seen:
                yield _bad(stmt.span, "a test sets this up twice", "set up again here")
            seen.add(kind)
        elif not started and has_input:
            yield _bad(stmt.span, "nothing has run yet: put an `input` first", "before any input")
    if not has_input:
        yield _bad(
            test.name.span,
            f"test `{test.name.value}` never runs the agent",
            "no `input`",
            help='add a turn such as `input "hello"`',
        )
    elif not any(isinstance(s, ast.TestExpect) for s in test.body):
        yield warning(
            Code.BAD_TEST,
            f"test `{test.name.value}` expects nothing, so it cannot fail",
            test.name.span,
            "no `expect`",
            help='add an expectation such as `expect answer contains("…")`',
        )


def _setup_key(stmt: ast.TestAgent | ast.TestModel | ast.TestReplay) -> tuple[str, str]:
    """What a setup statement sets: the agent, or the model of the graph or of one node."""
    if isinstance(stmt, ast.TestAgent):
        return ("agent", "")
    if isinstance(stmt, ast.TestModel) and stmt.node is not None:
        return ("model", stmt.node.text)
    return ("model", "")


def _bad(span: ast.Span, message: str, label: str, help: str | None = None) -> Diagnostic:
    return error(Code.BAD_TEST, message, span, label, help=help)


def _statement(stmt: ast.TestStmt, known: Facts | None) -> Iterator[Diagnostic]:
    if isinstance(stmt, ast.TestModel):
        found = resolve_model(stmt.spec.value, stmt.spec.span)
        if isinstance(found, Diagnostic):
            yield found
        if stmt.node is not None and known is not None and stmt.node.text not in known.models:
            yield error(
                Code.UNKNOWN_NODE,
                f"`{stmt.node.text}` is not a model node of `{known.graph.name}`",
                stmt.node.span,
                "no such model node",
                help=did_you_mean(stmt.node.text, sorted(known.models))
                or "leave the node out to set the graph's model",
            )
    elif isinstance(stmt, ast.TestInput) and known is not None:
        yield from _input(stmt, known)
    elif isinstance(stmt, ast.TestDecide):
        yield from _decision(stmt.decision)
    elif isinstance(stmt, ast.TestExpect):
        yield from _expect(stmt, known)


def _input(stmt: ast.TestInput, known: Facts) -> Iterator[Diagnostic]:
    value = stmt.value
    if isinstance(value, ast.MapLit):
        keys = [e.key for e in value.entries]
        yield from _names(keys, known.inputs, Code.UNKNOWN_FIELD, "input channel", known.graph.name)
    elif not isinstance(value, ast.StringLit):
        yield _bad(value.span, "an input is a message (text) or a map of channels", "not an input")
    elif "messages" not in known.inputs:
        yield _bad(
            value.span,
            f"`{known.graph.name}` has no `messages`, so it takes no message",
            "a message",
            help=f"give its input channels: input {{ {', '.join(sorted(known.inputs))} }}",
        )


def _decision(value: ast.Expr) -> Iterator[Diagnostic]:
    word = _callee(value)
    if word not in DECISIONS:
        yield _bad(
            value.span,
            "a decision is approve, edit(…), reject, respond(…) or resume(…)",
            "not a decision",
            help=did_you_mean(word or "", DECISIONS) or "e.g. `decide approve`",
        )
    elif word in ("edit", "respond", "resume") and not isinstance(value, ast.Call):
        yield _bad(value.span, f"`{word}` needs its value: `{word}(…)`", "missing value")


def _callee(value: ast.Expr) -> str | None:
    if isinstance(value, ast.Ref):
        return value.dotted
    if isinstance(value, ast.Call):
        return value.callee.dotted
    return None


def _expect(stmt: ast.TestExpect, known: Facts | None) -> Iterator[Diagnostic]:
    subject, value = stmt.subject.text, stmt.value
    if subject not in SUBJECTS:
        yield _bad(
            stmt.subject.span,
            f"`expect {subject}` is not something a test can check",
            "unknown expectation",
            help=did_you_mean(subject, SUBJECTS) or f"expect one of: {', '.join(SUBJECTS)}",
        )
        return
    yield from _matchers(value, subject)
    if known is None:
        return
    if subject in ("tools", "tool", "interrupt"):
        yield from _names(
            _tool_names(value, subject), known.tools, Code.UNKNOWN_TOOL, "tool", known.graph.name
        )
    elif subject == "route":
        yield from _names(_listed(value), known.nodes, Code.UNKNOWN_NODE, "node", known.graph.name)
    elif subject == "state" and isinstance(value, ast.MapLit):
        keys = [e.key for e in value.entries if isinstance(e.key, ast.Name)]
        yield from _names(
            keys, known.channels, Code.UNKNOWN_FIELD, "state channel", known.graph.name
        )
    elif subject == "answer" and "messages" not in known.channels:
        yield _bad(
            stmt.subject.span,
            f"`{known.graph.name}` has no `messages`, so it gives no answer",
            "no answer to check",
            help="check its channels with `expect state { … }`",
        )
    elif subject == "usage" and isinstance(value, ast.MapLit):
        for e in value.entries:
            if isinstance(e.key, ast.Name) and e.key.text not in USAGE_KEYS:
                yield _bad(
                    e.key.span,
                    f"`{e.key.text}` is not a usage figure",
                    "unknown figure",
                    help=did_you_mean(e.key.text, USAGE_KEYS) or ", ".join(USAGE_KEYS),
                )


def _matchers(value: ast.Expr, subject: str) -> Iterator[Diagnostic]:
    """Every call inside an expected value is a matcher (tool calls aside)."""
    calls_are_tools = subject in ("tool", "interrupt")
    if isinstance(value, ast.Call):
        name = value.callee.dotted
        if name not in MATCHERS and not calls_are_tools:
            yield _bad(
                value.callee.span,
                f"`{name}(…)` is not a matcher",
                "unknown matcher",
                help=did_you_mean(name, MATCHERS) or f"use one of: {', '.join(MATCHERS)}",
            )
        for arg in value.args:
            yield from _matchers(arg.value, "")
    elif isinstance(value, ast.ListLit):
        for item in value.items:
            yield from _matchers(item, "")
    elif isinstance(value, ast.MapLit):
        for e in value.entries:
            yield from _matchers(e.value, "")


def _listed(value: ast.Expr) -> list[ast.Ref | ast.StringLit]:
    """The names an expected list, or a `contains(…)` of names, gives."""
    if isinstance(value, ast.ListLit):
        items: tuple[ast.Expr, ...] = value.items
    elif isinstance(value, ast.Call) and value.callee.dotted == "contains":
        items = tuple(a.value for a in value.args)
    else:
        items = (value,)
    return [i for i in items if isinstance(i, (ast.Ref, ast.StringLit))]


def _tool_names(value: ast.Expr, subject: str) -> list[ast.Ref | ast.StringLit]:
    if subject == "tools":
        return _listed(value)
    if isinstance(value, ast.Call) and value.callee.dotted not in MATCHERS:
        return [value.callee]
    return [value] if isinstance(value, ast.Ref) else []


def _names(
    written: list[ast.Ref | ast.StringLit] | list[ast.Name],
    known: frozenset[str] | None,
    code: Code,
    what: str,
    owner: str,
) -> Iterator[Diagnostic]:
    if known is None:
        return
    for item in written:
        name = item.value if isinstance(item, ast.StringLit) else _text(item)
        if name not in known and name != "none":
            yield error(
                code,
                f"`{name}` is not {'an' if what[0] in 'aeiou' else 'a'} {what} of `{owner}`",
                item.span,
                f"unknown {what}",
                help=did_you_mean(name, sorted(known))
                or f"its {what}s: {', '.join(sorted(known))}",
            )


def _text(item: ast.Ref | ast.Name) -> str:
    return item.text if isinstance(item, ast.Name) else item.dotted
