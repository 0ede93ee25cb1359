"""Interrupts and resume: D4, D5, D7 (breakpoints, per run too), D8 (resume, update,
goto, update_state), several interrupts in one step, module-level interrupt() — on graphs
in `graphs/interrupts.agent`."""

from __future__ import annotations

import asyncio

import pytest
from support.graphs import agent_graph

from agentc.runtime import (
    AgentcRuntimeError,
    CheckpointerRequiredError,
    Command,
    CommandGraph,
    EmptyInputError,
    Interrupt,
    InvalidUpdateError,
    ResumeError,
    ResumeValidationError,
    RunConfig,
    interrupt,
)
from agentc.runtime.errors import GraphStructureError
from agentc.runtime.events import InterruptEvent, UpdatesEvent, ValuesEvent

T = RunConfig(thread_id="t")


def _g(name, **kw):
    return agent_graph("interrupts", name, **kw)


# ---------------------------------------------------------------- interrupt() and resume


def test_D4_interrupt_without_checkpointer_returns_question_and_resume_fails(nodes):
    g = _g("ask_no_saver")
    out = g.invoke({})
    assert out["log"] == ["before"]
    [intr] = out["__interrupt__"]
    assert isinstance(intr, Interrupt) and intr.value == "ok?" and intr.id
    with pytest.raises(CheckpointerRequiredError, match="D4"):
        g.invoke(Command(resume="yes"))


def test_D8_resume_with_answer(nodes):
    g = _g("ask")  # interrupt() at module level, from a sync node
    out = g.invoke({}, T)
    assert out["__interrupt__"][0].value == "ok?"
    out = g.invoke(Command(resume="yes"), T)
    assert out == {"answer": "yes", "log": ["before", "after"]}


def test_D8_two_sequential_interrupts_in_one_node(nodes):
    g = _g("ask_twice")
    assert g.invoke({}, T)["__interrupt__"][0].value == "first"
    assert g.invoke(Command(resume=1), T)["__interrupt__"][0].value == "second"
    assert g.invoke(Command(resume=2), T)["answer"] == [1, 2]


def test_multiple_interrupts_in_one_step_resume_by_id(nodes):
    g = _g("fan_ask")
    out = g.invoke({"items": [1, 2]}, T)
    ids = {i.value: i.id for i in out["__interrupt__"]}
    assert set(ids) == {"q1", "q2"}
    with pytest.raises(ResumeError, match="2 interrupts are pending"):
        g.invoke(Command(resume="x"), T)
    out = g.invoke(Command(resume={ids["q2"]: "b", ids["q1"]: "a"}), T)
    assert out["results"] == ["1=a", "2=b"]


def test_D5_answer_validated_against_response_schema(nodes):
    g = _g("ask_schema")
    out = g.invoke({}, T)
    assert out["__interrupt__"][0].response_schema["properties"]["approve"]["type"] == "boolean"
    with pytest.raises(ResumeValidationError, match="Decision"):
        g.invoke(Command(resume={"approve": "not a bool"}), T)
    assert g.invoke(Command(resume={"approve": True}), T)["answer"] == nodes.Decision(True)


def test_D5_dict_schema_is_not_validated(nodes):
    g = _g("ask_dict_schema")
    g.invoke({}, T)
    assert g.invoke(Command(resume=42), T)["answer"] == 42


def test_interrupt_outside_a_node_is_a_clear_error():
    with pytest.raises(AgentcRuntimeError, match="outside a running node"):
        interrupt("x")


def test_async_node_interrupt_and_resume(nodes):
    g = _g("ask_async")

    async def main():
        out = await g.ainvoke({}, T)
        assert out["__interrupt__"][0].value == "async?"
        return await g.ainvoke(Command(resume="y"), T)

    assert asyncio.run(main())["answer"] == "y"


# ---------------------------------------------------------------- D7 breakpoints


def test_D7_interrupt_before_node_and_resume_does_not_stop_again(nodes):
    g = _g("loop_before")
    out = g.invoke({}, T)
    assert out["log"] == ["model"] and "__interrupt__" not in out
    assert g.get_state(T).next == ("tools",)
    out = g.invoke(None, T)  # continues; stops again before the NEXT tools step
    assert out["log"] == ["model", "tools", "model"]
    out = g.invoke(None, T)
    assert out["log"] == ["model", "tools", "model", "tools", "model"]
    assert g.get_state(T).next == ()


def test_D7_interrupt_after_node(nodes):
    g = _g("loop_after")
    assert g.invoke({}, T)["log"] == ["model"]
    assert g.get_state(T).next == ("tools",)
    assert g.invoke(None, T)["log"] == ["model", "tools", "model"]


def test_D7_breakpoint_pause_reads_as_in_langgraph(nodes):
    """LangGraph 1.2.24: a breakpoint adds no `__interrupt__` to invoke's result (nothing was
    asked), the `updates` stream ends with an empty `__interrupt__`, `values` shows nothing."""
    g = _g("loop_before")
    assert "__interrupt__" not in g.invoke({}, T)
    events = list(g.stream({}, RunConfig(thread_id="u"), mode="updates"))
    assert [type(e) for e in events] == [UpdatesEvent, InterruptEvent]
    assert events[-1].interrupts == ()
    values = list(g.stream({}, RunConfig(thread_id="v"), mode="values"))
    # the input {} writes no channel, so (as LangGraph) only the model step shows values
    assert all(isinstance(e, ValuesEvent) for e in values) and len(values) == 1
    resumed = list(g.stream(None, RunConfig(thread_id="v"), mode="values"))
    assert resumed[0].values == values[-1].values  # a resumed stream starts with the state
    assert g.get_state(RunConfig(thread_id="v")).interrupts == ()


def test_D7_breakpoints_per_run_replace_the_graphs(nodes):
    g = _g("loop_plain")
    out = g.invoke({}, T, interrupt_before=["tools"])
    assert out["log"] == ["model"] and g.get_state(T).next == ("tools",)
    assert g.invoke(None, T)["log"] == ["model", "tools", "model", "tools", "model"]
    declared = _g("loop_before")  # the run's empty list lifts the file's breakpoint
    assert declared.invoke({}, T, interrupt_before=[])["log"][-1] == "model"
    assert declared.get_state(T).next == ()
    every = _g("loop_plain")
    assert every.invoke({}, T, interrupt_after="*")["log"] == ["model"]
    assert every.invoke(None, T, interrupt_after="*")["log"] == ["model", "tools"]


def test_D7_per_run_breakpoint_on_unknown_node_is_a_clear_error(nodes):
    with pytest.raises(GraphStructureError, match="`tool`.*known nodes: model, tools"):
        _g("loop_plain").invoke({}, T, interrupt_before=["tool"])


# ---------------------------------------------------------------- D8 Command as input


def test_D8_update_state_then_continue(nodes):
    g = _g("loop_before")
    g.invoke({}, T)
    cfg = g.update_state(T, {"n": 5})  # as the last node (model): its router runs again
    assert cfg.checkpoint_id and g.get_state(T).values["n"] == 5
    assert g.get_state(T).next == ()  # n >= 2: the router now ends
    g.update_state(T, {"n": 0}, as_node="tools")
    assert g.get_state(T).next == ("model",)
    out = g.invoke(None, T)  # model runs, then the breakpoint before tools holds again
    assert out["n"] == 0 and out["log"][-1] == "model" and g.get_state(T).next == ("tools",)


def test_D8_command_update_with_resume_is_seen_by_the_resumed_node(nodes):
    g = _g("command")
    assert g.invoke({"x": 1}, T)["__interrupt__"][0].value == "q"
    out = g.invoke(Command(update={"x": 5}, resume="yes"), T)
    assert out == {"x": 5, "log": ["a", "b:yes:5"]} and g.get_state(T).next == ()


def test_D8_command_update_alone_is_saved_and_the_node_asks_again(nodes):
    g = _g("command")
    g.invoke({"x": 1}, T)
    out = g.invoke(Command(update={"x": 7}), T)
    assert out["x"] == 7 and out["__interrupt__"][0].value == "q"
    assert g.get_state(T).values["x"] == 7 and g.get_state(T).next == ("b",)
    assert g.invoke(Command(resume="r"), T)["log"] == ["a", "b:r:7"]


def test_D8_command_goto_joins_the_pending_step(nodes):
    g = _g("command")
    g.invoke({"x": 1}, T)
    out = g.invoke(Command(goto="c"), T)  # c runs beside b, which asks again
    assert out["__interrupt__"] and out["log"] == ["a", "c"]  # c's writes show, as in LG
    assert g.get_state(T).next == ("b",) and g.get_state(T).values["log"] == ["a", "c"]
    out = g.invoke(Command(resume="r"), T)
    assert out["log"] == ["a", "b:r:1", "c"] and nodes.CALLS.count("c") == 1


def test_D8_command_goto_on_a_finished_thread_runs_the_node(nodes):
    g = _g("command")
    g.invoke({"x": 1}, T)
    g.invoke(Command(resume="r"), T)
    assert g.invoke(Command(goto="c", update={"x": 9}), T) == {"x": 9, "log": ["a", "b:r:1", "c"]}


def test_D8_command_on_a_fresh_run_starts_from_start_plus_goto(nodes):
    g = _g("command", checkpointer=None)
    out = g.invoke(Command(goto="c", update={"x": 3, "log": ["u"]}))
    assert out["log"] == ["u", "a", "c"] and out["x"] == 3  # the update applied once


def test_D8_command_update_keeps_message_ids_across_loads(nodes):
    g = _g("command_messages")
    g.invoke({"messages": ["hi"]}, T)
    g.invoke(Command(update={"messages": ["more"]}), T)
    first = [m.id for m in g.get_state(T).values["messages"]]
    assert first == [m.id for m in g.get_state(T).values["messages"]] and len(first) == 2
    out = g.invoke(Command(resume="ok"), T)
    assert [m.id for m in out["messages"]][:2] == first


def test_D8_bad_commands_are_clear_errors(nodes):
    g = _g("command")
    with pytest.raises(EmptyInputError, match="no resume, update or goto"):
        g.invoke(Command(), T)
    with pytest.raises(InvalidUpdateError, match="parent graph"):
        g.invoke(Command(goto="c", graph=CommandGraph.PARENT), T)
    with pytest.raises(InvalidUpdateError, match="`nope`"):
        g.invoke(Command(update={"nope": 1}), T)


def test_pause_shows_finished_siblings_writes_as_langgraph_does(nodes):
    """LangGraph 1.2.24: when one task of a step asks, the result and the live state show
    its finished siblings' writes; the saved checkpoint itself stays before the step."""
    g = _g("fan_half_ask")
    out = g.invoke({"items": [0, 1]}, T)
    assert out["results"] == ["0 done"] and out["__interrupt__"][0].value == "q1"
    live = g.get_state(T)
    assert live.values["results"] == ["0 done"] and live.next == ("work",)
    addressed = g.get_state(live.config)  # by id: the checkpoint as saved
    assert addressed.values["results"] == [] and addressed.next == ("work", "work")
    events = list(g.stream({"items": [0, 1]}, RunConfig(thread_id="s"), mode="values"))
    assert isinstance(events[-2], InterruptEvent) and events[-1].values["results"] == ["0 done"]
    nodes.CALLS.clear()
    assert g.invoke(Command(resume="y"), T)["results"] == ["0 done", "1=y"]
    assert nodes.CALLS == [1]  # the finished sibling did not run again
