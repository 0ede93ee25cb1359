"""LangGraph's call shapes on agentc's graphs: a config dict, `stream_mode=`, `context=`,
LangGraph's checkpointer names. Where the meaning is the same, the same call gives the
same answer as LangGraph 1.2.24 (the oracle, run on a twin of the same graph: support's
`lg_twin`); where it is not, one error that says what to use."""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Any

import pytest
from support.graphs import (
    END,
    START,
    ask,
    chain,
    chan,
    compiled,
    graph,
    lg_twin,
    node,
    obj,
    schema,
    subgraph,
)

import agentc
from agentc.runtime import InvalidConfigError, MemoryCheckpointer, RecursionLimitError, RunConfig
from agentc.runtime.context import _CURRENT, get_config, get_context, get_stream_writer
from agentc.runtime.errors import ForeignObjectError
from agentc.runtime.events import ValuesEvent


def write_custom(value: Any) -> None:
    """`get_stream_writer()(value)` on whichever runtime runs the calling node."""
    if _CURRENT.get() is not None:
        get_stream_writer()(value)
        return
    from langgraph.config import get_stream_writer as lg_writer

    lg_writer()(value)


def plus_one(state):
    write_custom({"at": "a"})
    return {"x": state["x"] + 1}


def times_ten(state):
    return {"x": state["x"] * 10}


def asks(state):
    return {"x": ask("ok?")}


TWO = graph("two", state=[chan("x")], nodes=[node("a", plus_one), node("b", times_ten)],
            edges=chain("a", "b"))  # fmt: skip
ASKS = graph("asks", state=[chan("x")], nodes=[node("q", asks)], edges=chain("q"))


def ours(g=TWO, *others):
    return compiled(g, *others, checkpointer=MemoryCheckpointer())


def twin(g=TWO):
    pytest.importorskip("langgraph", reason="langgraph (the oracle) is not installed")
    from langgraph.checkpoint.memory import InMemorySaver

    return lg_twin(g, checkpointer=InMemorySaver())


def plain(chunk: Any) -> Any:
    """Interrupts as their values (ids differ between runtimes), tuples as they are."""
    if isinstance(chunk, dict):
        return {k: plain(v) for k, v in chunk.items()}
    if isinstance(chunk, (tuple, list)):
        if chunk and all(type(c).__name__ == "Interrupt" for c in chunk):
            return ("Interrupt", tuple(c.value for c in chunk))
        return type(chunk)(plain(c) for c in chunk)
    return chunk


# ---------------------------------------------------------------- config dicts


def test_config_dict_names_the_thread_as_langgraph():
    lg, g = twin(), ours()
    config = {"configurable": {"thread_id": "1"}}
    assert g.invoke({"x": 1}, config) == lg.invoke({"x": 1}, config) == {"x": 20}
    assert g.get_state(config).values == lg.get_state(config).values == {"x": 20}
    # LangChain's ensure_config moves a top-level key it does not know into `configurable`
    top = {"thread_id": 2}
    assert g.invoke({"x": 2}, top) == lg.invoke({"x": 2}, top) == {"x": 30}
    assert g.get_state(RunConfig(thread_id="2")).values == {"x": 30}


def test_config_dict_resumes_and_reads_history():
    lg, g = twin(ASKS), ours(ASKS)
    config = {"configurable": {"thread_id": "t"}, "recursion_limit": 5}
    paused = g.invoke({"x": 0}, config)
    assert plain(paused) == plain(lg.invoke({"x": 0}, config))
    resumed = g.invoke(agentc.Command(resume=7), config)
    from langgraph.types import Command as LGCommand

    assert resumed == lg.invoke(LGCommand(resume=7), config) == {"x": 7}
    history = g.get_state_history(config)
    assert [s.values for s in history] == [s.values for s in lg.get_state_history(config)]
    # a snapshot's config goes back in as it is (LangGraph's time-travel habit)
    first = history[-1]
    assert g.get_state(first.config).values == {}
    g.update_state(config, {"x": 9})
    assert g.get_state({"configurable": {"thread_id": "t", "checkpoint_ns": ""}}).values == {"x": 9}


def test_config_dict_recursion_limit_counts_steps():
    g = ours()
    with pytest.raises(RecursionLimitError):
        g.invoke({"x": 1}, {"configurable": {"thread_id": "r"}, "recursion_limit": 1})


def read_config(state):
    cfg, ctx = get_config(), get_context()
    return {"seen": [cfg.configurable.get("user"), cfg.tags, dict(cfg.metadata), ctx]}


def test_config_dict_values_reach_the_nodes():
    g = compiled(graph(state=[chan("seen")], nodes=[node("n", read_config)], edges=chain("n")))
    out = g.invoke(
        {},
        {"configurable": {"user": "ann"}, "tags": ["nightly"], "metadata": {"k": 1}},
        context={"lang": "en"},
    )
    assert out == {"seen": ["ann", ("nightly",), {"k": 1}, {"lang": "en"}]}
    # trace labels only (LangSmith's), dropped; None counts as absent, as LangChain's
    assert g.invoke({}, {"run_name": "n", "run_id": None, "configurable": None})


@pytest.mark.parametrize(
    ("config", "says"),
    [
        ({"recursion_limt": 3}, "did you mean `recursion_limit`"),
        ({"configurble": {}}, "did you mean `configurable`"),
        ({"callbacks": []}, 'stream(…, mode="events")'),
        ({"max_concurrency": 2}, "concurrency"),
        ({"configurable": {"checkpoint_ns": "sub:1"}}, "checkpoint_ns"),
        ({"configurable": {"thread_id": 1.5}}, "thread_id must be text"),
        ({"tags": "nightly"}, "list of strings"),
        ({"configurable": "t1"}, "must be a dict"),
        ({"recursion_limit": 0}, "recursion limit"),
        ({"context": {"user": "ann"}}, "pass context=… to the call"),
    ],
)
def test_config_dict_mistakes_are_one_clear_error(config, says):
    with pytest.raises(InvalidConfigError) as err:
        ours().invoke({"x": 1}, config)
    assert says in str(err.value)


def test_config_of_another_type_is_refused():
    with pytest.raises(InvalidConfigError, match="RunConfig or a LangGraph config dict"):
        ours().invoke({"x": 1}, "thread-1")  # type: ignore[arg-type]


# ---------------------------------------------------------------- stream_mode


@pytest.mark.parametrize(
    ("stream_mode", "subgraphs"),
    [
        ("values", False),
        ("updates", False),
        ("custom", False),
        (["values", "updates", "custom"], False),
        ("values", True),
        (["updates"], True),
    ],
)
def test_stream_mode_gives_langgraphs_chunks(stream_mode, subgraphs):
    lg, g = twin(), ours()
    config = {"configurable": {"thread_id": "s"}}
    kw = {"stream_mode": stream_mode, "subgraphs": subgraphs}
    assert list(g.stream({"x": 1}, config, **kw)) == list(lg.stream({"x": 1}, config, **kw))


def test_stream_mode_shows_a_pause_and_its_resume_as_langgraph():
    lg, g = twin(ASKS), ours(ASKS)
    config = {"configurable": {"thread_id": "p"}}
    modes = ["values", "updates"]
    assert plain(list(g.stream({"x": 1}, config, stream_mode=modes))) == plain(
        list(lg.stream({"x": 1}, config, stream_mode=modes))
    )
    from langgraph.types import Command as LGCommand

    ours_resumed = g.stream(agentc.Command(resume=5), config, stream_mode=modes)
    assert list(ours_resumed) == list(lg.stream(LGCommand(resume=5), config, stream_mode=modes))


@pytest.mark.parametrize("breakpoint", [{"interrupt_before": ["b"]}, {"interrupt_after": "a"}])
def test_stream_mode_at_a_breakpoint_as_langgraph(breakpoint):
    lg, g = twin(), ours()
    config = {"configurable": {"thread_id": "bp"}}
    kw: dict[str, Any] = {"stream_mode": ["values", "updates"], **breakpoint}
    assert list(g.stream({"x": 1}, config, **kw)) == list(lg.stream({"x": 1}, config, **kw))
    assert g.invoke(None, config) == lg.invoke(None, config) == {"x": 20}


def test_stream_mode_tuple_counts_as_a_list():
    """LangGraph 1.2.24 tags chunks only for a `list`; a tuple gets the same tags here."""
    chunks = list(ours().stream({"x": 1}, {"thread_id": "u"}, stream_mode=("values", "updates")))
    assert chunks[:2] == [("values", {"x": 1}), ("updates", {"a": {"x": 2}})]


def test_stream_mode_subgraph_namespace_is_langgraphs_path():
    pytest.importorskip("langgraph", reason="langgraph (the oracle) is not installed")
    from typing import TypedDict

    from langgraph.graph import StateGraph

    class S(TypedDict):
        x: int

    inner = StateGraph(S)
    inner.add_node("a", plus_one)
    inner.add_node("b", times_ten)
    inner.add_edge(START, "a"), inner.add_edge("a", "b"), inner.add_edge("b", END)
    outer = StateGraph(S)
    outer.add_node("sub", inner.compile())
    outer.add_edge(START, "sub"), outer.add_edge("sub", END)
    parent = graph("parent", state=[chan("x")], nodes=[subgraph("sub", "two")], edges=chain("sub"))

    def shape(chunks):  # namespaces by node name: task ids differ between runtimes
        return [(tuple(s.split(":")[0] for s in ns), mode, c) for ns, mode, c in chunks]

    kw: dict[str, Any] = {"stream_mode": ["custom", "updates"], "subgraphs": True}
    got = shape(compiled(parent, TWO).stream({"x": 1}, **kw))
    want = shape(outer.compile().stream({"x": 1}, **kw))
    assert got[0] == want[0] == (("sub",), "custom", {"at": "a"})
    # LangGraph also streams the subgraph's own updates; agentc forwards only messages,
    # custom and events from a child (the root's chunks are the same)
    assert [c for c in got if not c[0]] == [c for c in want if not c[0]]


def test_stream_mode_messages_carry_langgraphs_metadata():
    def talks(state, ctx):
        ctx.emit("messages", "he")
        return {"x": 1}

    g = compiled(graph(state=[chan("x")], nodes=[node("t", talks)], edges=chain("t")))
    ((delta, meta),) = list(g.stream({}, stream_mode="messages"))
    assert delta == "he"
    assert meta == {"langgraph_step": 1, "langgraph_node": "t"}


def test_stream_mode_messages_of_an_agent_read_as_langchains(tmp_path):
    pytest.importorskip("langchain", reason="langchain (the oracle) is not installed")
    from langchain.agents import create_agent
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
    from langchain_core.messages import AIMessage
    from support.mwkit import agent
    from support.mwkit import ask as user_says

    text = "hello there world"
    ours = agent(tmp_path, replies_=[text], middleware="")
    lc = create_agent(GenericFakeChatModel(messages=iter([AIMessage(content=text)])), tools=[])

    def read(chunks):  # the habit: print each token's `.content`, see which node said it
        pairs = list(chunks)
        return "".join(t.content for t, _ in pairs), {m["langgraph_node"] for _, m in pairs}

    assert read(ours.stream(user_says(), stream_mode="messages")) == read(
        lc.stream(user_says(), stream_mode="messages")
    )


@pytest.mark.parametrize(
    ("stream_mode", "says"),
    [
        ("debug", 'mode="debug"'),
        ("tasks", 'mode="debug"'),
        (["values", "checkpoints"], "get_state_history"),
        ("value", '"values"'),
    ],
)
def test_stream_mode_without_the_same_meaning_says_what_to_use(stream_mode, says):
    with pytest.raises(InvalidConfigError) as err:
        list(ours().stream({"x": 1}, {"thread_id": "d"}, stream_mode=stream_mode))
    assert says in str(err.value)


def test_mode_and_stream_mode_together_are_refused():
    with pytest.raises(InvalidConfigError, match="not both"):
        list(ours().stream({"x": 1}, {"thread_id": "b"}, mode="values", stream_mode="values"))


def test_mode_still_gives_typed_events():
    events = list(ours().stream({"x": 1}, {"thread_id": "e"}))
    assert [type(e) for e in events] == [ValuesEvent] * 3


def test_invoke_stream_mode_values_only():
    g = ours()
    assert g.invoke({"x": 1}, {"thread_id": "v"}, stream_mode="values") == {"x": 20}
    with pytest.raises(InvalidConfigError, match=r"list\(graph.stream"):
        g.invoke({"x": 1}, {"thread_id": "w"}, stream_mode="updates")


def test_async_calls_take_the_same_shapes():
    g = ours()

    async def main():
        config = {"configurable": {"thread_id": "as"}}
        chunks = [c async for c in g.astream({"x": 1}, config, stream_mode="updates")]
        state = await g.aget_state(config)
        final = await g.ainvoke({"x": 2}, {"configurable": {"thread_id": "ai"}})
        return chunks, state.values, final

    chunks, values, final = asyncio.run(asyncio.wait_for(main(), 60))
    assert chunks == [{"a": {"x": 2}}, {"b": {"x": 20}}]
    assert values == {"x": 20} and final == {"x": 30}


# ---------------------------------------------------------------- context and savers


@dataclasses.dataclass
class Ctx:
    user: str
    lang: str = "en"


def greets(state):
    return {"seen": dict(get_context())}


def test_context_dataclass_as_langgraph_1x():
    g = graph(state=[chan("seen")], nodes=[node("n", greets)], edges=chain("n"), context="Ctx")
    ctx_schema = schema("Ctx", obj({"user": "string"}, {"lang": "en"}))
    run = compiled(g, schemas=[ctx_schema])
    assert run.invoke({}, context=Ctx("ann")) == {"seen": {"user": "ann", "lang": "en"}}
    assert run.invoke({}, context={"user": "bo"}) == {"seen": {"user": "bo", "lang": "en"}}


def test_langgraph_checkpointer_is_refused_with_agentcs_names():
    pytest.importorskip("langgraph", reason="langgraph (the oracle) is not installed")
    from langgraph.checkpoint.memory import InMemorySaver
    from langgraph.store.memory import InMemoryStore

    with pytest.raises(ForeignObjectError, match="agentc.MemoryCheckpointer()"):
        compiled(TWO, checkpointer=InMemorySaver())
    with pytest.raises(ForeignObjectError, match="agentc.InMemoryStore()"):
        compiled(TWO, store=InMemoryStore())


def test_langgraph_command_as_input_says_use_agentcs():
    pytest.importorskip("langgraph", reason="langgraph (the oracle) is not installed")
    from langgraph.types import Command as LGCommand

    g = ours(ASKS)
    g.invoke({"x": 0}, {"thread_id": "c"})
    with pytest.raises(ForeignObjectError, match=r"use agentc\.Command"):
        g.invoke(LGCommand(resume=1), {"thread_id": "c"})
    assert g.invoke(agentc.Command(resume=1), {"thread_id": "c"}) == {"x": 1}


def test_langgraph_names_on_agentc_say_which_to_use():
    with pytest.raises(AttributeError, match=r"use agentc\.MemoryCheckpointer\(\)"):
        agentc.InMemorySaver  # noqa: B018
    with pytest.raises(AttributeError, match="graph NAME"):
        agentc.StateGraph  # noqa: B018
    saver = agentc.MemoryCheckpointer()
    g = compiled(TWO, checkpointer=saver)
    assert g.invoke({"x": 1}, {"configurable": {"thread_id": "m"}}) == {"x": 20}
    assert saver.get("m", "") is not None


def test_durability_and_breakpoints_as_langgraph():
    lg, g = twin(), ours()
    config = {"configurable": {"thread_id": "k"}}
    kw: dict[str, Any] = {"interrupt_before": ["b"], "durability": "sync"}
    assert g.invoke({"x": 1}, config, **kw) == lg.invoke({"x": 1}, config, **kw) == {"x": 2}
    assert g.get_state(config).next == tuple(lg.get_state(config).next) == ("b",)
