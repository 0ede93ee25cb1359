"""The model node's per-call work stays O(new messages) (B4/E10 bookkeeping per history),
sync tools placed inline skip the thread hop (E5, `runtime/inline.py`), and `agentc run`
reuses the IR of a file that has not changed."""

from __future__ import annotations

import asyncio
import threading

from support.placements import placements, replayed
from support.stdlib_kit import make_agent

from agentc.stdlib import agent as ag
from agentc.stdlib.messages import AIMessage, HumanMessage, InvalidToolCall, ToolMessage
from agentc.stdlib.tools import CallEnv, ToolCall, make_tool, run_tool

REPAIR = "could not be executed - arguments were malformed or truncated."


def bad(id_: str, call_id: str) -> AIMessage:
    return AIMessage(
        content="", id=id_, invalid_tool_calls=[InvalidToolCall(name="add", args="{", id=call_id)]
    )


def sent_last(node, messages):
    asyncio.run(node({"messages": messages}, None))
    return node.chooser.pick(None).calls[-1].messages


def test_B4_E10_history_growing_between_calls_is_scanned_from_where_it_stopped():
    graph, env = make_agent(["one", "two", "three"])
    node = ag.model_node(None, graph, env)
    history = [HumanMessage(content="q", id="h")]
    assert len(sent_last(node, history)) == 1  # nothing to repair, scan remembered
    history += [
        AIMessage(content="one", id="a1"),
        HumanMessage(content="more", id="h2"),
        bad("a2", "c9"),
    ]
    assert REPAIR in sent_last(node, history)[-1].content  # the new malformed call is seen
    history += [ToolMessage(content="answered", tool_call_id="c9", id="t9")]
    assert sent_last(node, history)[-1].content == "answered"  # answered: left alone


def test_B4_E10_a_replaced_history_is_rescanned():
    graph, env = make_agent(["one", "two"])
    node = ag.model_node(None, graph, env)
    first = HumanMessage(content="q", id="h")
    sent_last(node, [first, AIMessage(content="x", id="a1")])
    # same first message, but the message the scan stopped at was replaced (B3 by id)
    replaced = [first, bad("a1", "c1")]
    assert REPAIR in sent_last(node, replaced)[-1].content


def test_B4_needs_repair_agrees_with_the_full_patch():
    scans: dict = {}
    history = [
        HumanMessage(content="q", id="h"),
        bad("a1", "c1"),
        ToolMessage(content="r", tool_call_id="c1", id="t1"),
        bad("a2", "c2"),
    ]
    for n in range(1, len(history) + 1):
        assert ag.needs_repair(scans, history[:n]) == (
            ag.patch_invalid_tool_calls(history[:n]) is not None
        )


def test_E5_cheap_sync_tool_runs_inline_after_proving_cheap_blocking_one_stays_in_pool(
    monkeypatch,
):
    # asserts on what the rule was given, not on one sample: a busy machine may make a
    # pool call look blocked (a wait for the GIL), which only delays the move inline
    from agentc.runtime.inline import MEASURED, SyncPolicy

    where: list[bool] = []

    def cheap(x: int) -> int:
        """Return x."""
        where.append(threading.current_thread() is threading.main_thread())
        return x

    def blocking(x: int) -> int:
        """Return x, after a sleep (a block, however short)."""
        import time

        time.sleep(0.001)
        where.append(threading.current_thread() is threading.main_thread())
        return x

    async def calls(t, n):
        for i in range(n):
            await run_tool(t, ToolCall(name=t.name, args={"x": i}, id=f"c{i}"), CallEnv({}))

    seen = placements(monkeypatch)
    asyncio.run(calls(make_tool(cheap), 5))
    assert where == [e[1] for e in seen if e[0] == "call"]  # each call ran where it was put
    assert where == replayed(seen)  # ... and was put where the rule said
    first = seen[:6]  # the first three calls, each with its sample
    clean = [e[0] == "observe" and e[1] <= SyncPolicy.CHEAP_CPU_NS and not e[2] for e in first]
    if MEASURED and clean[1::2] == [True] * 3:  # proven cheap by three pool calls: inline
        assert where == [False] * 3 + [True, True]
    assert where[:3] == [False] * 3  # never inline before the proof
    where.clear()
    seen.clear()
    asyncio.run(calls(make_tool(blocking), 5))
    assert where == [False] * 5  # each call sleeps, so each sample is a block
    assert all(blocked for _, _, blocked, _ in (e for e in seen if e[0] == "observe"))


def test_E5_three_clean_samples_place_a_sync_callable_inline_a_block_keeps_it_in_the_pool():
    from agentc.runtime.inline import Placement, SyncPolicy

    cheap = SyncPolicy()
    for _ in range(SyncPolicy.PROVE):
        assert cheap.placement is Placement.POOL
        cheap.observe(1_000, False, False)
    assert cheap.placement is Placement.INLINE
    held = SyncPolicy()
    for _ in range(SyncPolicy.PROVE - 1):
        held.observe(1_000, False, False)
    held.observe(1_000, True, False)  # a block in the pool restarts the proof
    for _ in range(SyncPolicy.PROVE - 1):
        held.observe(1_000, False, False)
    assert held.placement is Placement.POOL


def test_E5_a_tool_declared_inline_runs_on_the_loop_from_its_first_call():
    from agentc.runtime.inline import inline

    where: list[bool] = []

    @inline
    def cheap(x: int) -> int:
        """Return x."""
        where.append(threading.current_thread() is threading.main_thread())
        return x

    t = make_tool(cheap)
    asyncio.run(run_tool(t, ToolCall(name=t.name, args={"x": 1}, id="c1"), CallEnv({})))
    assert where == [True]


def test_ir_cache_reuses_and_invalidates(tmp_path, monkeypatch):
    from agentc import api

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv(api.NO_CACHE_ENV, raising=False)
    (tmp_path / "kit.py").write_text(
        'def add(a: int, b: int) -> int:\n    """Add."""\n    return a + b\n'
    )
    path = tmp_path / "a.agent"
    path.write_text(
        'agentc 1\nuse "./kit.py" as kit\nagent a {\n  model "scripted" '
        '{ replies: ["hi"] }\n  tools [kit.add]\n}\n'
    )
    first = api.compile_cached(path)
    assert list((tmp_path / "cache" / "agentc" / "ir").glob("*.json"))

    import agentc.compiler.pipeline as pipeline

    def no_compile(*a, **k):
        raise AssertionError("compiled again although nothing changed")

    monkeypatch.setattr(pipeline, "compile_file", no_compile)
    assert api.compile_cached(path) == first  # served from the cache
    monkeypatch.undo()
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    (tmp_path / "kit.py").write_text(
        'def add(a: int, b: int) -> int:\n    """Add two."""\n    return a + b\n'
    )
    again = api.compile_cached(path)  # a used Python file changed: compiled afresh
    assert again.graphs[0].agent.tools[0].description == "Add two."


def test_E5_tools_and_nodes_share_one_policy():
    from agentc.runtime.inline import SyncPolicy

    def f(x: int) -> int:
        """Return x."""
        return x

    t = make_tool(f)
    assert isinstance(t.policy, SyncPolicy)
    assert t.with_options(name="g").policy is t.policy  # copies share what calls proved
