"""Interrupts and resume: D4, D5, D7, D8, multiple interrupts, module-level interrupt()."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

import pytest

from agentc.runtime import (CheckpointerRequiredError, Command, Interrupt, ResumeError,
                            ResumeValidationError, RunConfig, Send, interrupt)
from conftest import END, START, chain, chan, compiled, graph, node, router

T = RunConfig(thread_id="t")


def _ask_graph(ask, checkpointer=None):
    return compiled(graph(state=[chan("answer"), chan("log", "append", [])],
                          nodes=[node("before", lambda s: {"log": "before"}), node("ask", ask),
                                 node("after", lambda s: {"log": "after"})],
                          edges=chain("before", "ask", "after")), checkpointer=checkpointer)


def test_D4_interrupt_without_checkpointer_returns_question_and_resume_fails():
    g = _ask_graph(lambda s, ctx: {"answer": ctx.interrupt("ok?")})
    out = g.invoke({})
    assert out["log"] == ["before"]
    [intr] = out["__interrupt__"]
    assert isinstance(intr, Interrupt) and intr.value == "ok?" and intr.id
    with pytest.raises(CheckpointerRequiredError, match="D4"):
        g.invoke(Command(resume="yes"))


def test_D8_resume_with_answer(memory):
    g = _ask_graph(lambda s: {"answer": interrupt("ok?")}, memory)  # module-level, sync thread
    out = g.invoke({}, T)
    assert out["__interrupt__"][0].value == "ok?"
    out = g.invoke(Command(resume="yes"), T)
    assert out == {"answer": "yes", "log": ["before", "after"]}


def test_D8_two_sequential_interrupts_in_one_node(memory):
    def ask(s, ctx):
        return {"answer": [ctx.interrupt("first"), ctx.interrupt("second")]}
    g = _ask_graph(ask, memory)
    assert g.invoke({}, T)["__interrupt__"][0].value == "first"
    assert g.invoke(Command(resume=1), T)["__interrupt__"][0].value == "second"
    assert g.invoke(Command(resume=2), T)["answer"] == [1, 2]


def test_multiple_interrupts_in_one_step_resume_by_id(memory):
    async def ask(i, ctx):
        return {"log": [f"{i}={ctx.interrupt(f'q{i}')}"]}
    g = compiled(graph(state=[chan("log", "append", [])],
                       nodes=[node("plan", lambda s: None), node("ask", ask)],
                       edges=[(START, "plan"), ("ask", END)],
                       branches=[router("plan", lambda s: [Send("ask", 1), Send("ask", 2)])]),
                 checkpointer=memory)
    out = g.invoke({}, T)
    ids = {i.value: i.id for i in out["__interrupt__"]}
    assert set(ids) == {"q1", "q2"}
    with pytest.raises(ResumeError, match="2 interrupts are pending"):
        g.invoke(Command(resume="x"), T)
    out = g.invoke(Command(resume={ids["q2"]: "b", ids["q1"]: "a"}), T)
    assert out["log"] == ["1=a", "2=b"]


def test_D5_answer_validated_against_response_schema(memory):
    @dataclass
    class Decision:
        approve: bool

    g = _ask_graph(lambda s, ctx: {"answer": ctx.interrupt("ok?", response_schema=Decision)},
                   memory)
    out = g.invoke({}, T)
    assert out["__interrupt__"][0].response_schema["properties"]["approve"]["type"] == "boolean"
    with pytest.raises(ResumeValidationError, match="Decision"):
        g.invoke(Command(resume={"approve": "not a bool"}), T)
    assert g.invoke(Command(resume={"approve": True}), T)["answer"] == Decision(True)


def test_D5_dict_schema_is_not_validated(memory):
    g = _ask_graph(lambda s, ctx: {"answer": ctx.interrupt("ok?", response_schema={"type": "x"})},
                   memory)
    g.invoke({}, T)
    assert g.invoke(Command(resume=42), T)["answer"] == 42


def _loop_graph(interrupts, checkpointer):
    """START -> model -> tools -> model … until 3 tool runs (create_agent's loop)."""
    return compiled(graph(
        state=[chan("n", default=0), chan("log", "append", [])],
        nodes=[node("model", lambda s: {"log": "model"}),
               node("tools", lambda s: {"n": s["n"] + 1, "log": "tools"})],
        edges=[(START, "model"), ("tools", "model")],
        branches=[router("model", lambda s: "tools" if s["n"] < 2 else "end",
                         {"tools": "tools", "end": END})],
        interrupts=interrupts), checkpointer=checkpointer)


def test_D7_interrupt_before_node_and_resume_does_not_stop_again(memory):
    g = _loop_graph([("before", "tools")], memory)
    out = g.invoke({}, T)
    assert out["log"] == ["model"] and "__interrupt__" not in out
    assert g.get_state(T).next == ("tools",)
    out = g.invoke(None, T)  # continues; stops again before the NEXT tools step
    assert out["log"] == ["model", "tools", "model"]
    out = g.invoke(None, T)
    assert out["log"] == ["model", "tools", "model", "tools", "model"]
    assert g.get_state(T).next == ()


def test_D7_interrupt_after_node(memory):
    g = _loop_graph([("after", "model")], memory)
    assert g.invoke({}, T)["log"] == ["model"]
    assert g.get_state(T).next == ("tools",)
    assert g.invoke(None, T)["log"] == ["model", "tools", "model"]


def test_D8_update_state_then_continue(memory):
    g = _loop_graph([("before", "tools")], memory)
    g.invoke({}, T)
    cfg = g.update_state(T, {"n": 5})  # as the last node (model): its router runs again
    assert cfg.checkpoint_id and g.get_state(T).values["n"] == 5
    assert g.get_state(T).next == ()  # n >= 2: the router now ends
    cfg = g.update_state(T, {"n": 0}, as_node="tools")
    assert g.get_state(T).next == ("model",)
    out = g.invoke(None, T)  # model runs, then the breakpoint before tools holds again
    assert out["n"] == 0 and out["log"][-1] == "model" and g.get_state(T).next == ("tools",)


def test_interrupt_outside_a_node_is_a_clear_error():
    from agentc.runtime import AgentcRuntimeError
    with pytest.raises(AgentcRuntimeError, match="outside a running node"):
        interrupt("x")


def test_async_node_interrupt_and_resume(memory):
    async def ask(s):
        await asyncio.sleep(0)
        return {"answer": interrupt("async?")}
    g = _ask_graph(ask, memory)

    async def main():
        out = await g.ainvoke({}, T)
        assert out["__interrupt__"][0].value == "async?"
        return await g.ainvoke(Command(resume="y"), T)
    assert asyncio.run(main())["answer"] == "y"
