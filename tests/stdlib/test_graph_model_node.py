"""A graph block's `model(…)` node, run by the real runtime on IR built here: what it sends
(B1 system prompt never saved, B2 the conversation, B5 tools every call, B7 structured
output by strategy), what it writes (`into` per `answer`), templates from state and from a
Send's payload, `wrap_model_call` hooks, `messages` streaming, and its errors."""

from __future__ import annotations

import pytest
from graph_node_kit import NODES, calls_of, messages_chan, model_node, one_node, run_graph
from support.graphs import END, SPAN, START, chan, graph, node, ref, router

from agentc import ir
from agentc.runtime import compile
from agentc.runtime.errors import BindError
from agentc.runtime.types import Send
from agentc.stdlib.graph_model import ModelNodeError
from agentc.stdlib.messages import AIMessage, HumanMessage, SystemMessage
from agentc.stdlib.middleware.base import ModelRequest
from agentc.stdlib.templates import TemplateError
from agentc.testing.fake_provider import FakeReply

FEEDBACK = {
    "type": "object",
    "properties": {"grade": {"enum": ["funny", "not funny"]}, "feedback": {"type": "string"}},
    "required": ["grade", "feedback"],
}


# ---------------------------------------------------------------- answers


def test_message_answer_reads_the_conversation_and_never_saves_the_system_prompt():
    g = one_node(model_node("think", ["Hello!"], prompt="You are helpful."), messages_chan())
    out = run_graph(g, {"messages": [("user", "hi")]})
    assert [type(m).__name__ for m in out["messages"]] == ["HumanMessage", "AIMessage"]  # B1
    assert out["messages"][-1].text == "Hello!"
    sent = calls_of("think")[0].messages  # B1, B2: system first, then the history
    assert isinstance(sent[0], SystemMessage) and sent[0].text == "You are helpful."
    assert isinstance(sent[1], HumanMessage) and sent[1].text == "hi"


def test_text_answer_from_an_input_template_does_not_read_the_conversation():
    n = model_node(
        "write",
        ["Why did the cat sit on the computer?"],
        input="Write a short joke about {topic}",
        into="joke",
        answer=ir.AnswerKind.TEXT,
    )
    g = one_node(n, messages_chan(), chan("topic", default=""), chan("joke", default=""))
    out = run_graph(g, {"topic": "cats", "messages": [("user", "not sent")]})
    assert out["joke"] == "Why did the cat sit on the computer?"
    assert [m.text for m in out["messages"]] == ["not sent"]  # nothing appended
    (request,) = calls_of("write")
    assert [(type(m).__name__, m.text) for m in request.messages] == [
        ("HumanMessage", "Write a short joke about cats")
    ]


def test_templates_render_nested_keys_scalars_and_json():
    n = model_node(
        "t",
        ["ok"],
        prompt="Grade for {user.name} ({n}).",
        input="Data: {data} / {flag}",
        into="out",
        answer=ir.AnswerKind.TEXT,
    )
    chans = [chan("user"), chan("n"), chan("data"), chan("flag"), chan("out", default="")]
    run_graph(
        one_node(n, *chans), {"user": {"name": "Ada"}, "n": 3, "data": [1, {"é": 2}], "flag": None}
    )
    system, user = calls_of("t")[0].messages
    assert system.text == "Grade for Ada (3)."
    assert user.text == 'Data: [1, {"é": 2}] / None'


def test_structured_answer_via_tool_is_a_plain_dict_and_adds_no_tool_message():
    answer = {"grade": "funny", "feedback": "ha"}
    n = model_node(
        "grade",
        [{"tool_calls": [{"name": "Feedback", "args": answer, "id": "c1"}]}],
        prompt="Grade jokes.",
        input="Grade: {joke}",
        into="feedback",
        answer=ir.AnswerKind.STRUCTURED,
        output=ir.OutputSpec(schemas=["Feedback"], strategy=ir.OutputStrategy.TOOL, span=SPAN),
    )
    g = one_node(n, messages_chan(), chan("joke", default=""), chan("feedback"))
    schema = ir.SchemaSpec(name="Feedback", json_schema=FEEDBACK, span=SPAN)
    out = run_graph(g, {"joke": "a joke"}, [schema])
    assert out["feedback"] == answer and type(out["feedback"]) is dict
    assert out["messages"] == []  # no AI or tool message joins the conversation
    (request,) = calls_of("grade")
    assert [t.name for t in request.tools] == ["Feedback"] and request.tool_choice == "any"


def test_structured_answer_via_provider_parses_the_text():
    n = model_node(
        "grade",
        ['{"grade": "not funny", "feedback": "meh"}'],
        input="Grade: {joke}",
        into="feedback",
        answer=ir.AnswerKind.STRUCTURED,
        output=ir.OutputSpec(schemas=["Feedback"], strategy=ir.OutputStrategy.PROVIDER, span=SPAN),
    )
    g = one_node(n, chan("joke", default=""), chan("feedback"))
    out = run_graph(
        g, {"joke": "x"}, [ir.SchemaSpec(name="Feedback", json_schema=FEEDBACK, span=SPAN)]
    )
    assert out["feedback"] == {"grade": "not funny", "feedback": "meh"}
    (request,) = calls_of("grade")
    assert request.response_format is not None and request.response_format.name == "Feedback"
    assert request.tools == ()


def test_structured_answer_that_does_not_fit_is_an_error_naming_the_node():
    n = model_node(
        "grade",
        [{"tool_calls": [{"name": "Feedback", "args": {"grade": "meh"}, "id": "c1"}]}],
        input="x",
        into="feedback",
        answer=ir.AnswerKind.STRUCTURED,
        output=ir.OutputSpec(schemas=["Feedback"], strategy=ir.OutputStrategy.TOOL, span=SPAN),
    )
    g = one_node(n, chan("feedback"))
    with pytest.raises(ModelNodeError, match="model node `grade` failed: Failed to parse"):
        run_graph(g, {}, [ir.SchemaSpec(name="Feedback", json_schema=FEEDBACK, span=SPAN)])


def test_a_reply_without_the_structured_answer_is_an_error_naming_the_node():
    n = model_node(
        "grade",
        ["no tool call"],
        input="x",
        into="feedback",
        answer=ir.AnswerKind.STRUCTURED,
        output=ir.OutputSpec(schemas=["Feedback"], strategy=ir.OutputStrategy.TOOL, span=SPAN),
    )
    with pytest.raises(ModelNodeError, match="`grade` got no structured answer"):
        run_graph(
            one_node(n, chan("feedback")),
            {},
            [ir.SchemaSpec(name="Feedback", json_schema=FEEDBACK, span=SPAN)],
        )


# ---------------------------------------------------------------- Send payloads


def test_a_send_fed_node_fills_its_template_from_the_payload():
    def assign(state: dict) -> list[Send]:
        return [Send("worker", {"name": s, "description": s.upper()}) for s in state["sections"]]

    worker = model_node(
        "worker",
        ["one", "two"],
        input="Write {name}: {description}",
        into="done",
        answer=ir.AnswerKind.TEXT,
    )
    plan = node("plan", lambda state: None)
    g = graph(
        state=[chan("sections", default=[]), chan("done", "append", [])],
        nodes=[plan, worker],
        edges=[(START, "plan"), ("worker", END)],
        branches=[
            ir.BranchSpec(
                source="plan",
                kind=ir.BranchKind.ROUTER,
                router=ref(assign),
                routes={"worker": "worker"},
                sends=True,
                span=SPAN,
            )
        ],
    )
    out = run_graph(g, {"sections": ["intro", "end"]})
    assert sorted(out["done"]) == ["one", "two"]
    sent = sorted(r.messages[0].text for r in calls_of("worker"))
    assert sent == ["Write end: END", "Write intro: INTRO"]


def test_a_missing_placeholder_names_the_node_and_the_placeholder():
    def assign(state: dict) -> list[Send]:
        return [Send("worker", {"name": "intro"})]

    worker = model_node(
        "worker", ["x"], input="Write {name}: {description}", into="done", answer=ir.AnswerKind.TEXT
    )
    g = graph(
        state=[chan("done", "append", [])],
        nodes=[node("plan", lambda state: None), worker],
        edges=[(START, "plan"), ("worker", END)],
        branches=[
            ir.BranchSpec(
                source="plan",
                kind=ir.BranchKind.ROUTER,
                router=ref(assign),
                routes={"worker": "worker"},
                sends=True,
                span=SPAN,
            )
        ],
    )
    with pytest.raises(TemplateError, match=r"model node `worker` cannot fill `\{description\}`"):
        run_graph(g, {})


# ---------------------------------------------------------------- tools, hooks, streaming


def add(a: int, b: int) -> int:
    """Add two numbers."""
    return a + b


def test_tools_and_provider_tools_are_offered_every_call():
    spec = ir.ToolSpec(
        name="add",
        description="Add two numbers.",
        parameters={"type": "object", "properties": {}},
        ref=ref(add),
        span=SPAN,
    )
    n = model_node(
        "think", ["a", "b"], tools=[spec], provider_tools=[{"type": "web_search_preview"}]
    )

    def again_or_end(state: dict) -> str:
        return "again" if len(state["messages"]) < 3 else "end"

    g = graph(
        state=[messages_chan()],
        nodes=[n, node("again", lambda s: {"messages": [("user", "more")]})],
        edges=[(START, "think"), ("again", "think")],
        branches=[router("think", again_or_end, {"again": "again", "end": END})],
    )
    out = run_graph(g, {"messages": ["hi"]})
    assert [m.text for m in out["messages"]] == ["hi", "a", "more", "b"]
    requests = calls_of("think")
    assert len(requests) == 2
    for request in requests:  # B5, A8
        assert [t.name for t in request.tools] == ["add"]
        assert request.tools[0].description == "Add two numbers."
        assert request.provider_tools == ({"type": "web_search_preview"},)
        assert request.tool_choice is None  # B6


def test_wrap_model_call_hooks_plain_and_decorated_first_outermost():
    from agentc.middleware import wrap_model_call

    seen: list[str] = []

    def outer(request: ModelRequest, handler):
        seen.append("outer")
        return handler(request.override(system_prompt="Be brief."))

    @wrap_model_call
    async def inner(request: ModelRequest, handler):
        seen.append(f"inner:{request.system_prompt}")
        response = await handler(request)
        return response

    wrap = [
        {"$import": ref(outer).key, "is_file": False},
        {"$import": ref(inner).key, "is_file": False},
    ]
    g = one_node(model_node("think", ["ok"], prompt="Long prompt.", wrap=wrap), messages_chan())
    out = run_graph(g, {"messages": ["hi"]})
    assert seen == ["outer", "inner:Be brief."]
    assert calls_of("think")[0].messages[0].text == "Be brief."
    assert out["messages"][-1].text == "ok"


def test_messages_stream_carries_the_model_nodes_deltas():
    g = one_node(model_node("think", ["streamed!"]), messages_chan())
    program = ir.Program(source=ir.SourceRef(file="t.agent", sha256="0"), graphs=[g])
    events = list(compile(program, "g").stream({"messages": ["hi"]}, mode="messages"))
    assert [(e.node, e.payload.text) for e in events] == [("think", "streamed!")]


# ---------------------------------------------------------------- errors


def test_a_provider_failure_is_one_error_naming_the_node(fake_server, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-0123456789")
    fake_server.push(FakeReply(status=400, error_message="model overloaded"))
    model = ir.ModelSpec(
        spec="openai:gpt-4o-mini",
        provider="openai",
        name="gpt-4o-mini",
        options={"base_url": fake_server.openai_base_url, "max_retries": 0},
        span=SPAN,
    )
    g = one_node(model_node("think", model=model), messages_chan())
    with pytest.raises(ModelNodeError) as info:
        run_graph(g, {"messages": ["hi"]})
    text = str(info.value)
    assert "model node `think` failed: openai request failed (HTTP 400)" in text
    assert "model overloaded" in text


def test_a_real_provider_answer_over_http(fake_server, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-0123456789")
    fake_server.push(FakeReply(text="Paris."))
    model = ir.ModelSpec(
        spec="openai:gpt-4o-mini",
        provider="openai",
        name="gpt-4o-mini",
        options={"base_url": fake_server.openai_base_url, "temperature": 0},
        span=SPAN,
    )
    n = model_node(
        "ask",
        model=model,
        prompt="Answer briefly.",
        input="Capital of {country}?",
        into="answer",
        answer=ir.AnswerKind.TEXT,
    )
    out = run_graph(one_node(n, chan("country"), chan("answer", default="")), {"country": "France"})
    assert out["answer"] == "Paris."
    body = fake_server.requests[0].body
    assert body["messages"] == [
        {"role": "system", "content": "Answer briefly."},
        {"role": "user", "content": "Capital of France?"},
    ]
    assert body["temperature"] == 0


def test_running_out_of_scripted_replies_names_the_node():
    g = one_node(model_node("think", []), messages_chan())
    with pytest.raises(ModelNodeError, match="model node `think` failed: the scripted model has 0"):
        run_graph(g, {"messages": ["hi"]})


def test_a_config_the_factory_cannot_read_is_a_bind_error_naming_the_node():
    bad = node(
        "think",
        ir.ImportRef(module=NODES, attr="model_node"),
        kind=ir.NodeKind.MODEL,
        config={"model": {"spec": "scripted", "provider": "scripted", "name": ""}},
    )
    with pytest.raises(BindError, match="model node `think` cannot read its config"):
        run_graph(one_node(bad, messages_chan()), {})


def test_no_conversation_channel_value_is_an_error_naming_the_node():
    g = one_node(model_node("think", ["x"], messages="history"), chan("history"), messages_chan())
    with pytest.raises(
        ModelNodeError, match="model node `think` reads its conversation from `history`"
    ):
        run_graph(g, {"messages": ["hi"]})


def test_the_reply_goes_through_the_channels_reducer():
    g = one_node(
        model_node("chat", ["again"], messages="history", into="history"),
        chan("history", "messages", []),
    )
    out = run_graph(g, {"history": [AIMessage(content="first", id="a1")]})
    assert [m.text for m in out["history"]] == ["first", "again"]
