"""Spans recorded as plain records on the run's thread and built into the SDK's spans on the
export side: behind batch processors the run's thread builds none (a thread of their own
does), a flush or a shutdown of the provider still sends every span, ids are valid W3C
ids, and the provider's sampler decides as it did for SDK spans."""

from __future__ import annotations

import threading
import time
from typing import Any

from opentelemetry import trace
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.sdk.trace.sampling import ALWAYS_OFF
from tracing_kit import Spans, ask, team_text, write

import agentc
from agentc.tracing import instrument


class Threads(BatchSpanProcessor):
    """A batch processor that notes the thread each span reached it on."""

    def __init__(self, exporter: InMemorySpanExporter) -> None:
        super().__init__(exporter, schedule_delay_millis=60_000)
        self.threads: set[str] = set()

    def on_end(self, span: ReadableSpan) -> None:
        self.threads.add(threading.current_thread().name)
        super().on_end(span)


def _cycling() -> str:
    """The team, its scripts starting over after their last reply (several runs of one graph)."""
    text = team_text().replace(", temperature: 0.2 }", ", temperature: 0.2, cycle: true }")
    return text.replace("] }\n  tools [tools.add]", "], cycle: true }\n  tools [tools.add]")


def _batched(tmp_path) -> tuple[TracerProvider, Threads, InMemorySpanExporter, Any]:
    memory = InMemorySpanExporter()
    processor = Threads(memory)
    provider = TracerProvider()
    provider.add_span_processor(processor)
    graph = instrument(agentc.load_agent(write(tmp_path, _cycling()), "lead"),
                       tracer_provider=provider)  # fmt: skip
    return provider, processor, memory, graph


def test_behind_batch_processors_the_runs_thread_builds_no_span(tmp_path):
    provider, processor, memory, graph = _batched(tmp_path)
    graph.invoke(ask("find it"))
    assert processor.threads == set()  # nothing built on the run's thread
    for _ in range(200):  # the export side's thread wakes on its own (every 0.5 s)
        if processor.threads:
            break
        time.sleep(0.05)
    assert processor.threads == {"agentc-spans"}
    provider.force_flush()
    assert len(memory.get_finished_spans()) == 8
    provider.shutdown()


def test_a_flush_sends_every_span_of_the_runs_so_far(tmp_path):
    provider, processor, memory, graph = _batched(tmp_path)
    for _ in range(3):
        graph.invoke(ask("find it"))
    provider.force_flush()  # the spans are built first, then the batch processor exports
    spans = memory.get_finished_spans()
    assert len(spans) == 24
    assert len({s.context.trace_id for s in spans}) == 3
    provider.shutdown()


def test_a_shutdown_sends_what_still_waits(tmp_path):
    provider, _, memory, graph = _batched(tmp_path)
    graph.invoke(ask("find it"))
    provider.shutdown()
    assert len(memory.get_finished_spans()) == 8


def test_ids_are_valid_w3c_ids_and_the_tree_holds(tmp_path):
    provider, _, memory, graph = _batched(tmp_path)
    graph.invoke(ask("find it"))
    provider.force_flush()
    spans = memory.get_finished_spans()
    ids = {s.context.span_id for s in spans}
    assert len(ids) == len(spans) and all(0 < i < 2**64 for i in ids)
    (trace_id,) = {s.context.trace_id for s in spans}
    assert 0 < trace_id < 2**128
    roots = [s for s in spans if s.parent is None]
    assert [r.name for r in roots] == ["invoke_agent lead"]
    assert all(s.parent.span_id in ids for s in spans if s.parent is not None)
    assert all(s.context.trace_flags.sampled for s in spans)
    assert all(s.start_time <= s.end_time for s in spans)
    provider.shutdown()


def test_the_providers_sampler_decides(tmp_path):
    memory = InMemorySpanExporter()
    provider = TracerProvider(sampler=ALWAYS_OFF)
    provider.add_span_processor(BatchSpanProcessor(memory))
    graph = instrument(agentc.load_agent(write(tmp_path, team_text()), "lead"),
                       tracer_provider=provider)  # fmt: skip
    assert graph.invoke(ask("find it"))["messages"][-1].text == "Done: 3"
    provider.force_flush()
    assert memory.get_finished_spans() == ()
    provider.shutdown()


def test_a_run_under_a_caller_span_that_is_not_sampled_records_nothing(tmp_path):
    provider, _, memory, graph = _batched(tmp_path)
    unsampled = trace.NonRecordingSpan(
        trace.SpanContext(0xABC, 0xDEF, is_remote=True, trace_flags=trace.TraceFlags(0))
    )
    with trace.use_span(unsampled):
        graph.invoke(ask("find it"))
    provider.force_flush()
    assert memory.get_finished_spans() == ()
    sampled = trace.SpanContext(0xABC, 0xDEF, is_remote=True, trace_flags=trace.TraceFlags(1))
    with trace.use_span(trace.NonRecordingSpan(sampled)):
        graph.invoke(ask("find it"))
    provider.force_flush()
    root = next(s for s in memory.get_finished_spans() if s.name == "invoke_agent lead")
    assert root.context.trace_id == 0xABC and root.parent is not None
    assert root.parent.span_id == 0xDEF
    provider.shutdown()


def test_a_long_runs_ended_spans_go_on_before_the_run_ends(tmp_path, monkeypatch):
    monkeypatch.setattr("agentc.tracing.recorder.CHUNK", 3)
    when: list[int] = []  # when each span was handed to the exporter
    spans = Spans()
    original = spans.exporter.export

    def export(batch):
        when.append(time.time_ns())
        return original(batch)

    monkeypatch.setattr(spans.exporter, "export", export)
    spans.run(write(tmp_path, team_text()), "lead", ask("find it"))
    root = spans.one("invoke_agent lead")
    assert len(spans.finished) == 8 and spans.finished[-1] is root
    assert when[0] < root.end_time  # handed over while the run still ran
    ids = {s.context.span_id for s in spans.finished}
    assert all(s.parent.span_id in ids for s in spans.finished if s.parent is not None)
    assert root.attributes["gen_ai.usage.input_tokens"] == 63
