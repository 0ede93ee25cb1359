"""One self-contained review page: the diagram, what the model reads, and the decision map.

Input: an `ir.Graph`, its SVG from Graphviz and, when at hand, its `ir.Program` (for the
structured-output schemas and the sub-agents). Output: `page(graph, svg, program)` → an
HTML document: the diagram, the models (the agent's and every middleware's), every text
that steers the model in full (`steering.py`), the structured-output schemas field by
field, every setting (`settings.py`), then the decision map table.

Invariants: no script, no external stylesheet, font or image, so it opens in a browser with
no network; every text from the file is escaped; the page names its file as given on the
command line when that is relative, else by its name alone — a page meant to be shared
never carries a path of the machine that rendered it.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import agentc.ir as ir

from .decisions import DecisionMap, decision_map
from .render import because, where
from .settings import Setting, settings
from .steering import SteeringText, output_schemas, reachable, steering_texts

_STYLE = """
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Helvetica, Arial, sans-serif;
       margin: 2em auto; max-width: 1200px; padding: 0 1em; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 2em; }
.diagram { overflow-x: auto; border: 1px solid #ddd; padding: 1em; background: #fff; }
.diagram svg { max-width: 100%; height: auto; }
table { border-collapse: collapse; width: 100%; }
th, td { border-bottom: 1px solid #e4e4e4; padding: 4px 8px; text-align: left;
         vertical-align: top; }
th { background: #f6f6f6; position: sticky; top: 0; }
tr.changed td:first-child { border-left: 4px solid #6a5acd; }
.holder { font-weight: 600; white-space: nowrap; }
.human { color: #b0306b; } .llm { color: #2f6fb0; } .external { color: #8a6d00; }
.none, .unknown { color: #999; }
code { background: #f3f3f3; padding: 0 3px; border-radius: 3px; }
.muted { color: #777; }
pre.text { white-space: pre-wrap; background: #f8f8f8; border-left: 3px solid #2f6fb0;
           padding: 6px 10px; margin: 4px 0 14px; font: 13px/1.4 ui-monospace, monospace; }
"""


def _inline_svg(svg: str) -> str:
    """Graphviz's SVG without the XML prolog and doctype, ready to sit inside HTML."""
    return re.sub(r"^.*?(?=<svg)", "", svg, count=1, flags=re.S)


def _code(text: str) -> str:
    """Escape, then show `backticked` names as code."""
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", html.escape(text))


def _rows(dmap: DecisionMap) -> list[str]:
    rows = []
    for answer in dmap.answers:
        css = "changed" if answer.changed else ""
        for i, part in enumerate(answer.parts):
            head = (
                f"<td>{answer.seat.id}</td><td>{answer.seat.kind.value}</td>"
                f"<td>{html.escape(answer.seat.question)}</td>"
                if i == 0
                else "<td></td><td></td><td></td>"
            )
            decided_by = because(part, dmap.file) or "default"
            rows.append(
                f'<tr class="{css}">{head}<td class="holder {part.holder.value}">'
                f"{part.holder.value}</td><td>{_code(part.answer)}</td>"
                f'<td class="muted">{_code(decided_by)}</td></tr>'
            )
    return rows


def _counts(dmap: DecisionMap) -> list[str]:
    return [f"<tr><td>{k.value} · {h.value}</td><td>{n}</td></tr>" for k, h, n in dmap.counts]


def shown_path(path: str) -> str:
    """The file as given when relative and inside the working directory, else its name."""
    p = Path(path)
    if p.is_absolute() or ".." in p.parts:
        return p.name
    return path


def _texts(texts: tuple[SteeringText, ...], home: str) -> list[str]:
    if not texts:
        return [
            '<p class="muted">No prompt or description: the model reads only the conversation.</p>'
        ]
    out = []
    for t in texts:
        at = where(t.span, home)
        out.append(
            f"<h3><code>{html.escape(t.key)}</code> — {_code(t.label)}"
            + (f' <span class="muted">at {html.escape(at)}</span>' if at else "")
            + f'</h3><pre class="text">{html.escape(t.text)}</pre>'
        )
    return out


def type_text(schema: object) -> str:
    """A JSON Schema as a reader writes the type: `list[str]`, `"a" | "b"`, `Answer`."""
    if not isinstance(schema, dict):
        return "any"
    if "$ref" in schema:
        return str(schema["$ref"]).rpartition("/")[2]
    if "enum" in schema:
        return " | ".join(repr(v) if not isinstance(v, str) else f'"{v}"' for v in schema["enum"])
    for key in ("anyOf", "oneOf"):
        if isinstance(schema.get(key), list):
            return " | ".join(type_text(s) for s in schema[key])
    names = {
        "string": "str",
        "integer": "int",
        "number": "float",
        "boolean": "bool",
        "null": "none",
        "object": "map",
    }
    kind = schema.get("type")
    if kind == "array":
        return f"list[{type_text(schema.get('items'))}]"
    if isinstance(kind, str):
        return names.get(kind, kind)
    return "any"


def _schemas(graph: ir.Graph, program: ir.Program | None) -> list[str]:
    known = {s.name: s for s in program.schemas} if program else {}
    out = []
    for name in output_schemas(graph):
        spec = known.get(name)
        if spec is None:
            out.append(f"<p><code>{html.escape(name)}</code></p>")
            continue
        doc = spec.json_schema.get("description") or spec.doc or ""
        out.append(f"<h3><code>{html.escape(name)}</code> {html.escape(str(doc))}</h3>")
        out.append(
            "<table><thead><tr><th>field</th><th>type</th><th>required</th>"
            "<th>description</th></tr></thead><tbody>"
        )
        props = spec.json_schema.get("properties")
        required = spec.json_schema.get("required") or []
        for field, sub in props.items() if isinstance(props, dict) else ():
            desc = sub.get("description", "") if isinstance(sub, dict) else ""
            out.append(
                f"<tr><td><code>{html.escape(field)}</code></td>"
                f"<td><code>{html.escape(type_text(sub))}</code></td>"
                f"<td>{'yes' if field in required else 'no'}</td>"
                f"<td>{html.escape(str(desc))}</td></tr>"
            )
        out.append("</tbody></table>")
    return out or ['<p class="muted">None: the answer is the model\'s last message.</p>']


def is_model_setting(s: Setting) -> bool:
    """`model`, `helper.model`, `middleware.summarization.model`, `node.n.model`, …"""
    return s.key.rsplit(".", 1)[-1] in ("model", "models")


def _settings_rows(found: tuple[Setting, ...], home: str) -> list[str]:
    return [
        f"<tr><td><code>{html.escape(s.key)}</code></td><td><code>{html.escape(s.value)}"
        f'</code></td><td class="muted">{html.escape(where(s.span, home))}</td></tr>'
        for s in found
    ]


def _table(head: str, rows: list[str]) -> list[str]:
    cells = "".join(f"<th>{h}</th>" for h in head.split("|"))
    return [f"<table><thead><tr>{cells}</tr></thead><tbody>", *rows, "</tbody></table>"]


def page(graph: ir.Graph, svg: str, program: ir.Program | None = None) -> str:
    dmap = decision_map(graph, program=program)
    title = f"{graph.kind.value} {graph.name}"
    changed = sum(1 for a in dmap.answers if a.changed)
    found = settings(graph, program)
    models = [s for s in found if is_model_setting(s)]
    subs = [g.name for prefix, g in reachable(graph, program) if prefix]
    return "\n".join(
        [
            "<!DOCTYPE html>",
            '<html lang="en"><head><meta charset="utf-8">',
            f"<title>{html.escape(title)} — agentc review</title>",
            f"<style>{_STYLE}</style>",
            "</head><body>",
            f"<h1>{html.escape(title)}</h1>",
            f'<p class="muted">{html.escape(graph.doc or "")} From '
            f"<code>{html.escape(shown_path(dmap.file))}</code>.</p>",
            "<h2>Graph</h2>",
            f'<div class="diagram">{_inline_svg(svg)}</div>',
            "<h2>Models</h2>",
            "<p>Every model this file names: the agent's own, its middleware's (a summary "
            "model, fallbacks …) and its sub-agents'"
            + (f" ({', '.join(f'<code>{html.escape(n)}</code>' for n in subs)})" if subs else "")
            + ".</p>",
            *_table("setting|model|where", _settings_rows(tuple(models), dmap.file)),
            "<h2>What the model reads</h2>",
            "<p>Every text that steers the model, in full, as it is sent: system prompts, "
            "tool descriptions (docstrings), schema and middleware texts.</p>",
            *_texts(steering_texts(graph, program), dmap.file),
            "<h2>Structured output</h2>",
            *_schemas(graph, program),
            "<h2>Settings</h2>",
            *_table("setting|value|where", _settings_rows(found, dmap.file)),
            "<h2>Decision map</h2>",
            f"<p>{len(dmap.answers)} seats; {changed} decided by this file (marked, listed "
            "first).</p>",
            "<table><thead><tr><th>seat</th><th>kind</th><th>question</th><th>holder</th>"
            "<th>answer here</th><th>decided by</th></tr></thead><tbody>",
            *_rows(dmap),
            "</tbody></table>",
            "<h2>Holders</h2>",
            "<table><thead><tr><th>kind · holder</th><th>seats</th></tr></thead><tbody>",
            *_counts(dmap),
            "</tbody></table>",
            "</body></html>",
            "",
        ]
    )
