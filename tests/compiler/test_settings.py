"""The settings view of a block: one walk, the first statement of a setting counts, and
check and lower read the same view (built once per block)."""

from __future__ import annotations

from agentc.compiler import defaults
from agentc.compiler.context import Ctx
from agentc.compiler.pipeline import compile_source
from agentc.compiler.resolve import Loader
from agentc.compiler.settings import agent_settings, graph_settings
from agentc.dsl import ast
from agentc.dsl.parse import parse

AGENT = """agent a {
  model "openai:gpt-4o-mini"
  prompt "one"
  interrupt before tools
  prompt "two"
  store memory
  description "d"
  store none
  interrupt after model
}
"""

GRAPH = """graph g {
  state { messages: messages }
  node n = model("openai:gpt-4o-mini")
  edge START -> n
  limits { steps: 3 }
  edge n -> END
  limits { steps: 4 }
}
"""


def _item(text: str):
    module = parse(text, "x.agent").module
    assert module is not None
    return module.items[0]


def test_the_first_statement_of_a_setting_counts_and_later_ones_are_repeated() -> None:
    agent = _item(AGENT)
    s = agent_settings(agent)
    assert isinstance(s.prompt, ast.PromptStmt) and s.prompt.value.value == "one"
    assert s.store is not None and isinstance(s.store.value, ast.Ref)
    assert [r.word for r in s.repeated] == ["prompt", "store"]
    assert [r.again.span.start.line for r in s.repeated] == [5, 8]
    assert [i.when.text for i in s.interrupts] == ["before", "after"]  # these may repeat
    assert [k.key.text for k in s.settings] == ["description"]
    assert s.tools is None and s.output is None and s.middleware is None


def test_a_graph_keeps_its_nodes_edges_in_order_and_the_first_limits() -> None:
    s = graph_settings(_item(GRAPH))
    assert [n.name.text for n in s.nodes] == ["n"]
    assert [e.source.text for e in s.edges] == ["START", "n"]
    assert s.limits is not None and s.limits.span.start.line == 5
    assert [r.word for r in s.repeated] == ["limits"]


def test_ctx_reads_a_block_once() -> None:
    parsed = parse(AGENT, "x.agent")
    assert parsed.module is not None
    unit = Loader.new().load_root(parsed.module, parsed.source, None)
    ctx = Ctx(unit, lambda d: None)
    agent = unit.module.items[0]
    assert isinstance(agent, ast.AgentDecl)
    assert ctx.agent_settings(agent) is ctx.agent_settings(agent)


def test_unwritten_settings_take_the_defaults_table() -> None:
    text = 'agent a { model "openai:gpt-4o-mini" }\n' + GRAPH.replace("  limits { steps: 4 }\n", "")
    program = compile_source(text.replace("  limits { steps: 3 }\n", ""), "x.agent").program
    assert program is not None
    assert program.graph("a").limits.steps.value == defaults.AGENT_STEPS
    assert program.graph("g").limits.steps.value == defaults.GRAPH_STEPS
    assert program.graph("g").checkpoint.kind is defaults.CHECKPOINT
