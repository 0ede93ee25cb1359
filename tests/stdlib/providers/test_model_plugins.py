"""Chat models from outside agentc: `model tools.make_model { … }` (a factory in a used
Python file) and `model "acme:x"` (a provider an installed package declares in the
`agentc.providers` entry-point group). Real files, a real compile, real runs; the entry
point is a real dist-info on `sys.path` of a real subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from agentc import load_agent
from agentc.compiler.pipeline import compile_source
from agentc.runtime.errors import ModelPluginError
from agentc.stdlib.providers.resolve import ENTRY_POINT_GROUP as RUNTIME_GROUP

MODELS_PY = '''
from agentc.stdlib.messages import AIMessage, ToolCall


def add(a: int, b: int) -> int:
    """Add two numbers."""
    return a + b


class Scripted:
    """Only `generate`: agentc names it and streams it in one delta."""

    def __init__(self, total_word: str) -> None:
        self.word = total_word
        self.seen = []

    async def generate(self, request):
        self.seen.append([m.type for m in request.messages])
        tools = [t.name for t in request.tools]
        last = request.messages[-1]
        if last.type == "tool":
            return AIMessage(content=f"{self.word} {last.content}")
        call = ToolCall(id="c1", name=tools[0], args={"a": 2, "b": 3})
        return AIMessage(content="", tool_calls=[call])


def make_model(total_word: str, **extra):
    return Scripted(total_word)


class LangChainStyle:
    """A LangChain-like Runnable: a sync `invoke(messages)` only."""

    def invoke(self, messages):
        return AIMessage(content="echo: " + messages[-1].content)


def make_lc():
    return LangChainStyle()


def make_nothing():
    return 42


def make_broken():
    raise KeyError("ACME_TOKEN")
'''


def _agent(tmp_path: Path, model_line: str, tools: str = "") -> Path:
    (tmp_path / "models.py").write_text(MODELS_PY, encoding="utf-8")
    path = tmp_path / "a.agent"
    path.write_text(
        f'use "./models.py" as models\nagent a {{\n  {model_line}\n  {tools}\n}}\n',
        encoding="utf-8",
    )
    return path


def _ask(text: str) -> dict:
    return {"messages": [{"role": "user", "content": text}]}


def test_a_factory_model_runs_a_tool_calling_conversation(tmp_path):
    agent = load_agent(
        _agent(tmp_path, 'model models.make_model { total_word: "total:" }', "tools [models.add]")
    )
    result = agent.invoke(_ask("add 2 and 3"))
    assert [(m.type, m.content) for m in result["messages"]] == [
        ("human", "add 2 and 3"),
        ("ai", ""),
        ("tool", "5"),
        ("ai", "total: 5"),
    ]
    graph = agent.graph.agent
    assert graph is not None and graph.model.factory is not None
    assert (graph.model.provider, graph.model.name) == ("python", "make_model")


def test_a_langchain_style_invoke_object_is_adapted(tmp_path):
    agent = load_agent(_agent(tmp_path, "model models.make_lc"))
    result = agent.invoke(_ask("hello"))
    assert result["messages"][-1].content == "echo: hello"


def test_a_factory_that_returns_no_chat_model_is_a_runtime_error(tmp_path):
    agent = load_agent(_agent(tmp_path, "model models.make_nothing"))
    with pytest.raises(ModelPluginError) as caught:
        agent.invoke(_ask("hello"))
    assert caught.value.code == "bad-model-plugin"
    assert "model factory `models.make_nothing` returned int" in caught.value.message
    assert "generate" in (caught.value.help or "")


def test_a_factory_that_fails_is_named_in_the_error(tmp_path):
    agent = load_agent(_agent(tmp_path, "model models.make_broken"))
    with pytest.raises(ModelPluginError) as caught:
        agent.invoke(_ask("hello"))
    assert caught.value.message == (
        "model factory `models.make_broken` failed: KeyError: 'ACME_TOKEN'"
    )
    assert caught.value.span is not None and caught.value.span.line == 3


@pytest.mark.parametrize(
    "line, code, where, text",
    [
        ("model models.make_modle", "unknown-attr", (3, 16), "`models` has no `make_modle`"),
        (
            'model models.make_model { total_wrd: "x" }',  # **extra takes the typo
            "missing-param",
            (3, 9),
            "model factory `models.make_model` needs `total_word`",
        ),
        ("model models.make_lc { temperature: 0 }", "unknown-param", (3, 26), "temperature"),
    ],
)
def test_a_bad_factory_is_a_located_check_diagnostic(tmp_path, line, code, where, text):
    path = _agent(tmp_path, line)
    result = compile_source(path.read_text(), "a.agent", base_dir=tmp_path)
    errors = [d for d in result.diagnostics if d.severity.value == "error"]
    assert [(d.code, (d.span.start.line, d.span.start.col)) for d in errors] == [(code, where)]
    assert text in errors[0].message and errors[0].help


# ---------------------------------------------------------------- entry points

ACME_PY = """
from agentc.stdlib.messages import AIMessage
from agentc.stdlib.providers.base import ModelProfile


class Acme:
    provider = "acme"
    profile = ModelProfile(context_window=1000)

    def __init__(self, name, greeting="hi"):
        self.name, self.greeting = name, greeting

    async def generate(self, request):
        return AIMessage(content=f"{self.greeting} from {self.name}")

    async def stream(self, request):
        from agentc.stdlib.providers.plugins import one_delta

        yield one_delta(await self.generate(request))


def make(name, **options):
    return Acme(name, **options)
"""

DRIVER = """
import json, sys
from agentc import load_agent
from agentc.compiler.pipeline import compile_source

out = {}
agent = load_agent(sys.argv[1])
result = agent.invoke({"messages": [{"role": "user", "content": "hey"}]})
out["answer"] = result["messages"][-1].content
out["spec"] = [agent.graph.agent.model.provider, agent.graph.agent.model.name]
typo = compile_source('agent a { model "acmee:x" }', "t.agent")
out["typo"] = [(d.code, d.help) for d in typo.diagnostics]
mw = compile_source(
    'agent a {\\n model "scripted" { replies: ["x"] }\\n'
    ' middleware { summarization { model: "acme:small" } }\\n}\\n', "m.agent"
)
out["middleware"] = [d.code for d in mw.diagnostics]
from agentc.models import init_chat_model

out["init_chat_model"] = init_chat_model("acme:tiny", greeting="hey").invoke("hi").content
print(json.dumps(out))
"""


def _install_acme(site: Path) -> None:
    """A tiny distribution: the package and its dist-info, as pip would leave them."""
    (site / "acme_models").mkdir(parents=True)
    (site / "acme_models" / "__init__.py").write_text(ACME_PY, encoding="utf-8")
    info = site / "acme_models-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: acme-models\nVersion: 0.1\n", encoding="utf-8"
    )
    (info / "entry_points.txt").write_text(
        f"[{RUNTIME_GROUP}]\nacme = acme_models:make\n", encoding="utf-8"
    )


def test_an_installed_provider_resolves_its_prefix(tmp_path):
    site = tmp_path / "site"
    _install_acme(site)
    agent_file = tmp_path / "a.agent"
    agent_file.write_text('agent a { model "acme:fast-1" { greeting: "hello" } }\n')
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), *sys.path])}
    done = subprocess.run(
        [sys.executable, "-c", DRIVER, str(agent_file)],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["answer"] == "hello from fast-1"
    assert out["spec"] == ["acme", "fast-1"]
    assert out["typo"] == [["unknown-provider", "did you mean `acme`?"]]
    assert out["middleware"] == []
    assert out["init_chat_model"] == "hey from tiny"


def test_without_the_package_the_prefix_is_unknown():
    result = compile_source('agent a { model "acme:fast-1" }', "t.agent")
    assert [d.code for d in result.diagnostics] == ["unknown-model"]


def test_compiler_and_runtime_read_one_entry_point_group():
    from agentc.compiler.models import ENTRY_POINT_GROUP as COMPILER_GROUP

    assert COMPILER_GROUP == RUNTIME_GROUP == "agentc.providers"


def test_the_docs_name_the_protocol():
    text = (Path(__file__).resolve().parents[3] / "docs" / "language.md").read_text()
    assert "agentc.providers" in text and "async def generate(self, request" in text
