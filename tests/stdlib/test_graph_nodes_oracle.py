"""Graph model and tools nodes beside the real LangGraph 1.2.24 / LangChain 1.4.10: a
StateGraph node calling a fake chat model (and `with_structured_output`), and the prebuilt
ToolNode with `tools_condition`, against agentc's nodes on the same replies. Compared: what
the model received and the state the run ends with."""

from __future__ import annotations

import operator
from typing import Annotated, Any

import pytest
from graph_node_kit import TOOLS_CONDITION, calls_of, model_node, run_graph, tools_node
from pydantic import BaseModel
from support.graphs import END, SPAN, START, chan, graph, node, ref
from typing_extensions import TypedDict

from agentc import ir
from agentc.runtime.events import UpdatesEvent
from agentc.stdlib.messages import AIMessage as OurAI

lc_messages = pytest.importorskip("langchain_core.messages")
fake_models = pytest.importorskip("langchain_core.language_models.fake_chat_models")
lg_graph = pytest.importorskip("langgraph.graph")
lg_prebuilt = pytest.importorskip("langgraph.prebuilt")


class Feedback(BaseModel):
    grade: str
    feedback: str


FEEDBACK = {"grade": "funny", "feedback": "ha"}


class Recorder:
    """A GenericFakeChatModel that keeps what it received and what tools were bound."""

    def __init__(self, replies: list[Any]) -> None:
        from langchain_core.utils.function_calling import convert_to_openai_tool

        seen, bound = self.seen, self.bound = [], []

        class Fake(fake_models.GenericFakeChatModel):
            def bind_tools(self, tools: Any, *, tool_choice: Any = None, **kw: Any) -> Any:
                names = [convert_to_openai_tool(t)["function"]["name"] for t in tools]
                bound.append((names, tool_choice))
                return self

            def _generate(self, messages: Any, *a: Any, **kw: Any) -> Any:
                seen.append([(m.type, m.content) for m in messages])
                return super()._generate(messages, *a, **kw)

        self.model = Fake(messages=iter(replies))


def shape(messages: Any) -> list[tuple[str, Any]]:
    return [(m.type, m.content if isinstance(m.content, str) else m.text) for m in messages]


def ours_sent(name: str) -> list[list[tuple[str, str]]]:
    return [[(m.type, m.text) for m in r.messages] for r in calls_of(name)]


def test_a_conversation_node_matches_langgraph():
    rec = Recorder([lc_messages.AIMessage(content="Hello!")])

    def think(state: Any) -> dict:
        prompt = lc_messages.SystemMessage(content="You are helpful.")
        return {"messages": [rec.model.invoke([prompt, *state["messages"]])]}

    builder = lg_graph.StateGraph(lg_graph.MessagesState)
    builder.add_node("think", think)
    builder.add_edge(lg_graph.START, "think")
    builder.add_edge("think", lg_graph.END)
    theirs = builder.compile().invoke({"messages": [("user", "hi")]})

    g = graph(
        state=[chan("messages", "messages", [])],
        nodes=[model_node("think", ["Hello!"], prompt="You are helpful.")],
        edges=[(START, "think"), ("think", END)],
    )
    ours = run_graph(g, {"messages": [("user", "hi")]})
    assert ours_sent("think") == rec.seen
    assert shape(ours["messages"]) == shape(theirs["messages"])


def test_a_template_node_writing_text_matches_langgraph():
    rec = Recorder([lc_messages.AIMessage(content="A cat joke.")])

    class S(TypedDict):
        topic: str
        joke: str

    def write(state: S) -> dict:
        text = f"Write a short joke about {state['topic']}"
        return {"joke": rec.model.invoke([lc_messages.HumanMessage(content=text)]).content}

    builder = lg_graph.StateGraph(S)
    builder.add_node("write", write)
    builder.add_edge(lg_graph.START, "write")
    builder.add_edge("write", lg_graph.END)
    theirs = builder.compile().invoke({"topic": "cats"})

    n = model_node(
        "write",
        ["A cat joke."],
        input="Write a short joke about {topic}",
        into="joke",
        answer=ir.AnswerKind.TEXT,
    )
    g = graph(
        state=[chan("topic", default=""), chan("joke", default="")],
        nodes=[n],
        edges=[(START, "write"), ("write", END)],
    )
    ours = run_graph(g, {"topic": "cats"})
    assert ours_sent("write") == rec.seen
    assert ours == theirs


def test_a_structured_node_matches_with_structured_output():
    call = {"name": "Feedback", "args": FEEDBACK, "id": "c1"}
    rec = Recorder([lc_messages.AIMessage(content="", tool_calls=[call])])

    class S(TypedDict, total=False):
        joke: str
        feedback: dict

    def grade(state: S) -> dict:
        grader = rec.model.with_structured_output(Feedback)
        answer = grader.invoke(
            [
                lc_messages.SystemMessage(content="Grade jokes."),
                lc_messages.HumanMessage(content=f"Grade: {state['joke']}"),
            ]
        )
        return {"feedback": answer.model_dump()}

    builder = lg_graph.StateGraph(S)
    builder.add_node("grade", grade)
    builder.add_edge(lg_graph.START, "grade")
    builder.add_edge("grade", lg_graph.END)
    theirs = builder.compile().invoke({"joke": "a joke"})

    n = model_node(
        "grade",
        [{"tool_calls": [call]}],
        prompt="Grade jokes.",
        input="Grade: {joke}",
        into="feedback",
        answer=ir.AnswerKind.STRUCTURED,
        output=ir.OutputSpec(schemas=["Feedback"], strategy=ir.OutputStrategy.TOOL, span=SPAN),
    )
    schema = ir.SchemaSpec(name="Feedback", ref=ref(Feedback), json_schema={}, span=SPAN)
    g = graph(
        state=[chan("joke", default=""), chan("feedback")],
        nodes=[n],
        edges=[(START, "grade"), ("grade", END)],
    )
    ours = run_graph(g, {"joke": "a joke"}, [schema])
    assert ours_sent("grade") == rec.seen
    assert ours == theirs == {"joke": "a joke", "feedback": FEEDBACK}
    (request,) = calls_of("grade")
    assert ([t.name for t in request.tools], request.tool_choice) == rec.bound[0]


def add(a: int, b: int) -> int:
    """Add two numbers."""
    return a + b


CALLS = [
    {"name": "add", "args": {"a": 1, "b": 2}, "id": "c1"},
    {"name": "add", "args": {"a": "x", "b": 2}, "id": "c2"},
    {"name": "nope", "args": {}, "id": "c3"},
]


def test_the_tools_node_and_tools_condition_match_langgraph():
    rec = Recorder(
        [lc_messages.AIMessage(content="", tool_calls=CALLS), lc_messages.AIMessage(content="3")]
    )

    def think(state: Any) -> dict:
        return {"messages": [rec.model.invoke(state["messages"])]}

    builder = lg_graph.StateGraph(lg_graph.MessagesState)
    builder.add_node("think", think)
    builder.add_node("act", lg_prebuilt.ToolNode([add]))
    builder.add_edge(lg_graph.START, "think")
    builder.add_conditional_edges(
        "think", lg_prebuilt.tools_condition, {"tools": "act", lg_graph.END: lg_graph.END}
    )
    builder.add_edge("act", "think")
    theirs = builder.compile().invoke({"messages": [("user", "go")]})

    replies = [OurAI(content="", tool_calls=CALLS), OurAI(content="3")]

    def ours_think(state: dict) -> dict:
        done = sum(isinstance(m, OurAI) for m in state["messages"])
        return {"messages": [replies[done]]}

    act = tools_node("act", [add])
    g = graph(
        state=[chan("messages", "messages", [])],
        nodes=[node("think", ours_think), act],
        edges=[(START, "think"), ("act", "think")],
        branches=[
            ir.BranchSpec(
                source="think",
                kind=ir.BranchKind.ROUTER,
                router=TOOLS_CONDITION,
                routes={"tools": "act", "end": END},
                span=SPAN,
            )
        ],
    )
    ours = run_graph(g, {"messages": [("user", "go")]})

    def tool_answers(messages: Any) -> list[tuple[str, str, str, str]]:
        return [(m.tool_call_id, m.name, m.status, m.content) for m in messages if m.type == "tool"]

    assert shape(ours["messages"]) == shape(theirs["messages"])
    assert tool_answers(ours["messages"]) == tool_answers(theirs["messages"])


# ---------------------------------------------------------------- `into` a list a reducer grows

LIST_OF_STR = ir.TypeSpec(display="list[str]", json_schema={"type": "array", "items": {}})
STR = ir.TypeSpec(display="str", json_schema={"type": "string"})


def out_channel(reducer: str, type_: ir.TypeSpec | None) -> ir.ChannelSpec:
    base = chan("out", reducer, [] if type_ is not STR else "")
    return base if type_ is None else base.model_copy(update={"type": type_})


def updates_of(g: ir.Graph, value: Any, schemas: list[ir.SchemaSpec] = ()) -> list[Any]:
    from agentc.runtime import compile

    program = ir.Program(
        source=ir.SourceRef(file="t.agent", sha256="0"), graphs=[g], schemas=list(schemas)
    )
    events = compile(program, g.name).stream(value, mode="updates")
    return [{e.node: e.update} for e in events if isinstance(e, UpdatesEvent)]


class ListOut(TypedDict):
    topic: str
    out: Annotated[list, operator.add]


class TextOut(TypedDict):
    topic: str
    out: Annotated[str, operator.add]


@pytest.mark.parametrize(
    ("reducer", "type_", "theirs_state", "as_item"),
    [
        ("append", None, ListOut, True),  # `out: list[…] reduce append`, any item type
        ("append", LIST_OF_STR, ListOut, True),
        ("add", LIST_OF_STR, ListOut, True),  # `reduce add` on a list concatenates lists
        ("add", STR, TextOut, False),  # … and on a string, strings
    ],
)
def test_text_into_a_growing_channel_updates_as_langgraph(reducer, type_, theirs_state, as_item):
    rec = Recorder([lc_messages.AIMessage(content="A cat joke.")] * 2)  # streamed, invoked

    def write(state: Any) -> dict:
        text = rec.model.invoke([lc_messages.HumanMessage(content=f"Joke: {state['topic']}")])
        return {"out": [text.content] if as_item else text.content}

    builder = lg_graph.StateGraph(theirs_state)
    builder.add_node("write", write)
    builder.add_edge(lg_graph.START, "write")
    builder.add_edge("write", lg_graph.END)
    lg = builder.compile()
    theirs = list(lg.stream({"topic": "cats"}, stream_mode="updates"))

    n = model_node(
        "write", ["A cat joke."], input="Joke: {topic}", into="out", answer=ir.AnswerKind.TEXT
    )
    g = one_channel_graph(n, out_channel(reducer, type_))
    assert updates_of(g, {"topic": "cats"}) == theirs
    assert theirs == [{"write": {"out": ["A cat joke."] if as_item else "A cat joke."}}]
    assert run_graph(g, {"topic": "cats"}) == lg.invoke({"topic": "cats"})


def one_channel_graph(n: ir.NodeSpec, out: ir.ChannelSpec) -> ir.Graph:
    return graph(
        state=[chan("topic", default=""), out],
        nodes=[n],
        edges=[(START, n.name), (n.name, END)],
    )


class Grades(TypedDict, total=False):
    joke: str
    grades: Annotated[list, operator.add]


def test_a_structured_answer_into_an_appended_list_updates_as_langgraph():
    call = {"name": "Feedback", "args": FEEDBACK, "id": "c1"}
    rec = Recorder([lc_messages.AIMessage(content="", tool_calls=[call])])

    def grade(state: Grades) -> dict:
        answer = rec.model.with_structured_output(Feedback).invoke(f"Grade: {state['joke']}")
        return {"grades": [answer.model_dump()]}

    builder = lg_graph.StateGraph(Grades)
    builder.add_node("grade", grade)
    builder.add_edge(lg_graph.START, "grade")
    builder.add_edge("grade", lg_graph.END)
    theirs = list(builder.compile().stream({"joke": "a joke"}, stream_mode="updates"))

    n = model_node(
        "grade",
        [{"tool_calls": [call]}],
        input="Grade: {joke}",
        into="grades",
        answer=ir.AnswerKind.STRUCTURED,
        output=ir.OutputSpec(schemas=["Feedback"], strategy=ir.OutputStrategy.TOOL, span=SPAN),
    )
    schema = ir.SchemaSpec(name="Feedback", ref=ref(Feedback), json_schema={}, span=SPAN)
    g = graph(
        state=[chan("joke", default=""), chan("grades", "append", [])],
        nodes=[n],
        edges=[(START, "grade"), ("grade", END)],
    )
    assert updates_of(g, {"joke": "a joke"}, [schema]) == theirs
    assert theirs == [{"grade": {"grades": [FEEDBACK]}}]
