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
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeAlias

from lark import Token, Tree
from lark.tree import Meta

from . import ast
from .build_tests import TestBlockRules
from .codes import Code
from .diagnostics import Diagnostic, error
from .literal_errors import bad_number, negate, unknown_escape
from .literals import DURATION, ESCAPE, UNIT_SECONDS, decode_escape, dedent
from .source import Pos, SourceFile, Span


@dataclass(frozen=True, slots=True)
class _Variadic:
    """`...` in a parameter list (the declaration accepts further settings)."""

    span: Span


@dataclass(frozen=True, slots=True)
class _EdgeCondition:
    condition: ast.Expr | None
    otherwise: bool


# A rule's children, already built: AST nodes, tokens, tuples, or None for an absent
# optional part (`[…]` placeholders).
Children: TypeAlias = list[Any]


def _present(children: Children) -> tuple[Any, ...]:
    """Children without the `None` placeholders of optional parts."""
    return tuple(c for c in children if c is not None)


class AstBuilder(TestBlockRules):
    """One method per grammar rule (names match `grammar/agent.lark`).

    Not a Lark `Transformer`: a plain bottom-up walk with a dispatch table is about twice
    as fast, which matters for files with thousands of nodes.
    """

    def __init__(self, source: SourceFile) -> None:
        self.source = source
        self.diagnostics: list[Diagnostic] = []
        self._starts = source._line_starts
        self._positions: dict[int, Pos] = {}
        self._rules: dict[str, Callable[[Meta, Children], Any]] = {}

    def transform(self, tree: Tree[Token]) -> Any:
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

    def _span(self, meta: Meta) -> Span:
        if meta.empty:
            return Span(self.source.name, self._pos(0), self._pos(0))
        return Span(self.source.name, self._pos(meta.start_pos), self._pos(meta.end_pos))

    def _tok_span(self, tok: Token) -> Span:
        start, end = tok.start_pos, tok.end_pos
        assert start is not None and end is not None  # the lexer positions every token
        return Span(self.source.name, self._pos(start), self._pos(end))

    def _name(self, tok: Token) -> ast.Name:
        return ast.Name(text=str(tok.value), span=self._tok_span(tok))

    # ------------------------------------------------------------ file and declarations

    def start(self, meta: Meta, children: Children) -> ast.Module:
        version, *items = children
        tests = tuple(i for i in items if isinstance(i, ast.TestDecl))
        kept = tuple(i for i in items if not isinstance(i, ast.TestDecl))
        return ast.Module(version=version, items=kept, span=self.source.whole(), tests=tests)

    def version(self, meta: Meta, children: Children) -> ast.VersionDecl:
        return ast.VersionDecl(version=self._int(children[0]), span=self._span(meta))

    def use_decl(self, meta: Meta, children: Children) -> ast.UseDecl:
        target, alias, options = children
        return ast.UseDecl(target=target, alias=alias, span=self._span(meta), options=options)

    def schema_decl(self, meta: Meta, children: Children) -> ast.SchemaDecl:
        name, doc, fields = children
        return ast.SchemaDecl(name=name, fields=fields, doc=doc, span=self._span(meta))

    def field_list(self, meta: Meta, children: Children) -> tuple[ast.FieldDecl, ...]:
        return tuple(children)

    def field(self, meta: Meta, children: Children) -> ast.FieldDecl:
        name, type_, default, reducer, doc = children
        return ast.FieldDecl(
            name=name,
            type=type_,
            default=default,
            reducer=reducer,
            doc=doc,
            span=self._span(meta),
        )

    def declare_decl(self, meta: Meta, children: Children) -> ast.DeclareDecl:
        kind, name, params, doc, impl, attrs = children
        params = params or ()
        return ast.DeclareDecl(
            kind=kind,
            name=name,
            params=tuple(p for p in params if not isinstance(p, _Variadic)),
            impl=impl,
            attrs=attrs,
            doc=doc,
            span=self._span(meta),
            variadic=any(isinstance(p, _Variadic) for p in params),
        )

    def decl_kind(self, meta: Meta, children: Children) -> ast.Name:
        return self._name(children[0])

    def params(self, meta: Meta, children: Children) -> tuple[ast.ParamDecl | _Variadic, ...]:
        return _present(children)

    def variadic(self, meta: Meta, children: Children) -> _Variadic:
        return _Variadic(self._span(meta))

    def param(self, meta: Meta, children: Children) -> ast.ParamDecl:
        name, type_, default, doc = children
        return ast.ParamDecl(name=name, type=type_, default=default, doc=doc, span=self._span(meta))

    # ------------------------------------------------------------ agent block

    def agent_decl(self, meta: Meta, children: Children) -> ast.AgentDecl:
        name, doc, *body = children
        return ast.AgentDecl(name=name, body=tuple(body), doc=doc, span=self._span(meta))

    def model_stmt(self, meta: Meta, children: Children) -> ast.ModelStmt:
        spec, options = children
        return ast.ModelStmt(spec=spec, options=options, span=self._span(meta))

    def prompt_stmt(self, meta: Meta, children: Children) -> ast.PromptStmt:
        return ast.PromptStmt(value=children[0], span=self._span(meta))

    def tools_stmt(self, meta: Meta, children: Children) -> ast.ToolsStmt:
        return ast.ToolsStmt(value=children[0], span=self._span(meta))

    def output_stmt(self, meta: Meta, children: Children) -> ast.OutputStmt:
        schema, strategy, options = children
        return ast.OutputStmt(
            schema=schema, strategy=strategy, options=options, span=self._span(meta)
        )

    # ------------------------------------------------------------ shared statements

    def middleware_stmt(self, meta: Meta, children: Children) -> ast.MiddlewareStmt:
        return ast.MiddlewareStmt(items=_present(children), span=self._span(meta))

    def middleware_item(self, meta: Meta, children: Children) -> ast.MiddlewareItem:
        name, config = children
        return ast.MiddlewareItem(name=name, config=config, span=self._span(meta))

    def state_stmt(self, meta: Meta, children: Children) -> ast.StateStmt:
        return ast.StateStmt(fields=children[0], span=self._span(meta))

    def limits_stmt(self, meta: Meta, children: Children) -> ast.LimitsStmt:
        return ast.LimitsStmt(entries=children[0], span=self._span(meta))

    def interrupt_stmt(self, meta: Meta, children: Children) -> ast.InterruptStmt:
        when, *nodes = children
        return ast.InterruptStmt(when=when, nodes=tuple(nodes), span=self._span(meta))

    def checkpoint_stmt(self, meta: Meta, children: Children) -> ast.CheckpointStmt:
        return ast.CheckpointStmt(value=children[0], span=self._span(meta))

    def setting_stmt(self, meta: Meta, children: Children) -> ast.SettingStmt:
        key, value = children
        return ast.SettingStmt(key=self._name(key), value=value, span=self._span(meta))

    # ------------------------------------------------------------ graph block

    def graph_decl(self, meta: Meta, children: Children) -> ast.GraphDecl:
        name, doc, *body = children
        return ast.GraphDecl(name=name, body=tuple(body), doc=doc, span=self._span(meta))

    def node_decl(self, meta: Meta, children: Children) -> ast.NodeDecl:
        name, value, options = children
        return ast.NodeDecl(name=name, value=value, options=options, span=self._span(meta))

    def edge_decl(self, meta: Meta, children: Children) -> ast.EdgeDecl:
        source, targets, cond = children
        cond = cond or _EdgeCondition(None, False)
        return ast.EdgeDecl(
            source=source,
            targets=targets,
            condition=cond.condition,
            otherwise=cond.otherwise,
            span=self._span(meta),
        )

    def edge_targets(self, meta: Meta, children: Children) -> tuple[ast.Name, ...]:
        return tuple(children)

    edge_sources = edge_targets  # `[a, b]` before `->`: a join's sources

    def join_decl(self, meta: Meta, children: Children) -> ast.JoinDecl:
        sources, targets, cond = children
        cond = cond or _EdgeCondition(None, False)
        return ast.JoinDecl(
            sources=sources,
            targets=targets,
            condition=cond.condition,
            otherwise=cond.otherwise,
            span=self._span(meta),
        )

    def edge_when(self, meta: Meta, children: Children) -> _EdgeCondition:
        return _EdgeCondition(children[0], False)

    def edge_otherwise(self, meta: Meta, children: Children) -> _EdgeCondition:
        return _EdgeCondition(None, True)

    def route_decl(self, meta: Meta, children: Children) -> ast.RouteDecl:
        source, router, *cases = children
        return ast.RouteDecl(
            source=source, router=router, cases=_present(cases), span=self._span(meta)
        )

    def route_list_decl(self, meta: Meta, children: Children) -> ast.RouteDecl:
        source, router, *targets = children
        return ast.RouteDecl(
            source=source,
            router=router,
            cases=(),
            targets=_present(targets),
            span=self._span(meta),
        )

    def route_case(self, meta: Meta, children: Children) -> ast.RouteCase:
        label, target = children
        return ast.RouteCase(label=label, target=target, span=self._span(meta))

    def hook_decl(self, meta: Meta, children: Children) -> ast.HookDecl:
        point, target, value = children
        return ast.HookDecl(point=point, target=target, value=value, span=self._span(meta))

    # ------------------------------------------------------------ types

    def union_type(self, meta: Meta, children: Children) -> ast.UnionType:
        return ast.UnionType(options=tuple(children), span=self._span(meta))

    def optional_type(self, meta: Meta, children: Children) -> ast.OptionalType:
        return ast.OptionalType(inner=children[0], span=self._span(meta))

    def named_type(self, meta: Meta, children: Children) -> ast.NamedType:
        return ast.NamedType(name=children[0], span=self._span(meta))

    def generic_type(self, meta: Meta, children: Children) -> ast.GenericType:
        name, *args = children
        return ast.GenericType(name=name, args=tuple(args), span=self._span(meta))

    def none_type(self, meta: Meta, children: Children) -> ast.NamedType:
        span = self._span(meta)
        none = ast.Ref(parts=(ast.Name(text="none", span=span),), span=span)
        return ast.NamedType(name=none, span=span)

    def literal_type(self, meta: Meta, children: Children) -> ast.LiteralType:
        return ast.LiteralType(value=children[0], span=self._span(meta))

    def literal_int_type(self, meta: Meta, children: Children) -> ast.LiteralType:
        span = self._span(meta)
        return ast.LiteralType(value=ast.IntLit(value=self._int(children[0]), span=span), span=span)

    def literal_true_type(self, meta: Meta, children: Children) -> ast.LiteralType:
        span = self._span(meta)
        return ast.LiteralType(value=ast.BoolLit(value=True, span=span), span=span)

    def literal_false_type(self, meta: Meta, children: Children) -> ast.LiteralType:
        span = self._span(meta)
        return ast.LiteralType(value=ast.BoolLit(value=False, span=span), span=span)

    # ------------------------------------------------------------ expressions

    def or_op(self, meta: Meta, children: Children) -> ast.BinaryOp:
        left, right = children
        return ast.BinaryOp(op="or", left=left, right=right, span=self._span(meta))

    def and_op(self, meta: Meta, children: Children) -> ast.BinaryOp:
        left, right = children
        return ast.BinaryOp(op="and", left=left, right=right, span=self._span(meta))

    def not_op(self, meta: Meta, children: Children) -> ast.UnaryOp:
        return ast.UnaryOp(op="not", operand=children[0], span=self._span(meta))

    def compare(self, meta: Meta, children: Children) -> ast.BinaryOp:
        left, op, right = children
        return ast.BinaryOp(op=op, left=left, right=right, span=self._span(meta))

    def cmp_op(self, meta: Meta, children: Children) -> str:
        return str(children[0].value)

    def neg(self, meta: Meta, children: Children) -> ast.Expr:
        negated, problem = negate(children[0], self._span(meta))
        if problem is not None:
            self.diagnostics.append(problem)
        return negated

    def int_lit(self, meta: Meta, children: Children) -> ast.IntLit:
        return ast.IntLit(value=self._int(children[0]), span=self._span(meta))

    def float_lit(self, meta: Meta, children: Children) -> ast.FloatLit:
        return ast.FloatLit(value=float(children[0].value), span=self._span(meta))

    def duration(self, meta: Meta, children: Children) -> ast.DurationLit:
        text = str(children[0].value)
        match = DURATION.fullmatch(text)
        assert match is not None, text  # the grammar's DURATION terminal has this form
        number, unit = match.groups()
        seconds = float(number) * UNIT_SECONDS[unit]
        return ast.DurationLit(seconds=seconds, text=text, span=self._span(meta))

    def bad_number(self, meta: Meta, children: Children) -> ast.IntLit:
        span = self._span(meta)
        self.diagnostics.append(bad_number(span, str(children[0].value)))
        return ast.IntLit(value=0, span=span)

    def true_lit(self, meta: Meta, children: Children) -> ast.BoolLit:
        return ast.BoolLit(value=True, span=self._span(meta))

    def false_lit(self, meta: Meta, children: Children) -> ast.BoolLit:
        return ast.BoolLit(value=False, span=self._span(meta))

    def none_lit(self, meta: Meta, children: Children) -> ast.NoneLit:
        return ast.NoneLit(span=self._span(meta))

    def list(self, meta: Meta, children: Children) -> ast.ListLit:
        return ast.ListLit(items=_present(children), span=self._span(meta))

    def map(self, meta: Meta, children: Children) -> ast.MapLit:
        return ast.MapLit(entries=tuple(children), span=self._span(meta))

    def map_entry(self, meta: Meta, children: Children) -> ast.MapEntry:
        key, value = children
        if isinstance(key, ast.StringLit):
            key = ast.Name(text=key.value, span=key.span)
        return ast.MapEntry(key=key, value=value, span=self._span(meta))

    def call(self, meta: Meta, children: Children) -> ast.Call:
        callee, *args = children
        wrapped = tuple(
            a if isinstance(a, ast.Arg) else ast.Arg(name=None, value=a, span=a.span)
            for a in args
            if a is not None
        )
        return ast.Call(callee=callee, args=wrapped, span=self._span(meta))

    def kwarg(self, meta: Meta, children: Children) -> ast.Arg:
        name, value = children
        return ast.Arg(name=name, value=value, span=self._span(meta))

    def ref(self, meta: Meta, children: Children) -> ast.Ref:
        return ast.Ref(parts=tuple(children), span=self._span(meta))

    def name(self, meta: Meta, children: Children) -> ast.Name:
        return self._name(children[0])

    def string(self, meta: Meta, children: Children) -> ast.StringLit:
        token = children[0]
        span = self._span(meta)
        value = self._unescape(str(token.value)[1:-1], token.start_pos + 1, span)
        return ast.StringLit(value=value, span=span)

    def long_string(self, meta: Meta, children: Children) -> ast.StringLit:
        span = self._span(meta)
        value = self._unescape(dedent(str(children[0].value)[3:-3]), None, span)
        return ast.StringLit(value=value, span=span, triple=True)

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
        return ESCAPE.sub(lambda m: self._escape(m, offset, whole), raw)

    def _escape(self, m: re.Match[str], offset: int | None, whole: Span) -> str:
        decoded = decode_escape(m.group(1))
        if decoded is not None:
            return decoded
        span = whole
        if offset is not None:
            span = self.source.span(offset + m.start(), offset + m.end())
        self.diagnostics.append(unknown_escape(span, m.group(0)))
        return m.group(0)


def build_module(
    tree: Tree[Token], source: SourceFile
) -> tuple[ast.Module, tuple[Diagnostic, ...]]:
    """The AST of a parsed file and the literal diagnostics met while building it."""
    builder = AstBuilder(source)
    module = builder.transform(tree)
    return module, tuple(builder.diagnostics)
