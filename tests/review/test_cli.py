"""`agentc graph` and `agentc explain` on real files: examples/*.agent and tests/review/cases."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from support.golden import check_golden

from agentc import ir
from agentc.cli import main
from agentc.compiler import pipeline

from .test_render import NEEDS_DOT, expected_edges, svg_elements

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted(ROOT.glob("examples/*.agent")) + sorted(
    (Path(__file__).parent / "cases").glob("*.agent")
)


def compiled(path: Path) -> ir.Program:
    result = pipeline.compile_source(
        path.read_text(encoding="utf-8"), str(path), base_dir=str(path.parent)
    )
    assert result.program is not None, [d.message for d in result.diagnostics]
    return result.program


def cases() -> list[tuple[Path, str]]:
    return [(p, g.name) for p in FILES for g in compiled(p).graphs if "." not in g.name]


CASES = cases()
IDS = [f"{p.stem}-{name}" for p, name in CASES]


@pytest.fixture(autouse=True)
def _in_repo_root(monkeypatch):
    """Relative paths on the command line, so spans (and golden files) carry no machine path."""
    monkeypatch.chdir(ROOT)


def rel(path: Path) -> str:
    return str(path.relative_to(ROOT))


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(("path", "name"), CASES, ids=IDS)
@pytest.mark.parametrize("fmt", ["mermaid", "dot"])
def test_graph_text_golden(request, capsys, path, name, fmt):
    code, out, err = run_cli(capsys, "graph", rel(path), "--agent", name, "--format", fmt)
    assert code == 0, err
    check_golden(request, f"{path.stem}.{name}.{'mmd' if fmt == 'mermaid' else 'dot'}", out)


@pytest.mark.parametrize(("path", "name"), CASES, ids=IDS)
@pytest.mark.parametrize("fmt", ["text", "markdown", "json"])
def test_explain_golden(request, capsys, path, name, fmt):
    code, out, err = run_cli(capsys, "explain", rel(path), "--agent", name, "--format", fmt)
    assert code == 0, err
    ext = {"text": "txt", "markdown": "md", "json": "json"}[fmt]
    if fmt == "json":
        assert str(ROOT) not in out
        json.loads(out)
    check_golden(request, f"{path.stem}.{name}.explain.{ext}", out)


@NEEDS_DOT
@pytest.mark.parametrize(("path", "name"), CASES, ids=IDS)
def test_svg_has_every_node_and_edge(tmp_path, capsys, path, name):
    target = tmp_path / "g.svg"
    code, _, err = run_cli(
        capsys, "graph", str(path), "--agent", name, "-f", "svg", "-o", str(target)
    )
    assert code == 0, err
    graph = compiled(path).graph(name)
    nodes, edges = svg_elements(target.read_bytes())
    assert {n.name for n in graph.nodes} | {ir.START, ir.END} <= nodes
    assert expected_edges(graph) == edges


@NEEDS_DOT
@pytest.mark.parametrize(("path", "name"), CASES, ids=IDS)
def test_png_renders(tmp_path, capsys, path, name):
    target = tmp_path / "g.png"
    code, _, err = run_cli(
        capsys, "graph", str(path), "--agent", name, "-f", "png", "-o", str(target)
    )
    assert code == 0, err
    assert target.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


@NEEDS_DOT
def test_html_is_one_self_contained_page(tmp_path, capsys):
    path = Path(__file__).parent / "cases" / "janitor.agent"
    target = tmp_path / "janitor.html"
    code, _, err = run_cli(capsys, "graph", str(path), "-f", "html", "-o", str(target))
    assert code == 0, err
    page = target.read_text(encoding="utf-8")
    assert page.count("<svg") == 1 and "<script" not in page
    assert "http://" not in page.replace("http://www.w3.org/", "")
    assert "https://" not in page
    assert "<td>D9</td>" in page and "delete_file" in page
    ET.fromstring(page[page.index("<svg") : page.index("</svg>") + 6])


def test_missing_dot_names_the_package_and_text_still_works(capsys, monkeypatch):
    monkeypatch.setenv("PATH", "/nonexistent")
    path = str(FILES[0])
    code, _, err = run_cli(capsys, "graph", path, "-f", "svg", "-o", "/tmp/never.svg")
    assert code == 2 and "graphviz" in err and "Traceback" not in err
    assert run_cli(capsys, "graph", path, "-f", "dot")[0] == 0
    assert run_cli(capsys, "graph", path, "-f", "mermaid")[0] == 0


def test_unknown_agent_is_a_clear_error(capsys):
    code, _, err = run_cli(capsys, "graph", str(FILES[0]), "--agent", "nope")
    assert code == 2 and "no agent or graph named `nope`" in err


def test_unreadable_file(capsys):
    code, _, err = run_cli(capsys, "explain", "/nonexistent/x.agent")
    assert code == 2 and "cannot read" in err


def test_explain_diff_moves_D9_to_human(request, tmp_path, capsys):
    cases_dir = Path(__file__).parent / "cases"
    old = tmp_path / "janitor.agent"
    text = (cases_dir / "janitor.agent").read_text(encoding="utf-8")
    old.write_text(
        text.replace(
            "human_review { interrupt_on: { delete_file: true, read_file: false } }\n", ""
        ),
        encoding="utf-8",
    )
    (tmp_path / "files.py").write_text((cases_dir / "files.py").read_text(), encoding="utf-8")
    code, out, err = run_cli(
        capsys, "explain", "--diff", str(old), str(cases_dir / "janitor.agent"), "--exit-code"
    )
    assert code == 1, err
    assert "D9   code → human + code" in out
    # the key that decides, not the middleware line: `delete_file: true` at 18:36
    assert "`delete_file` in `interrupt_on` of middleware `human_review` at 18:36" in out
    code, out, _ = run_cli(capsys, "explain", "--diff", str(old), str(old), "--exit-code")
    assert code == 0 and "no seat changed" in out
