"""`agentc.models.init_chat_model`: a chat model a Python node calls itself — resolved as a
file's model strings (A1, A2, scripted), options checked when made, `.invoke`/`.ainvoke`,
`.bind_tools`, `.with_structured_output`; inside a graph run: sync and async nodes,
`messages` streaming, and `--record` / `--replay` cassettes (in process and by the CLI)."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
from typing import Any

import pytest
from pydantic import BaseModel
from support.graphs import END, START, chan, graph, node
from typing_extensions import TypedDict

from agentc import ir
from agentc.models import ModelSetupError, init_chat_model
from agentc.runner.cassettes import cassette_source
from agentc.runtime import compile
from agentc.stdlib.messages import AIMessage, HumanMessage, SystemMessage
from agentc.stdlib.models import model_source
from agentc.stdlib.providers import http, scripted
from agentc.stdlib.structured_output import StructuredOutputValidationError
from agentc.testing.fake_provider import FakeReply, FakeToolCall


class Joke(BaseModel):
    setup: str
    punchline: str


class Mood(TypedDict):
    mood: str


JOKE = {"setup": "Why?", "punchline": "Because."}


def newest() -> scripted.ScriptedModel:
    return scripted.CREATED[-1]


def add(a: int, b: int) -> int:
    """Add two numbers."""
    return a + b


# ---------------------------------------------------------------- outside a run


def test_invoke_takes_a_string_role_dicts_pairs_and_messages():
    llm = init_chat_model("scripted", replies=["one", "two", "three"])
    assert llm.invoke("hi") == AIMessage(content="one")
    llm.invoke([{"role": "system", "content": "Be kind."}, {"role": "user", "content": "yo"}])
    llm.invoke([("user", "a"), AIMessage(content="b"), HumanMessage(content="c")])
    first, second, third = (r.messages for r in newest().calls)
    assert first == (HumanMessage(content="hi"),)
    assert second == (SystemMessage(content="Be kind."), HumanMessage(content="yo"))
    assert [m.type for m in third] == ["human", "ai", "human"]


def test_ainvoke_and_bind_share_the_model():
    llm = init_chat_model("scripted", replies=["a", "b"])
    stopped = llm.bind(stop=["END"])
    assert asyncio.run(llm.ainvoke("x")).text == "a"
    assert asyncio.run(stopped.ainvoke("y")).text == "b"  # the same scripted model
    assert [r.options for r in newest().calls] == [{}, {"stop": ["END"]}]


def test_bind_tools_offers_functions_classes_and_tool_dicts_every_call():
    llm = init_chat_model("scripted", replies=["x", "y"])
    openai_tool = {
        "type": "function",
        "function": {"name": "lookup", "description": "Look up.", "parameters": {"type": "object"}},
    }
    bound = llm.bind_tools([add, Joke, openai_tool, {"type": "web_search"}], tool_choice="required")
    bound.invoke("a")
    bound.invoke("b")
    for request in newest().calls:
        assert [t.name for t in request.tools] == ["add", "Joke", "lookup"]
        assert request.tools[0].description == "Add two numbers."
        assert request.provider_tools == ({"type": "web_search"},)
        assert request.tool_choice == "any"
    assert llm.bind_tools([add], tool_choice=True).choice == "add"
    with pytest.raises(ValueError, match="tool_choice 'sub' names no bound tool"):
        llm.bind_tools([add], tool_choice="sub")


def test_a_tool_without_a_docstring_is_refused():
    def bare(a: int) -> int:
        return a

    with pytest.raises(TypeError, match="has no docstring"):
        init_chat_model("scripted", replies=[]).bind_tools([bare])


def test_with_structured_output_returns_the_parsed_object():
    replies = [
        {"tool_calls": [{"name": "Joke", "args": JOKE, "id": "c1"}]},
        json.dumps(JOKE),
        {"tool_calls": [{"name": "Answer", "args": {"anything": 1}, "id": "c2"}]},
        {"tool_calls": [{"name": "Mood", "args": {"mood": "ok"}, "id": "c3"}]},
        "no call",
    ]
    llm = init_chat_model("scripted", replies=replies)
    joke = llm.with_structured_output(Joke).invoke("tell one")
    assert joke == Joke(**JOKE)  # a pydantic instance for a class
    assert llm.with_structured_output(Joke, method="json_schema").invoke("again") == Joke(**JOKE)
    schema = {"title": "Answer", "type": "object", "properties": {"x": {"type": "integer"}}}
    assert llm.with_structured_output(schema).invoke("q") == {"anything": 1}  # unchecked (G3)
    assert llm.with_structured_output(Mood).invoke("m") == {"mood": "ok"}
    assert llm.with_structured_output(Joke).invoke("none") is None  # as LangChain's parser
    tool_call, native, *_ = newest().calls
    assert [t.name for t in tool_call.tools] == ["Joke"] and tool_call.tool_choice == "any"
    assert native.tools == () and native.response_format.name == "Joke"


def test_include_raw_and_a_bad_answer():
    bad = {"tool_calls": [{"name": "Joke", "args": {"setup": "only"}, "id": "c1"}]}
    llm = init_chat_model("scripted", replies=[bad, bad])
    raw = llm.with_structured_output(Joke, include_raw=True).invoke("x")
    assert set(raw) == {"raw", "parsed", "parsing_error"}
    assert isinstance(raw["raw"], AIMessage) and raw["parsed"] is None
    assert isinstance(raw["parsing_error"], StructuredOutputValidationError)
    with pytest.raises(StructuredOutputValidationError, match="Joke"):
        llm.with_structured_output(Joke).invoke("x")
    with pytest.raises(ValueError, match="method='json_mode'"):
        llm.with_structured_output(Joke, method="json_mode")
    with pytest.raises(TypeError, match="unsupported arguments"):
        llm.with_structured_output(Joke, tools=[add])


@pytest.mark.parametrize(
    ("args", "options", "message"),
    [
        (("llama3:8b",), {}, "cannot tell which provider serves model `llama3:8b`"),
        (("bedrock:claude",), {}, "provider `bedrock` is not supported by agentc yet"),
        (("openai:gpt-4o",), {"api_key": "sk-123456"}, "does not take `api_key`"),
        (("openai:gpt-4o",), {"configurable_fields": "any"}, "does not take `configurable_fields`"),
        (("openai:gpt-4o",), {"temperature": object()}, "`temperature` must be a JSON value"),
        (("openai:gpt-4o",), {"timeout": "soon"}, "`timeout` must be a non-negative number"),
        (("scripted",), {}, "needs replies="),
        ((None,), {}, "needs a model string"),
    ],
)
def test_options_are_checked_when_the_model_is_made(args, options, message):
    with pytest.raises(ModelSetupError, match=message.replace("(", r"\(")):
        init_chat_model(*args, **options)


def test_provider_inference_and_model_provider():
    assert (init_chat_model("gpt-4o-mini").provider, init_chat_model("gpt-4o-mini").name) == (
        "openai",
        "gpt-4o-mini",
    )  # A2
    claude = init_chat_model("claude-sonnet-4-5", model_provider="anthropic")
    assert (claude.provider, claude.name) == ("anthropic", "claude-sonnet-4-5")
    assert init_chat_model("openai:gpt-4o", model_provider="openai").name == "gpt-4o"  # A1


def test_a_real_provider_over_http(fake_server, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-0123456789")
    fake_server.push(
        FakeReply(tool_calls=[FakeToolCall("add", '{"a": 2, "b": 3}', "c1")]),
        FakeReply(text="It is 5."),
    )
    llm = init_chat_model(
        "gpt-4o-mini", model_provider="openai", base_url=fake_server.openai_base_url, temperature=0
    )

    async def both() -> tuple[AIMessage, AIMessage]:
        try:
            first = await llm.bind_tools([add]).ainvoke("2+3?")
            return first, await llm.ainvoke([("user", "2+3?"), first])
        finally:
            await http.close_clients()

    first, second = asyncio.run(both())
    assert first.tool_calls[0].name == "add" and first.tool_calls[0].args == {"a": 2, "b": 3}
    assert second.text == "It is 5."
    body = fake_server.requests[0].body
    assert body["model"] == "gpt-4o-mini" and body["temperature"] == 0
    assert body["tools"][0]["function"]["name"] == "add"


def test_scripted_path_starts_from_the_agent_files_directory(tmp_path, monkeypatch):
    (tmp_path / "replies.json").write_text(json.dumps(["from the file"]))
    monkeypatch.chdir(tmp_path.parent)
    with model_source(None, base_dir=str(tmp_path)):
        llm = init_chat_model("scripted:replies.json")
    assert llm.invoke("hi").text == "from the file"
    monkeypatch.chdir(tmp_path)  # outside a run: the current directory
    assert init_chat_model("scripted:replies.json").invoke("hi").text == "from the file"


# ---------------------------------------------------------------- inside a graph run


def _program(g: ir.Graph) -> ir.Program:
    return ir.Program(source=ir.SourceRef(file="t.agent", sha256="0"), graphs=[g])


def _two_nodes(llm: Any) -> ir.Graph:
    def write(state: dict) -> dict:  # a sync node: the call blocks it, as in LangGraph
        return {"joke": llm.invoke(f"A joke about {state['topic']}").text}

    async def grade(state: dict) -> dict:
        verdict = await llm.with_structured_output(Joke).ainvoke(state["joke"])
        return {"verdict": verdict.model_dump()}

    return graph(
        state=[chan("topic", default=""), chan("joke", default=""), chan("verdict")],
        nodes=[node("write", write), node("grade", grade)],
        edges=[(START, "write"), ("write", "grade"), ("grade", END)],
    )


REPLIES = ["Cats!", {"tool_calls": [{"name": "Joke", "args": JOKE, "id": "c1"}]}]


def test_sync_and_async_nodes_call_the_model():
    llm = init_chat_model("scripted", replies=REPLIES)
    out = compile(_program(_two_nodes(llm)), "g").invoke({"topic": "cats"})
    assert out == {"topic": "cats", "joke": "Cats!", "verdict": JOKE}
    assert newest().calls[1].messages == (HumanMessage(content="Cats!"),)


def test_calls_inside_a_node_stream_messages_events():
    llm = init_chat_model("scripted", replies=REPLIES)
    events = list(
        compile(_program(_two_nodes(llm)), "g").stream({"topic": "cats"}, mode="messages")
    )
    assert [(e.node, e.payload.text) for e in events] == [("write", "Cats!"), ("grade", "")]
    assert events[1].payload.tool_call_chunks[0].name == "Joke"


def test_record_then_replay_in_process(tmp_path):
    g = _two_nodes(None)
    tape = tmp_path / "run.jsonl"

    def run(record: bool) -> dict[str, Any]:
        args = argparse.Namespace(
            record=str(tape) if record else None, replay=None if record else str(tape)
        )
        with model_source(cassette_source(args, g)):
            llm = init_chat_model("scripted", replies=REPLIES)  # made inside the run's source
            return compile(_program(_two_nodes(llm)), "g").invoke({"topic": "cats"})

    recorded = run(record=True)
    (cassette,) = tmp_path.glob("run.models.scripted-*.jsonl")
    lines = [json.loads(line) for line in cassette.read_text().splitlines()]
    assert lines[0]["cassette"] == 1 and len(lines) == 3  # a header and two exchanges
    made = len(scripted.CREATED)
    assert run(record=False) == recorded
    assert len(scripted.CREATED) == made  # replay built no model


def test_a_model_made_inside_a_node_uses_the_source_the_run_is_in(tmp_path):
    """Call time: a handle made while a node runs (sync on the loop, or async) finds the
    run's source, as when `agentc run` drives the run inside it."""

    def write(state: dict) -> dict:
        llm = init_chat_model("scripted", replies=["made in the node"])
        return {"joke": llm.invoke(state["topic"]).text}

    g = graph(
        state=[chan("topic", default=""), chan("joke", default="")],
        nodes=[node("write", write)],
        edges=[(START, "write"), ("write", END)],
    )
    tape = tmp_path / "run.jsonl"
    compiled = compile(_program(g), "g")  # bound outside any source
    record = argparse.Namespace(record=str(tape), replay=None)
    with model_source(cassette_source(record, g)):
        assert compiled.invoke({"topic": "cats"})["joke"] == "made in the node"
    (cassette,) = tmp_path.glob("run.models.scripted-*.jsonl")
    exchange = json.loads(cassette.read_text().splitlines()[1])
    assert exchange["response"]["content"] == "made in the node"


STEPS = """
from agentc.models import init_chat_model

llm = init_chat_model("scripted:replies.json")  # made when the run imports this file


def write(state):
    return {"messages": [llm.invoke(state["messages"])]}
"""

GRAPH = """agentc 1
use "./steps.py" as steps

graph joke {
  state { messages: messages }
  node write = python(steps.write)
  edge START -> write
  edge write -> END
}
"""


def test_agentc_run_records_and_replays_a_python_nodes_model(tmp_path):
    from support.cli_kit import agentc

    (tmp_path / "steps.py").write_text(STEPS)
    (tmp_path / "joke.agent").write_text(GRAPH)
    (tmp_path / "replies.json").write_text(json.dumps(["A recorded joke."]))
    env = {"AGENTC_NO_IR_CACHE": "1"}
    live = agentc(
        "run",
        "joke.agent",
        "--input",
        "a joke",
        "--record",
        "run.jsonl",
        "--json",
        cwd=tmp_path,
        env=env,
    )
    assert live.returncode == 0, live.stderr
    assert (tmp_path / "run.models.scripted-replies.json.jsonl").exists()
    os.remove(tmp_path / "replies.json")  # replay needs neither the script nor the model
    again = agentc(
        "run",
        "joke.agent",
        "--input",
        "a joke",
        "--replay",
        "run.jsonl",
        "--json",
        cwd=tmp_path,
        env=env,
    )
    assert again.returncode == 0, again.stderr

    def texts(out: str) -> list[tuple[str, str]]:  # message ids are fresh each run
        return [(m["type"], m["content"]) for m in json.loads(out)["messages"]]

    assert (
        texts(again.stdout)
        == texts(live.stdout)
        == [("human", "a joke"), ("ai", "A recorded joke.")]
    )
    assert "A recorded joke." in again.stdout


def test_with_structured_output_reads_replies_as_langchain_does():
    """The oracle: LangChain 1.4.10's `with_structured_output` on the same replies — no
    call gives None, several give the first, a JSON-schema dict's answer is unchecked."""
    lc = pytest.importorskip("langchain_core.messages")
    fakes = pytest.importorskip("langchain_core.language_models.fake_chat_models")

    class Fake(fakes.GenericFakeChatModel):
        def bind_tools(self, tools: Any, **kw: Any) -> Any:
            return self

    two = [
        {"name": "Joke", "args": JOKE, "id": "1"},
        {"name": "Joke", "args": {**JOKE, "setup": "Second?"}, "id": "2"},
    ]
    raw = {"name": "Answer", "args": {"anything": 1}, "id": "3"}
    schema = {"title": "Answer", "type": "object", "properties": {"x": {"type": "integer"}}}
    replies = [{"content": "no call"}, {"tool_calls": two}, {"tool_calls": [raw]}]
    theirs_model = Fake(messages=iter([lc.AIMessage(**{"content": "", **r}) for r in replies]))
    ours_model = init_chat_model("scripted", replies=replies)
    for target in (Joke, Joke, schema):
        theirs = theirs_model.with_structured_output(target).invoke("x")
        ours = ours_model.with_structured_output(target).invoke("x")
        assert ours == theirs
