"""The decision map: holders and deciding lines derived from the IR, never per agent."""

from __future__ import annotations

import json

import pytest
from support import review_cases as fixtures
from support.golden import check_golden

from agentc import ir, review
from agentc.review import Holder, Kind, Origin


@pytest.mark.parametrize("name", sorted(fixtures.ALL))
def test_explain_text_golden(request, name):
    dmap = review.decision_map(fixtures.ALL[name]())
    check_golden(request, f"fixture_{name}.explain.txt", review.render_text(dmap))


def test_explain_markdown_golden(request):
    dmap = review.decision_map(fixtures.guarded())
    check_golden(request, "fixture_janitor.explain.md", review.render_markdown(dmap))


@pytest.mark.parametrize("name", sorted(fixtures.ALL))
def test_every_seat_once_and_counts_add_up(name):
    dmap = review.decision_map(fixtures.ALL[name]())
    assert sorted(a.seat.id for a in dmap.answers) == sorted(
        row.id for row in review.seat_table().seats
    )
    assert sum(n for *_, n in dmap.counts) == len(review.seat_table().seats) == 94


def test_changed_seats_come_first():
    flags = [a.changed for a in review.decision_map(fixtures.guarded()).answers]
    assert flags == sorted(flags, reverse=True) and any(flags) and not all(flags)


def test_D9_review_is_human_for_gated_tools_and_code_for_the_rest():
    answer = review.decision_map(fixtures.guarded()).answer("D9")
    gated, rest = answer.parts
    assert (gated.holder, rest.holder) == (Holder.HUMAN, Holder.CODE)
    assert "`delete_file`" in gated.answer and "delete_file" not in rest.answer
    assert "`read_file`, `report`" in rest.answer and "waved through" in rest.answer
    assert (gated.span.line, gated.span.col) == (12, 5)
    assert answer.holder is Holder.HUMAN


def test_D10_moves_to_human_with_the_middleware():
    answer = review.decision_map(fixtures.guarded()).answer("D10")
    assert answer.holder is Holder.HUMAN and answer.parts[0].origin is Origin.MIDDLEWARE


def test_F1_steps_from_limits_line_or_the_default():
    set_here = review.decision_map(fixtures.guarded()).answer("F1").parts[0]
    assert "25 steps" in set_here.answer and set_here.span.line == 14
    assert review.because(set_here, fixtures.FILE) == "`limits` at 14:3"
    default = review.decision_map(fixtures.calculator()).answer("F1")
    assert not default.changed and "9,999" in default.parts[0].answer


def test_E3_default_names_the_middleware_that_would_change_it():
    answer = review.decision_map(fixtures.calculator()).answer("E3")
    assert not answer.changed and "`tool_error`" in answer.parts[0].answer


def test_A1_provider_from_the_model_line():
    part = review.decision_map(fixtures.guarded()).answer("A1").parts[0]
    assert "`openai`" in part.answer and part.span.line == 8


def test_G5_output_strategy_line_and_D7_interrupt_line():
    dmap = review.decision_map(fixtures.guarded())
    assert "`via tool`" in dmap.answer("G5").parts[0].answer
    assert dmap.answer("G5").parts[0].span.line == 10
    assert dmap.answer("D7").parts[0].span.line == 16


def test_hand_built_graph_puts_agent_seats_out_of_play():
    dmap = review.decision_map(fixtures.review_loop())
    assert dmap.answer("B1").holder is Holder.NONE
    assert dmap.answer("F1").changed and "25 steps" in dmap.answer("F1").parts[0].answer
    assert "when approved → publish" in dmap.answer("C2").parts[0].answer


def test_python_middleware_without_seats_takes_its_hook_points_seats():
    mw = ir.MiddlewareSpec(
        name="audit",
        declared="hooks.audit",
        impl=ir.ImportRef(module="./hooks.py", attr="audit", is_file=True),
        hooks=[ir.HookPoint.WRAP_TOOL_CALL],
        span=fixtures.span(11, 5),
    )
    g = fixtures.calculator()
    g = g.model_copy(update={"agent": g.agent.model_copy(update={"middleware": [mw]})})
    answer = review.decision_map(g).answer("D1")
    assert answer.holder is Holder.EXTERNAL and answer.parts[0].source == "middleware `audit`"


def test_plain_agent_counts_are_the_seeds_plus_the_seats_added_since():
    """At create_agent's defaults the holder counts are the seed's own (its 92 cards, the
    three left out of its edition included), plus the seats added for later LangChain."""
    dmap = review.decision_map(fixtures.calculator())
    ours = {(k, h): n for k, h, n in dmap.counts}
    added = [r for r in review.seat_table().seats if r.id in ("A12", "D24")]
    for row in added:
        ours[(row.kind, row.holder)] -= 1
    published = {(k, h): n for k, h, n in review.seat_table().published_counts}
    assert {pair: n for pair, n in ours.items() if n} == published
    assert Kind.UNKNOWN not in {k for k, _ in ours}


def test_json_is_serialisable_and_complete():
    data = review.to_json(review.decision_map(fixtures.guarded()))
    json.dumps(data)
    d9 = next(s for s in data["seats"] if s["id"] == "D9")
    assert [p["holder"] for p in d9["parts"]] == ["human", "code"] and d9["parts"][0][
        "at"
    ] == "12:5"


def test_diff_shows_moved_holders_and_why(request):
    old, new = (
        review.decision_map(fixtures.calculator()),
        review.decision_map(fixtures.guarded().model_copy(update={"name": "calculator"})),
    )
    changes = review.diff(old, new)
    moved = {c.new.seat.id for c in changes if c.moved}
    assert "D9" in moved and "F1" not in moved and "D10" not in moved  # D10: human both times
    assert {"F1", "D10"} <= {c.new.seat.id for c in changes}
    check_golden(request, "fixture_diff.txt", review.render_diff(old, new, changes))
    assert review.diff(old, old) == ()


def _compiled(text: str, name: str = "a") -> ir.Graph:
    from agentc.compiler.pipeline import compile_source

    result = compile_source(text, "k.agent")
    assert result.program is not None, [d.message for d in result.diagnostics]
    return result.program.graph(name)


REVIEWED = """agent a {
  model "openai:gpt-4o-mini"
  tools [{ type: "web_search" }]
  middleware {
    human_review {
      interrupt_on: {
        delete_file: true,
        read_file: false,
      }
    }
    shell_tool { tool_name: "delete_file" }
    file_search { root_path: ".", }
  }
  limits {
    steps: 30
    tokens: 5000
  }
  checkpoint memory
}
"""


def test_D9_points_at_the_gated_tool_key_not_the_middleware_line():
    graph = _compiled(REVIEWED)
    gated = review.decision_map(graph).answer("D9").parts[0]
    assert gated.holder is Holder.HUMAN and (gated.span.line, gated.span.col) == (7, 9)
    assert review.because(gated, "k.agent") == (
        "`delete_file` in `interrupt_on` of middleware `human_review` at 7:9"
    )
    assert graph.agent.middleware[0].name == "budgets"  # from `limits`, placed first
    mw = next(m for m in graph.agent.middleware if m.name == "human_review")
    assert mw.config_spans["interrupt_on"].line == 6
    assert mw.config_spans["interrupt_on.read_file"].line == 8


def test_F8_budgets_in_limits_point_at_the_limits_key():
    part = review.decision_map(_compiled(REVIEWED)).answer("F8").parts[0]
    assert part.origin is Origin.MIDDLEWARE and "5,000 tokens per run" in part.answer
    assert review.because(part, "k.agent") == "`limits` (budgets) at 16:5"


def test_A7_answer_states_our_divergence():
    answer = review.decision_map(_compiled(REVIEWED)).answer("A7").parts[0]
    assert answer.holder is Holder.CODE and "`agentc check` refuses" in answer.answer


def test_graph_block_hooks_carry_an_explicit_ir_marker(tmp_path, monkeypatch):
    from agentc.compiler.render import diagram

    monkeypatch.chdir(tmp_path)  # the text's folder (its project): t.py is used from there

    (tmp_path / "t.py").write_text(
        "def f(state):\n    return {}\n\n\ndef h(state):\n    return {}\n"
    )
    graph = _compiled(
        f'''use "{tmp_path / "t.py"}" as t
graph g {{
  node n = python(t.f)
  edge START -> n
  edge n -> END
  hook before n = python(t.h)
}}
''',
        "g",
    )
    [hook] = [n for n in graph.nodes if n.hook is not None]
    assert hook.hook == ir.GraphHook(when=ir.InterruptWhen.BEFORE, node="n")
    [drawn] = [n for n in diagram(graph).nodes if n.id == hook.name]
    assert drawn.kind is ir.NodeKind.HOOK and drawn.label == "before n"
