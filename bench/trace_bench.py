"""What tracing costs a run: a scripted round trip (the model asks for a tool, the tool
answers, the model replies: 2 model calls, 1 tool call) timed with tracing off and on.

The model is the in-process `scripted` one, which answers at once (what is timed is the
runtime alone, about 0.2 ms a run), or with `--wire` an OpenAI model whose replies come
over real HTTP from the fake provider in a child process on 127.0.0.1 (the same scripted
replies, through the real client: JSON encoding, a loopback request and the parse).

"On" is `agentc.tracing.instrument` with an SDK `TracerProvider`, a `BatchSpanProcessor`
(the exporter the CLI uses) and, behind it, agentc's JSONL file exporter (`--exporter
jsonl`, the default) or the OTLP/HTTP exporter posting to a receiver on 127.0.0.1 in a
child process (`--exporter otlp`). The batch processor's export thread runs during the
timed runs, so its share of the CPU is counted. Off and on batches are interleaved, so a
change in machine load hits both; the ratio is the median of the ratios of adjacent batch
pairs (target: at most 1.05). Contents stay off, as they are by default.

Run: `python bench/trace_bench.py [--runs N] [--batches N] [--exporter jsonl|otlp] [--wire]`.
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


def graphs(
    where: Path, exporter: str, agent: str = AGENT
) -> tuple[Any, Any, Any, subprocess.Popen[str] | None]:
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor

    (where / "bench_tools.py").write_text(TOOLS)
    (where / "bench.agent").write_text(agent)
    plain = agentc.load_agent(where / "bench.agent")
    receiver = None
    if exporter == "otlp":
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

        receiver = subprocess.Popen(
            [sys.executable, "-c", RECEIVER], stdout=subprocess.PIPE, text=True
        )
        assert receiver.stdout is not None
        port = int(receiver.stdout.readline())
        out: Any = OTLPSpanExporter(endpoint=f"http://127.0.0.1:{port}/v1/traces")
    else:
        out = JsonlSpanExporter(where / "spans.jsonl")
    provider = TracerProvider()
    provider.add_span_processor(BatchSpanProcessor(out))
    traced = instrument(agentc.load_agent(where / "bench.agent"), tracer_provider=provider)
    return plain, traced, provider, receiver


def batch(graph: Any, runs: int) -> float:
    start = time.perf_counter()
    for _ in range(runs):
        graph.invoke(INPUT)
    return (time.perf_counter() - start) / runs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200, help="runs per batch")
    parser.add_argument("--batches", type=int, default=9, help="batches per side")
    parser.add_argument("--exporter", choices=("jsonl", "otlp"), default="jsonl")
    parser.add_argument("--wire", action="store_true", help="an OpenAI model over loopback HTTP")
    args = parser.parse_args()
    server = None
    agent = AGENT
    if args.wire:
        agent, server = wire_agent(2 * (args.runs * args.batches + 20) + 2)
    with tempfile.TemporaryDirectory() as tmp:
        plain, traced, provider, receiver = graphs(Path(tmp), args.exporter, agent)
        try:
            assert (
                plain.invoke(INPUT)["messages"][-1].text
                == traced.invoke(INPUT)["messages"][-1].text
            )
            batch(plain, 20), batch(traced, 20)  # warm-up: imports, inline learning
            pairs = []
            for _ in range(args.batches):
                off, on = batch(plain, args.runs), batch(traced, args.runs)
                pairs.append((off, on))
            provider.force_flush()
        finally:
            provider.shutdown()
            for child in (receiver, server):
                if child is not None:
                    child.kill()
    off = statistics.median(p[0] for p in pairs)
    on = statistics.median(p[1] for p in pairs)
    ratio = statistics.median(p[1] / p[0] for p in pairs)
    spans = 4  # run, 2 chats, 1 tool call
    model = "OpenAI wire on loopback" if args.wire else "instant scripted model"
    print(f"round trip, {model} ({spans} spans a run, {args.exporter} exporter, batch processor)")
    print(f"  tracing off  {off * 1e6:8.0f} µs/run")
    print(f"  tracing on   {on * 1e6:8.0f} µs/run   (+{(on - off) * 1e6 / spans:.0f} µs a span)")
    print(f"  ratio on/off {ratio:8.3f}   (target ≤ 1.05)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
