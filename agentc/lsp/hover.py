"""Hover cards: what the word under the cursor means.

Input: an analysed document and an offset. Output: Markdown, or None — a keyword's meaning;
a middleware's (router's, template's) parameters with their types and defaults, read from
its declaration in the prelude or the file; a Python tool's signature and docstring from
the static scan (never imported); a node's, channel's, agent's or schema's declaration.
"""

from __future__ import annotations

import re

from ..compiler.resolve import prelude_unit
from ..dsl import ast
from ..dsl.source import SourceFile, Span
from . import python
from .analysis import Analysis
from .index import Kind, Symbol

KEYWORDS = {
    "agentc": "`agentc N` — the language version this file is written for.",
    "use": '`use "./tools.py" as tools` — a Python module, another `.agent` file or an MCP '
    "server, under an alias.",
    "schema": "`schema Name { field: type … }` — a structured output or state type.",
    "agent": "`agent name { … }` — an agent built by the standard `create_agent` template: "
    "a model, a prompt, tools, middleware, limits.",
    "graph": "`graph name { … }` — a hand-built graph: state channels, nodes, edges, routes.",
    "model": '`model "provider:name" { options }` — the chat model the agent calls.',
    "prompt": '`prompt "…"` — the system prompt.',
    "tools": "`tools [module.function, other_agent, …]` — what the model may call.",
    "output": "`output Schema via tool|provider|auto` — the structured response.",
    "middleware": "`middleware { name { params } … }` — hooks around the model and tool calls, "
    "in order (or, at top level, a declaration of one).",
    "state": "`state { name: type = default reduce reducer }` — the channels of the run's state.",
    "limits": "`limits { steps: 25, step_timeout: 30s }` — when a run stops.",
    "interrupt": "`interrupt before|after node, …` — pause the run there for a person.",
    "checkpoint": '`checkpoint sqlite("path") | memory` — where threads are saved.',
    "store": '`store memory | sqlite("path") | postgres(…) | none` — the long-term store tools '
    "and middleware may read and write.",
    "trace": '`trace "otlp://HOST:PORT" | "FILE.jsonl" | { to: …, content: true } | none` — where '
    "`agentc run` sends the run's OpenTelemetry spans unless `--trace` says otherwise.",
    "node": '`node name = python(module.fn) | model("…") | agent(other) | subgraph(g)`.',
    "edge": "`edge a -> b [when condition | otherwise]`; `edge a -> [b, c]` fans out; "
    "`edge [a, b] -> c` waits for both.",
    "route": "`route node by router { label -> target }` — the router's answer picks the "
    "next node.",
    "hook": "`hook before|after node = python(module.fn)` — run a function around a node.",
    "router": '`router name(params) = "module:attr"` — declares a routing function.',
    "template": '`template name(params) = "module:attr"` — declares a block template.',
    "when": "`when condition` — the edge is taken when the condition holds.",
    "otherwise": "`otherwise` — the edge taken when no `when` edge from the node holds.",
    "reduce": "`reduce append|merge|add|replace` — how writes to a channel combine.",
    "via": "`via tool|provider|auto` — how the structured response is obtained.",
    "by": "`route node by router` — names the router that picks the next node.",
    "START": "`START` — where every run of the graph begins.",
    "END": "`END` — where a run finishes.",
    "test": '`test "name" { input … expect … }` — a behaviour test that `agentc test` runs '
    "(in `NAME.test.agent`, beside the file it tests).",
    "input": '`input "text"` or `input { channel: value }` — one turn of the test\'s run; a '
    "second `input` continues the same conversation.",
    "expect": "`expect answer|tools|tool|route|state|output|interrupt|usage VALUE` — what must "
    "have happened since the last `input`; the test fails and points here otherwise.",
    "decide": '`decide approve | edit(arg: value) | reject("why") | respond("…") | '
    "resume(value)` — the answer to the review the run paused for.",
    "replay": '`replay "run.jsonl"` — serve the test\'s model calls from a recorded cassette '
    "(`agentc test --update` records it again).",
}
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")


def word_at(text: str, offset: int) -> tuple[str, int, int] | None:
    """The (dotted) word under `offset` and its bounds."""
    line_start = text.rfind("\n", 0, offset) + 1
    line_end = text.find("\n", offset)
    line_end = len(text) if line_end < 0 else line_end
    for m in _WORD.finditer(text, line_start, line_end):
        if m.start() <= offset <= m.end():
            return m.group(), m.start(), m.end()
    return None


def hover(a: Analysis, offset: int) -> str | None:
    found = word_at(a.source.text, offset)
    if found is None or _in_string_or_comment(a.source.text, offset):
        return None
    word, start, _ = found
    parts = word.split(".")
    at, which = start, 0
    for i, part in enumerate(parts):
        if at <= offset <= at + len(part):
            which = i
            break
        at += len(part) + 1
    if which == 1 and (Kind.MODULE, "", parts[0]) in a.index.symbols:
        return python_card(a, parts[0], parts[1])
    if which:
        return None
    occurrence = a.index.at(offset)
    if occurrence is not None:
        return symbol_card(a, a.index.symbols[occurrence.key])
    return KEYWORDS.get(word) if len(parts) == 1 else None


def _in_string_or_comment(text: str, offset: int) -> bool:
    line_start = text.rfind("\n", 0, offset) + 1
    before = text[line_start:offset]
    return before.count('"') % 2 == 1 or "#" in before.replace('"#', "")


def python_card(a: Analysis, alias: str, name: str) -> str | None:
    found = python.target(a.module, a.base_dir, alias, name)
    if found is None:
        return None
    if found.function is not None:
        doc = found.function.doc or ""
        return f"```python\n{python.signature(found.function)}\n```\n\n{doc}".rstrip()
    if found.cls is not None:
        return f"```python\nclass {found.cls.name}\n```\n\n{found.cls.doc or ''}".rstrip()
    return None


def _text(source: SourceFile, span: Span) -> str:
    return source.text[span.start.offset : span.end.offset]


def symbol_card(a: Analysis, symbol: Symbol) -> str:
    decl = symbol.decl
    in_prelude = symbol.span.file != a.filename
    source = prelude_unit().source if in_prelude else a.source
    if isinstance(decl, ast.DeclareDecl):
        return declaration_card(source, decl, in_prelude)
    first_line = source.line_text(decl.span.start.line).strip()
    card = f"**{symbol.kind.value}** `{symbol.name}`\n\n```agentc\n{first_line}\n```"
    doc = decl.doc if isinstance(decl, ast.AgentDecl | ast.GraphDecl | ast.SchemaDecl) else None
    if isinstance(decl, ast.FieldDecl):
        doc = decl.doc
    if doc is not None:
        card += f"\n\n{doc.value}"
    return card


def declaration_card(source: SourceFile, decl: ast.DeclareDecl, in_prelude: bool) -> str:
    """A middleware's (router's, template's) parameters, types and defaults."""
    where = "built in (the stdlib prelude)" if in_prelude else "declared in this file"
    lines = [f"**{decl.kind.text}** `{decl.name.text}` — {where}"]
    if decl.doc is not None:
        lines += ["", decl.doc.value]
    if decl.params:
        lines += ["", "| parameter | type | default |", "| --- | --- | --- |"]
    for p in decl.params:
        default = f"`{_text(source, p.default.span)}`" if p.default is not None else "required"
        doc = f" — {p.doc.value}" if p.doc is not None else ""
        kind = _text(source, p.type.span).replace("|", "\\|")
        lines.append(f"| `{p.name.text}`{doc} | `{kind}` | {default} |")
    lines += ["", f"implemented by `{decl.impl.value}`"]
    return "\n".join(lines)
