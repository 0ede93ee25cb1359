"""The decision map a newcomer reads: a plain summary first, then only the seats this file
changes (ids in a column), the full table behind `--all`; every middleware said in words;
no seat answered UNKNOWN; a hand-built graph's own nodes described."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from agentc import ir
from agentc.cli import main
from agentc.compiler import pipeline
from agentc.compiler.context import prelude_decls
from agentc.review.mwtext import DESCRIBERS

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted(ROOT.glob("examples/**/*.agent")) + sorted(
    (Path(__file__).parent / "cases").glob("*.agent")
)


@pytest.fixture(autouse=True)
def _in_repo_root(monkeypatch):
    monkeypatch.chdir(ROOT)


def run(capsys, *argv: str) -> str:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


def graphs_of(path: Path) -> list[str]:
    result = pipeline.compile_source(
        path.read_text(encoding="utf-8"), str(path), base_dir=str(path.parent)
    )
    assert result.program is not None, [d.message for d in result.diagnostics]
    return [g.name for g in result.program.graphs]


CASES = [(p, name) for p in FILES for name in graphs_of(p)]


@pytest.mark.parametrize(
    ("path", "name"), CASES, ids=[f"{p.relative_to(ROOT)}-{n}" for p, n in CASES]
)
def test_no_seat_is_unknown_in_any_example(capsys, path, name):
    rel = str(path.relative_to(ROOT))
    for extra in ([], ["--all"], ["--format", "json"], ["--all", "--format", "markdown"]):
        out = run(capsys, "explain", rel, "--agent", name, *extra)
        assert "UNKNOWN" not in out and "not in the published map" not in out
        assert '"holder": "unknown"' not in out


def test_default_text_leads_with_the_summary_and_no_kind_column(capsys):
    out = run(capsys, "explain", "tests/review/cases/janitor.agent")
    assert out.startswith(
        "decision map of agent `janitor` (janitor.agent)\n\nWhat this file decides\n  model "
    )
    assert not re.search(r"\bRULE\b|\bRULING\b", out)
    seats = re.findall(r"^([A-I]\d+) ", out, re.M)
    assert seats and "A2" not in seats  # at its default: only behind --all
    assert "  reviews      held for a person's review: `delete_file`   (18:36)" in out


def test_all_shows_the_full_table(capsys):
    out = run(capsys, "explain", "tests/review/cases/janitor.agent", "--all")
    seats = re.findall(r"^([A-I]\d+) +(?:RULE|RULING) ", out, re.M)
    assert len(seats) == len(set(seats)) == 94
    assert "holders (kind · holder → seats)" in out
    md = run(capsys, "explain", "tests/review/cases/janitor.agent", "--format", "markdown")
    assert "## What this file decides" in md and "| A2 |" not in md
    md_all = run(
        capsys, "explain", "tests/review/cases/janitor.agent", "--format", "markdown", "--all"
    )
    assert "| A2 | RULING |" in md_all


def test_json_stays_complete(capsys):
    data = json.loads(
        run(capsys, "explain", "tests/review/cases/janitor.agent", "--format", "json")
    )
    assert len(data["seats"]) == 94 and data["summary"][0]["topic"] == "model"
    assert list(data) == ["graph", "kind", "file", "summary", "seats", "counts", "subagents"]


def test_summarization_is_a_sentence_not_its_config(capsys):
    out = run(capsys, "explain", "tests/review/cases/team.agent", "--agent", "supervisor")
    sentence = (
        "when the history passes 6 messages, `openai:gpt-4o-mini` replaces the older "
        "messages with one summary and the last 20 messages are kept as written"
    )
    assert f"  middleware   `summarization`: {sentence}   (39:5)" in out
    b2 = out.split("\nB2 ")[1].split("\nB5 ")[0]
    assert sentence in b2 and "trigger" not in b2


def test_every_prelude_middleware_has_a_sentence():
    declared = {n for n, d in prelude_decls().items() if d.kind == "middleware"}
    assert declared == set(DESCRIBERS)


def test_no_middleware_answer_echoes_its_config(capsys):
    out = run(capsys, "explain", "tests/review/cases/kitchen.agent", "--all")
    assert not re.search(r"\{ ?\w+: |\[\"(messages|tokens)\"", out), "config echoed"
    assert "taken over by" not in out
    for said in (
        "one pause per held call",
        "every tool result but the newest 2 is sent as",
        "after 10 calls per run and 40 calls per thread",
        "calls of `send_email` never run",
        "masks all but its last characters",
        "each for at most 10 s and 5,000 characters of output",
        "at the budget a person is asked whether to go on",
    ):
        assert said in out, said


def test_left_out_seats_answer_from_the_middleware(capsys):
    data = json.loads(
        run(capsys, "explain", "tests/review/cases/kitchen.agent", "--format", "json")
    )
    answers = {s["id"]: s["parts"][0]["answer"] for s in data["seats"]}
    assert answers["D13"] == "email: agentc's built-in pattern"
    assert answers["D15"] == "email: masked but for its last characters"
    assert answers["D19"].startswith("each command may run 10 s and print 5,000 characters")


def test_hand_built_graph_describes_its_own_nodes(capsys):
    out = run(capsys, "explain", "tests/review/cases/desk.agent", "--agent", "desk")
    head = out.split("Seats this file changes")[0]
    for said in (
        '  model node   `write` calls `openai:gpt-4o-mini`, with the prompt "Draft a reply.", '
        "reads the `messages` conversation, writes `messages`   (19:3)",
        "  tools node   `act` runs `read_file`",
        "after `write`: `act` on tool calls, `check` on no tool calls",
        'after `check`: `publish` when approved and draft != "", `help` otherwise',
        "loops back: `act` → the hook `log_turn` before `write`",
        "a run ends after `publish`",
        "  reviews      the run pauses before `publish` (a breakpoint)   (34:3)",
    ):
        assert said in head, said


def test_decision_map_without_the_program_still_works():
    from support import review_cases as fixtures

    from agentc import review

    dmap = review.decision_map(fixtures.guarded())
    assert dmap.subagents == () and isinstance(dmap.source, ir.Graph)
    assert review.render_text(dmap).startswith("decision map of agent `janitor` (fixture.agent)\n")
