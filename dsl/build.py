"""Tree → AST: the Lark parse tree as `dsl.ast` nodes with spans.

Input: the `lark.Tree` of one file (positions propagated) and its `SourceFile`. Output:
an `ast.Module` and the literal diagnostics found on the way (a malformed number, an
unknown string escape). One thin method per grammar rule; shape only — no name is
resolved and no rule of meaning checked. Literal values are decoded here: string escapes,
triple-quoted strings dedented (as `inspect.cleandoc`), durations to seconds, and a minus
sign directly before a number folded into the number.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from typing import Any

from lark import Token, Tree

from . import ast
from .codes import Code
from .diagnostics import Diagnostic, error
from .source import Pos, SourceFile, Span
from .syntax_errors import bad_number

_UNIT_SECONDS = {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0}
_DURATION = re.compile(r"(\d+(?:\.\d+)?)(ms|s|m|h)")
_ESCAPE = re.compile(r"\\(u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[\s\S])")
_SIMPLE_ESCAPES = {
    "n": "\n",
    "t": "\t",
    "r": "\r",
    "0": "\0",
    '"': '"',
    "'": "'",
    "\\": "\\",
    "/": "/",
}


@dataclass(frozen=True, slots=True)
class _Variadic:
    """`...` in a parameter list (the declaration accepts further settings)."""

    span: Span


@dataclass(frozen=True, slots=True)
class _EdgeCondition:
    condition: ast.Expr | None
    otherwise: bool


def _present(children: list[Any]) -> tuple[Any, ...]:
    """Children without the `None` placeholders of optional parts."""
    return tuple(c for c in children if c is not None)


def dedent(text: str) -> str:
    """`inspect.cleandoc` without importing `inspect` (it is slow to import)."""
    lines = text.replace("\r\n", "\n").expandtabs().split("\n")
    indents = [len(ln) - len(ln.lstrip()) for ln in lines[1:] if ln.strip()]
    margin = min(indents) if indents else 0
    lines = [lines[0].lstrip()] + [ln[margin:] for ln in lines[1:]]
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    return "\n".join(lines)


class AstBuilder:
    """One method per grammar rule (names match `grammar/agent.lark`).

    Not a Lark `Transformer`: a plain bottom-up walk with a dispatch table is about twice
    as fast, which matters for files with thousands of nodes.
    """

    def __init__(self, source: SourceFile) -> None:
        self.source = source
        self.diagnostics: list[Diagnostic] = []
        self._starts = source._line_starts
        self._positions: dict[int, Pos] = {}
        self._rules: dict[str, Any] = {}

    def transform(self, tree: Tree) -> Any:
        children = [self.transform(c) if isinstance(c, Tree) else c for c in tree.children]
        rule = self._rules.get(tree.data)
        if rule is None:
            rule = self._rules[tree.data] = getattr(self, str(tree.data))
        return rule(tree.meta, children)

    # ------------------------------------------------------------ helpers

    def _pos(self, offset: int) -> Pos:
        # Lark offsets always lie inside the text, so SourceFile.pos's clamping is skipped.
        pos = self._positions.get(offset)
        if pos is None:
            line = bisect_right(self._starts, offset)
            pos = self._positions[offset] = Pos(line, offset - self._starts[line - 1] + 1, offset)
        return pos

    def _span(self, meta) -> Span:
        if getattr(meta, "empty", True):
            return Span(self.source.name, self._pos(0), self._pos(0))
        return Span(self.source.name, self._pos(meta.start_pos), self._pos(meta.end_pos))

    def _tok_span(self, tok: Token) -> Span:
        return Span(self.source.name, self._pos(tok.start_pos), self._pos(tok.end_pos))

    def _name(self, tok: Token) -> ast.Name:
        return ast.Name(str(tok.value), self._tok_span(tok))

    # ------------------------------------------------------------ file and declarations

    def start(self, meta, children):
        version, *items = children
        return ast.Module(version, tuple(items), self.source.whole())

    def version(self, meta, children):
        return ast.VersionDecl(self._int(children[0]), self._span(meta))

    def use_decl(self, meta, children):
        target, alias = children
        return ast.UseDecl(target, alias, self._span(meta))

    def schema_decl(self, meta, children):
        name, doc, fields = children
        return ast.SchemaDecl(name, fields, doc, self._span(meta))

    def field_list(self, meta, children):
        return tuple(children)

    def field(self, meta, children):
        name, type_, default, reducer, doc = children
        return ast.FieldDecl(name, type_, default, reducer, doc, self._span(meta))

    def declare_decl(self, meta, children):
        kind, name, params, doc, impl, attrs = children
        params = params or ()
        variadic = any(isinstance(p, _Variadic) for p in params)
        real = tuple(p for p in params if not isinstance(p, _Variadic))
        return ast.DeclareDecl(
            kind, name, real, impl, attrs, doc, self._span(meta), variadic=variadic
        )

    def decl_kind(self, meta, children):
        return self._name(children[0])

    def params(self, meta, children):
        return _present(children)

    def variadic(self, meta, children):
        return _Variadic(self._span(meta))

    def param(self, meta, children):
        name, type_, default, doc = children
        return ast.ParamDecl(name, type_, default, doc, self._span(meta))

    # ------------------------------------------------------------ agent block

    def agent_decl(self, meta, children):
        name, doc, *body = children
        return ast.AgentDecl(name, tuple(body), doc, self._span(meta))

    def model_stmt(self, meta, children):
        spec, options = children
        return ast.ModelStmt(spec, options, self._span(meta))

    def prompt_stmt(self, meta, children):
        return ast.PromptStmt(children[0], self._span(meta))

    def tools_stmt(self, meta, children):
        return ast.ToolsStmt(children[0], self._span(meta))

    def output_stmt(self, meta, children):
        schema, strategy, options = children
        return ast.OutputStmt(schema, strategy, options, self._span(meta))

    # ------------------------------------------------------------ shared statements

    def middleware_stmt(self, meta, children):
        return ast.MiddlewareStmt(_present(children), self._span(meta))

    def middleware_item(self, meta, children):
        name, config = children
        return ast.MiddlewareItem(name, config, self._span(meta))

    def state_stmt(self, meta, children):
        return ast.StateStmt(children[0], self._span(meta))

    def limits_stmt(self, meta, children):
        return ast.LimitsStmt(children[0], self._span(meta))

    def interrupt_stmt(self, meta, children):
        when, *nodes = children
        return ast.InterruptStmt(when, tuple(nodes), self._span(meta))

    def checkpoint_stmt(self, meta, children):
        return ast.CheckpointStmt(children[0], self._span(meta))

    def setting_stmt(self, meta, children):
        key, value = children
        return ast.SettingStmt(self._name(key), value, self._span(meta))

    # ------------------------------------------------------------ graph block

    def graph_decl(self, meta, children):
        name, doc, *body = children
        return ast.GraphDecl(name, tuple(body), doc, self._span(meta))

    def node_decl(self, meta, children):
        name, value, options = children
        return ast.NodeDecl(name, value, options, self._span(meta))

    def edge_decl(self, meta, children):
        source, targets, cond = children
        cond = cond or _EdgeCondition(None, False)
        return ast.EdgeDecl(source, targets, cond.condition, cond.otherwise, self._span(meta))

    def edge_targets(self, meta, children):
        return tuple(children)

    def edge_when(self, meta, children):
        return _EdgeCondition(children[0], False)

    def edge_otherwise(self, meta, children):
        return _EdgeCondition(None, True)

    def route_decl(self, meta, children):
        source, router, *cases = children
        return ast.RouteDecl(source, router, _present(cases), self._span(meta))

    def route_case(self, meta, children):
        label, target = children
        return ast.RouteCase(label, target, self._span(meta))

    def hook_decl(self, meta, children):
        point, target, value = children
        return ast.HookDecl(point, target, value, self._span(meta))

    # ------------------------------------------------------------ types

    def union_type(self, meta, children):
        return ast.UnionType(tuple(children), self._span(meta))

    def optional_type(self, meta, children):
        return ast.OptionalType(children[0], self._span(meta))

    def named_type(self, meta, children):
        return ast.NamedType(children[0], self._span(meta))

    def generic_type(self, meta, children):
        name, *args = children
        return ast.GenericType(name, tuple(args), self._span(meta))

    def none_type(self, meta, children):
        span = self._span(meta)
        return ast.NamedType(ast.Ref((ast.Name("none", span),), span), span)

    def literal_type(self, meta, children):
        return ast.LiteralType(children[0], self._span(meta))

    def literal_int_type(self, meta, children):
        span = self._span(meta)
        return ast.LiteralType(ast.IntLit(self._int(children[0]), span), span)

    def literal_true_type(self, meta, children):
        span = self._span(meta)
        return ast.LiteralType(ast.BoolLit(True, span), span)

    def literal_false_type(self, meta, children):
        span = self._span(meta)
        return ast.LiteralType(ast.BoolLit(False, span), span)

    # ------------------------------------------------------------ expressions

    def or_op(self, meta, children):
        return ast.BinaryOp("or", children[0], children[1], self._span(meta))

    def and_op(self, meta, children):
        return ast.BinaryOp("and", children[0], children[1], self._span(meta))

    def not_op(self, meta, children):
        return ast.UnaryOp("not", children[0], self._span(meta))

    def compare(self, meta, children):
        left, op, right = children
        return ast.BinaryOp(op, left, right, self._span(meta))

    def cmp_op(self, meta, children):
        return str(children[0].value)

    def neg(self, meta, children):
        operand, span = children[0], self._span(meta)
        if isinstance(operand, ast.IntLit):
            return ast.IntLit(-operand.value, span)
        if isinstance(operand, ast.FloatLit):
            return ast.FloatLit(-operand.value, span)
        if isinstance(operand, ast.DurationLit):
            return ast.DurationLit(-operand.seconds, "-" + operand.text, span)
        return ast.UnaryOp("-", operand, span)

    def int_lit(self, meta, children):
        return ast.IntLit(self._int(children[0]), self._span(meta))

    def float_lit(self, meta, children):
        return ast.FloatLit(float(children[0].value), self._span(meta))

    def duration(self, meta, children):
        text = str(children[0].value)
        number, unit = _DURATION.fullmatch(text).groups()
        return ast.DurationLit(float(number) * _UNIT_SECONDS[unit], text, self._span(meta))

    def bad_number(self, meta, children):
        span = self._span(meta)
        self.diagnostics.append(bad_number(span, str(children[0].value)))
        return ast.IntLit(0, span)

    def true_lit(self, meta, children):
        return ast.BoolLit(True, self._span(meta))

    def false_lit(self, meta, children):
        return ast.BoolLit(False, self._span(meta))

    def none_lit(self, meta, children):
        return ast.NoneLit(self._span(meta))

    def list(self, meta, children):
        return ast.ListLit(_present(children), self._span(meta))

    def map(self, meta, children):
        return ast.MapLit(tuple(children), self._span(meta))

    def map_entry(self, meta, children):
        key, value = children
        if isinstance(key, ast.StringLit):
            key = ast.Name(key.value, key.span)
        return ast.MapEntry(key, value, self._span(meta))

    def call(self, meta, children):
        callee, *args = children
        wrapped = tuple(
            a if isinstance(a, ast.Arg) else ast.Arg(None, a, a.span) for a in args if a is not None
        )
        return ast.Call(callee, wrapped, self._span(meta))

    def kwarg(self, meta, children):
        name, value = children
        return ast.Arg(name, value, self._span(meta))

    def ref(self, meta, children):
        return ast.Ref(tuple(children), self._span(meta))

    def name(self, meta, children):
        return self._name(children[0])

    def string(self, meta, children):
        raw = str(children[0].value)[1:-1]
        span = self._span(meta)
        return ast.StringLit(self._unescape(raw, children[0].start_pos + 1, span), span)

    def long_string(self, meta, children):
        raw = str(children[0].value)[3:-3]
        span = self._span(meta)
        return ast.StringLit(self._unescape(dedent(raw), None, span), span, triple=True)

    # ------------------------------------------------------------ literal decoding

    def _int(self, tok: Token) -> int:
        try:
            return int(tok.value)
        except ValueError:  # more digits than Python converts (sys.int_info)
            self.diagnostics.append(
                error(
                    Code.BAD_LITERAL,
                    f"the number `{str(tok.value)[:20]}…` is too long",
                    self._tok_span(tok),
                )
            )
            return 0

    def _unescape(self, raw: str, offset: int | None, whole: Span) -> str:
        """Decode `\\n \\t \\" \\\\ \\u0041`; an unknown escape is a diagnostic.

        `offset` is where `raw` starts in the file, for locating a bad escape; None for
        dedented text, whose offsets no longer line up (the whole string is pointed at).
        """
        if "\\" not in raw:
            return raw
        return _ESCAPE.sub(lambda m: self._escape(m, offset, whole), raw)

    def _escape(self, m: re.Match, offset: int | None, whole: Span) -> str:
        body = m.group(1)
        if body[0] in "uU" and len(body) > 1:
            return chr(min(int(body[1:], 16), 0x10FFFF))
        if body in _SIMPLE_ESCAPES:
            return _SIMPLE_ESCAPES[body]
        if body == "\n":  # a backslash at the end of a line joins it with the next
            return ""
        span = whole
        if offset is not None:
            span = self.source.span(offset + m.start(), offset + m.end())
        shown = m.group(0) if m.group(0).isprintable() else repr(m.group(0))[1:-1]
        self.diagnostics.append(
            error(
                Code.BAD_LITERAL,
                f"unknown escape `{shown}` in a string",
                span,
                "unknown escape",
                help="write `\\\\` for a backslash",
            )
        )
        return m.group(0)


def build_module(tree: Tree, source: SourceFile) -> tuple[ast.Module, tuple[Diagnostic, ...]]:
    """The AST of a parsed file and the literal diagnostics met while building it."""
    builder = AstBuilder(source)
    module = builder.transform(tree)
    return module, tuple(builder.diagnostics)
