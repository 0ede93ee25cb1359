"""A thread's history in LangGraph 1.2.24's shape: each input makes two checkpoints (the
`input` one, holding the input in its `__start__` task, and the START step), step numbers
start at -1, and a replay from an old checkpoint starts its branch with a `fork`
checkpoint. Compared on the LangGraph twin."""

from __future__ import annotations

from support.graphs import END, START, chan, compiled, graph, lg_twin, node

from agentc.runtime import MemoryCheckpointer, RunConfig, SqliteCheckpointer

T = RunConfig(thread_id="t")
LG = {"configurable": {"thread_id": "t"}}


def _steps():
    def step(name):
        def write(state):
            return {"log": [name]}

        return write

    return graph(
        state=[chan("topic"), chan("log", "append", [])],
        nodes=[node(n, step(n)) for n in ("pick", "write", "finish")],
        edges=[(START, "pick"), ("pick", "write"), ("write", "finish"), ("finish", END)],
    )


def ours_history(g, config=T):
    return [(s.values, list(s.next), s.step, s.source.value) for s in g.get_state_history(config)]


def lg_history(g, config=LG):
    return [
        (s.values, list(s.next), s.metadata["step"], s.metadata["source"])
        for s in g.get_state_history(config)
    ]


def _pair(checkpointer=None):
    from langgraph.checkpoint.memory import InMemorySaver

    g = _steps()
    return compiled(g, checkpointer=checkpointer or MemoryCheckpointer()), lg_twin(
        g, checkpointer=InMemorySaver()
    )


def test_two_runs_on_a_thread_have_langgraphs_history():
    ours, theirs = _pair()
    for topic in ("cats", "dogs"):
        assert ours.invoke({"topic": topic}, T) == theirs.invoke({"topic": topic}, LG)
    assert ours_history(ours) == lg_history(theirs)
    assert ours_history(ours)[-1] == ({"log": []}, ["__start__"], -1, "input")


def test_replay_from_an_old_checkpoint_forks_as_langgraph_does():
    ours, theirs = _pair()
    ours.invoke({"topic": "cats"}, T)
    theirs.invoke({"topic": "cats"}, LG)
    at = next(s for s in ours.get_state_history(T) if s.next == ("write",))
    lg_at = next(s for s in theirs.get_state_history(LG) if s.next == ("write",))
    out = ours.invoke(None, at.config)
    assert out == theirs.invoke(None, lg_at.config)
    assert ours_history(ours) == lg_history(theirs)
    assert [h[3] for h in ours_history(ours)][:3] == ["loop", "loop", "fork"]


def test_replay_from_the_input_checkpoint_runs_everything_again(tmp_path):
    path = str(tmp_path / "state.db")
    ours, theirs = _pair(SqliteCheckpointer(path))
    ours.invoke({"topic": "cats"}, T)
    theirs.invoke({"topic": "cats"}, LG)
    ours.checkpointer.close()
    again = compiled(_steps(), checkpointer=SqliteCheckpointer(path))  # from the file alone
    first = again.get_state_history(T)[-1]
    lg_first = theirs.get_state_history(LG)
    lg_first = list(lg_first)[-1]
    assert first.next == ("__start__",) and first.values == {"log": []}
    assert again.invoke(None, first.config) == theirs.invoke(None, lg_first.config)
    assert ours_history(again) == lg_history(theirs)
    again.checkpointer.close()


def test_a_breakpoint_before_the_first_node_pauses_as_in_langgraph():
    from langgraph.checkpoint.memory import InMemorySaver
    from langgraph.graph import StateGraph

    g = graph(
        state=[chan("x")],
        nodes=[node("a", lambda s: {"x": s["x"] + 1})],
        edges=[(START, "a"), ("a", END)],
        interrupts=[("before", "a")],
    )
    ours = compiled(g, checkpointer=MemoryCheckpointer())
    twin = lg_twin(g)
    b = StateGraph(twin.builder.state_schema)
    b.add_node("a", twin.builder.nodes["a"].runnable)
    b.add_edge(START, "a")
    theirs = b.compile(checkpointer=InMemorySaver(), interrupt_before=["a"])
    assert ours.invoke({"x": 1}, T) == theirs.invoke({"x": 1}, LG) == {"x": 1}
    assert ours.get_state(T).next == theirs.get_state(LG).next == ("a",)
    assert ours.invoke(None, T) == theirs.invoke(None, LG) == {"x": 2}


def test_a_step_that_pauses_streams_its_finished_tasks_then_replays_them_as_cached():
    from langgraph.checkpoint.memory import InMemorySaver
    from langgraph.types import Command as LGCommand
    from support.graphs import ac_updates, ask, lg_updates

    from agentc.runtime import Command

    g = graph(
        state=[chan("log", "append", [])],
        nodes=[
            node("a", lambda s: {"log": ["a"]}),
            node("b", lambda s: {"log": [ask("q?")]}),
            node("c", lambda s: {"log": ["c"]}),
        ],
        edges=[(START, "a"), (START, "b"), ("a", "c")],
    )
    ours = compiled(g, checkpointer=MemoryCheckpointer())
    theirs = lg_twin(g, checkpointer=InMemorySaver())
    first = ac_updates(ours, {}, T)
    assert first == lg_updates(theirs, {}, LG) == [{"a": {"log": ["a"]}}, {"__interrupt__": ["q?"]}]
    resumed = ac_updates(ours, Command(resume="x"), T)
    assert resumed == lg_updates(theirs, LGCommand(resume="x"), LG)
    assert resumed[0] == {"a": {"log": ["a"]}, "__metadata__": {"cached": True}}
