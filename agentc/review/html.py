"""One self-contained review page: the diagram (inline SVG) and the decision map table.

Input: an `ir.Graph` and its SVG from Graphviz. Output: `page(graph, svg)` → an HTML
document. Invariants: no script, no external stylesheet, font or image, so it opens in a
browser with no network; every text from the file is escaped.
"""

from __future__ import annotations

import html
import re

import agentc.ir as ir

from .decisions import DecisionMap, decision_map
from .render import because

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


def page(graph: ir.Graph, svg: str) -> str:
    dmap = decision_map(graph)
    title = f"{graph.kind.value} {graph.name}"
    changed = sum(1 for a in dmap.answers if a.changed)
    return "\n".join(
        [
            "<!DOCTYPE html>",
            '<html lang="en"><head><meta charset="utf-8">',
            f"<title>{html.escape(title)} — agentc review</title>",
            f"<style>{_STYLE}</style>",
            "</head><body>",
            f"<h1>{html.escape(title)}</h1>",
            f'<p class="muted">{html.escape(graph.doc or "")} From '
            f"<code>{html.escape(dmap.file)}</code>.</p>",
            "<h2>Graph</h2>",
            f'<div class="diagram">{_inline_svg(svg)}</div>',
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
