"""`stream_mode="events"`: each model call and each tool call of an agent as typed start and
end (or error) events, beside LangChain 1.5.2's `astream_events(version="v2")` of a real
`create_agent` (`on_chat_model_start/end`, `on_tool_start/end/error`, with `langgraph_node`
and `langgraph_step` metadata)."""

from __future__ import annotations

import asyncio
import importlib
import json
from pathlib import Path
from typing import Any

import pytest
from support.mwkit import Command, RunConfig, agent, ask, call, reply

from agentc.api import load, load_agent
from agentc.runtime import StreamMode
from agentc.runtime.events import (
    RUN_EVENTS,
    ModelEnd,
    ModelError,
    ModelStart,
    ToolEnd,
    ToolError,
    ToolStart,
    UpdatesEvent,
)

model_node = importlib.import_module("agentc.stdlib.agent.model_node")
tool_node = importlib.import_module("agentc.stdlib.agent.tool_node")

ADD = call("add", {"a": 1, "b": 2}, "c1")


def events(a: Any, value: Any, **kw: Any) -> list[Any]:
    return list(a.stream(value, mode="events", **kw))


def kinds(evs: list[Any]) -> list[str]:
    return [e.kind for e in evs]


def test_one_tool_call_tells_model_tool_model_in_order(tmp_path):
    a = agent(tmp_path, replies_=[reply("", ADD), "three"], middleware="", tools="kit.add")
    evs = events(a, ask())
    assert kinds(evs) == [
        "model_start",
        "model_end",
        "tool_start",
        "tool_end",
        "model_start",
        "model_end",
    ]
    assert all(e.mode is StreamMode.EVENTS and e.ns == "" for e in evs)
    m1, m1e, t1, t1e, m2, m2e = evs
    assert isinstance(m1, ModelStart) and isinstance(m1e, ModelEnd)
    assert (m1.node, m1.step, m1.model, m1.provider) == ("model", 1, "scripted", "scripted")
    assert [(m.type, m.content) for m in m1.messages] == [("human", "hi")]
    assert m1e.run_id == m1.run_id != m2.run_id and m1e.message.tool_calls[0].id == "c1"
    assert isinstance(t1, ToolStart) and isinstance(t1e, ToolEnd)
    assert (t1.node, t1.step, t1.tool, t1.call_id, t1.input) == (
        "tools",
        2,
        "add",
        "c1",
        ADD["args"],
    )
    assert t1e.run_id == t1.run_id and t1e.task_id == t1.task_id != ""
    assert (t1e.output.content, t1e.output.tool_call_id, t1e.status) == ("3", "c1", "success")
    assert [m.type for m in m2.messages] == ["human", "ai", "tool"] and m2.step == 3
    assert m2e.message.content == "three" and m2e.usage is None


def test_usage_and_system_prompt_reach_the_model_events(tmp_path):
    usage = {"input_tokens": 3, "output_tokens": 1, "total_tokens": 4}
    a = agent(
        tmp_path, replies_=[reply("ok", usage=usage)], middleware="", extra='prompt "Be brief."'
    )
    start, end = events(a, ask())
    assert [m.type for m in start.messages] == ["system", "human"]
    assert end.usage is not None and end.usage.total_tokens == 4


def test_parallel_calls_each_tell_their_own_start_and_end(tmp_path):
    two = reply("", call("add", {"a": 1, "b": 2}, "c1"), call("multiply", {"a": 3, "b": 4}, "c2"))
    a = agent(tmp_path, replies_=[two, "done"], middleware="", tools="kit.add, kit.multiply")
    evs = [e for e in events(a, ask()) if isinstance(e, (ToolStart, ToolEnd))]
    assert sorted(kinds(evs)) == ["tool_end", "tool_end", "tool_start", "tool_start"]
    starts = {e.run_id: e for e in evs if isinstance(e, ToolStart)}
    ends = {e.run_id: e for e in evs if isinstance(e, ToolEnd)}
    assert starts.keys() == ends.keys() and len(starts) == 2
    for run, end in ends.items():  # each end follows its own start
        assert evs.index(starts[run]) < evs.index(end) and end.call_id == starts[run].call_id
    answers = {e.call_id: (e.tool, e.output.content) for e in ends.values()}
    assert answers == {"c1": ("add", "3"), "c2": ("multiply", "12")}
    assert len({e.task_id for e in starts.values()}) == 2  # one task per call (Send)


def test_a_failing_tool_tells_its_error_and_an_error_answer_its_status(tmp_path):
    failing = reply("", call("broken", {"x": 4}, "c1"))
    a = agent(tmp_path, replies_=[failing], middleware="", tools="kit.broken")
    seen: list[Any] = []
    with pytest.raises(ValueError, match="bad input"):
        for e in a.stream(ask(), mode="events"):
            seen.append(e)
    assert kinds(seen) == ["model_start", "model_end", "tool_start", "tool_error"]
    start, err = seen[2], seen[3]
    assert isinstance(err, ToolError) and err.run_id == start.run_id
    assert (err.tool, err.call_id, err.input) == ("broken", "c1", {"x": 4})
    assert isinstance(err.error, ValueError)
    unknown = reply("", call("nope", {}, "u1"), call("add", {"a": 1, "b": 1}, "c2"))
    b = agent(tmp_path, replies_=[unknown, "ok"], middleware="", tools="kit.add")
    tools = [e for e in events(b, ask()) if isinstance(e, (ToolStart, ToolEnd))]
    assert [(e.kind, e.tool) for e in tools] == [("tool_start", "add"), ("tool_end", "add")]


def test_an_error_turned_into_an_answer(tmp_path):
    """A tool's failure a middleware answers is the tool's error (LangChain: `on_tool_error`,
    then no end), and the run goes on; arguments that do not fit the tool end the call with
    an error answer the model reads (status `error`)."""
    a = agent(
        tmp_path,
        replies_=[reply("", call("broken", {"x": 4}, "c1")), "sorry"],
        middleware="tool_retry { max_retries: 0, initial_delay: 0.0 }",
        tools="kit.broken",
    )
    evs = events(a, ask())
    assert kinds(evs)[2:] == ["tool_start", "tool_error", "model_start", "model_end"]
    assert evs[-1].message.content == "sorry"
    bad = reply("", call("add", {"a": "not a number"}, "c1"))
    b = agent(tmp_path, replies_=[bad, "sorry"], middleware="", tools="kit.add")
    (end,) = [e for e in events(b, ask()) if isinstance(e, (ToolEnd, ToolError))]
    assert isinstance(end, ToolEnd) and end.status == end.output.status == "error"


def test_a_model_error_is_told_before_it_is_raised(tmp_path):
    a = agent(tmp_path, replies_=[{"raise": "ServerError", "status": 502}], middleware="")
    seen: list[Any] = []
    with pytest.raises(Exception, match="HTTP 502"):
        for e in a.stream(ask(), mode="events"):
            seen.append(e)
    assert kinds(seen) == ["model_start", "model_error"]
    assert isinstance(seen[1], ModelError) and seen[1].run_id == seen[0].run_id


def _two_agents(tmp_path: Path) -> Any:
    (tmp_path / "kit.py").write_text(
        'def add(a: int, b: int) -> int:\n    """Add two integers."""\n    return a + b\n'
    )
    helper = json.dumps([reply("", call("add", {"a": 2, "b": 3}, "a1")), "five"])
    boss = json.dumps([reply("", call("helper", {"request": "2+3"}, "d1")), "It is five."])
    path = tmp_path / "two.agent"
    path.write_text(
        'agentc 1\nuse "./kit.py" as kit\n\n'
        f'agent helper "Does sums." {{\n  model "scripted" {{ replies: {helper} }}\n'
        "  tools [kit.add]\n}\n\n"
        f'agent boss {{\n  model "scripted" {{ replies: {boss} }}\n  tools [helper]\n}}\n'
    )
    return load_agent(str(path), "boss")


def test_an_agent_as_tool_tells_its_calls_under_its_namespace(tmp_path):
    """As `astream_events`, a child's calls show without `subgraphs=True`; `ns` says whose."""
    evs = events(_two_agents(tmp_path), ask())
    outer = [(e.kind, getattr(e, "tool", "")) for e in evs if e.ns == ""]
    inner = [e for e in evs if e.ns != ""]
    assert outer == [
        ("model_start", ""),
        ("model_end", ""),
        ("tool_start", "helper"),
        ("tool_end", "helper"),
        ("model_start", ""),
        ("model_end", ""),
    ]
    assert [(e.kind, getattr(e, "tool", "")) for e in inner] == [
        ("model_start", ""),
        ("model_end", ""),
        ("tool_start", "add"),
        ("tool_end", "add"),
        ("model_start", ""),
        ("model_end", ""),
    ]
    helper_call = next(e for e in evs if isinstance(e, ToolStart) and e.tool == "helper")
    (ns,) = {e.ns for e in inner}
    assert ns.startswith(f"tools:{helper_call.task_id}")  # the tool task's namespace (H3)
    # the child's events come between the helper call's start and end
    at = evs.index(helper_call)
    end = next(i for i, e in enumerate(evs) if isinstance(e, ToolEnd) and e.tool == "helper")
    assert all(at < evs.index(e) < end for e in inner)
    assert evs[end].output.content == "five"


def test_events_mix_with_other_modes_and_astream(tmp_path):
    a = agent(tmp_path, replies_=[reply("", ADD), "three"], middleware="", tools="kit.add")
    mixed = list(a.stream(ask(), mode=["updates", "events"]))
    assert {type(e) for e in mixed} >= {UpdatesEvent, ModelStart, ToolEnd}
    b = agent(tmp_path, replies_=["hi"], middleware="")

    async def read() -> list[Any]:
        return [e async for e in b.astream(ask(), mode=StreamMode.EVENTS)]

    assert kinds(asyncio.run(asyncio.wait_for(read(), 60))) == ["model_start", "model_end"]


def test_without_the_mode_no_event_is_built(tmp_path, monkeypatch):
    """The hot path: with no reader of `events`, no event object is made."""
    built: list[str] = []

    def counting(cls: type) -> Any:
        def make(*args: Any, **kw: Any) -> Any:
            built.append(cls.__name__)
            return cls(*args, **kw)

        return make

    for module in (model_node, tool_node):
        for cls in RUN_EVENTS:
            if hasattr(module, cls.__name__):
                monkeypatch.setattr(module, cls.__name__, counting(cls))
    a = agent(tmp_path, replies_=[reply("", ADD), "three"] * 3, middleware="", tools="kit.add")
    a.invoke(ask())
    list(a.stream(ask(), mode=["updates", "messages", "custom", "values", "debug"]))
    assert built == []
    list(a.stream(ask(), mode="events"))  # the counting reaches the constructors
    assert built == ["ModelStart", "ModelEnd", "ToolStart", "ToolEnd", "ModelStart", "ModelEnd"]


# ---------------------------------------------------------------- the LangChain oracle

LC_KINDS = {
    "on_chat_model_start": "model_start",
    "on_chat_model_end": "model_end",
    "on_tool_start": "tool_start",
    "on_tool_end": "tool_end",
    "on_tool_error": "tool_error",
}


def _langchain(replies: list[Any]) -> list[tuple[Any, ...]]:
    """The run events of a real `create_agent` (tools `add`, `broken`), as ours are read."""
    pytest.importorskip("langchain.agents", reason="langchain (the oracle) is absent")
    from langchain.agents import create_agent
    from langchain_core.language_models import BaseChatModel
    from langchain_core.messages import AIMessage
    from langchain_core.outputs import ChatGeneration, ChatResult
    from langchain_core.tools import tool

    @tool
    def add(a: int, b: int) -> int:
        """Add two integers."""
        return a + b

    @tool
    def broken(x: int) -> int:
        """Always fails."""
        raise ValueError("bad input")

    class Model(BaseChatModel):  # no `_stream`: one generation per call, as ours
        replies: list[Any]

        @property
        def _llm_type(self) -> str:
            return "scripted"

        def _generate(self, messages: Any, stop: Any = None, run_manager: Any = None, **kw: Any):
            raw = self.replies.pop(0)
            msg = AIMessage(raw) if isinstance(raw, str) else AIMessage(**raw)
            return ChatResult(generations=[ChatGeneration(message=msg)])

        def bind_tools(self, tools: Any, **kwargs: Any) -> Model:
            return self

    graph = create_agent(Model(replies=list(replies)), tools=[add, broken])
    out: list[tuple[Any, ...]] = []

    async def run() -> None:
        value = {"messages": [{"role": "user", "content": "hi"}]}
        async for ev in graph.astream_events(value, version="v2"):
            if ev["event"] in LC_KINDS:
                meta, data = ev["metadata"], ev["data"]
                out.append(
                    _row(
                        LC_KINDS[ev["event"]],
                        meta["langgraph_node"],
                        meta["langgraph_step"],
                        ev["run_id"],
                        data,
                    )
                )

    try:
        asyncio.run(asyncio.wait_for(run(), 60))
    except ValueError:
        pass  # `broken`: the run fails, as ours
    return out


def _row(kind: str, node: str, step: int, run: str, data: dict[str, Any]) -> tuple[Any, ...]:
    """(kind, node, step, run, what the event carries, reduced to comparable text)."""
    if kind == "model_start":
        (messages,) = data["input"]["messages"]
        return kind, node, step, run, tuple(m.type for m in messages)
    if kind == "model_end":
        return kind, node, step, run, data["output"].content
    if kind == "tool_start":
        return kind, node, step, run, data["input"]
    if kind == "tool_end":
        return kind, node, step, run, (data["output"].content, data["output"].tool_call_id)
    return kind, node, step, run, type(data["error"]).__name__


def _ours(tmp_path: Path, replies: list[Any]) -> list[tuple[Any, ...]]:
    a = agent(tmp_path, replies_=replies, middleware="", tools="kit.add, kit.broken")
    out: list[tuple[Any, ...]] = []
    try:
        for e in a.stream(ask(), mode="events"):
            if isinstance(e, ModelStart):
                what: Any = tuple(m.type for m in e.messages)
            elif isinstance(e, ModelEnd):
                what = e.message.content
            elif isinstance(e, ToolStart):
                what = e.input
            elif isinstance(e, ToolEnd):
                what = (e.output.content, e.output.tool_call_id)
            else:
                what = type(e.error).__name__
            out.append((e.kind, e.node, e.step, e.run_id, what))
    except ValueError:
        pass
    return out


def _same_shape(ours: list[tuple[Any, ...]], theirs: list[tuple[Any, ...]]) -> None:
    """Equal rows, and run ids that pair the same rows (the ids themselves differ)."""
    assert [r[:3] + r[4:] for r in ours] == [r[:3] + r[4:] for r in theirs]

    def pairs(rows: list[tuple[Any, ...]]) -> list[int]:
        first: dict[str, int] = {}
        return [first.setdefault(r[3], i) for i, r in enumerate(rows)]

    assert pairs(ours) == pairs(theirs)


def test_the_events_match_langchain_astream_events(tmp_path):
    replies = [{"content": "", "tool_calls": [ADD]}, "three"]
    theirs = _langchain(replies)
    assert len(theirs) == 6
    _same_shape(_ours(tmp_path, [reply("", ADD), "three"]), theirs)


def test_a_failing_tool_matches_langchain_astream_events(tmp_path):
    fail = call("broken", {"x": 4}, "c1")
    theirs = _langchain([{"content": "", "tool_calls": [fail]}])
    assert [r[0] for r in theirs][-1] == "tool_error"
    _same_shape(_ours(tmp_path, [reply("", fail)]), theirs)


def test_a_graphs_model_and_tools_nodes_tell_their_calls():
    """Not only agents: a graph's `model(…)` and `tools(…)` nodes (the quickstart)."""
    root = Path(__file__).resolve().parents[2]
    (graph,) = load(str(root / "examples/graphs/quickstart.agent")).values()
    evs = events(graph, {"messages": [{"role": "user", "content": "Add 3 and 4, then double it."}]})
    assert [(e.kind, e.node, getattr(e, "tool", "")) for e in evs][:4] == [
        ("model_start", "llm_call", ""),
        ("model_end", "llm_call", ""),
        ("tool_start", "tool_node", "add"),
        ("tool_end", "tool_node", "add"),
    ]
    assert [m.type for m in evs[0].messages][0] == "system"  # the node's prompt goes first


ASK_PY = '''
from agentc.runtime import interrupt


def ask_human(question: str) -> str:
    """Ask a person."""
    return interrupt(question)
'''


def test_a_pause_ends_no_call_and_the_resumed_call_starts_again(tmp_path):
    a = agent(
        tmp_path,
        replies_=[reply("", call("ask_human", {"question": "ok?"}, "h1")), "thanks"],
        middleware="",
        tools="kit.ask_human",
        extra="checkpoint memory",
        extra_py=ASK_PY,
    )
    config = RunConfig(thread_id="t1")
    paused = [e for e in a.stream(ask(), config, mode="events") if isinstance(e, RUN_EVENTS)]
    assert kinds(paused) == ["model_start", "model_end", "tool_start"]
    resumed = list(a.stream(Command(resume="yes"), config, mode="events"))
    assert kinds(resumed) == ["tool_start", "tool_end", "model_start", "model_end"]
    assert resumed[1].output.content == "yes" and resumed[0].run_id != paused[2].run_id
