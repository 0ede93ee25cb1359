"""What tracing costs a run: a scripted round trip (the model asks for a tool, the tool
answers, the model replies: 2 model calls, 1 tool call) timed with tracing off and on.

The model is the in-process `scripted` one, which answers at once (what is timed is the
runtime alone, about 0.2 ms a run), or with `--wire` an OpenAI model whose replies come
over real HTTP from the fake provider in a child process on 127.0.0.1 (the same scripted
replies, through the real client: JSON encoding, a loopback request and the parse).

"On" is `agentc.tracing.instrument` with an SDK `TracerProvider`, a `BatchSpanProcessor`
(the processor the CLI uses) and, behind it, agentc's JSONL file exporter (`--exporter
jsonl`, the default) or the OTLP/HTTP exporter posting to a receiver on 127.0.0.1 in a
child process (`--exporter otlp`). Each traced batch ends with a flush of the processor,
inside the timing, so a batch pays for exporting all of its own spans (the export thread's
CPU is counted, and none of it spills into the next batch).

The run's thread records each span as a plain record (`agentc/tracing/records.py`) and hands
the run's records over in one append when it ends; behind batch processors the SDK's
`ReadableSpan`s are built on a thread of their own (`ship.py`), whose CPU the bench counts.

"Floor" is what OpenTelemetry's SDK costs for the same spans made the usual way, through
its tracer, without agentc: a bare loop that starts and ends spans of the same names,
kinds, parents and attributes (copied from one traced run) through the same kind of
provider, processor and exporter, flushed the same way. Run in a tight loop, the SDK's code
stays in the CPU's caches; between a run's other work it costs more, so "floor in a run"
times a plain run followed by those bare spans, less the plain run: what tracing would cost
if agentc added nothing but the SDK's own span objects. All sides' batches are interleaved,
so a change in machine load hits them alike; ratios are medians of the ratios within each
round; times are given by the wall clock and by the process's CPU time (all threads).
Contents stay off, as they are by default. Target: on/off at most 1.05.

`--parts` adds two sides that split the cost: "events", the runtime's `events` stream turned
on as tracing turns it on, read by a sink that does nothing (the runtime's part);
"records", the whole recorder on the run's thread with its records dropped at the run's end
(the runtime's and the recorder's part: what is left of "on" is building the SDK's spans
and exporting them).

Run: `python bench/trace_bench.py [--runs N] [--batches N] [--exporter jsonl|otlp] [--wire]
[--parts]`.
Needs the `otel` extra (`pip install -e '.[otel]'`).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import agentc
from agentc.tracing import JsonlSpanExporter, instrument
from agentc.tracing.traced import Tracing

AGENT = """agentc 1
use "./bench_tools.py" as t
agent bench {
  model "scripted" {
    replies: [
      { tool_calls: [{ name: "ping", args: { x: 1 }, id: "p1" }],
        usage: { input_tokens: 12, output_tokens: 3 } },
      { content: "pong", usage: { input_tokens: 20, output_tokens: 2 } },
    ],
    cycle: true
  }
  tools [t.ping]
  checkpoint none
}
"""
TOOLS = '''
def ping(x: int) -> int:
    """Return x."""
    return x
'''
RECEIVER = """
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
class H(BaseHTTPRequestHandler):
    def do_POST(self):
        self.rfile.read(int(self.headers.get("content-length") or 0))
        self.send_response(200); self.send_header("content-length", "0"); self.end_headers()
    def log_message(self, *a): pass
s = ThreadingHTTPServer(("127.0.0.1", 0), H)
print(s.server_address[1], flush=True)
s.serve_forever()
"""
INPUT = {"messages": [{"role": "user", "content": "ping"}]}
CALL = {"tool_calls": [{"name": "ping", "arguments": '{"x": 1}', "id": "p1"}]}
ANSWER = {"text": "pong"}


def wire_agent(runs: int) -> tuple[str, subprocess.Popen[str]]:
    """The agent on an OpenAI model served by the fake provider, `runs` round trips queued."""
    server = subprocess.Popen(
        [sys.executable, "-m", "agentc.testing.fake_provider", "--port", "0"],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert server.stdout is not None
    url = server.stdout.readline().split()[-1]
    body = json.dumps([CALL, ANSWER] * runs).encode()
    post = urllib.request.Request(f"{url}/_fake/push", body, {"content-type": "application/json"})
    urllib.request.urlopen(post, timeout=30).read()
    os.environ.setdefault("OPENAI_API_KEY", "sk-bench-not-a-key")
    model = f'model "openai:gpt-4o-mini" {{ base_url: "{url}/v1" }}'
    start = AGENT.index('  model "scripted"')
    end = AGENT.index("  tools [t.ping]")
    return AGENT[:start] + f"  {model}\n" + AGENT[end:], server


def exporter_for(kind: str, where: Path) -> tuple[Any, subprocess.Popen[str] | None]:
    if kind == "jsonl":
        return JsonlSpanExporter(where / "spans.jsonl"), None
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

    receiver = subprocess.Popen([sys.executable, "-c", RECEIVER], stdout=subprocess.PIPE, text=True)
    assert receiver.stdout is not None
    port = int(receiver.stdout.readline())
    return OTLPSpanExporter(endpoint=f"http://127.0.0.1:{port}/v1/traces"), receiver


def batch_provider(exporter: Any) -> Any:
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor

    provider = TracerProvider()
    provider.add_span_processor(BatchSpanProcessor(exporter))
    return provider


Times = dict[str, list[tuple[float, float]]]  # side → (wall, CPU) seconds a run, per batch


Shape = tuple[str, int | None, Any, dict[str, Any], dict[str, Any]]


def shapes(path: Path) -> list[Shape]:
    """The spans one traced run makes, in the order they start: name, parent, kind, the
    attributes it started with, and those set later (a reply's usage, the run's totals)."""
    from opentelemetry.sdk.trace import SpanProcessor, TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    opening: dict[int, dict[str, Any]] = {}

    class Opening(SpanProcessor):
        def on_start(self, span: Any, parent_context: Any = None) -> None:
            opening[span.context.span_id] = dict(span.attributes or {})

    memory, provider = InMemorySpanExporter(), TracerProvider()
    provider.add_span_processor(Opening())
    provider.add_span_processor(SimpleSpanProcessor(memory))
    instrument(agentc.load_agent(path), tracer_provider=provider).invoke(INPUT)
    spans = sorted(memory.get_finished_spans(), key=lambda s: s.start_time or 0)
    index = {s.context.span_id: i for i, s in enumerate(spans) if s.context is not None}
    out: list[Shape] = []
    for s in spans:
        first = opening[s.context.span_id] if s.context is not None else {}
        later = {k: v for k, v in (s.attributes or {}).items() if k not in first}
        out.append((s.name, index[s.parent.span_id] if s.parent else None, s.kind, first, later))
    return out


class Floor:
    """The SDK alone: the same spans, started and ended in a bare loop, each given its
    attributes when agentc gives them (at the start, and before the end)."""

    def __init__(self, provider: Any, spans: list[Shape]):
        from opentelemetry import trace

        self.provider, self.spans, self.trace = provider, spans, trace
        self.tracer = provider.get_tracer("agentc")

    def invoke(self, _: Any) -> None:
        started: list[Any] = []
        contexts: dict[int, Any] = {}
        for name, parent, kind, attrs, _later in self.spans:
            context = None
            if parent is not None:
                context = contexts.get(parent)
                if context is None:
                    context = contexts[parent] = self.trace.set_span_in_context(started[parent])
            started.append(self.tracer.start_span(name, context, kind, attrs))
        for span, shape in zip(reversed(started), reversed(self.spans), strict=True):
            if shape[4]:
                span.set_attributes(shape[4])
            span.end()


class RunThenFloor:
    """A plain run, then the floor's spans: the SDK's cost between a run's other work."""

    def __init__(self, plain: Any, floor: Floor) -> None:
        self.plain, self.floor = plain, floor

    def invoke(self, value: Any) -> None:
        self.plain.invoke(value)
        self.floor.invoke(value)


class EventsOnly:
    """An observer that turns the `events` stream on, as tracing does, and reads nothing."""

    async def observe(self, value: Any, spec: Any, run: Any) -> Any:
        from dataclasses import replace

        from agentc.tracing.traced import CALLS

        return await run(replace(spec, modes=spec.modes | CALLS, sink=lambda event: None))


class Dropped:
    """Where a run's records go when nothing is built from them."""

    def begin(self, run: Any) -> None:
        pass

    def ship(self, run: Any) -> None:
        pass


def parts(path: Path) -> dict[str, tuple[Any, Any]]:
    from opentelemetry.sdk.trace import TracerProvider

    events = agentc.load_agent(path)
    events.observer = EventsOnly()
    records = instrument(agentc.load_agent(path), tracer_provider=TracerProvider())
    tracing = records.observer
    assert isinstance(tracing, Tracing)
    tracing.outlet = Dropped()
    return {"events": (events, None), "records": (records, None)}


def batch(graph: Any, runs: int, provider: Any = None) -> tuple[float, float]:
    """Wall and CPU seconds a run (a traced batch's export flushed inside the timing)."""
    wall, cpu = time.perf_counter(), time.process_time()
    for _ in range(runs):
        graph.invoke(INPUT)
    if provider is not None:
        provider.force_flush()
    return (time.perf_counter() - wall) / runs, (time.process_time() - cpu) / runs


def measure(where: Path, args: argparse.Namespace, agent: str) -> Times:
    (where / "bench_tools.py").write_text(TOOLS)
    (where / "bench.agent").write_text(agent)
    plain = agentc.load_agent(where / "bench.agent")
    exporter, receiver = exporter_for(args.exporter, where)
    floor_exporter, floor_receiver = exporter_for(args.exporter, where / "floor")
    provider, floor_provider = batch_provider(exporter), batch_provider(floor_exporter)
    traced = instrument(agentc.load_agent(where / "bench.agent"), tracer_provider=provider)
    floor = Floor(floor_provider, shapes(where / "bench.agent"))
    sides = {"off": (plain, None), "on": (traced, provider), "floor": (floor, floor_provider)}
    sides["in run"] = (RunThenFloor(plain, floor), floor_provider)
    if args.parts:
        sides.update(parts(where / "bench.agent"))
    times: dict[str, list[tuple[float, float]]] = {side: [] for side in sides}
    try:
        assert plain.invoke(INPUT)["messages"][-1].text == traced.invoke(INPUT)["messages"][-1].text
        for graph, flush in sides.values():  # warm-up: imports, inline learning
            batch(graph, 20, flush)
        for _ in range(args.batches):
            for side, (graph, flush) in sides.items():
                times[side].append(batch(graph, args.runs, flush))
    finally:
        for p in (provider, floor_provider):
            p.shutdown()
        for child in (receiver, floor_receiver):
            if child is not None:
                child.kill()
    return times


def over(rounds: list[dict[str, tuple[float, float]]], i: int, side: str, less: str) -> float:
    """The median, over the rounds, of a side's time above another's."""
    return statistics.median(r[side][i] - r[less][i] for r in rounds)


def report(times: Times, spans: int) -> None:
    rounds = [dict(zip(times, r, strict=True)) for r in zip(*times.values(), strict=True)]
    for clock, i in (("wall", 0), ("CPU", 1)):
        off, on = (statistics.median(t[i] for t in times[side]) for side in ("off", "on"))
        floor = statistics.median(t[i] for t in times["floor"])
        ratio = statistics.median(r["on"][i] / r["off"][i] for r in rounds)
        floor_ratio = statistics.median((r["off"][i] + r["floor"][i]) / r["off"][i] for r in rounds)
        in_run, ours = over(rounds, i, "in run", "off"), over(rounds, i, "on", "off")
        rows = [
            f"  by {clock} clock",
            f"    tracing off        {off * 1e6:7.0f} µs/run",
            f"    tracing on         {on * 1e6:7.0f} µs/run   on/off {ratio:.3f} (target ≤ 1.05)",
            f"    SDK floor          {floor * 1e6:7.0f} µs/run   (off + it)/off {floor_ratio:.3f}",
            f"    SDK floor in a run {in_run * 1e6:7.0f} µs/run   "
            f"(off + it)/off {1 + in_run / off:.3f}",
            f"    on above off       {ours * 1e6:7.0f} µs/run   "
            f"({ours * 1e6 / spans:.1f} µs a span)",
        ]
        for side, says in (("events", "the runtime's events"), ("records", "+ the recorder")):
            if side in times:
                rows.append(
                    f"      {says:21} {over(rounds, i, side, 'off') * 1e6:6.0f} µs/run above off"
                )
        print("\n".join(rows))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200, help="runs per batch")
    parser.add_argument("--batches", type=int, default=9, help="batches per side")
    parser.add_argument("--exporter", choices=("jsonl", "otlp"), default="jsonl")
    parser.add_argument("--wire", action="store_true", help="an OpenAI model over loopback HTTP")
    parser.add_argument("--parts", action="store_true", help="split agentc's own share")
    args = parser.parse_args()
    server = None
    agent = AGENT
    if args.wire:
        calling = 5 if args.parts else 3  # the sides whose runs call the model
        agent, server = wire_agent(calling * (args.runs * args.batches + 20) + 10)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            times = measure(Path(tmp), args, agent)
    finally:
        if server is not None:
            server.kill()
    spans = 4  # run, 2 chats, 1 tool call
    model = "OpenAI wire on loopback" if args.wire else "instant scripted model"
    print(f"round trip, {model} ({spans} spans a run, {args.exporter} exporter, batch processor)")
    report(times, spans)
    return 0


if __name__ == "__main__":
    sys.exit(main())
