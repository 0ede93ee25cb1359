"""What the cheaper span building must keep: every span of a thread names its conversation
(tool and hook spans too), a run started with a run id in its metadata names it, templates
built once give each call its own options (a call's own list of stop sequences too), and
the JSONL file's lines are exactly the span dicts, whatever the batch."""

from __future__ import annotations

import json

from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from tracing_kit import Spans, ask, team_text, write

import agentc
from agentc.runtime.types import RunConfig
from agentc.tracing.facts import ProgramFacts
from agentc.tracing.jsonl import JsonlSpanExporter, lines, span_dict
from agentc.tracing.templates import LIMIT, Templates


def _threaded(tmp_path, spans: Spans, **config) -> None:
    mw = '  middleware { pii { pii_type: "email" } }\n'
    path = write(tmp_path, team_text(lead_middleware=mw))
    text = path.read_text().replace('  prompt "You lead', '  checkpoint memory\n  prompt "You lead')
    path.write_text(text)
    graph = agentc.tracing.instrument(
        agentc.load_agent(path, "lead"), tracer_provider=spans.provider
    )
    graph.invoke(ask("find it"), RunConfig(thread_id="thread-9", **config))


def test_every_span_of_a_thread_names_its_conversation(tmp_path):
    spans = Spans()
    _threaded(tmp_path, spans)
    names = {s.name for s in spans.finished}
    assert {"execute_tool add", "execute_tool researcher", "pii[email].before_model"} <= names
    for span in spans.finished:
        assert span.attributes["gen_ai.conversation.id"] == "thread-9", span.name


def test_a_run_with_a_run_id_in_its_metadata_names_it_on_its_span_only(tmp_path):
    spans = Spans()
    _threaded(tmp_path, spans, metadata={"run_id": "run-42"})
    root = spans.one("invoke_agent lead")
    assert root.attributes["agentc.run_id"] == "run-42"
    assert [s.name for s in spans.finished if "agentc.run_id" in s.attributes] == [root.name]


def test_a_run_without_a_run_id_has_none(tmp_path):
    spans = Spans()
    spans.run(write(tmp_path, team_text()), "lead", ask("find it"))
    assert all("agentc.run_id" not in s.attributes for s in spans.finished)


def test_templates_give_each_call_its_own_options(tmp_path):
    path = write(tmp_path, team_text())
    facts = ProgramFacts(agentc.load_agent(path, "lead").program).of("lead")
    t = Templates()
    call = ("model", "scripted", "scripted")
    plain = t.chat(facts, call, {}, False)
    assert plain["gen_ai.request.temperature"] == 0.2  # the file's option
    listed = t.chat(facts, call, {"stop": ["END"], "temperature": 0.9}, False)
    assert listed["gen_ai.request.stop_sequences"] == ["END"]  # unhashable: built, not kept
    assert listed["gen_ai.request.temperature"] == 0.9  # the call's own wins
    again = t.chat(facts, call, {}, False)
    assert again == plain and again is not plain  # a fresh copy per span
    again["agentc.superstep"] = 3
    assert "agentc.superstep" not in t.chat(facts, call, {}, False)
    for seed in range(LIMIT + 10):
        assert t.chat(facts, call, {"seed": seed}, False)["gen_ai.request.seed"] == seed
    assert len(t._chat) == LIMIT  # options that change every call do not grow the cache


def test_jsonl_lines_are_the_span_dicts_of_two_providers_in_one_batch(tmp_path):
    memory = InMemorySpanExporter()
    for service in ("one", "two"):
        provider = TracerProvider(resource=Resource.create({"service.name": service}))
        provider.add_span_processor(SimpleSpanProcessor(memory))
        with provider.get_tracer("agentc").start_as_current_span("s", attributes={"k": "é"}):
            pass
    batch = memory.get_finished_spans()
    got = lines(batch)
    assert [json.loads(line) for line in got] == [span_dict(s) for s in batch]
    assert [json.loads(line)["resource"]["service.name"] for line in got] == ["one", "two"]
    out = tmp_path / "spans.jsonl"
    exporter = JsonlSpanExporter(out)
    exporter.export(batch)
    exporter.shutdown()
    assert out.read_text(encoding="utf-8") == "".join(got)
    assert "é" in out.read_text(encoding="utf-8")  # not escaped
