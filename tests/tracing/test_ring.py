"""The in-memory ring the studio reads a run's spans from: a run's spans found by its run
id (open ones too), tokens and cost per span, and the bounds (oldest run dropped first,
spans past the limit counted, not kept)."""

from __future__ import annotations

import json
import threading

from opentelemetry import trace
from opentelemetry.sdk.trace import TracerProvider
from tracing_kit import ask, team_text, write

import agentc
from agentc.runtime.types import RunConfig
from agentc.stdlib.providers.profiles import profile_for
from agentc.tracing.ring import SpanRing, cost


def _provider(ring: SpanRing) -> TracerProvider:
    provider = TracerProvider()
    provider.add_span_processor(ring)
    return provider


def test_a_runs_spans_are_found_by_its_run_id_as_a_tree_with_tokens(tmp_path):
    ring = SpanRing()
    graph = agentc.load_agent(write(tmp_path, team_text()), "lead")
    agentc.tracing.instrument(graph, tracer_provider=_provider(ring))
    graph.invoke(ask("find it"), RunConfig(metadata={"run_id": "r-1"}))
    found = ring.run("r-1")
    assert found is not None and found["dropped"] == 0
    spans = found["spans"]
    assert spans[0]["name"] == "invoke_agent lead" and spans[0]["parent_id"] is None
    ids = {s["span_id"] for s in spans}
    assert all(s["parent_id"] in ids for s in spans[1:])  # one tree
    chats = [s for s in spans if s["operation"] == "chat"]
    assert len(chats) == 4  # the lead's two and the researcher's two
    first = next(s for s in chats if s["attributes"]["agentc.superstep"] == 1)
    assert first["tokens"] == {"input": 20, "output": 4, "cache_read": 6, "cache_creation": 3,
                               "reasoning": 2}  # fmt: skip
    assert first["cost_usd"] is None  # the scripted model has no prices
    assert all(s["duration_ms"] is not None and s["duration_ms"] >= 0 for s in spans)
    assert spans[0]["tokens"] == {"input": 63, "output": 14}
    assert ring.run("another") is None


def test_a_running_span_is_shown_with_no_end_yet():
    ring = SpanRing()
    tracer = _provider(ring).get_tracer("t")
    root = tracer.start_span("invoke_agent a", attributes={"agentc.run_id": "live"})
    found = ring.run("live")
    assert found is not None
    assert [(s["name"], s["duration_ms"]) for s in found["spans"]] == [("invoke_agent a", None)]
    root.end()
    assert ring.run("live")["spans"][0]["duration_ms"] is not None


def test_the_oldest_run_goes_first_and_spans_past_the_limit_are_counted():
    ring = SpanRing(max_runs=2, max_spans=3)
    tracer = _provider(ring).get_tracer("t")
    for run in ("a", "b", "c"):
        root = tracer.start_span("run", attributes={"agentc.run_id": run})
        context = trace.set_span_in_context(root)
        for i in range(4):
            tracer.start_span(f"child {i}", context=context).end()
        root.end()
    assert ring.run("a") is None
    kept = ring.run("c")
    assert kept is not None
    assert len(kept["spans"]) == 3 and kept["dropped"] == 2  # the run and 2 children kept
    assert ring.run("b") is not None


def test_a_model_calls_cost_is_its_tokens_at_the_models_list_prices():
    attrs = {
        "gen_ai.operation.name": "chat",
        "gen_ai.provider.name": "openai",
        "gen_ai.request.model": "gpt-4o-mini",
        "gen_ai.usage.input_tokens": 1_000_000,
        "gen_ai.usage.output_tokens": 0,
    }
    price = profile_for("openai", "gpt-4o-mini").input_price_per_mtok
    assert price is not None and cost(attrs) == price
    assert cost({**attrs, "gen_ai.operation.name": "execute_tool"}) is None
    assert cost({**attrs, "gen_ai.request.model": "no-such-model"}) is None


def test_the_ring_keeps_at_most_max_total_spans_dropping_whole_old_runs():
    ring = SpanRing(max_runs=10, max_spans=100, max_total=10)
    tracer = _provider(ring).get_tracer("t")
    for run in ("a", "b", "c"):
        root = tracer.start_span("run", attributes={"agentc.run_id": run})
        context = trace.set_span_in_context(root)
        for i in range(3):
            tracer.start_span(f"child {i}", context=context).end()
        root.end()
    assert ring.run("a") is None  # 12 spans were too many: the oldest run went
    assert len(ring.run("b")["spans"]) == len(ring.run("c")["spans"]) == 4
    assert ring.total == 8


WAITER = '''
import os
import time


def wait_for(path: str) -> str:
    """Wait until the file exists."""
    while not os.path.exists(path):
        time.sleep(0.01)
    return "there"
'''


def test_a_running_runs_spans_show_while_it_runs(tmp_path):
    (tmp_path / "waiter.py").write_text(WAITER)
    flag = tmp_path / "go"
    call = {"tool_calls": [{"name": "wait_for", "args": {"path": str(flag)}, "id": "w1"}]}
    replies = [call, {"content": "done"}]
    (tmp_path / "w.agent").write_text(
        'agentc 1\nuse "./waiter.py" as w\n'
        f'agent waiting {{\n  model "scripted" {{ replies: {json.dumps(replies)} }}\n'
        "  tools [w.wait_for]\n}\n"
    )
    ring = SpanRing()
    graph = agentc.load_agent(tmp_path / "w.agent")
    agentc.tracing.instrument(graph, tracer_provider=_provider(ring))
    runner = threading.Thread(
        target=graph.invoke, args=(ask("wait"), RunConfig(metadata={"run_id": "live-1"}))
    )
    runner.start()
    try:
        shown: list = []
        for _ in range(1000):  # until the tool call has started (the run then waits on it)
            found = ring.run("live-1")
            shown = found["spans"] if found is not None else []
            if any(s["name"] == "execute_tool wait_for" for s in shown):
                break
            threading.Event().wait(0.01)
        running = {s["name"]: s["duration_ms"] for s in shown}
        assert running["invoke_agent waiting"] is None  # still running
        assert running["execute_tool wait_for"] is None
        assert running["chat scripted"] is not None  # the first model call has ended
    finally:
        flag.write_text("")
        runner.join()
    done = ring.run("live-1")["spans"]
    assert len(done) == 4 and all(s["duration_ms"] is not None for s in done)
    assert ring.total == 4  # the live records are not counted twice
