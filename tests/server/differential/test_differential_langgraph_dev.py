"""The differential test: one `langgraph-sdk` script against `langgraph dev` (the reference)
and `agentc serve` (the twin files), compared step by step after normalising ids and times.

Two tests per step: the reference answers as the script expects (so a change in
`langgraph dev` is caught here, not blamed on agentc), and agentc answers the same.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from diff_normalise import differences
from diff_script import STEP_NAMES, Outcome

ASKED = "what is 2+3?"


def _events(value: Any, name: str) -> list[Any]:
    return [p["data"] for p in value if p["event"] == name]


def _last_messages(value: Any) -> list[str]:
    return [m["content"] for m in _events(value, "values")[-1]["messages"]]


def _log(value: Any) -> Any:
    return value["log"]


# What each step must show on either side: the facts the comparison leans on.
CHECKS: dict[str, Callable[[Any], bool]] = {
    "info": lambda v: "version" in v["keys"],
    "assistants-search": lambda v: [a["graph_id"] for a in v] == ["calc"],
    "thread-create": lambda v: v["status"] == "idle" and v["metadata"] == {"suite": "diff"},
    "stream-values": lambda v: _last_messages(v) == [ASKED, "Hello."],
    "stream-updates": lambda v: any("model" in d for d in _events(v, "updates")),
    "stream-messages-tuple": lambda v: len(_events(v, "messages")) > 0,
    "stream-custom": lambda v: (
        _events(v, "custom") == [{"progress": 1, "of": 2}, {"progress": 2, "of": 2}]
    ),
    "stream-events": lambda v: len(v) > 1,
    "stream-several-modes": lambda v: {"values", "updates", "messages"} <= {p["event"] for p in v},
    "interrupt": lambda v: any("__interrupt__" in d for d in _events(v, "updates")),
    "state-paused": lambda v: v["next"] != [] and v["tasks"][0]["interrupts"] != [],
    "resume": lambda v: any("tools" in d for d in _events(v, "updates")),
    "state-after-resume": lambda v: (
        v["next"] == [] and v["values"]["messages"][-1]["content"] == "The answer is 5."
    ),
    "history": lambda v: len(v) >= 4,
    "thread-copy": lambda v: (
        v["thread"]["status"] == "idle"
        and v["state"]["values"]["messages"][-1]["content"] == "The answer is 5."
        and len(v["history"]) >= 4
    ),
    "thread-copy-runs": lambda v: (
        [m["content"] for m in v["copy"]["messages"][-2:]] == ["thanks", "You are welcome."]
        and v["source"]["messages"][-1]["content"] == "The answer is 5."
    ),
    "graph-wait-interrupts": lambda v: "__interrupt__" in v,
    "graph-resume": lambda v: _log(v) == ["drafted", "published"],
    "graph-history": lambda v: any(s["next"] == ["draft"] for s in v),
    "graph-branch": lambda v: "__interrupt__" in v,
    "graph-branch-resume": lambda v: _log(v) == ["drafted", "discarded"],
    "graph-state-after-branch": lambda v: _log(v["values"]) == ["drafted", "discarded"],
    "graph-update-state": lambda v: "checkpoint" in v,
    "graph-state-after-update": lambda v: _log(v["values"]) == ["drafted", "discarded", "edited"],
    "stateless-wait": lambda v: "__interrupt__" in v,
    "cron-create": lambda v: v["schedule"] == "0 0 1 1 *" and v["enabled"] is True,
    "cron-create-threadless": lambda v: (
        v["thread_id"] is None and v["on_run_completed"] == "keep" and v["timezone"]
    ),
    "cron-search": lambda v: len(v["mine"]) == 1 and v["count"] == 1 and len(v["every"]) == 2,
    "cron-update": lambda v: v["enabled"] is False and v["schedule"] == "0 12 1 1 *",
    "cron-delete": lambda v: v["left"] == 0,
    "multitask-reject": lambda v: v["second"] == {"status": 409} and v["first"] == "success",
    "multitask-enqueue": lambda v: v["messages"] == [ASKED, "first", ASKED, "second"],
    "multitask-interrupt": lambda v: v["first"] == "interrupted" and v["second"] == "success",
    "multitask-rollback": lambda v: v["first"] == {"status": 404} and v["second"] == "success",
    "cancel": lambda v: v["run"] == "interrupted",
    "background-join": lambda v: v["joined"]["messages"][-1]["content"] == "Hello.",
    "rejoin-stream": lambda v: (
        v["had_event_id"] and _last_messages(v["head"] + v["tail"]) == [ASKED, "Hello."]
    ),
}
assert set(CHECKS) == set(STEP_NAMES)


def _dump(value: Any) -> list[str]:
    return json.dumps(value, indent=1, sort_keys=True, default=str).splitlines()


def _check(side: str, outcome: Outcome, step: str) -> None:
    assert outcome.ok, f"{side}: step {step} failed: {outcome.value}"
    assert CHECKS[step](outcome.value), f"{side}: {step} answered\n" + "\n".join(
        _dump(outcome.value)[:120]
    )


@pytest.mark.parametrize("step", STEP_NAMES)
def test_langgraph_dev_answers_the_script(step: str, reference: dict[str, Outcome]) -> None:
    _check("langgraph dev", reference[step], step)


@pytest.mark.parametrize("step", STEP_NAMES)
def test_agentc_serve_answers_as_langgraph_dev(
    step: str, reference: dict[str, Outcome], candidate: dict[str, Outcome]
) -> None:
    want, got = reference[step], candidate[step]
    if want.value != got.value:
        found = differences(want.value, got.value)
        pytest.fail(f"{step}: the answers differ in {len(found)} places\n" + "\n".join(found[:40]))
    _check("agentc serve", got, step)
