"""A12 (model_router): a classifier picks, once per run, the model every call goes to.

The oracle tests run the same scripted conversation through LangChain 1.5.2's
ModelRouterMiddleware and agentc's `model_router` — the same route models, the same
classifier answers — and compare the traces, `model_route` and what the classifier read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.mwkit import RunConfig, agent, ask, call, reply

from agentc.runtime.errors import AgentcRuntimeError
from agentc.stdlib.middleware.binding import middleware_of
from agentc.stdlib.middleware.decisions import ClassifierError
from agentc.stdlib.middleware.model_router import RouteError

TWO = reply("", call("add", {"a": 2, "b": 3}, "c1"), call("multiply", {"a": 2, "b": 3}, "c2"))
SCRIPTS = {"fast": ["fast answer", "fast again"], "deep": [TWO, "deep answer", "deep again"]}
ROUTER = """
from agentc.stdlib.middleware.decisions import ChoiceAnswer, ScriptedClassifier

router = ScriptedClassifier(ANSWERS)
"""


def _agent(tmp_path, answers, *, fast='"scripted:fast.json"', extra=""):
    for route, replies in SCRIPTS.items():
        (tmp_path / f"{route}.json").write_text(json.dumps(replies), encoding="utf-8")
    return agent(
        tmp_path,
        replies_=[],  # the agent's own model is never asked
        tools="kit.add, kit.multiply",
        middleware=f"""model_router {{
          choices: {{
            fast: {{ model: {fast}, criteria: "Simple, well-scoped tasks." }},
            deep: {{ model: "scripted:deep.json", criteria: "Complex tasks." }},
          }},
          instructions: "Choose the least costly model suited to the task.",
          classifier: kit.router,
        }}""",
        extra=extra,
        extra_py=ROUTER.replace("ANSWERS", answers),
    )


def _trace(messages) -> list[tuple]:
    return [
        (m.type, m.content, getattr(m, "tool_call_id", None), getattr(m, "status", None))
        for m in messages
    ]


def test_A12_every_call_of_the_run_goes_to_the_chosen_model(tmp_path):
    out = _agent(tmp_path, '["deep"]').invoke(ask("a hard one"))
    assert [m.content for m in out["messages"] if m.type == "ai"] == ["", "deep answer"]
    assert out["model_route"] == {
        "type": "choice",
        "choice": "deep",
        "probabilities": {"deep": 1.0},
        "confidence": 1.0,
    }


def test_A12_classified_once_per_run_on_the_newest_human_message(tmp_path):
    a = _agent(tmp_path, '["fast", "fast"]', extra="checkpoint memory")
    rc = RunConfig(thread_id="t")
    a.invoke(ask("first"), rc)
    out = a.invoke(ask("second"), rc)
    assert out["messages"][-1].content == "fast again"
    seen = middleware_of(a, "model_router").classifier.seen
    assert [state.content for state, _ in seen] == ["first", "second"]
    [question] = seen[0][1].values()
    assert question.criteria == {"fast": "Simple, well-scoped tasks.", "deep": "Complex tasks."}


def test_A12_no_human_message_fails_the_run(tmp_path):
    a = _agent(tmp_path, '["fast"]')
    with pytest.raises(RouteError, match="human message") as err:
        a.invoke({"messages": [{"role": "assistant", "content": "hello"}]})
    assert err.value.code == "no-model-route"


def test_A12_a_label_that_names_no_route_fails_the_run(tmp_path):
    with pytest.raises(ClassifierError, match="expected one of `fast`, `deep`"):
        _agent(tmp_path, '["medium"]').invoke(ask())


def test_A12_a_classifier_failure_fails_the_run(tmp_path):
    with pytest.raises(ClassifierError, match="TimeoutError: slow"):
        _agent(tmp_path, '[TimeoutError("slow")]').invoke(ask())


def test_A12_a_route_without_a_model_is_refused_at_load(tmp_path):
    (tmp_path / "kit.py").write_text("", encoding="utf-8")
    with pytest.raises(AgentcRuntimeError, match="`model` is missing") as err:
        _agent(tmp_path, '["fast"]', fast="none").invoke(ask())
    assert err.value.code == "middleware-setup"


def test_A12_routed_calls_are_counted_and_recorded_by_agentc_run(tmp_path, capsys):
    """The routed model comes through the run's model source, as the agent's own does."""
    from agentc.cli import main

    example = Path(__file__).resolve().parents[3] / "examples" / "model_router.agent"
    tape = tmp_path / "tape.json"
    code = main(["run", str(example), "--input", "prove it", "--record", str(tape)])
    out = capsys.readouterr().out
    assert code == 0 and "· 1 model call" in out
    assert "Suppose there were finitely many primes" in tape.read_text(encoding="utf-8")


# ---------------------------------------------------------------- the oracle

lc = pytest.importorskip(
    "langchain.agents.middleware", reason="langchain (the oracle) is not installed"
)
if not hasattr(lc, "ModelRouterMiddleware"):
    pytest.skip(
        "the installed LangChain predates ModelRouterMiddleware (1.5)", allow_module_level=True
    )

from langchain.agents import create_agent  # noqa: E402
from langchain_core.decisions import BaseDecisionModel, ClassifierResponse  # noqa: E402
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel  # noqa: E402
from langchain_core.messages import AIMessage as LcAI  # noqa: E402
from langchain_core.tools import tool  # noqa: E402
from langgraph.checkpoint.memory import InMemorySaver  # noqa: E402


class FakeToolModel(GenericFakeChatModel):
    def bind_tools(self, tools, **kwargs):
        return self


def _fake(replies) -> FakeToolModel:
    return FakeToolModel(
        messages=iter(
            LcAI(content=r) if isinstance(r, str) else LcAI(content="", tool_calls=r["tool_calls"])
            for r in replies
        )
    )


class LcRouter(BaseDecisionModel):
    model: str = "scripted"
    answers: list = []
    seen: list = []

    @property
    def _provider(self) -> str:
        return "scripted"

    def _classify(self, state, questions):
        self.seen.append((state, questions))
        label = self.answers.pop(0)
        answer = {
            "type": "choice",
            "choice": label,
            "probabilities": {label: 1.0},
            "confidence": 1.0,
        }
        return ClassifierResponse(model="scripted", answers={q: answer for q in questions})


@tool
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


@tool
def multiply(a: int, b: int) -> int:
    """Multiply two integers."""
    return a * b


def _lc(labels, **kwargs):
    classifier = LcRouter(answers=list(labels), seen=[])
    mw = lc.ModelRouterMiddleware(
        choices={
            "fast": lc.ModelChoice(
                model=_fake(SCRIPTS["fast"]), criteria="Simple, well-scoped tasks."
            ),
            "deep": lc.ModelChoice(model=_fake(SCRIPTS["deep"]), criteria="Complex tasks."),
        },
        instructions="Choose the least costly model suited to the task.",
        classifier=classifier,
    )
    own = _fake([])  # never asked
    return create_agent(own, tools=[add, multiply], middleware=[mw], **kwargs), classifier


@pytest.mark.parametrize("label", ["fast", "deep"])
def test_A12_model_router_matches_langchain(tmp_path, label):
    lc_agent, lc_classifier = _lc([label])
    theirs = lc_agent.invoke(ask("route me"))
    ours_agent = _agent(tmp_path, f'["{label}"]')
    ours = ours_agent.invoke(ask("route me"))
    assert _trace(ours["messages"]) == _trace(theirs["messages"])
    assert sorted(ours) == sorted(theirs) == ["messages", "model_route"]
    assert ours["model_route"] == theirs["model_route"].model_dump()
    [(ours_state, ours_q)] = middleware_of(ours_agent, "model_router").classifier.seen
    [(lc_state, lc_q)] = lc_classifier.seen
    assert (ours_state.type, ours_state.content) == (lc_state.type, lc_state.content)
    lc_choice = lc_q["model_route"]
    assert (ours_q["model_route"].instructions, dict(ours_q["model_route"].criteria)) == (
        lc_choice.instructions,
        lc_choice.criteria,
    )


def test_A12_one_classification_per_run_matches_langchain(tmp_path):
    lc_agent, lc_classifier = _lc(["fast", "fast"], checkpointer=InMemorySaver())
    cfg = {"configurable": {"thread_id": "t"}}
    lc_agent.invoke(ask("first"), cfg)
    theirs = lc_agent.invoke(ask("second"), cfg)
    ours_agent = _agent(tmp_path, '["fast", "fast"]', extra="checkpoint memory")
    rc = RunConfig(thread_id="t")
    ours_agent.invoke(ask("first"), rc)
    ours = ours_agent.invoke(ask("second"), rc)
    assert _trace(ours["messages"]) == _trace(theirs["messages"])
    seen = middleware_of(ours_agent, "model_router").classifier.seen
    assert [s.content for s, _ in seen] == [s.content for s, _ in lc_classifier.seen]


def test_A12_no_human_message_fails_in_both(tmp_path):
    lc_agent, _ = _lc(["fast"])
    no_human = {"messages": [{"role": "assistant", "content": "hello"}]}
    with pytest.raises(ValueError, match="requires a HumanMessage"):
        lc_agent.invoke(no_human)
    with pytest.raises(RouteError):
        _agent(tmp_path, '["fast"]').invoke(no_human)
