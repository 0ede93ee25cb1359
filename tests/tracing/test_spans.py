"""The spans of a run, read from the SDK's in-memory exporter: names, the parent/child tree
of an agent whose tool is a sub-agent with a tool of its own, GenAI attributes, usage,
errors, hook spans with their seats, a graph block, a paused run and a streamed one."""

from __future__ import annotations

import json

import pytest
from opentelemetry.trace import SpanKind, StatusCode
from tracing_kit import LEAD_CALL, Spans, ask, team_text, write

import agentc
from agentc.runtime.types import RunConfig


@pytest.fixture
def spans() -> Spans:
    return Spans()


def test_an_agent_with_a_sub_agent_makes_one_tree(tmp_path, spans):
    path = write(tmp_path, team_text())
    spans.run(path, "lead", ask("find it"))
    root = spans.one("invoke_agent lead")
    assert root.parent is None
    assert [spans.parent_of(s) for s in spans.named("chat scripted")].count(root) == 2
    ask_tool = spans.one("execute_tool researcher")
    assert spans.parent_of(ask_tool) is root
    sub = spans.one("invoke_agent researcher")
    assert spans.parent_of(sub) is ask_tool  # nested under the tool call that ran it
    add = spans.one("execute_tool add")
    assert spans.parent_of(add) is sub
    assert [spans.parent_of(s) for s in spans.named("chat scripted")].count(sub) == 2
    assert {s.context.trace_id for s in spans.finished} == {root.context.trace_id}
    assert len(spans.finished) == 8  # run, 2 chats, the call, the sub-agent, 2 chats, add


def test_a_chat_span_carries_the_request_the_reply_and_its_usage(tmp_path, spans):
    path = write(tmp_path, team_text())
    spans.run(path, "lead", ask("find it"))
    first = next(s for s in spans.named("chat scripted") if s.attributes["agentc.superstep"] == 1)
    attrs = dict(first.attributes)
    assert first.kind is SpanKind.CLIENT
    assert attrs["gen_ai.operation.name"] == "chat"
    assert attrs["gen_ai.provider.name"] == "scripted"
    assert attrs["gen_ai.request.model"] == "scripted"
    assert attrs["gen_ai.request.temperature"] == 0.2
    assert "gen_ai.request.stream" not in attrs  # set on streaming requests only
    assert attrs["gen_ai.response.id"] == LEAD_CALL["id"]
    assert attrs["gen_ai.usage.input_tokens"] == 20
    assert attrs["gen_ai.usage.output_tokens"] == 4
    assert attrs["gen_ai.usage.cache_read.input_tokens"] == 6
    assert attrs["gen_ai.usage.cache_creation.input_tokens"] == 3
    assert attrs["gen_ai.usage.reasoning.output_tokens"] == 2
    assert not any(k.startswith("llm.") for k in attrs)  # Phoenix derives these itself
    assert attrs["langsmith.span.kind"] == "llm"
    assert attrs["openinference.span.kind"] == "LLM"
    assert attrs["langfuse.observation.type"] == "generation"
    assert attrs["agentc.node"] == "model"
    assert attrs["agentc.source"] == f"{path}:10"  # the lead's `model` line


def test_the_run_span_names_the_agent_thread_checkpoint_and_total_tokens(tmp_path, spans):
    path = write(tmp_path, team_text() + "\n")
    text = path.read_text().replace('  prompt "You lead', '  checkpoint memory\n  prompt "You lead')
    path.write_text(text)
    graph = agentc.load_agent(path, "lead")
    agentc.tracing.instrument(graph, tracer_provider=spans.provider)
    config = RunConfig(thread_id="thread-7")
    graph.invoke(ask("find it"), config)
    root = dict(spans.one("invoke_agent lead").attributes)
    assert root["gen_ai.operation.name"] == "invoke_agent"
    assert root["gen_ai.agent.name"] == "lead"
    assert root["gen_ai.conversation.id"] == root["session.id"] == "thread-7"
    assert root["gen_ai.usage.input_tokens"] == 20 + 30 + 5 + 8  # the sub-agent's too
    assert root["gen_ai.usage.output_tokens"] == 4 + 5 + 2 + 3
    assert root["openinference.span.kind"] == "AGENT"
    assert root["agentc.source"] == f"{path}:9"
    state = graph.get_state(config)
    assert root["agentc.checkpoint_id"] == state.config.checkpoint_id  # resume from here
    for chat in spans.named("chat scripted"):
        assert chat.attributes["gen_ai.conversation.id"] == "thread-7"
    top = [
        s for s in spans.named("chat scripted") if spans.parent_of(s).name == "invoke_agent lead"
    ]
    assert len(top) == 2 and all("agentc.checkpoint_id" in s.attributes for s in top)


def test_a_tool_span_names_the_tool_its_call_and_where_it_is_listed(tmp_path, spans):
    path = write(tmp_path, team_text())
    spans.run(path, "lead", ask("find it"))
    add = dict(spans.one("execute_tool add").attributes)
    assert add["gen_ai.operation.name"] == "execute_tool"
    assert add["gen_ai.tool.name"] == "add"
    assert add["gen_ai.tool.call.id"] == "r1"
    assert add["gen_ai.tool.type"] == "function"
    assert add["openinference.span.kind"] == "TOOL"
    assert add["agentc.source"] == f"{path}:6"  # `tools [tools.add]` of the researcher
    sub = dict(spans.one("invoke_agent researcher").attributes)
    assert sub["gen_ai.agent.name"] == "researcher"
    assert sub["agentc.source"] == f"{path}:4"


def test_middleware_hooks_are_spans_with_the_seats_they_decide(tmp_path, spans):
    mw = '  middleware { pii { pii_type: "email" } }\n'
    path = write(tmp_path, team_text(lead_middleware=mw))
    spans.run(path, "lead", ask("find it"))
    before = spans.named("pii[email].before_model")
    assert len(before) == 2  # once before each of the lead's two model calls
    attrs = dict(before[0].attributes)
    assert attrs["agentc.seat"] == "D14,D16"
    assert attrs["agentc.source"] == f"{path}:13"
    assert attrs["openinference.span.kind"] == "CHAIN"
    assert spans.parent_of(before[0]) is spans.one("invoke_agent lead")


def test_a_failing_model_call_is_an_error_span_and_fails_the_run_span(tmp_path, spans):
    text = team_text(lead_replies=[{"raise": "AuthenticationError", "message": "bad"}])
    path = write(tmp_path, text)
    with pytest.raises(Exception, match="bad"):
        spans.run(path, "lead", ask("find it"))
    chat = spans.one("chat scripted")
    assert chat.status.status_code is StatusCode.ERROR
    assert chat.attributes["error.type"] == "provider-status"
    root = spans.one("invoke_agent lead")
    assert root.status.status_code is StatusCode.ERROR
    assert root.attributes["error.type"] == "provider-status"
    assert not chat.status.description  # the message may quote data: only with contents on


def test_a_tool_that_raises_is_an_error_span(tmp_path, spans):
    broken = {"tool_calls": [{"name": "broken", "args": {"x": 1}, "id": "b1"}]}
    text = team_text(lead_tools="tools.broken", lead_replies=[broken, "sorry"])
    path = write(tmp_path, text)
    try:
        spans.run(path, "lead", ask("go"))
    except Exception:  # a tool failure may fail the run or be answered to the model
        pass
    tool = spans.one("execute_tool broken")
    assert tool.status.status_code is StatusCode.ERROR
    assert tool.attributes["error.type"] in ("RuntimeError", "tool_error")
    assert tool.end_time is not None


WORKFLOW = """agentc 1
use "./steps.py" as steps

graph pipeline {
  state {
    messages: messages
    topic: str = ""
  }
  node prepare = python(steps.prepare)
  node write = model("scripted", prompt: "Write about {topic}.")
  edge START -> prepare
  edge prepare -> write
  edge write -> END
}
"""


def test_a_graph_block_is_a_workflow_with_a_span_per_node(tmp_path, spans):
    (tmp_path / "steps.py").write_text("def prepare(state):\n    return {'topic': 'cats'}\n")
    path = tmp_path / "flow.agent"
    path.write_text(WORKFLOW.replace('model("scripted"', 'model("scripted:replies.json"'))
    (tmp_path / "replies.json").write_text(json.dumps(["Cats purr."]))
    graph = agentc.load_agent(path, "pipeline")
    agentc.tracing.instrument(graph, tracer_provider=spans.provider)
    graph.invoke({"messages": [{"role": "user", "content": "go"}]})
    root = spans.one("invoke_workflow pipeline")
    assert root.attributes["gen_ai.workflow.name"] == "pipeline"
    assert root.attributes["openinference.span.kind"] == "CHAIN"
    prepare, write_node = spans.one("prepare"), spans.one("write")
    assert spans.parent_of(prepare) is root and spans.parent_of(write_node) is root
    assert prepare.attributes["agentc.source"] == f"{path}:9"
    chat = spans.one("chat replies.json")  # a scripted model is named by its file
    assert spans.parent_of(chat) is write_node  # the model call inside its node
    assert chat.attributes["agentc.source"] == f"{path}:10"


REVIEWED = """agentc 1
use "./tools.py" as tools

agent careful {
  model "scripted" {
    replies: [{ tool_calls: [{ name: "add", args: { a: 2, b: 3 }, id: "c1" }] }, "5"]
  }
  tools [tools.add]
  middleware { human_review { interrupt_on: { add: true } } }
  checkpoint memory
}
"""


def test_a_paused_run_ends_its_span_marked_paused_and_the_resume_is_a_new_run(tmp_path, spans):
    path = write(tmp_path, REVIEWED, "careful.agent")
    graph = agentc.load_agent(path, "careful")
    agentc.tracing.instrument(graph, tracer_provider=spans.provider)
    config = RunConfig(thread_id="t1")
    graph.invoke(ask("2+3?"), config)
    first = spans.one("invoke_agent careful")
    assert first.attributes["agentc.paused"] is True
    assert spans.one("human_review.after_model").attributes["agentc.seat"] == "D9,D10,D11,D12"
    graph.invoke(agentc.Command(resume={"decisions": [{"type": "approve"}]}), config)
    runs = spans.named("invoke_agent careful")
    assert len(runs) == 2 and runs[1].attributes["agentc.resumed"] is True
    assert runs[1].attributes["gen_ai.conversation.id"] == "t1"
    assert spans.named("execute_tool add")[0].attributes["agentc.superstep"] > 1


def test_a_streamed_model_call_has_its_time_to_first_chunk(tmp_path, spans):
    path = write(tmp_path, team_text())
    graph = agentc.load_agent(path, "lead")
    agentc.tracing.instrument(graph, tracer_provider=spans.provider)
    list(graph.stream(ask("find it"), mode="messages"))
    chats = spans.named("chat scripted")
    assert all(s.attributes["gen_ai.request.stream"] is True for s in chats)
    final = [s for s in chats if s.attributes.get("gen_ai.usage.output_tokens") == 5]
    assert final[0].attributes["gen_ai.response.time_to_first_chunk"] >= 0


def test_an_instrumented_graph_answers_as_before(tmp_path, spans):
    path = write(tmp_path, team_text())
    plain = agentc.load_agent(path, "lead").invoke(ask("find it"))
    traced = spans.run(path, "lead", ask("find it"))
    assert [m.text for m in traced["messages"]] == [m.text for m in plain["messages"]]


ASKER = """agentc 1
use "./asker.py" as asker

graph asking {
  state { answer: str = "" }
  node ask = python(asker.ask)
  edge START -> ask
  edge ask -> END
}
"""
ASKER_PY = """
from agentc.models import init_chat_model

llm = init_chat_model("scripted", replies=["Paris"])

def ask(state):
    return {"answer": llm.invoke("Capital of France?", max_tokens=12, stop=["END"]).text}
"""


def test_a_python_nodes_own_model_call_is_traced_with_its_call_options(tmp_path, spans):
    (tmp_path / "asker.py").write_text(ASKER_PY)
    path = tmp_path / "asking.agent"
    path.write_text(ASKER)
    graph = agentc.load_agent(path, "asking")
    agentc.tracing.instrument(graph, tracer_provider=spans.provider)
    assert graph.invoke({})["answer"] == "Paris"
    chat = spans.one("chat scripted")
    assert spans.parent_of(chat) is spans.one("ask")
    assert chat.attributes["gen_ai.request.max_tokens"] == 12  # the call's own options
    assert chat.attributes["gen_ai.request.stop_sequences"] == ("END",)


SEEN_PY = """
from opentelemetry import trace

def add(a: int, b: int) -> int:
    \"\"\"Add two integers.\"\"\"
    with open(__file__ + ".seen", "a") as seen:
        print(trace.get_current_span().get_span_context().span_id, file=seen)
    return a + b
"""


def test_spans_a_tool_makes_nest_under_the_run_and_the_run_under_the_callers(tmp_path, spans):
    path = write(tmp_path, team_text())
    (tmp_path / "tools.py").write_text(SEEN_PY)
    graph = agentc.load_agent(path, "lead")
    agentc.tracing.instrument(graph, tracer_provider=spans.provider)
    tracer = spans.provider.get_tracer("caller")
    with tracer.start_as_current_span("my request") as mine:
        graph.invoke(ask("find it"))
    root = spans.one("invoke_agent lead")
    assert root.parent is not None and root.parent.span_id == mine.get_span_context().span_id
    seen = (tmp_path / "tools.py.seen").read_text().split()
    assert seen == [str(root.context.span_id)]  # the tool ran inside the run's span


FLOW = """agentc 1
use "./tools.py" as tools

agent calc {
  model "scripted" {
    replies: [{ tool_calls: [{ name: "add", args: { a: 1, b: 2 }, id: "r1" }] }, "3"]
  }
  tools [tools.add]
}

graph flow {
  state { messages: messages }
  node helper = agent(calc)
  edge START -> helper
  edge helper -> END
}
"""


def test_an_agent_node_of_a_graph_block_nests_under_its_node(tmp_path, spans):
    path = write(tmp_path, FLOW, "flow.agent")
    spans.run(path, "flow", ask("go"))
    root, node = spans.one("invoke_workflow flow"), spans.one("helper")
    sub = spans.one("invoke_agent calc")
    assert spans.parent_of(node) is root
    assert spans.parent_of(sub) is node  # the node's task ran the agent
    assert spans.parent_of(spans.one("execute_tool add")) is sub
    assert sub.attributes["agentc.source"] == f"{path}:4"
