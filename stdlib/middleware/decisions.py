"""Decision models: the classifiers `auto_mode` (D24) and `model_router` (A12) ask.

Input: a question set (`Noul`: how likely is yes; `Choice`: which label) and the state to
judge. Output: `Decisions`, typed answers keyed by question id. A decision model is any
object with `classify(state, questions)` returning `Decisions` (or its JSON form, or an
awaitable of either) — the shape of LangChain's `BaseDecisionModel._classify`, on agentc's
types, so a ported classifier changes its imports and its return type only.

Invariants: an answer that does not fit its question (a missing id, a probability outside
[0, 1], a label the question did not offer) is a `ClassifierError`, as is anything the
classifier raises: a classifier failure fails the run (LangChain lets it propagate) and
never lets the call through or picks another model silently.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Mapping, Sequence
from dataclasses import field
from typing import Any, Literal, Protocol, runtime_checkable

from ...runtime.errors import AgentcRuntimeError
from ...runtime.records import dataclass

JsonValue = Any  # JSON data: text, numbers, booleans, None, lists and string-keyed maps
Content = str | Mapping[str, JsonValue] | Sequence[JsonValue]


class ClassifierError(AgentcRuntimeError):
    """A decision model failed, or answered something its question did not ask for."""

    code = "classifier-failed"


@dataclass(frozen=True, slots=True)
class NoulCriteria:
    """What a yes and a no mean (either may be None: no clarification)."""

    true: JsonValue = None
    false: JsonValue = None


@dataclass(frozen=True, slots=True)
class Noul:
    """A yes/no question answered by the probability of yes."""

    instructions: Content
    criteria: NoulCriteria | None = None
    type: Literal["noul"] = "noul"


@dataclass(frozen=True, slots=True)
class Choice:
    """Pick one label of `criteria` (label → when to pick it)."""

    instructions: Content
    criteria: Mapping[str, JsonValue]
    type: Literal["choice"] = "choice"


Question = Noul | Choice


@dataclass(frozen=True, slots=True)
class NoulAnswer:
    noul: float
    type: Literal["noul"] = "noul"


@dataclass(frozen=True, slots=True)
class ChoiceAnswer:
    choice: str
    probabilities: Mapping[str, float] = field(default_factory=dict)
    confidence: float = 1.0
    type: Literal["choice"] = "choice"

    def to_json(self) -> dict[str, Any]:
        """The form kept in state (checkpoints hold JSON only), in LangChain's field order."""
        return {
            "type": self.type,
            "choice": self.choice,
            "probabilities": dict(self.probabilities),
            "confidence": self.confidence,
        }


Answer = NoulAnswer | ChoiceAnswer


@dataclass(frozen=True, slots=True)
class Decisions:
    """One classification's answers, keyed by the ids of the questions asked."""

    answers: Mapping[str, Answer]
    model: str = ""


@runtime_checkable
class DecisionModel(Protocol):
    """What `classifier:` names: `classify(state, questions)` → `Decisions` (or its JSON
    form `{"answers": {id: {"type": "noul", "noul": 0.1}}}`), sync or async."""

    def classify(
        self, state: Any, questions: Mapping[str, Question]
    ) -> Decisions | Mapping[str, Any] | Awaitable[Decisions | Mapping[str, Any]]: ...


def require_classifier(who: str, classifier: object) -> DecisionModel:
    """`classifier` as a `DecisionModel`, or a ValueError naming `who` (the middleware), so
    its setup fails (middleware-setup) before any run."""
    if not isinstance(classifier, DecisionModel):
        raise ValueError(
            f"{who} `classifier` must have `classify(state, questions)`, "
            f"got {type(classifier).__name__}"
        )
    return classifier


async def classify(
    who: str, classifier: DecisionModel, state: Any, questions: Mapping[str, Question]
) -> Decisions:
    """Ask `classifier`; its own failure or an answer that does not fit is a ClassifierError
    naming `who` (the middleware) and what was wrong."""
    try:
        raw = classifier.classify(state, questions)
        if inspect.isawaitable(raw):
            raw = await raw
    except AgentcRuntimeError:
        raise
    except Exception as exc:  # noqa: BLE001 - any classifier failure fails the run, named
        raise ClassifierError(
            f"{who}: the classifier failed: {type(exc).__name__}: {exc}",
            help="the run stops rather than guess; fix the classifier or its service",
        ) from exc
    decisions = _as_decisions(who, raw)
    for qid, question in questions.items():
        _check_answer(who, qid, question, decisions.answers.get(qid))
    return decisions


def _as_decisions(who: str, raw: object) -> Decisions:
    if isinstance(raw, Decisions):
        return raw
    if isinstance(raw, Mapping) and isinstance(raw.get("answers"), Mapping):
        answers = {str(k): _answer(who, str(k), v) for k, v in raw["answers"].items()}
        return Decisions(answers=answers, model=str(raw.get("model") or ""))
    raise ClassifierError(
        f"{who}: the classifier returned a {type(raw).__name__}, expected `Decisions` or "
        '`{"answers": {question id: answer}}`'
    )


def _answer(who: str, qid: str, raw: object) -> Answer:
    if isinstance(raw, (NoulAnswer, ChoiceAnswer)):
        return raw
    if isinstance(raw, Mapping) and raw.get("type") == "noul" and "noul" in raw:
        return NoulAnswer(noul=_number(who, qid, raw["noul"]))
    if isinstance(raw, Mapping) and raw.get("type") == "choice" and "choice" in raw:
        probabilities = raw.get("probabilities") or {}
        return ChoiceAnswer(
            choice=str(raw["choice"]),
            probabilities={str(k): _number(who, qid, p) for k, p in probabilities.items()},
            confidence=_number(who, qid, raw.get("confidence", 1.0)),
        )
    raise ClassifierError(
        f"{who}: the answer to `{qid}` is {raw!r}, expected "
        '{"type": "noul", "noul": p} or {"type": "choice", "choice": label, …}'
    )


def _number(who: str, qid: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
        raise ClassifierError(
            f"{who}: the answer to `{qid}` holds {value!r}, expected a number from 0 to 1"
        )
    return float(value)


def _check_answer(who: str, qid: str, question: Question, answer: Answer | None) -> None:
    if isinstance(question, Noul):
        if not isinstance(answer, NoulAnswer):
            raise ClassifierError(
                f"{who}: the classifier gave no yes/no probability for `{qid}`, got {answer!r}"
            )
        _number(who, qid, answer.noul)
        return
    if not isinstance(answer, ChoiceAnswer):
        raise ClassifierError(f"{who}: the classifier picked no label for `{qid}`, got {answer!r}")
    if answer.choice not in question.criteria:
        offered = ", ".join(f"`{label}`" for label in question.criteria)
        raise ClassifierError(
            f"{who}: the classifier picked `{answer.choice}` for `{qid}`, expected one of {offered}"
        )


class ScriptedClassifier:
    """A decision model that replays answers in order (tests and offline examples).

    Each item is a probability (a `Noul` answer), a label (a `Choice` answer), a full
    answer, or an exception to raise; `seen` records every (state, questions) it was asked.
    """

    def __init__(self, answers: Sequence[float | str | Answer | BaseException]) -> None:
        self.answers = list(answers)
        self.seen: list[tuple[Any, dict[str, Question]]] = []

    def classify(self, state: Any, questions: Mapping[str, Question]) -> Decisions:
        self.seen.append((state, dict(questions)))
        if not self.answers:
            raise ClassifierError("the scripted classifier has no answers left")
        item = self.answers.pop(0)
        if isinstance(item, BaseException):
            raise item
        return Decisions(
            answers={qid: _scripted(item, q) for qid, q in questions.items()}, model="scripted"
        )


def _scripted(item: float | str | Answer, question: Question) -> Answer:
    if isinstance(item, (NoulAnswer, ChoiceAnswer)):
        return item
    if isinstance(item, str):
        return ChoiceAnswer(choice=item, probabilities={item: 1.0}, confidence=1.0)
    return NoulAnswer(noul=float(item))
