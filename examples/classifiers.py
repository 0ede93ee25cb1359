"""Decision models for the classifier examples, written by hand so the examples run offline.

A decision model is any object with `classify(state, questions)` that answers each question
by its id (see agentc.stdlib.middleware.decisions); a real one calls a classification
service. These two answer from keywords.
"""

from collections.abc import Mapping

from agentc.stdlib.middleware.decisions import (
    ChoiceAnswer,
    Decisions,
    NoulAnswer,
    Question,
)


class KeywordRisk:
    """auto_mode: a call whose name or arguments mention deleting is very likely risky."""

    def classify(self, state: Mapping, questions: Mapping[str, Question]) -> Decisions:
        text = str(state["tool_call"]).lower()
        p = 0.92 if "delete" in text or "rm " in text else 0.05
        return Decisions(answers={qid: NoulAnswer(noul=p) for qid in questions})


class KeywordRouter:
    """model_router: a request to prove or derive something goes to `deep`, else `fast`."""

    def classify(self, state, questions: Mapping[str, Question]) -> Decisions:
        hard = any(word in state.text.lower() for word in ("prove", "derive", "why"))
        route = "deep" if hard else "fast"
        answer = ChoiceAnswer(choice=route, probabilities={route: 0.9}, confidence=0.9)
        return Decisions(answers={qid: answer for qid in questions})


risk = KeywordRisk()
router = KeywordRouter()


def delete_file(path: str) -> str:
    """Delete a file in the workspace."""
    return f"deleted {path}"
