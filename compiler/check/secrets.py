"""Credentials written in a file: refused wherever a file writes configuration.

Input: a `FileUnit`'s module. Output: one `secret-in-file` diagnostic per literal that
holds a credential, its primary span on the value itself (so `redact` can blank exactly
that text before any renderer shows the line). `secret_shape` also answers for any string
(the IR cache refuses to store a program holding one, agentc/ircache.py).

Where a literal is read: model strings and options, `output` options, middleware settings
(shell_tool's `env`, its commands), graph node and hook call arguments and node options,
`checkpoint` / `store` arguments (connection strings), every other `key value` setting,
`use` URLs (MCP servers) and `use` options, parameter defaults of declared middleware,
routers and templates. Never in prose — prompts, descriptions,
scripted replies (PROSE) — nor in schema and state declarations, whose field names (`key`,
`token`) are data.

Two tables, one mechanism for every site:
- by NAME (`NAME_WORDS`, `NAME_SUFFIXES`): the key's last word (split at `_`, `-`, `.`
  and case changes) names a credential, holding a non-empty string or number, or a list of
  them: `api_key`, `X-Goog-Api-Key`, `Cookie`, `OPENAI_API_KEY`, `auth`, `api_keys`.
  `max_tokens`, `token_budget` and `api_key_env` end in other words.
- by SHAPE (`SHAPES`): a string containing a well-known key format (`sk-…`, `ghp_…`,
  `AKIA…`, a JWT, `Bearer …`, …), or a URL with a password, an http user name, or a query
  or fragment parameter whose name is a credential name (`?api_key=…`).
Invariants: the AST is only read; no message repeats the value.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import replace
from urllib.parse import parse_qsl, urlsplit

from ...dsl import ast
from ...dsl.astclass import Record, record
from ...dsl.codes import Code
from ...dsl.diagnostics import Diagnostic, error
from ...dsl.source import SourceFile, Span

# ---------------------------------------------------------------- the tables

# A key whose last word is one of these holds a credential.
NAME_WORDS = frozenset(
    {
        "key", "keys", "apikey", "auth", "authorization", "bearer", "oauth", "jwt",
        "cookie", "cookies", "session", "token", "secret", "secrets", "password",
        "passwords", "passwd", "pwd", "pass", "credential", "credentials", "private",
        "signature", "sig",
    }
)  # fmt: skip
# …or ends with one of these (`APIKEY`, `PGPASSWORD`, `authtoken`, `clientsecret`).
NAME_SUFFIXES = ("key", "password", "passwd", "token", "secret")
# Prose: text for people or models, where "api keys" is a topic, not a credential.
PROSE = frozenset(
    {
        "prompt", "system_prompt", "summary_prompt", "description", "description_prefix",
        "tool_description", "edit_notice", "instructions", "replies", "doc", "message",
    }
)  # fmt: skip


def _basic_credentials(m: re.Match[str]) -> bool:
    """`Basic …` is an HTTP credential only when it decodes to `user:password`."""
    try:
        return b":" in base64.b64decode(m.group(1), validate=True)
    except (binascii.Error, ValueError):
        return False


@record
class Shape(Record):
    what: str  # "an OpenAI-style key": a message reads "{what} is written in the file"
    pattern: re.Pattern[str]
    confirm: Callable[[re.Match[str]], bool] | None = None


SHAPES = (
    Shape("an Anthropic key", re.compile(r"\bsk-ant-[A-Za-z0-9_-]{20,}")),
    Shape("an OpenAI-style key", re.compile(r"\bsk-[A-Za-z0-9_-]{20,}")),
    Shape("a Stripe key", re.compile(r"\b[rs]k_(?:live|test)_[A-Za-z0-9]{16,}")),
    Shape("a GitHub token", re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_\w{22,})")),
    Shape("a Slack token", re.compile(r"\bxox[abposr]-[A-Za-z0-9-]{10,}")),
    Shape("an AWS access key", re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b")),
    Shape("a Google API key", re.compile(r"\bAIza[0-9A-Za-z_-]{35}")),
    Shape("a Hugging Face token", re.compile(r"\bhf_[A-Za-z0-9]{30,}")),
    Shape("a JSON web token", re.compile(r"\beyJ[\w-]{8,}\.eyJ[\w-]{8,}\.[\w-]*")),
    Shape("a private key", re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----")),
    Shape("a bearer token", re.compile(r"(?i)^\s*(?:bearer|token)\s+[\w.~+/-]{8,}=*\s*$")),
    Shape(
        "HTTP basic credentials",
        re.compile(r"(?i)^\s*basic\s+([A-Za-z0-9+/]{4,}={0,2})\s*$"),
        _basic_credentials,
    ),
)
_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://[^\s\"'<>]+")
_USER_IS_A_TOKEN = ("http", "https", "ws", "wss")  # a user name alone is a token there
KEPT = frozenset("\"' \t\r\n")  # what `redact` leaves: the shape of the line, not its text
_WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")


# ---------------------------------------------------------------- the rules


def credential_name(name: str) -> bool:
    """Whether a key, header, variable or query parameter name says it holds a credential."""
    words = [w for w in _WORD.findall(name) if not w.isdigit()]  # `API_KEY_2` is a key too
    if not words:
        return False
    last = words[-1].lower()
    return last in NAME_WORDS or last.endswith(NAME_SUFFIXES)


def secret_shape(value: str) -> str | None:
    """What credential `value` contains by its shape ("a GitHub token"), or None."""
    for shape in SHAPES:
        m = shape.pattern.search(value)
        if m is not None and (shape.confirm is None or shape.confirm(m)):
            return shape.what
    for url in _URL.findall(value):
        found = _url_credential(url)
        if found is not None:
            return found
    return None


def _url_credential(url: str) -> str | None:
    try:
        parts = urlsplit(url)
        password, user = parts.password, parts.username
    except ValueError:  # a malformed host or port: not a URL anything would call
        return None
    if password:
        return "a URL with a password"
    if user and parts.scheme.lower() in _USER_IS_A_TOKEN:
        return "a URL with credentials before its host"
    for where in (parts.query, parts.fragment):
        for name, val in parse_qsl(where):
            if val and credential_name(name):
                return f"a URL with a `{name}` parameter"
    return None


# ---------------------------------------------------------------- where literals are read


def check_secrets(module: ast.Module) -> Iterator[Diagnostic]:
    for item in module.items:
        if isinstance(item, ast.UseDecl):  # an MCP server's URL, and any `{ … }` options
            if "://" in item.target.value:
                yield from _value(item.target, None)
            yield from _options(item.options)
        elif isinstance(item, (ast.AgentDecl, ast.GraphDecl)):
            for stmt in item.body:
                yield from _statement(stmt)
        elif isinstance(item, ast.DeclareDecl):  # a default is an argument nobody wrote
            for param in item.params:
                if param.default is not None:
                    yield from _value(param.default, param.name)


def _statement(stmt: ast.AgentStmt | ast.GraphStmt) -> Iterator[Diagnostic]:
    if isinstance(stmt, ast.ModelStmt):
        yield from _value(stmt.spec, None)
        yield from _options(stmt.options)
    elif isinstance(stmt, ast.OutputStmt):
        yield from _options(stmt.options)
    elif isinstance(stmt, ast.MiddlewareStmt):
        for m in stmt.items:
            yield from _options(m.config)
    elif isinstance(stmt, (ast.CheckpointStmt, ast.ToolsStmt)):
        yield from _value(stmt.value, None)
    elif isinstance(stmt, ast.SettingStmt):
        yield from _value(stmt.value, stmt.key)
    elif isinstance(stmt, ast.NodeDecl):
        yield from _value(stmt.value, None)
        yield from _options(stmt.options)
    elif isinstance(stmt, ast.HookDecl):
        yield from _value(stmt.value, None)
    elif isinstance(stmt, ast.RouteDecl) and isinstance(stmt.router, ast.Call):
        yield from _value(stmt.router, None)
    # prompts, state, limits, edges and interrupts hold no configuration strings


def _options(options: ast.MapLit | None) -> Iterator[Diagnostic]:
    if options is not None:
        yield from _value(options, None)


def _value(value: ast.Expr, key: ast.Name | None) -> Iterator[Diagnostic]:
    """The literal `value` written under `key` (None: a positional value or list item)."""
    if key is not None and key.text in PROSE:
        return
    if key is not None and credential_name(key.text) and _holds_literal(value):
        yield _secret(value.span, f"`{key.text}` is written in the file")
    elif isinstance(value, ast.StringLit):
        what = secret_shape(value.value)
        if what is not None:
            yield _secret(value.span, f"{what} is written in the file")
    elif isinstance(value, ast.MapLit):
        for entry in value.entries:
            yield from _value(entry.value, entry.key)
    elif isinstance(value, ast.ListLit):
        for item in value.items:
            yield from _value(item, None)
    elif isinstance(value, ast.Call):
        for arg in value.args:
            yield from _value(arg.value, arg.name)


def _holds_literal(value: ast.Expr) -> bool:
    """A non-empty string or a number, or a list holding one (`api_keys: ["…"]`)."""
    if isinstance(value, ast.StringLit):
        return bool(value.value.strip())
    if isinstance(value, (ast.IntLit, ast.FloatLit)):
        return True
    return isinstance(value, ast.ListLit) and any(_holds_literal(i) for i in value.items)


def _secret(span: Span, message: str) -> Diagnostic:
    return error(
        Code.SECRET_IN_FILE,
        message,
        span,
        "a credential in a file gets copied and committed",
        notes=("agentc never prints the value: it is shown as `*`",),
        help="keep it in an environment variable and name the variable instead "
        '(a model\'s key: `api_key_env: "MY_KEY"`)',
    )


# ---------------------------------------------------------------- never shown


def redact(
    sources: Mapping[str, SourceFile], diagnostics: Iterable[Diagnostic]
) -> dict[str, SourceFile]:
    """`sources` with every refused credential's text replaced by `*`, one per character
    (positions stay; quotes, spaces and line ends are kept), so no renderer prints a
    secret while pointing at it."""
    spans: dict[str, list[Span]] = {}
    for d in diagnostics:
        if d.code is Code.SECRET_IN_FILE:
            spans.setdefault(d.span.file, []).append(d.span)
    out = dict(sources)
    for name, found in spans.items():
        source = sources.get(name)
        if source is None:
            continue
        text = list(source.text)
        for span in found:
            for i in range(span.start.offset, span.end.offset):
                if text[i] not in KEPT:
                    text[i] = "*"
        out[name] = replace(source, text="".join(text))
    return out
