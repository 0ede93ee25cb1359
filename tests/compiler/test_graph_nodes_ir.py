"""What a graph block's nodes, joins, routes and run interface lower to (ir/nodes.py).

Uses the every-construct golden case; each typed config must read back with the IR's own
`model_validate`, as the node factories read it."""

from __future__ import annotations

from pathlib import Path

import pytest

import agentc.ir as ir
from agentc.compiler.pipeline import compile_file, compile_source

CASE = Path(__file__).resolve().parents[1] / "golden" / "graph_every_construct" / "input.agent"


@pytest.fixture(scope="module")
def program() -> ir.Program:
    result = compile_file(CASE)
    assert result.program is not None, [d.message for d in result.diagnostics]
    return result.program


def _node(program: ir.Program, name: str) -> ir.NodeSpec:
    return next(n for n in program.graph("joke").nodes if n.name == name)


def _model(program: ir.Program, name: str) -> ir.ModelNodeConfig:
    return ir.ModelNodeConfig.model_validate(_node(program, name).config)


def test_a_conversation_node_reads_and_appends_messages(program):
    think = _model(program, "think")
    assert (think.messages, think.into, think.answer) == ("messages", "messages", "message")
    assert think.input is None and think.prompt is not None
    assert think.prompt.parts == ["You are helpful."]
    assert [t.name for t in think.tools] == ["add"] and think.tools[0].ref is not None
    assert think.provider_tools == [{"type": "web_search"}]
    assert think.model.span.line == 36  # the model string, so run-time errors point at it


def test_an_input_template_replaces_the_conversation(program):
    write = _model(program, "write")
    assert (write.messages, write.into, write.answer) == (None, "joke", ir.AnswerKind.TEXT)
    assert write.input is not None
    assert write.input.parts == ["Write a short joke about ", ir.TemplateField(name="topic")]


def test_structured_output_goes_to_its_channel(program):
    grade = _model(program, "grade")
    assert grade.answer is ir.AnswerKind.STRUCTURED and grade.into == "feedback"
    assert grade.output is not None
    assert grade.output.schemas == ["Feedback"]
    assert grade.output.strategy is ir.OutputStrategy.TOOL
    assert grade.prompt is not None and grade.prompt.parts == ["Grade jokes like {this}."]
    assert grade.input is not None
    assert ir.TemplateField(name="feedback", path=["grade"]) in grade.input.fields


def test_model_options_and_another_conversation(program):
    chat = _model(program, "chat")
    assert (chat.messages, chat.into) == ("history", "history")
    assert chat.model.options == {"temperature": 0, "max_tokens": 200}


def test_send_fed_nodes_carry_their_input_schema(program):
    assert _node(program, "worker").input_schema == "Section"
    assert _node(program, "outline").input_schema == "steps.Payload"
    names = {s.name: s for s in program.schemas}
    assert names["steps.Payload"].ref is not None  # a Python class, added on demand
    assert _model(program, "worker").answer is ir.AnswerKind.TEXT  # one item into a list


def test_node_options(program):
    slow = _node(program, "slow")
    assert slow.retry == ir.RetryPolicy(max_attempts=3, initial_interval=1.0)
    assert slow.cache == ir.CachePolicy(ttl_s=60.0) and slow.timeout_s == 5.0
    assert _node(program, "cached").cache == ir.CachePolicy(ttl_s=None)
    assert _node(program, "join").defer is True
    assert _node(program, "gate").goto == ["write", ir.END]
    assert _node(program, "plan").goto is None and _node(program, "plan").cache is None


def test_tools_and_subgraph_configs(program):
    act = ir.ToolNodeConfig.model_validate(_node(program, "act").config)
    assert [t.name for t in act.tools] == ["add"] and act.messages == "messages"
    sub = ir.SubgraphNodeConfig.model_validate(_node(program, "sub").config)
    assert (sub.graph, sub.input, sub.output) == ("child", None, None)
    sub2 = ir.SubgraphNodeConfig.model_validate(_node(program, "sub2").config)
    assert sub2.input == {"text": "joke"} and sub2.output == {"feedback": "verdict"}
    helper = ir.SubgraphNodeConfig.model_validate(_node(program, "help").config)
    assert helper.graph == "helper" and _node(program, "help").kind is ir.NodeKind.AGENT


def test_joins_routes_and_a_hook_in_front_of_a_join_target(program):
    g = program.graph("joke")
    joins = {tuple(j.sources): j.target for j in g.joins}
    assert joins[("write", "plan")] == "join"
    # `hook before grade` sits between the join and `grade`
    assert joins[("worker", "outline")] == "merge.before_grade"
    assert joins[("slow", "cached")] == "sub"
    plan = next(b for b in g.branches if b.source == "plan")
    assert plan.sends and plan.routes == {"worker": "worker", "outline": "outline", ir.END: ir.END}
    think = next(b for b in g.branches if b.source == "think")
    assert not think.sends and think.routes == {"tools": "act", "end": ir.END}


def test_run_interface(program):
    g = program.graph("joke")
    flags = {c.name: (c.input, c.output) for c in g.state}
    assert flags["topic"] == (True, False)
    assert flags["joke"] == (False, True) and flags["feedback"] == (False, True)
    assert flags["messages"] == (False, False)
    assert g.context == "Ctx"
    assert program.graph("helper").context == "steps.Payload"
    assert program.graph("child").context is None
    assert all(c.input and c.output for c in program.graph("child").state)


def test_a_wrap_hook_keeps_the_model_config_readable():
    text = (
        'use "./steps.py" as steps\n'
        "graph g {\n  state { messages: messages }\n"
        '  node m = model("openai:gpt-4o-mini")\n'
        "  edge START -> m\n  edge m -> END\n"
        "  hook wrap_model_call = python(steps.merge)\n}\n"
    )
    result = compile_source(text, "x.agent", base_dir=CASE.parent)
    assert result.program is not None, [d.message for d in result.diagnostics]
    (node,) = result.program.graph("g").nodes
    config = ir.ModelNodeConfig.model_validate(node.config)
    assert [w["$import"] for w in config.wrap] == ["./steps.py:merge"]


def test_a_string_route_label_lowers_to_the_router_answer_as_written():
    text = (
        'use "./steps.py" as steps\n'
        'graph g {\n  state { joke: str = "" }\n'
        "  node gen = python(steps.plan)\n  node grade = python(steps.plan)\n"
        "  edge START -> gen\n  edge gen -> grade\n"
        '  route grade by steps.gate { "Rejected + Feedback" -> gen, Accepted -> END }\n}\n'
    )
    result = compile_source(text, "x.agent", base_dir=CASE.parent)
    assert result.program is not None, [d.message for d in result.diagnostics]
    (branch,) = result.program.graph("g").branches
    assert branch.routes == {"Rejected + Feedback": "gen", "Accepted": ir.END}
