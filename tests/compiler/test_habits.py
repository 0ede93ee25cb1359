"""The help a habit from Python, LangChain or LangGraph gets: what to write instead.

Check files pin a diagnostic's code and line; these pin the suggestion itself, since it is
the whole point of the diagnostic (`trigger: ("tokens", 4000)` → `tokens(4000)`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from agentc.compiler.pipeline import compile_source

TOOLS = '''
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


def multiply(a: int, b: int) -> int:
    """Multiply two integers."""
    return a * b
'''


def _diagnostics(tmp_path: Path, body: str):
    (tmp_path / "kit.py").write_text(TOOLS)
    text = f'use "./kit.py" as kit\nagent a {{\n  model "openai:gpt-4o-mini"\n{body}\n}}\n'
    return compile_source(text, "a.agent", base_dir=str(tmp_path)).diagnostics


def _one(tmp_path: Path, body: str, code: str):
    found = [d for d in _diagnostics(tmp_path, body) if d.code == code]
    assert len(found) == 1, [(d.code, d.message) for d in _diagnostics(tmp_path, body)]
    return found[0]


@pytest.mark.parametrize(
    "value, written",
    [
        ('("tokens", 4000)', "tokens(4000)"),
        ('("messages", 20)', "messages(20)"),
        ('("fraction", 0.8)', "fraction(0.8)"),
    ],
)
def test_a_context_size_tuple_is_told_its_form(tmp_path, value, written):
    setting = f'summarization {{ model: "openai:gpt-4o-mini", trigger: {value} }}'
    body = f"  middleware {{\n    {setting}\n  }}"
    d = _one(tmp_path, body, "syntax")
    assert d.help == f"the language has no tuples: write `{written}`"


def test_another_tuple_is_told_to_be_a_list(tmp_path):
    d = _one(tmp_path, "  tools [(kit.add, kit.multiply)]", "syntax")
    assert d.help == "the language has no tuples: write a list, `[a, b]`"


def test_a_bare_function_name_in_tools_is_told_its_module(tmp_path):
    d = _one(tmp_path, "  tools [add]", "unknown-name")
    assert d.help == "did you mean `kit.add`?"
    assert any("`kit.add`, `kit.multiply`" in n for n in d.notes)


def test_interrupt_before_a_misspelt_node_names_the_agents_nodes(tmp_path):
    d = _one(
        tmp_path,
        "  tools [kit.add]\n  interrupt before tool\n  checkpoint memory",
        "dangling-target",
    )
    assert d.help == "did you mean `tools`?"
    assert "`model`, `tools`" in d.notes[0]


@pytest.mark.parametrize("key", ["max_steps", "recursion_limit"])
def test_a_limit_under_another_frameworks_name_is_told_ours(tmp_path, key):
    d = _one(tmp_path, f"  limits {{ {key}: 10 }}", "unknown-limit")
    assert d.help == "did you mean `steps`?"
    assert "`steps`" in d.notes[0] and "`step_timeout`" in d.notes[0]


def test_a_model_option_typo_is_told_the_option(tmp_path):
    text = 'agent a { model "openai:gpt-4o-mini" { temprature: 0.2 } }\n'
    [d] = compile_source(text, "a.agent", base_dir=str(tmp_path)).diagnostics
    assert d.code == "unknown-param" and d.help == "did you mean `temperature`?"


def test_an_unknown_model_option_is_told_how_to_send_it_anyway(tmp_path):
    text = 'agent a { model "openai:gpt-4o-mini" { frobnicate: 1 } }\n'
    [d] = compile_source(text, "a.agent", base_dir=str(tmp_path)).diagnostics
    assert d.code == "unknown-param" and d.help == "remove it, or move it under `extra_body`"
    assert any("`extra_body: { frobnicate: … }`" in n for n in d.notes)
    assert any("--explain unknown-param" in n for n in d.notes)


def test_a_number_written_as_a_string_is_told_the_number(tmp_path):
    (tmp_path / "kit.py").write_text(TOOLS)
    text = (
        'use "./kit.py" as kit\ngraph g {\n  state { messages: messages\n    attempts: int = 0 }\n'
        "  node a = python(kit.add)\n  edge START -> a\n"
        '  edge a -> END when attempts == "3"\n  edge a -> a otherwise\n}\n'
    )
    [d] = compile_source(text, "g.agent", base_dir=str(tmp_path)).diagnostics
    assert d.code == "type-mismatch" and d.span.start.line == 7
    assert d.help == "compare with the number: `attempts == 3`"


def test_a_tool_named_by_its_decorator_is_told_the_function(tmp_path):
    (tmp_path / "kit.py").write_text(
        'from langchain.tools import tool\n\n\n@tool("add")\ndef plus(a: int, b: int) -> int:\n'
        '    """Add."""\n    return a + b\n'
    )
    text = 'use "./kit.py" as kit\nagent a {\n  model "openai:gpt-4o-mini"\n  tools [kit.add]\n}\n'
    [d] = compile_source(text, "a.agent", base_dir=str(tmp_path)).diagnostics
    assert d.code == "unknown-attr" and d.help == "name the function: `kit.plus`"
