"""`agentc graph --format html`: a page meant to be shared — no path of the machine that
rendered it, every prompt in full, the structured-output schema, every middleware's model,
and every text escaped."""

from __future__ import annotations

import html
import re
from pathlib import Path

from agentc.cli import main

from .test_render import NEEDS_DOT

CASES = Path(__file__).parent / "cases" / "diff_prompt"

pytestmark = NEEDS_DOT


def render_page(capsys, tmp_path: Path, source: Path, *more: str) -> str:
    target = tmp_path / "page.html"
    code = main(["graph", str(source), "-f", "html", "-o", str(target), *more])
    _, err = capsys.readouterr()
    assert code == 0, err
    return target.read_text(encoding="utf-8")


def prompt_of(path: Path) -> str:
    from agentc.compiler.pipeline import compile_source

    result = compile_source(path.read_text(encoding="utf-8"), path.name, base_dir=str(path.parent))
    assert result.program is not None
    prompt = result.program.graphs[0].agent.prompt
    assert prompt is not None
    return prompt


def test_the_page_names_its_file_as_given_never_by_a_machine_path(capsys, tmp_path, monkeypatch):
    source = (CASES / "old.agent").resolve()
    assert source.is_absolute()
    page = render_page(capsys, tmp_path, source)
    assert str(source.parent) not in page and str(Path.cwd()) not in page
    assert not re.search(r"(?<![\w.:/])/(?:work|home|tmp|root|Users)/", page)
    assert "<code>old.agent</code>" in page
    monkeypatch.chdir(CASES.parent)  # a relative path is shown as given
    page = render_page(capsys, tmp_path, Path("diff_prompt/old.agent"))
    assert "<code>diff_prompt/old.agent</code>" in page


def test_the_page_shows_the_whole_prompt_the_schema_and_the_middleware_model(capsys, tmp_path):
    page = render_page(capsys, tmp_path, CASES / "old.agent")
    prompt = prompt_of(CASES / "old.agent")
    assert len(prompt) > 800 and html.escape(prompt) in page
    assert "DO NOT make any DML statements" in page
    # the structured-output schema, field by field
    assert "<h2>Structured output</h2>" in page
    row = (
        "<tr><td><code>query</code></td><td><code>str</code></td><td>yes</td>"
        "<td>the SQL query that produced it</td></tr>"
    )
    assert row in page
    # the tool descriptions as the model reads them, and the summarization model
    assert "Only SELECT statements are allowed." in page
    assert "<code>middleware.summarization.model</code>" in page
    assert "openai:gpt-4.1-nano" in page


def test_every_text_is_escaped(capsys, tmp_path):
    source = tmp_path / "x.agent"
    source.write_text(
        'agentc 1\nschema A { v: str "<b>bold</b>" }\n'
        'agent x {\n  model "openai:gpt-4o-mini"\n'
        '  prompt "Hi <script>alert(1)</script> & bye"\n  output A via tool\n}\n',
        encoding="utf-8",
    )
    page = render_page(capsys, tmp_path, source)
    assert "<script" not in page and "<b>bold" not in page
    assert "Hi &lt;script&gt;alert(1)&lt;/script&gt; &amp; bye" in page
    assert "&lt;b&gt;bold&lt;/b&gt;" in page
