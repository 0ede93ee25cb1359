"""The `trace` line of an `agent` or `graph` block: where `agentc run` sends the run's
OpenTelemetry spans when the command line does not say.

Input: the block's `trace` setting. Output: diagnostics (`bad-trace`), and `trace_target`,
the one reading of the line that lowering uses too. The forms are `agentc run --trace`'s:
`"otlp://HOST:PORT"`, an `"http(s)://…"` collector URL, a `"FILE.jsonl"`, or `none`
(tracing off, even when the OTEL_* variables turn it on); a map `{ to: …, content: true }`
adds message contents. Keys never come from the file: a URL with a password in it is
`secret-in-file` (check/secrets.py); headers go in OTEL_EXPORTER_OTLP_HEADERS.
"""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import urlsplit

from ...dsl import ast
from ...dsl.astclass import Record, record
from ...dsl.codes import Code
from ...dsl.diagnostics import Diagnostic, error
from ..suggest import did_you_mean
from ..typecheck import describe

FORMS = '"otlp://HOST:PORT", an "http(s)://…" collector URL, a "FILE.jsonl", or none'
EXAMPLE = 'write `trace "otlp://127.0.0.1:6006"` or `trace { to: "run.jsonl", content: true }`'
KEYS = ("to", "content")


@record
class TraceLine(Record):
    """What a checked `trace` line says: `target` None is `trace none`."""

    target: str | None
    content: bool


def trace_target(stmt: ast.SettingStmt) -> TraceLine:
    """The line as data (after `check_trace` found no error in it)."""
    v = stmt.value
    if isinstance(v, ast.StringLit):
        return TraceLine(v.value, False)
    if isinstance(v, ast.MapLit):
        entries = {e.key.text: e.value for e in v.entries}
        to, content = entries.get("to"), entries.get("content")
        target = to.value if isinstance(to, ast.StringLit) else None
        return TraceLine(target, isinstance(content, ast.BoolLit) and content.value)
    return TraceLine(None, False)


def check_trace(stmt: ast.SettingStmt) -> Iterator[Diagnostic]:
    v = stmt.value
    if _is_none(v):
        return
    if isinstance(v, ast.StringLit):
        yield from _target(v)
        return
    if isinstance(v, ast.MapLit):
        yield from _map(v)
        return
    yield error(
        Code.BAD_TRACE,
        f"`trace` takes where to send the spans, found {describe(v)}",
        v.span,
        f"expected {FORMS}",
        help=EXAMPLE,
    )


def _is_none(v: ast.Expr) -> bool:
    return isinstance(v, ast.NoneLit) or (isinstance(v, ast.Ref) and v.dotted == "none")


def _map(v: ast.MapLit) -> Iterator[Diagnostic]:
    seen = {e.key.text: e for e in v.entries}
    for entry in v.entries:
        if entry.key.text not in KEYS:
            yield error(
                Code.BAD_TRACE,
                f"`trace` has no setting `{entry.key.text}`",
                entry.key.span,
                "expected `to` or `content`",
                help=did_you_mean(entry.key.text, KEYS),
            )
    to = seen.get("to")
    if to is None:
        yield error(
            Code.BAD_TRACE,
            "`trace { … }` needs `to`",
            v.span,
            "no place for the spans",
            help=EXAMPLE,
        )
    elif isinstance(to.value, ast.StringLit):
        yield from _target(to.value)
    else:
        yield error(
            Code.BAD_TRACE,
            f"`to` takes a string, found {describe(to.value)}",
            to.value.span,
            f"expected {FORMS}",
        )
    content = seen.get("content")
    if content is not None and not isinstance(content.value, ast.BoolLit):
        yield error(
            Code.BAD_TRACE,
            f"`content` is true or false, found {describe(content.value)}",
            content.value.span,
            "expected true or false",
        )


def _target(lit: ast.StringLit) -> Iterator[Diagnostic]:
    text = lit.value
    if text.endswith(".jsonl"):
        return
    parts = urlsplit(text)
    if parts.scheme == "otlp" and parts.hostname and _port(parts.netloc):
        return
    if parts.scheme in ("http", "https") and parts.hostname:
        return
    yield error(
        Code.BAD_TRACE,
        f"{text!r} names no place to send traces",
        lit.span,
        f"expected {FORMS}",
        help="otlp:// needs a host and a port, e.g. otlp://127.0.0.1:4318"
        if parts.scheme == "otlp"
        else EXAMPLE,
    )


def _port(netloc: str) -> bool:
    host, _, port = netloc.rpartition(":")
    return bool(host) and port.isdigit()
