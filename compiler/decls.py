"""Declarations (`middleware`, `router`, `template`) read into facts the checker uses.

Input: an `ast.DeclareDecl` (from the prelude or a user file). Output: `DeclInfo` — typed
parameters with defaults, the implementation `ImportRef`, hook points, jumps, seats, added
tools, private state channels, router labels — and diagnostics for malformed attributes.
Invariant: the declaration's Python is never imported; only the attribute map is read.
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Callable
from dataclasses import field
from typing import Any, TypeVar

import agentc.ir as ir

from ..dsl import ast
from ..dsl.astclass import Record, record
from ..dsl.codes import Code
from ..dsl.diagnostics import Diagnostic, error
from .pyscan import Visibility
from .suggest import did_you_mean
from .typecheck import to_json
from .types import Ty, TypeScope, resolve_type

Report = Callable[[Diagnostic], None]
_E = TypeVar("_E", bound=enum.Enum)

KNOWN_ATTRS = (
    "hooks",
    "jumps",
    "seats",
    "tools",
    "state",
    "labels",
    "needs_checkpointer",
    "tool_name_param",
    "instance_key",
)


@record
class ParamInfo(Record):
    name: str
    ty: Ty
    default: ast.Expr | None
    doc: str | None
    span: ast.Span

    @property
    def required(self) -> bool:
        return self.default is None

    def default_json(self) -> Any:
        """The declared default as JSON, for a parameter not given (checked: it has one)."""
        assert self.default is not None, self.name
        return to_json(self.default)


@record
class StateDecl(Record):
    """`state: { name: "type" }` or `{ name: { type: "…", visibility: "private" } }`."""

    name: str
    type: str
    visibility: Visibility = Visibility.PUBLIC


@record
class DeclInfo(Record):
    kind: str
    name: str
    params: dict[str, ParamInfo]
    impl: ir.ImportRef
    hooks: tuple[ir.HookPoint, ...] = ()
    jumps: dict[ir.HookPoint, tuple[ir.JumpTarget, ...]] = field(default_factory=dict)
    seats: tuple[str, ...] = ()
    tools: tuple[str, ...] = ()
    tool_name_param: str | None = None
    instance_key: str | None = None  # the parameter that names an instance: `pii[email]`
    state: tuple[StateDecl, ...] = ()  # private state channels, in order
    labels: tuple[str, ...] = ()
    needs_checkpointer: bool = False
    # `needs_checkpointer: { exit_behavior: "ask" }`: only when that parameter has that value
    checkpointer_when: tuple[tuple[str, str], ...] = ()
    decl: ast.DeclareDecl | None = None


@functools.lru_cache(maxsize=1024)
def span_ir(span: ast.Span) -> ir.SourceSpan:
    """The IR's span for an AST span (both frozen: one `use` line's span, converted for each
    of the thousands of nodes that name its module, is built once)."""
    return ir.SourceSpan(
        file=span.file,
        line=span.start.line,
        col=span.start.col,
        end_line=span.end.line,
        end_col=span.end.col,
        offset=span.start.offset,
        end_offset=span.end.offset,
    )


def import_ref(text: str, span: ast.Span, is_file: bool = False) -> ir.ImportRef | None:
    module, sep, attr = text.partition(":")
    if not sep or not module or not attr:
        return None
    return ir.ImportRef(module=module, attr=attr, is_file=is_file, span=span_ir(span))


def read_decl(decl: ast.DeclareDecl, scope: TypeScope, report: Report) -> DeclInfo:
    params = {
        p.name.text: ParamInfo(
            p.name.text,
            resolve_type(p.type, scope, report),
            p.default,
            p.doc.value if p.doc else None,
            p.span,
        )
        for p in decl.params
    }
    impl = import_ref(decl.impl.value, decl.impl.span)
    if impl is None:
        report(
            error(
                Code.BAD_DECLARATION,
                f"`{decl.impl.value}` is not an import reference",
                decl.impl.span,
                'expected "module:attribute"',
                help='write the implementation as "package.module:Name"',
            )
        )
        impl = ir.ImportRef(module="invalid", attr="invalid", span=span_ir(decl.impl.span))
    attrs = _read_attrs(decl.attrs, report)
    if isinstance(attrs.get("needs_checkpointer"), tuple):
        attrs["checkpointer_when"] = attrs.pop("needs_checkpointer")
    return DeclInfo(
        kind=decl.kind.text, name=decl.name.text, params=params, impl=impl, decl=decl, **attrs
    )


def _read_attrs(attrs: ast.MapLit | None, report: Report) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for entry in attrs.entries if attrs else ():
        key = entry.key.text
        reader = _ATTR_READERS.get(key)
        if reader is None:
            report(
                error(
                    Code.BAD_DECLARATION,
                    f"unknown declaration attribute `{key}`",
                    entry.key.span,
                    "unknown attribute",
                    help=did_you_mean(key, KNOWN_ATTRS),
                )
            )
            continue
        value = reader(entry.value, report)
        if value is not None:
            out[key] = value
    return out


def _words(expr: ast.Expr, report: Report) -> tuple[str, ...] | None:
    if not isinstance(expr, ast.ListLit):
        report(error(Code.BAD_DECLARATION, "expected a list of names", expr.span, "not a list"))
        return None
    words = []
    for item in expr.items:
        if isinstance(item, ast.Ref):
            words.append(item.dotted)
        elif isinstance(item, ast.StringLit):
            words.append(item.value)
        else:
            report(error(Code.BAD_DECLARATION, "expected a name", item.span, "not a name"))
    return tuple(words)


def _enum_words(enum_cls: type[_E], what: str) -> Callable[[ast.Expr, Report], tuple[_E, ...]]:
    def read(expr: ast.Expr, report: Report) -> tuple[_E, ...]:
        words = _words(expr, report) or ()
        out: list[_E] = []
        # strict=False: `_words` leaves out items that are not names (reported there)
        for word, item in zip(words, getattr(expr, "items", ()), strict=False):
            try:
                out.append(enum_cls(word))
            except ValueError:
                report(
                    error(
                        Code.BAD_DECLARATION,
                        f"unknown {what} `{word}`",
                        item.span,
                        f"not a {what}",
                        help=did_you_mean(word, [e.value for e in enum_cls]),
                    )
                )
        return tuple(out)

    return read


_read_hooks = _enum_words(ir.HookPoint, "hook point")
_read_jump_targets = _enum_words(ir.JumpTarget, "jump target")


def _read_jumps(
    expr: ast.Expr, report: Report
) -> dict[ir.HookPoint, tuple[ir.JumpTarget, ...]] | None:
    if not isinstance(expr, ast.MapLit):
        report(error(Code.BAD_DECLARATION, "expected a map of hook point → targets", expr.span))
        return None
    out: dict[ir.HookPoint, tuple[ir.JumpTarget, ...]] = {}
    for entry in expr.entries:
        word = ast.Ref(parts=(entry.key,), span=entry.key.span)
        point = _read_hooks(ast.ListLit(items=(word,), span=entry.key.span), report)
        if point:
            out[point[0]] = _read_jump_targets(entry.value, report)
    return out


def _read_state(expr: ast.Expr, report: Report) -> tuple[StateDecl, ...] | None:
    if not isinstance(expr, ast.MapLit):
        report(error(Code.BAD_DECLARATION, "expected a map of channel → type", expr.span))
        return None
    return tuple(d for d in (_state_entry(e, report) for e in expr.entries) if d is not None)


VISIBILITIES = tuple(v.value for v in Visibility)


def _state_entry(entry: ast.MapEntry, report: Report) -> StateDecl | None:
    """A channel's type text, and who sees it: `public` (input and output, the default),
    `private` (LangChain's PrivateStateAttr), `output_only` (OmitFromInput) or
    `input_only` (OmitFromOutput)."""
    name, value = entry.key.text, entry.value
    if isinstance(value, ast.StringLit):
        return StateDecl(name, value.value)
    if not isinstance(value, ast.MapLit):
        report(
            error(
                Code.BAD_DECLARATION,
                "expected a type string or { type, visibility }",
                value.span,
                "not a channel description",
            )
        )
        return None
    fields = {e.key.text: e.value for e in value.entries}
    for key in fields.keys() - {"type", "visibility"}:
        report(
            error(
                Code.BAD_DECLARATION,
                f"unknown channel attribute `{key}`",
                value.span,
                "expected `type` and `visibility`",
            )
        )
    ty = fields.get("type")
    vis = fields.get("visibility")
    vis_text = vis.value if isinstance(vis, ast.StringLit) else "public"
    if isinstance(vis, ast.StringLit) and vis_text not in VISIBILITIES:
        report(
            error(
                Code.BAD_DECLARATION,
                f"unknown visibility `{vis_text}`",
                vis.span,
                "not a visibility",
                help=did_you_mean(vis_text, VISIBILITIES),
            )
        )
        return None
    return StateDecl(
        name, ty.value if isinstance(ty, ast.StringLit) else "any", Visibility(vis_text)
    )


def _read_bool(expr: ast.Expr, report: Report) -> bool | None:
    if isinstance(expr, ast.BoolLit):
        return expr.value
    report(error(Code.BAD_DECLARATION, "expected true or false", expr.span))
    return None


def _read_checkpointer(expr: ast.Expr, report: Report) -> bool | tuple[tuple[str, str], ...] | None:
    """`true`, or `{ param: "value" }`: a checkpointer is needed when param is value."""
    if isinstance(expr, ast.MapLit):
        return tuple(
            (e.key.text, e.value.value) for e in expr.entries if isinstance(e.value, ast.StringLit)
        )
    return _read_bool(expr, report)


def _read_str(expr: ast.Expr, report: Report) -> str | None:
    if isinstance(expr, ast.StringLit):
        return expr.value
    report(error(Code.BAD_DECLARATION, "expected a string", expr.span))
    return None


_ATTR_READERS: dict[str, Callable[[ast.Expr, Report], object]] = {
    "hooks": _read_hooks,
    "jumps": _read_jumps,
    "seats": _words,
    "tools": _words,
    "state": _read_state,
    "labels": _words,
    "needs_checkpointer": _read_checkpointer,
    "tool_name_param": _read_str,
    "instance_key": _read_str,
}


def instance_name(base: str, info: DeclInfo, value: object) -> str:
    """An instance's name as LangChain derives it (`PIIMiddleware[email]`,
    `ToolCallLimitMiddleware[search]`): the declared name, plus `[value]` when the
    declaration's `instance_key` parameter is set to a string. So several `pii` entries
    (one per PII type) may sit in one agent, while two alike stay `duplicate-middleware`."""
    if info.instance_key and isinstance(value, str) and value:
        return f"{base}[{value}]"
    return base
