"""A model factory (`tools.make_model`) where a middleware setting takes a model: checked
statically (it exists, it is a function or class, it needs no options), lowered to a
`$model` reference, and built at bind time into the chat model the middleware uses.
Real files, a real compile, real offline runs with scripted models."""

from __future__ import annotations

from pathlib import Path

import pytest

from agentc import load_agent
from agentc.compiler.pipeline import compile_source
from agentc.runtime.errors import ModelPluginError

MODELS_PY = '''
from agentc.stdlib.messages import AIMessage

SEEN = []


class Summariser:
    """Only `generate`: agentc names it and streams it in one delta."""

    async def generate(self, request):
        SEEN.append(request.messages[0].content)
        return AIMessage(content="SUMMARY TEXT")


def make_summariser():
    return Summariser()


class Failing:
    async def generate(self, request):
        raise RuntimeError("primary is down")


def make_failing():
    return Failing()


class Backup:
    def invoke(self, messages):
        return AIMessage(content="backup: " + messages[-1].content)


def make_backup():
    return Backup()


def make_named(name: str):
    return Backup()


def make_nothing():
    return 42


LIMIT = 3
'''


def _agent(tmp_path: Path, model_line: str, middleware: str) -> Path:
    (tmp_path / "models.py").write_text(MODELS_PY, encoding="utf-8")
    path = tmp_path / "a.agent"
    path.write_text(
        f'use "./models.py" as models\nagent a {{\n  {model_line}\n'
        f"  middleware {{\n    {middleware}\n  }}\n}}\n",
        encoding="utf-8",
    )
    return path


def _history() -> dict:
    turns = ["q1", "a1", "q2", "a2", "q3"]
    roles = ["user", "assistant"] * 3
    return {"messages": [{"role": r, "content": c} for r, c in zip(roles, turns, strict=False)]}


def test_summarization_gets_the_chat_model_its_factory_builds(tmp_path):
    agent = load_agent(
        _agent(
            tmp_path,
            'model "scripted" { replies: ["final"] }',
            "summarization { model: models.make_summariser, trigger: messages(4), "
            "keep: messages(2) }",
        )
    )
    result = agent.invoke(_history())
    got = [(m.type, m.content) for m in result["messages"]]
    assert got[0] == ("human", "Here is a summary of the conversation to date:\n\nSUMMARY TEXT")
    assert got[1:] == [("ai", "a2"), ("human", "q3"), ("ai", "final")]
    spec = agent.graph.agent.middleware[0]
    assert spec.config["model"] == {
        "$model": "./models.py:make_summariser",
        "is_file": True,
        "as": "models.make_summariser",
    }


def test_model_fallback_takes_a_list_of_factories(tmp_path):
    agent = load_agent(
        _agent(
            tmp_path,
            "model models.make_failing",
            "model_fallback { models: [models.make_backup] }",
        )
    )
    result = agent.invoke({"messages": [{"role": "user", "content": "hello"}]})
    assert result["messages"][-1].content == "backup: hello"


def test_a_factory_that_returns_no_chat_model_names_the_setting(tmp_path):
    path = _agent(
        tmp_path,
        'model "scripted" { replies: ["final"] }',
        "tool_emulator { model: models.make_nothing }",
    )
    with pytest.raises(ModelPluginError) as caught:  # the middleware is built when bound
        load_agent(path).invoke({"messages": [{"role": "user", "content": "hello"}]})
    assert caught.value.code == "bad-model-plugin"
    assert "model factory `models.make_nothing` returned int" in caught.value.message
    assert caught.value.span is not None and caught.value.span.line == 5


@pytest.mark.parametrize(
    "setting, code, where, text",
    [
        (
            "summarization { model: models.make_summarizer }",
            "unknown-attr",
            (5, 35),
            "`models` has no `make_summarizer`",
        ),
        (
            "summarization { model: models.make_named }",
            "missing-param",
            (5, 28),
            "model factory `models.make_named` needs `name`",
        ),
        (
            "summarization { model: models.LIMIT }",
            "type-mismatch",
            (5, 28),
            "`models.LIMIT` is not a function or class",
        ),
        (
            "model_fallback { models: [models.make_backup, models.make_bakup] }",
            "unknown-attr",
            (5, 58),
            "`models` has no `make_bakup`",
        ),
    ],
)
def test_a_bad_factory_in_a_setting_is_a_located_diagnostic(tmp_path, setting, code, where, text):
    path = _agent(tmp_path, 'model "scripted"', setting)
    result = compile_source(path.read_text(), "a.agent", base_dir=tmp_path)
    errors = [d for d in result.diagnostics if d.severity.value == "error"]
    assert [(d.code, (d.span.start.line, d.span.start.col)) for d in errors] == [(code, where)]
    assert text in errors[0].message and errors[0].help


# ---------------------------------------------------------------- graph model nodes

GRAPH_PY = """
from agentc.stdlib.messages import AIMessage

SEEN = []


class Joker:
    def __init__(self, style):
        self.style = style

    async def generate(self, request):
        SEEN.append([(m.type, m.text) for m in request.messages])
        return AIMessage(content=f"a {self.style} joke about " + request.messages[-1].text)


def make_joker(style: str = "dry"):
    return Joker(style)
"""


def _graph(tmp_path: Path, node: str) -> Path:
    (tmp_path / "jokes.py").write_text(GRAPH_PY, encoding="utf-8")
    path = tmp_path / "g.agent"
    path.write_text(
        'agentc 1\nuse "./jokes.py" as jokes\n\ngraph joke {\n'
        '  state { messages: messages\n    topic: str = ""\n    joke: str = "" }\n'
        f"  {node}\n  edge START -> write\n  edge write -> END\n}}\n",
        encoding="utf-8",
    )
    return path


def test_a_graph_model_node_calls_its_factory_with_the_options(tmp_path):
    path = _graph(
        tmp_path,
        'node write = model(jokes.make_joker, style: "silly", prompt: "Be brief.", '
        'input: "{topic}", into: joke)',
    )
    result = compile_source(path.read_text(), "g.agent", base_dir=tmp_path)
    assert result.program is not None, [str(d) for d in result.diagnostics]
    from agentc.runtime import compile as compile_graph

    out = compile_graph(result.program, "joke", base_dir=str(tmp_path)).invoke({"topic": "cats"})
    assert out["joke"] == "a silly joke about cats"


@pytest.mark.parametrize(
    "node, code, text",
    [
        (
            'node write = model(jokes.make_jokr, input: "{topic}", into: joke)',
            "unknown-attr",
            "`jokes` has no `make_jokr`",
        ),
        (
            'node write = model(jokes.make_joker, colour: 1, input: "{topic}", into: joke)',
            "unknown-param",
            "model factory `jokes.make_joker` has no parameter `colour`",
        ),
    ],
)
def test_a_bad_factory_in_a_graph_model_node_is_located(tmp_path, node, code, text):
    path = _graph(tmp_path, node)
    result = compile_source(path.read_text(), "g.agent", base_dir=tmp_path)
    errors = [d for d in result.diagnostics if d.severity.value == "error"]
    assert [d.code for d in errors] == [code], [str(d) for d in errors]
    assert text in errors[0].message and errors[0].span.start.line == 8
