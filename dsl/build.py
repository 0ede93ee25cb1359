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
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeAlias

if TYPE_CHECKING:
    from lark import Token, Tree

from . import ast
from .astclass import Record, record
from .build_tests import At, TestBlockRules
from .codes import Code
from .diagnostics import Diagnostic, error
from .literal_errors import bad_number, negate, unknown_escape
from .literals import DURATION, ESCAPE, UNIT_SECONDS, decode_escape, dedent
from .source import Pos, SourceFile, Span


@record
class _Variadic(Record):
    """`...` in a parameter list (the declaration accepts further settings)."""

    span: Span


@record
class _EdgeCondition(Record):
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
        self._pos: Callable[[int], Pos] = source.positions()  # Lark's offsets → Pos, cached
        self._rules: dict[str, Callable[[At, Children], Any]] = {}

    def transform(self, tree: Tree[Token]) -> Any:
        from lark import Tree  # only the tree walk (a very deep file) reads a Lark tree

        children = [self.transform(c) if isinstance(c, Tree) else c for c in tree.children]
        rule = self._rules.get(tree.data)
        if rule is None:
            rule = self._rules[tree.data] = getattr(self, str(tree.data))
        meta = tree.meta
        return rule(None if meta.empty else (meta.start_pos, meta.end_pos), children)

    # ------------------------------------------------------------ helpers

    def _span(self, at: At) -> Span:
        if at is None:
            return Span(self.source.name, self._pos(0), self._pos(0))
        return Span(self.source.name, self._pos(at[0]), self._pos(at[1]))

    def _tok_span(self, tok: Token) -> Span:
        start, end = tok.start_pos, tok.end_pos
        assert start is not None and end is not None  # the lexer positions every token
        return Span(self.source.name, self._pos(start), self._pos(end))

    def _name(self, tok: Token) -> ast.Name:
        return ast.Name(text=str(tok.value), span=self._tok_span(tok))

    # ------------------------------------------------------------ file and declarations

    def start(self, at: At, children: Children) -> ast.Module:
        version, *items = children
        tests = tuple(i for i in items if isinstance(i, ast.TestDecl))
        kept = tuple(i for i in items if not isinstance(i, ast.TestDecl))
        return ast.Module(version=version, items=kept, span=self.source.whole(), tests=tests)

    def version(self, at: At, children: Children) -> ast.VersionDecl:
        return ast.VersionDecl(version=self._int(children[0]), span=self._span(at))

    def use_decl(self, at: At, children: Children) -> ast.UseDecl:
        target, alias, options = children
        return ast.UseDecl(target=target, alias=alias, span=self._span(at), options=options)

    def schema_decl(self, at: At, children: Children) -> ast.SchemaDecl:
        name, doc, fields = children
        return ast.SchemaDecl(name=name, fields=fields, doc=doc, span=self._span(at))

    def field_list(self, at: At, children: Children) -> tuple[ast.FieldDecl, ...]:
        return tuple(children)

    def field(self, at: At, children: Children) -> ast.FieldDecl:
        name, type_, default, reducer, doc = children
        return ast.FieldDecl(
            name=name,
            type=type_,
            default=default,
            reducer=reducer,
            doc=doc,
            span=self._span(at),
        )

    def declare_decl(self, at: At, children: Children) -> ast.DeclareDecl:
        kind, name, params, doc, impl, attrs = children
        params = params or ()
        return ast.DeclareDecl(
            kind=kind,
            name=name,
            params=tuple(p for p in params if not isinstance(p, _Variadic)),
            impl=impl,
            attrs=attrs,
            doc=doc,
            span=self._span(at),
            variadic=any(isinstance(p, _Variadic) for p in params),
        )

    def decl_kind(self, at: At, children: Children) -> ast.Name:
        return self._name(children[0])

    def params(self, at: At, children: Children) -> tuple[ast.ParamDecl | _Variadic, ...]:
        return _present(children)

    def variadic(self, at: At, children: Children) -> _Variadic:
        return _Variadic(self._span(at))

    def param(self, at: At, children: Children) -> ast.ParamDecl:
        name, type_, default, doc = children
        return ast.ParamDecl(name=name, type=type_, default=default, doc=doc, span=self._span(at))

    # ------------------------------------------------------------ agent block

    def agent_decl(self, at: At, children: Children) -> ast.AgentDecl:
        name, doc, *body = children
        return ast.AgentDecl(name=name, body=tuple(body), doc=doc, span=self._span(at))

    def model_stmt(self, at: At, children: Children) -> ast.ModelStmt:
        spec, options = children
        return ast.ModelStmt(spec=spec, options=options, span=self._span(at))

    def prompt_stmt(self, at: At, children: Children) -> ast.PromptStmt:
        return ast.PromptStmt(value=children[0], span=self._span(at))

    def tools_stmt(self, at: At, children: Children) -> ast.ToolsStmt:
        return ast.ToolsStmt(value=children[0], span=self._span(at))

    def output_stmt(self, at: At, children: Children) -> ast.OutputStmt:
        schema, strategy, options = children
        return ast.OutputStmt(
            schema=schema, strategy=strategy, options=options, span=self._span(at)
        )

    # ------------------------------------------------------------ shared statements

    def middleware_stmt(self, at: At, children: Children) -> ast.MiddlewareStmt:
        return ast.MiddlewareStmt(items=_present(children), span=self._span(at))

    def middleware_item(self, at: At, children: Children) -> ast.MiddlewareItem:
        name, config = children
        return ast.MiddlewareItem(name=name, config=config, span=self._span(at))

    def state_stmt(self, at: At, children: Children) -> ast.StateStmt:
        return ast.StateStmt(fields=children[0], span=self._span(at))

    def limits_stmt(self, at: At, children: Children) -> ast.LimitsStmt:
        return ast.LimitsStmt(entries=children[0], span=self._span(at))

    def interrupt_stmt(self, at: At, children: Children) -> ast.InterruptStmt:
        when, *nodes = children
        return ast.InterruptStmt(when=when, nodes=tuple(nodes), span=self._span(at))

    def checkpoint_stmt(self, at: At, children: Children) -> ast.CheckpointStmt:
        return ast.CheckpointStmt(value=children[0], span=self._span(at))

    def setting_stmt(self, at: At, children: Children) -> ast.SettingStmt:
        key, value = children
        return ast.SettingStmt(key=self._name(key), value=value, span=self._span(at))

    # ------------------------------------------------------------ graph block

    def graph_decl(self, at: At, children: Children) -> ast.GraphDecl:
        name, doc, *body = children
        return ast.GraphDecl(name=name, body=tuple(body), doc=doc, span=self._span(at))

    def node_decl(self, at: At, children: Children) -> ast.NodeDecl:
        name, value, options = children
        return ast.NodeDecl(name=name, value=value, options=options, span=self._span(at))

    def edge_decl(self, at: At, children: Children) -> ast.EdgeDecl:
        source, targets, cond = children
        cond = cond or _EdgeCondition(None, False)
        return ast.EdgeDecl(
            source=source,
            targets=targets,
            condition=cond.condition,
            otherwise=cond.otherwise,
            span=self._span(at),
        )

    def edge_targets(self, at: At, children: Children) -> tuple[ast.Name, ...]:
        return tuple(children)

    edge_sources = edge_targets  # `[a, b]` before `->`: a join's sources

    def join_decl(self, at: At, children: Children) -> ast.JoinDecl:
        sources, targets, cond = children
        cond = cond or _EdgeCondition(None, False)
        return ast.JoinDecl(
            sources=sources,
            targets=targets,
            condition=cond.condition,
            otherwise=cond.otherwise,
            span=self._span(at),
        )

    def edge_when(self, at: At, children: Children) -> _EdgeCondition:
        return _EdgeCondition(children[0], False)

    def edge_otherwise(self, at: At, children: Children) -> _EdgeCondition:
        return _EdgeCondition(None, True)

    def route_decl(self, at: At, children: Children) -> ast.RouteDecl:
        source, router, *cases = children
        return ast.RouteDecl(
            source=source, router=router, cases=_present(cases), span=self._span(at)
        )

    def route_list_decl(self, at: At, children: Children) -> ast.RouteDecl:
        source, router, *targets = children
        return ast.RouteDecl(
            source=source,
            router=router,
            cases=(),
            targets=_present(targets),
            span=self._span(at),
        )

    def route_case(self, at: At, children: Children) -> ast.RouteCase:
        label, target = children
        return ast.RouteCase(label=label, target=target, span=self._span(at))

    def hook_decl(self, at: At, children: Children) -> ast.HookDecl:
        point, target, value = children
        return ast.HookDecl(point=point, target=target, value=value, span=self._span(at))

    # ------------------------------------------------------------ types

    def union_type(self, at: At, children: Children) -> ast.UnionType:
        return ast.UnionType(options=tuple(children), span=self._span(at))

    def optional_type(self, at: At, children: Children) -> ast.OptionalType:
        return ast.OptionalType(inner=children[0], span=self._span(at))

    def named_type(self, at: At, children: Children) -> ast.NamedType:
        return ast.NamedType(name=children[0], span=self._span(at))

    def generic_type(self, at: At, children: Children) -> ast.GenericType:
        name, *args = children
        return ast.GenericType(name=name, args=tuple(args), span=self._span(at))

    def none_type(self, at: At, children: Children) -> ast.NamedType:
        span = self._span(at)
        none = ast.Ref(parts=(ast.Name(text="none", span=span),), span=span)
        return ast.NamedType(name=none, span=span)

    def literal_type(self, at: At, children: Children) -> ast.LiteralType:
        return ast.LiteralType(value=children[0], span=self._span(at))

    def literal_int_type(self, at: At, children: Children) -> ast.LiteralType:
        span = self._span(at)
        return ast.LiteralType(value=ast.IntLit(value=self._int(children[0]), span=span), span=span)

    def literal_true_type(self, at: At, children: Children) -> ast.LiteralType:
        span = self._span(at)
        return ast.LiteralType(value=ast.BoolLit(value=True, span=span), span=span)

    def literal_false_type(self, at: At, children: Children) -> ast.LiteralType:
        span = self._span(at)
        return ast.LiteralType(value=ast.BoolLit(value=False, span=span), span=span)

    # ------------------------------------------------------------ expressions

    def or_op(self, at: At, children: Children) -> ast.BinaryOp:
        left, right = children
        return ast.BinaryOp(op="or", left=left, right=right, span=self._span(at))

    def and_op(self, at: At, children: Children) -> ast.BinaryOp:
        left, right = children
        return ast.BinaryOp(op="and", left=left, right=right, span=self._span(at))

    def not_op(self, at: At, children: Children) -> ast.UnaryOp:
        return ast.UnaryOp(op="not", operand=children[0], span=self._span(at))

    def compare(self, at: At, children: Children) -> ast.BinaryOp:
        left, op, right = children
        return ast.BinaryOp(op=op, left=left, right=right, span=self._span(at))

    def cmp_op(self, at: At, children: Children) -> str:
        return str(children[0].value)

    def neg(self, at: At, children: Children) -> ast.Expr:
        negated, problem = negate(children[0], self._span(at))
        if problem is not None:
            self.diagnostics.append(problem)
        return negated

    def int_lit(self, at: At, children: Children) -> ast.IntLit:
        return ast.IntLit(value=self._int(children[0]), span=self._span(at))

    def float_lit(self, at: At, children: Children) -> ast.FloatLit:
        return ast.FloatLit(value=float(children[0].value), span=self._span(at))

    def duration(self, at: At, children: Children) -> ast.DurationLit:
        text = str(children[0].value)
        match = DURATION.fullmatch(text)
        assert match is not None, text  # the grammar's DURATION terminal has this form
        number, unit = match.groups()
        seconds = float(number) * UNIT_SECONDS[unit]
        return ast.DurationLit(seconds=seconds, text=text, span=self._span(at))

    def bad_number(self, at: At, children: Children) -> ast.IntLit:
        span = self._span(at)
        self.diagnostics.append(bad_number(span, str(children[0].value)))
        return ast.IntLit(value=0, span=span)

    def true_lit(self, at: At, children: Children) -> ast.BoolLit:
        return ast.BoolLit(value=True, span=self._span(at))

    def false_lit(self, at: At, children: Children) -> ast.BoolLit:
        return ast.BoolLit(value=False, span=self._span(at))

    def none_lit(self, at: At, children: Children) -> ast.NoneLit:
        return ast.NoneLit(span=self._span(at))

    def list(self, at: At, children: Children) -> ast.ListLit:
        return ast.ListLit(items=_present(children), span=self._span(at))

    def map(self, at: At, children: Children) -> ast.MapLit:
        return ast.MapLit(entries=tuple(children), span=self._span(at))

    def map_entry(self, at: At, children: Children) -> ast.MapEntry:
        key, value = children
        if isinstance(key, ast.StringLit):
            key = ast.Name(text=key.value, span=key.span)
        return ast.MapEntry(key=key, value=value, span=self._span(at))

    def call(self, at: At, children: Children) -> ast.Call:
        callee, *args = children
        wrapped = tuple(
            a if isinstance(a, ast.Arg) else ast.Arg(name=None, value=a, span=a.span)
            for a in args
            if a is not None
        )
        return ast.Call(callee=callee, args=wrapped, span=self._span(at))

    def kwarg(self, at: At, children: Children) -> ast.Arg:
        name, value = children
        return ast.Arg(name=name, value=value, span=self._span(at))

    def ref(self, at: At, children: Children) -> ast.Ref:
        return ast.Ref(parts=tuple(children), span=self._span(at))

    def name(self, at: At, children: Children) -> ast.Name:
        # The commonest rule by far (every name of a file): its span is built inline.
        if at is None:
            return self._name(children[0])
        pos = self._pos
        span = Span(self.source.name, pos(at[0]), pos(at[1]))
        return ast.Name(text=str(children[0].value), span=span)

    def string(self, at: At, children: Children) -> ast.StringLit:
        token = children[0]
        span = self._span(at)
        value = self._unescape(str(token.value)[1:-1], token.start_pos + 1, span)
        return ast.StringLit(value=value, span=span)

    def long_string(self, at: At, children: Children) -> ast.StringLit:
        span = self._span(at)
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
