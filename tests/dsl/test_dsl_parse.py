"""Parser front end: every construct of the language → its AST node, with spans."""

from __future__ import annotations

from pathlib import Path

import pytest

from agentc.dsl import ast
from agentc.dsl.dump import dump
from agentc.dsl.parse import ParseResult, parse, parse_file

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def ok(text: str) -> ast.Module:
    result = parse(text, "t.agent")
    assert result.diagnostics == (), [(str(d.span), d.message) for d in result.diagnostics]
    assert result.module is not None
    return result.module


def only(text: str):
    """The single item of a one-declaration file."""
    (item,) = ok(text).items
    return item


def body(text: str):
    """The statements of `agent a { … }` or `graph g { … }`."""
    return only(text).body


def expr(text: str) -> ast.Expr:
    (stmt,) = body(f"agent a {{ x {text} }}")
    assert isinstance(stmt, ast.SettingStmt)
    return stmt.value


def at(node) -> str:
    s = node.span
    return f"{s.start.line}:{s.start.col}-{s.end.line}:{s.end.col}"


def src(text: str, node) -> str:
    return text[node.span.start.offset : node.span.end.offset]


# ---------------------------------------------------------------- file level


def test_empty_file_is_an_empty_module():
    module = ok("")
    assert module.version is None and module.items == ()


def test_comments_and_blank_lines_only():
    assert ok("# nothing here\n\n   # still nothing\n").items == ()


def test_version_line():
    module = ok("agentc 1\n")
    assert module.version == ast.VersionDecl(version=1, span=module.version.span)
    assert at(module.version) == "1:1-1:9"


@pytest.mark.parametrize(
    "text,target,alias",
    [
        ('use "./tools.py" as tools', "./tools.py", "tools"),
        ('use "./shared.agent"', "./shared.agent", None),
        ('use "my_pkg.hooks" as hooks', "my_pkg.hooks", "hooks"),
    ],
)
def test_use(text, target, alias):
    use = only(text)
    assert isinstance(use, ast.UseDecl)
    assert use.target.value == target
    assert (use.alias.text if use.alias else None) == alias
    assert src(text, use) == text


def test_schema_fields_types_defaults_docs():
    text = """schema Answer "A checked answer." {
  value: int
  explanation: str "how it was obtained"
  tags: list[str] = []
  confidence: float? = none
  mode: "fast" | "careful" = "fast"
  pairs: dict[str, int], counts: map[int]
}"""
    schema = only(text)
    assert isinstance(schema, ast.SchemaDecl)
    assert schema.name.text == "Answer" and schema.doc.value == "A checked answer."
    value, explanation, tags, confidence, mode, pairs, counts = schema.fields
    assert value.type.name.dotted == "int" and value.default is None
    assert explanation.doc.value == "how it was obtained"
    assert isinstance(tags.type, ast.GenericType) and tags.type.name.text == "list"
    assert tags.default.items == ()
    assert isinstance(confidence.type, ast.OptionalType)
    assert isinstance(confidence.default, ast.NoneLit)
    assert isinstance(mode.type, ast.UnionType)
    assert [o.value.value for o in mode.type.options] == ["fast", "careful"]
    assert [a.name.dotted for a in pairs.type.args] == ["str", "int"]
    assert counts.type.name.text == "map"
    assert at(schema) == "1:1-8:2"
    assert src(text, mode) == 'mode: "fast" | "careful" = "fast"'


def test_literal_types_and_none_type():
    (f1, f2, f3) = only("schema S { a: 1 | 2, b: true | false, c: none | models.Invoice }").fields
    assert [o.value.value for o in f1.type.options] == [1, 2]
    assert [o.value.value for o in f2.type.options] == [True, False]
    assert [o.name.dotted for o in f3.type.options] == ["none", "models.Invoice"]


# ---------------------------------------------------------------- agent block

AGENT = """agent calculator "Adds numbers." {
  model "anthropic:claude-sonnet-5" { temperature: 0, max_retries: 2 }
  prompt "You are a careful calculator."
  tools [tools.add, tools.multiply, { type: "web_search" }]
  output Answer via tool { handle_errors: true }
  middleware {
    human_review { interrupt_on: { add: true } }
    summarization { model: "openai:gpt-4o-mini", trigger: tokens(4000), keep: messages(20) }
    hooks.log_turn
  }
  state { user_id: str = "" }
  limits { steps: 9999, step_timeout: 30s }
  interrupt before tools
  checkpoint sqlite(".agentc/state.db")
  description "a free setting"
}"""


def test_agent_block_statements_in_order():
    agent = only(AGENT)
    assert isinstance(agent, ast.AgentDecl)
    assert agent.name.text == "calculator" and agent.doc.value == "Adds numbers."
    kinds = [type(s).__name__ for s in agent.body]
    assert kinds == [
        "ModelStmt",
        "PromptStmt",
        "ToolsStmt",
        "OutputStmt",
        "MiddlewareStmt",
        "StateStmt",
        "LimitsStmt",
        "InterruptStmt",
        "CheckpointStmt",
        "SettingStmt",
    ]


def test_agent_model_prompt_tools():
    model, prompt, tools, *_ = only(AGENT).body
    assert model.spec.value == "anthropic:claude-sonnet-5"
    assert [(e.key.text, e.value.value) for e in model.options.entries] == [
        ("temperature", 0),
        ("max_retries", 2),
    ]
    assert prompt.value.value == "You are a careful calculator."
    first, second, provider = tools.value.items
    assert first.dotted == "tools.add" and second.dotted == "tools.multiply"
    assert isinstance(provider, ast.MapLit)
    assert src(AGENT, tools) == 'tools [tools.add, tools.multiply, { type: "web_search" }]'


def test_agent_output_middleware_state_limits():
    output, middleware, state, limits = only(AGENT).body[3:7]
    assert output.schema.dotted == "Answer" and output.strategy.text == "tool"
    assert output.options.entries[0].value.value is True
    names = [item.name.dotted for item in middleware.items]
    assert names == ["human_review", "summarization", "hooks.log_turn"]
    assert middleware.items[2].config is None
    trigger = middleware.items[1].config.entries[1].value
    assert isinstance(trigger, ast.Call) and trigger.callee.dotted == "tokens"
    assert trigger.args[0].value.value == 4000
    assert state.fields[0].name.text == "user_id"
    step_timeout = limits.entries.entries[1].value
    assert step_timeout == ast.DurationLit(seconds=30.0, text="30s", span=step_timeout.span)


def test_agent_interrupt_checkpoint_setting():
    interrupt, checkpoint, setting = only(AGENT).body[7:]
    assert interrupt.when.text == "before" and [n.text for n in interrupt.nodes] == ["tools"]
    assert checkpoint.value.callee.dotted == "sqlite"
    assert setting.key.text == "description" and setting.value.value == "a free setting"
    assert at(interrupt) == "13:3-13:25"


@pytest.mark.parametrize("text,kind", [("memory", ast.Ref), ("none", ast.NoneLit)])
def test_checkpoint_forms(text, kind):
    (stmt,) = body(f"agent a {{ checkpoint {text} }}")
    assert isinstance(stmt.value, kind)


def test_output_without_strategy_or_options():
    (stmt,) = body("agent a { output Answer }")
    assert stmt.strategy is None and stmt.options is None


def test_scripted_model_replies_nest():
    (stmt,) = body("""agent a { model "scripted" { replies: [
        { tool_calls: [ { name: "add", args: { a: 2, b: 3 }, id: "c1" } ] },
        "The answer is 5." ] } }""")
    replies = stmt.options.entries[0].value
    assert isinstance(replies, ast.ListLit) and replies.items[1].value == "The answer is 5."


def test_statements_need_no_separators_on_one_line():
    stmts = body('agent a { model "m" prompt "p" tools [] limits { steps: 1 } }')
    assert [type(s).__name__ for s in stmts] == [
        "ModelStmt",
        "PromptStmt",
        "ToolsStmt",
        "LimitsStmt",
    ]


# ---------------------------------------------------------------- graph block

GRAPH = """graph review_loop {
  state {
    messages: messages
    draft: str = ""
    log: list[str] = [] reduce append "what happened"
  }
  node write   = model("openai:gpt-4o-mini", prompt: "Draft a reply.")
  node check   = python(tools.check_draft) { retry: { max_attempts: 3 }, timeout: 10s }
  node helper  = agent(calculator)
  edge START -> write
  edge check -> publish when approved and draft != ""
  edge check -> write   otherwise
  edge publish -> [helper, sub,]
  route act by tools_condition { tools -> act, end -> END }
  route act by tools.pick(3) { a -> b
    c -> d }
  hook before write = python(tools.log_turn)
  hook before_model = python(tools.log)
  interrupt after publish, helper
  limits { steps: 25 }
  checkpoint memory
}"""


def test_graph_state_reducer_and_doc():
    state = body(GRAPH)[0]
    messages, draft, log = state.fields
    assert messages.name.text == "messages" and messages.type.name.dotted == "messages"
    assert draft.default.value == ""
    assert log.reducer.dotted == "append" and log.doc.value == "what happened"
    assert src(GRAPH, log) == 'log: list[str] = [] reduce append "what happened"'


def test_graph_nodes():
    write, check, helper = body(GRAPH)[1:4]
    assert write.name.text == "write" and write.value.callee.dotted == "model"
    positional, keyword = write.value.args
    assert positional.name is None and positional.value.value == "openai:gpt-4o-mini"
    assert keyword.name.text == "prompt" and keyword.value.value == "Draft a reply."
    assert check.options.entries[1].value.seconds == 10.0
    assert helper.value.args[0].value.dotted == "calculator"
    assert at(write) == "7:3-7:71"


def test_graph_edges():
    start, cond, other, fan = body(GRAPH)[4:8]
    assert (start.source.text, [t.text for t in start.targets]) == ("START", ["write"])
    assert start.condition is None and not start.otherwise
    assert isinstance(cond.condition, ast.BinaryOp) and cond.condition.op == "and"
    assert cond.condition.right.op == "!="
    assert other.otherwise and other.condition is None
    assert [t.text for t in fan.targets] == ["helper", "sub"]


def test_graph_routes():
    named, python_router = body(GRAPH)[8:10]
    assert named.router.dotted == "tools_condition"
    assert [(c.label.text, c.target.text) for c in named.cases] == [
        ("tools", "act"),
        ("end", "END"),
    ]
    assert isinstance(python_router.router, ast.Call)
    assert len(python_router.cases) == 2


def test_graph_hooks_interrupt_limits_checkpoint():
    node_hook, point_hook, interrupt, limits, checkpoint = body(GRAPH)[10:]
    assert (node_hook.point.text, node_hook.target.text) == ("before", "write")
    assert point_hook.point.text == "before_model" and point_hook.target is None
    assert interrupt.when.text == "after"
    assert [n.text for n in interrupt.nodes] == ["publish", "helper"]
    assert limits.entries.entries[0].value.value == 25
    assert checkpoint.value.dotted == "memory"


def test_keywords_are_names_where_names_are_expected():
    graph = only("""graph g {
  state { model: str, tools: list[str], node: int = 1
    edge: bool }
  node agent = agent(x)
  edge START -> agent
  edge agent -> tools
  node tools = tools([t.a])
}""")
    state = graph.body[0]
    assert [f.name.text for f in state.fields] == ["model", "tools", "node", "edge"]
    assert graph.body[1].name.text == "agent"
    assert graph.body[3].targets[0].text == "tools"
    assert graph.body[4].value.callee.dotted == "tools"


# ---------------------------------------------------------------- declarations

PRELUDE = """middleware model_call_limit(
  thread: int? = none "max model calls per thread",
  run: int? = none,
  exit_behavior: "end" | "error" = "end",
) = "agentc.stdlib.middleware.call_limits:ModelCallLimit" {
  hooks: [before_model, after_model], jumps: { before_model: [end] }, seats: [F8]
}
router tools_condition() = "agentc.stdlib.routing:tools_condition" { labels: [tools, end] }
template agent(model: model, prompt: str? = none, ...) = "agentc.compiler.template:lower_agent" {
  seats: [A11]
}
middleware documented "Counts calls." = "pkg:Counter"
"""


def test_declarations():
    limit, router, template, documented = ok(PRELUDE).items
    assert limit.kind.text == "middleware" and limit.name.text == "model_call_limit"
    assert [p.name.text for p in limit.params] == ["thread", "run", "exit_behavior"]
    assert limit.params[0].doc.value == "max model calls per thread"
    assert limit.impl.value == "agentc.stdlib.middleware.call_limits:ModelCallLimit"
    assert [e.key.text for e in limit.attrs.entries] == ["hooks", "jumps", "seats"]
    assert not limit.variadic
    assert router.kind.text == "router" and router.params == ()
    assert template.kind.text == "template" and template.name.text == "agent"
    assert template.variadic and [p.name.text for p in template.params] == ["model", "prompt"]
    assert template.params[0].type.name.dotted == "model"
    assert documented.doc.value == "Counts calls." and documented.attrs is None
    assert at(limit) == "1:1-7:2"


# ---------------------------------------------------------------- expressions and literals


@pytest.mark.parametrize(
    "text,value",
    [
        ('"a\\nb\\t\\"q\\" \\\\ \\u0041"', 'a\nb\t"q" \\ A'),
        ("42", 42),
        ("-3", -3),
        ("0.5", 0.5),
        ("-2.5e3", -2500.0),
        ("true", True),
        ("false", False),
    ],
)
def test_literal_values(text, value):
    assert expr(text).value == value


@pytest.mark.parametrize(
    "text,seconds", [("500ms", 0.5), ("30s", 30.0), ("2m", 120.0), ("1h", 3600.0), ("1.5s", 1.5)]
)
def test_durations_in_seconds(text, seconds):
    lit = expr(text)
    assert isinstance(lit, ast.DurationLit) and lit.seconds == seconds and lit.text == text


def test_triple_quoted_string_is_dedented():
    lit = expr('''"""
        You are careful.
          Indented line.
        Last line.
        """''')
    assert lit.triple
    assert lit.value == "You are careful.\n  Indented line.\nLast line."


def test_triple_quoted_string_keeps_inner_quotes():
    assert expr('"""say "hi" and ""twice"" """').value == 'say "hi" and ""twice"" '


def test_operator_precedence():
    e = expr("not a == 1 and b or c in d")
    assert e.op == "or"
    assert e.left.op == "and"
    assert e.left.left.op == "not" and e.left.left.operand.op == "=="
    assert e.right.op == "in"


@pytest.mark.parametrize("op", ["==", "!=", "<", "<=", ">", ">=", "in"])
def test_comparisons(op):
    e = expr(f"a {op} 1")
    assert isinstance(e, ast.BinaryOp) and e.op == op


def test_parentheses_and_unary_minus_on_names():
    e = expr("(a or b)")
    assert isinstance(e, ast.BinaryOp) and e.op == "or"
    # `-` parses before a name or an expression, but applies to numbers and durations only:
    # one located diagnostic, never a node a later pass cannot evaluate (issue 12, item 14).
    (d,) = parse("agent a { x -(a or b) }", "t.agent").diagnostics
    assert (d.code, d.span.start.col) == ("bad-literal", 13)
    assert d.message == "`-` applies to a number or a duration, not to an expression"


def test_lists_and_maps_trailing_commas_and_string_keys():
    e = expr('{ a: [1, 2,], "b c": {}, d: 1\n e: 2, }')
    assert [en.key.text for en in e.entries] == ["a", "b c", "d", "e"]
    assert [i.value for i in e.entries[0].value.items] == [1, 2]


def test_dotted_ref_parts_and_spans():
    text = "agent a { x tools.add }"
    ref = expr("tools.add")
    assert ref.dotted == "tools.add"
    assert [p.text for p in ref.parts] == ["tools", "add"]
    assert src(text, only(text).body[0].value) == "tools.add"


def test_call_with_keyword_arguments():
    call = expr('model("m", prompt: "p", temperature: 0.2,)')
    assert [a.name.text if a.name else None for a in call.args] == [None, "prompt", "temperature"]


def test_spans_count_code_points():
    text = 'agent a { prompt "héllo → 世界" tools [x] }'
    _, tools = only(text).body
    assert tools.span.start.col == text.index("tools") + 1
    assert src(text, tools) == "tools [x]"


def test_crlf_line_endings():
    module = ok('agent a {\r\n  prompt "x"\r\n}\r\n')
    assert at(module.items[0].body[0]) == "2:3-2:13"


# ---------------------------------------------------------------- files and results


def test_parse_result_is_frozen_and_carries_source():
    result = parse("agent a { }", "x.agent")
    assert isinstance(result, ParseResult) and result.ok
    assert result.source.name == "x.agent"
    with pytest.raises(AttributeError):
        result.module = None  # type: ignore[misc]


def test_parse_file_reads_utf8_with_bom(tmp_path):
    path = tmp_path / "a.agent"
    path.write_bytes('\ufeffagent a { prompt "é" }\n'.encode("utf-8"))
    result = parse_file(path)
    assert result.ok and result.module.items[0].body[0].value.value == "é"


def test_parse_file_missing_is_a_diagnostic(tmp_path):
    result = parse_file(tmp_path / "nope.agent")
    assert result.module is None and result.diagnostics[0].code == "unreadable-file"


def test_parse_file_bad_utf8_points_at_the_byte(tmp_path):
    path = tmp_path / "bad.agent"
    path.write_bytes(b'agent a {\n  prompt "\xff"\n}\n')
    (d,) = parse_file(path).diagnostics
    assert d.code == "unreadable-file" and (d.span.start.line, d.span.start.col) == (2, 11)


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.agent")), ids=lambda p: p.name)
def test_examples_parse(path):
    assert parse_file(path).diagnostics == ()


def test_dump_is_deterministic_and_shows_spans():
    module = ok('agent a { prompt "x" }')
    text = dump(module)
    assert text == dump(ok('agent a { prompt "x" }'))
    assert '(StringLit @1:18-1:21 "x" false)' in text
    assert "@" not in dump(module, spans=False)


def test_every_example_in_the_language_doc_parses():
    doc = (EXAMPLES.parent / "docs" / "language.md").read_text(encoding="utf-8")
    blocks = doc.split("```")[1::2]
    examples = [b for b in blocks if not b.startswith(("lark", "errors", "python", "json", "sh"))]
    assert len(examples) >= 6
    for block in examples:
        assert parse(block, "doc.agent").diagnostics == (), block


def test_every_wrong_example_in_the_language_doc_errs_where_it_says():
    """```errors blocks: a diagnostic on each line with a `# error` comment, none elsewhere."""
    doc = (EXAMPLES.parent / "docs" / "language.md").read_text(encoding="utf-8")
    blocks = [b[len("errors\n") :] for b in doc.split("```")[1::2] if b.startswith("errors\n")]
    assert blocks
    for block in blocks:
        want = [n for n, line in enumerate(block.split("\n"), 1) if "# error" in line]
        got = [d.span.start.line for d in parse(block, "doc.agent").diagnostics]
        assert got == want, block
