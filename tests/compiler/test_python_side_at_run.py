"""What the checker warns of, seen at run time: a tool that raises names itself and its call,
a tool whose parameter no JSON schema can describe is named with its file and line, and
`extra_body` reaches the request body. Real runs: `agentc` in a child process, the fake
provider server on 127.0.0.1, the Python API over the scripted model."""

from __future__ import annotations

import json

import pytest
from support.cli_kit import KEY, agentc, one_paragraph

from agentc import api
from agentc.runtime.errors import ToolCallError, ToolSchemaError, failed_tool_call
from agentc.testing.fake_provider import FakeReply

TOOLS = '''
class Point:
    def __init__(self, x, y):
        self.x, self.y = x, y


def boom(x: int, why: str) -> int:
    """Always fails."""
    raise KeyError("no such record")


def dist(p: Point) -> float:
    """Distance from the origin."""
    return 0.0
'''


def _agent(where, model: str, tools: str = "kit.boom"):
    (where / "kit.py").write_text(TOOLS)
    path = where / "a.agent"
    path.write_text(
        f'agentc 1\nuse "./kit.py" as kit\nagent a {{\n  {model}\n  tools [{tools}]\n}}\n'
    )
    return path


def _scripted(*replies) -> str:
    return f'model "scripted" {{ replies: {json.dumps(list(replies))} }}'


CALL = {"tool_calls": [{"name": "boom", "args": {"x": 1, "why": "q"}, "id": "call_7"}]}


def test_a_tool_that_raises_is_named_with_its_call_on_the_command_line(tmp_path):
    path = _agent(tmp_path, _scripted(CALL, "never"))
    done = agentc("run", str(path), "--input", "q", cwd=tmp_path)
    assert done.returncode == 1 and one_paragraph(done.stderr), done.stderr
    err = done.stderr
    assert "error[tool-failed]" in err and "tool `boom` raised KeyError" in err, err
    assert "call `call_7`" in err and "`x`, `why`" in err and "no such record" in err


def test_E3_python_callers_get_the_tools_own_exception_with_the_call_attached(tmp_path):
    path = _agent(tmp_path, _scripted(CALL, "never"))
    graph = api.load_agent(str(path))
    with pytest.raises(KeyError, match="no such record") as caught:  # E3, as LangGraph
        graph.invoke({"messages": [{"role": "user", "content": "q"}]})
    call = failed_tool_call(caught.value)
    assert isinstance(call, ToolCallError) and call.code == "tool-failed"
    assert (call.tool, call.call_id, call.arg_keys) == ("boom", "call_7", ("x", "why"))


def test_a_plain_class_parameter_is_named_with_its_file_and_line(tmp_path):
    path = _agent(tmp_path, _scripted("hi"), tools="kit.dist")
    done = agentc("run", str(path), "--input", "q", cwd=tmp_path)
    assert done.returncode == 1 and one_paragraph(done.stderr), done.stderr
    err = done.stderr
    assert "a.agent:5:10: error[tool-schema]" in err and "parameter `p`" in err, err
    assert "`kit.Point` (kit.py:2)" in err and "agentc_user_" not in err, err
    with pytest.raises(ToolSchemaError) as caught:
        api.load_agent(str(path)).invoke({"messages": [{"role": "user", "content": "q"}]})
    assert caught.value.tool == "dist" and caught.value.param == "p"


def test_extra_body_is_merged_into_the_request_body(tmp_path, fake_server):
    fake_server.push(FakeReply(text="ok"))
    model = 'model "openai:gpt-4o-mini" { temperature: 0, extra_body: { frobnicate: 3 } }'
    path = _agent(tmp_path, model)
    env = {"OPENAI_API_KEY": KEY, "OPENAI_BASE_URL": fake_server.openai_base_url}
    done = agentc("run", str(path), "--input", "q", cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stderr
    body = fake_server.requests[0].body
    assert body["frobnicate"] == 3 and body["temperature"] == 0 and "extra_body" not in body
