"""D24 (auto_mode): a classifier judges each listed tool call; at 0.5 or more it is blocked.

The oracle tests run the same scripted conversation through LangChain 1.5.2's
AutoModeMiddleware and agentc's `auto_mode`, with the same scripted classifier answers,
and compare the message traces and what each classifier was asked."""

from __future__ import annotations

import pytest
from support.mwkit import agent, ask, call, reply

from agentc.api import load_agent
from agentc.runtime.errors import AgentcRuntimeError
from agentc.stdlib.middleware.auto_mode import DEFAULT_INSTRUCTIONS
from agentc.stdlib.middleware.binding import middleware_of
from agentc.stdlib.middleware.decisions import ClassifierError, Noul, NoulCriteria

TWO = reply("", call("add", {"a": 2, "b": 3}, "c1"), call("multiply", {"a": 2, "b": 3}, "c2"))
COUNTED = '''
from agentc.stdlib.middleware.decisions import ScriptedClassifier

RAN = []


def delete_file(path: str) -> str:
    """Delete a file from the workspace."""
    RAN.append(path)
    return f"deleted {path}"


risk = ScriptedClassifier(ANSWERS)
'''


def _agent(
    tmp_path, answers, replies, settings='tools: ["multiply"]', tools="kit.add, kit.multiply"
):
    return agent(
        tmp_path,
        replies_=replies,
        tools=tools,
        middleware=f"auto_mode {{ {settings}, classifier: kit.risk }}",
        extra_py=COUNTED.replace("ANSWERS", repr(answers)),
    )


def _trace(messages) -> list[tuple]:
    return [
        (m.type, m.content, getattr(m, "tool_call_id", None), getattr(m, "status", None))
        for m in messages
    ]


@pytest.mark.parametrize("p", [0.1, 0.49, 0.5, 0.9])
def test_D24_blocks_at_or_above_one_half(tmp_path, p):
    a = _agent(tmp_path, [p], [TWO, "done"])
    out = _trace(a.invoke(ask())["messages"])
    answer = {m[2]: m for m in out if m[0] == "tool"}
    assert answer["c1"] == ("tool", "5", "c1", "success")  # `add` is not listed: unjudged
    if p < 0.5:
        assert answer["c2"] == ("tool", "6", "c2", "success")
    else:
        blocked = (
            f"The tool call `multiply` was blocked because it was classified as risky "
            f"(probability: {p:.2f}). The tool was not executed."
        )
        assert answer["c2"] == ("tool", blocked, "c2", "error")


def test_D24_the_classifier_reads_the_call_the_tool_and_the_history(tmp_path):
    a = _agent(
        tmp_path,
        [0.9],
        [reply("", call("delete_file", {"path": "x"}, "d1")), "done"],
        settings='tools: [" delete_file "], criteria: { true: "writes", false: "reads" }',
        tools="kit.delete_file",
    )
    out = a.invoke(ask("tidy up"))
    classifier = middleware_of(a, "auto_mode").classifier
    [(state, questions)] = classifier.seen
    assert state["tool_call"] == {"id": "d1", "name": "delete_file", "args": {"path": "x"}}
    assert state["tool_description"] == "Delete a file from the workspace."
    assert [m.type for m in state["messages"]] == ["human", "ai"]
    assert questions == {
        "is_risky": Noul(DEFAULT_INSTRUCTIONS, NoulCriteria(true="writes", false="reads"))
    }
    assert out["messages"][2].status == "error"  # blocked: the tool never ran


def test_D24_a_classifier_failure_fails_the_run_and_nothing_runs(tmp_path):
    a = _agent(
        tmp_path,
        [ConnectionError("classifier down")],
        [reply("", call("delete_file", {"path": "x"}, "d1")), "done"],
        settings='tools: ["delete_file"]',
        tools="kit.delete_file",
    )
    with pytest.raises(ClassifierError, match="classifier down") as err:
        a.invoke(ask())
    assert err.value.code == "classifier-failed"


def test_D24_an_answer_outside_zero_to_one_fails_the_run(tmp_path):
    a = _agent(tmp_path, [1.5], [TWO, "done"])
    with pytest.raises(ClassifierError, match="a number from 0 to 1"):
        a.invoke(ask())


def test_D24_no_tools_is_refused_at_load(tmp_path):
    with pytest.raises(AgentcRuntimeError, match="at least one tool"):
        _agent(tmp_path, [0.1], ["done"], settings="tools: []").invoke(ask())


def test_D24_a_classifier_without_classify_is_refused_at_load(tmp_path):
    (tmp_path / "kit.py").write_text("risk = 42\n", encoding="utf-8")
    path = tmp_path / "t.agent"
    path.write_text(
        'use "./kit.py" as kit\nagent a {\n  model "scripted" { replies: ["ok"] }\n'
        '  middleware { auto_mode { tools: ["x"], classifier: kit.risk } }\n}\n',
        encoding="utf-8",
    )
    with pytest.raises(AgentcRuntimeError, match="classify") as err:
        load_agent(path).invoke(ask())
    assert err.value.code == "middleware-setup"


JSON_CLASSIFIER = """
class Json:
    async def classify(self, state, questions):  # async, answering in the JSON form
        return {"answers": {qid: {"type": "noul", "noul": 0.7} for qid in questions}}


risk = Json()
"""


def test_D24_an_async_classifier_may_answer_in_json(tmp_path):
    a = agent(
        tmp_path,
        replies_=[TWO, "done"],
        tools="kit.add, kit.multiply",
        middleware='auto_mode { tools: ["multiply"], classifier: kit.risk }',
        extra_py=JSON_CLASSIFIER,
    )
    out = {m.tool_call_id: m for m in a.invoke(ask())["messages"] if m.type == "tool"}
    assert out["c2"].status == "error" and "(probability: 0.70)" in out["c2"].content
    assert out["c1"].content == "5"


# ---------------------------------------------------------------- the oracle

lc = pytest.importorskip(
    "langchain.agents.middleware", reason="langchain (the oracle) is not installed"
)
if not hasattr(lc, "AutoModeMiddleware"):
    pytest.skip(
        "the installed LangChain predates AutoModeMiddleware (1.5)", allow_module_level=True
    )

from langchain.agents import create_agent  # noqa: E402
from langchain_core.decisions import BaseDecisionModel, ClassifierResponse  # noqa: E402
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel  # noqa: E402
from langchain_core.messages import AIMessage as LcAI  # noqa: E402
from langchain_core.tools import tool  # noqa: E402


class FakeToolModel(GenericFakeChatModel):
    def bind_tools(self, tools, **kwargs):
        return self


class LcScripted(BaseDecisionModel):
    """The oracle's classifier: the same answers, and a record of what it was asked."""

    model: str = "scripted"
    answers: dict = {}
    seen: list = []

    @property
    def _provider(self) -> str:
        return "scripted"

    def _classify(self, state, questions):
        self.seen.append((state, questions))
        # Keyed by call id: LangChain runs one reply's calls in parallel threads.
        item = self.answers[state["tool_call"]["id"]]
        if isinstance(item, BaseException):
            raise item
        return ClassifierResponse(
            model="scripted", answers={q: {"type": "noul", "noul": item} for q in questions}
        )


@tool
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


@tool
def multiply(a: int, b: int) -> int:
    """Multiply two integers."""
    return a * b


def _lc(replies, answers, tools=("multiply",), criteria=None):
    script = iter(
        LcAI(content=r) if isinstance(r, str) else LcAI(content="", tool_calls=r["tool_calls"])
        for r in replies
    )
    keyed = answers if isinstance(answers, dict) else dict(enumerate(answers, start=1))
    keyed = {k if isinstance(k, str) else f"c{k}": a for k, a in keyed.items()}
    classifier = LcScripted(answers=keyed, seen=[])
    mw = lc.AutoModeMiddleware(tools=list(tools), classifier=classifier, criteria=criteria)
    return create_agent(
        FakeToolModel(messages=script), tools=[add, multiply], middleware=[mw]
    ), classifier


THREE = [
    TWO,
    reply("", call("multiply", {"a": 1, "b": 1}, "c3"), call("add", {"a": 1, "b": 1}, "c4")),
    "done",
]


@pytest.mark.parametrize("answers", [[0.1, 0.9], [0.5, 0.49], [0.9, 0.9]])
def test_D24_auto_mode_matches_langchain(tmp_path, answers):
    lc_agent, lc_classifier = _lc(THREE, answers * 2, tools=("multiply", "add"))
    theirs = lc_agent.invoke(ask())["messages"]
    ours_agent = _agent(tmp_path, answers * 2, THREE, settings='tools: ["multiply", "add"]')
    ours = ours_agent.invoke(ask())["messages"]
    assert _trace(ours) == _trace(theirs)
    classifier = middleware_of(ours_agent, "auto_mode").classifier
    assert len(classifier.seen) == len(lc_classifier.seen) == 4
    by_id = sorted(lc_classifier.seen, key=lambda seen: seen[0]["tool_call"]["id"])
    for (ours_state, ours_q), (lc_state, lc_q) in zip(classifier.seen, by_id, strict=True):
        assert ours_state["tool_call"] == lc_state["tool_call"]
        assert ours_state["tool_description"] == lc_state["tool_description"]
        assert _trace(ours_state["messages"]) == _trace(lc_state["messages"])
        noul = lc_q["is_risky"]
        assert (ours_q["is_risky"].instructions, ours_q["is_risky"].criteria) == (
            noul.instructions,
            noul.criteria,
        )


def test_D24_criteria_reach_the_classifier_as_in_langchain(tmp_path):
    from langchain_core.decisions import NoulCriteria as LcCriteria

    lc_agent, lc_classifier = _lc(
        [TWO, "done"], {"c2": 0.2}, criteria=LcCriteria(true="a", false="b")
    )
    lc_agent.invoke(ask())
    ours_agent = _agent(
        tmp_path,
        [0.2],
        [TWO, "done"],
        settings='tools: ["multiply"], criteria: { true: "a", false: "b" }',
    )
    ours_agent.invoke(ask())
    [(_, ours_q)] = middleware_of(ours_agent, "auto_mode").classifier.seen
    [(_, lc_q)] = lc_classifier.seen
    assert lc_q["is_risky"].criteria.model_dump() == {"true": "a", "false": "b"}
    assert ours_q["is_risky"].criteria == NoulCriteria(true="a", false="b")


def test_D24_a_classifier_failure_fails_both_runs(tmp_path):
    lc_agent, _ = _lc([TWO, "done"], {"c2": ConnectionError("down")})
    with pytest.raises(ConnectionError):
        lc_agent.invoke(ask())
    ours = _agent(tmp_path, [ConnectionError("down")], [TWO, "done"])
    with pytest.raises(ClassifierError):
        ours.invoke(ask())
