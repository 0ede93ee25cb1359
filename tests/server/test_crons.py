"""Crons through the real `langgraph-sdk` against `agentc serve`: a schedule on a thread
starts runs there until it is switched off or deleted; one without a thread makes a new
thread per run (kept when asked); bad schedules, time zones and ids are refused."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("langgraph_sdk", reason="these tests talk through langgraph-sdk")

from langgraph_sdk import get_sync_client  # noqa: E402
from langgraph_sdk.errors import NotFoundError, UnprocessableEntityError  # noqa: E402

QUESTION = {"messages": [{"role": "user", "content": "what is 2+3?"}]}
EVERY_SECOND = "* * * * * *"  # six fields: the last is the second
WAIT_S = 30.0  # a cron due every second that has not fired in this long never will


def until(what: str, probe: Callable[[], Any]) -> Any:
    deadline = time.monotonic() + WAIT_S
    while not (found := probe()):
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {WAIT_S:.0f} s for {what}")
        time.sleep(0.1)
    return found


def settled(client: Any, tid: str) -> list[dict[str, Any]]:
    """The thread's runs once none is pending or running."""
    return until(
        "the thread's runs to finish",
        lambda: (
            (runs := client.runs.list(tid, limit=100))
            and all(r["status"] not in ("pending", "running") for r in runs)
            and runs
        ),
    )


def test_a_thread_cron_runs_on_its_thread_until_it_is_off(served: Any) -> None:
    client = get_sync_client(url=served.url)
    tid = client.threads.create()["thread_id"]
    cron = client.crons.create_for_thread(
        tid, "calculator", schedule=EVERY_SECOND, input=QUESTION, metadata={"job": "sum"}
    )
    assert cron["thread_id"] == tid and cron["schedule"] == EVERY_SECOND
    assert cron["enabled"] is True and cron["on_run_completed"] is None
    assert cron["payload"]["config"]["configurable"]["cron_id"] == cron["cron_id"]

    until("two runs", lambda: len(client.runs.list(tid, limit=100)) >= 2)
    client.crons.update(cron["cron_id"], enabled=False)
    runs = settled(client, tid)
    assert {r["status"] for r in runs} == {"success"}
    assert all(r["metadata"].get("job") == "sum" for r in runs)
    time.sleep(2.5)  # two due times pass with the cron off
    assert len(client.runs.list(tid, limit=100)) == len(runs)
    messages = client.threads.get_state(tid)["values"]["messages"]
    assert len(messages) == 4 * len(runs)  # each run asked and answered on the thread

    (found,) = client.crons.search(thread_id=tid)
    assert found["cron_id"] == cron["cron_id"] and found["enabled"] is False
    assert client.crons.count(thread_id=tid) == 1
    client.crons.delete(cron["cron_id"])
    assert client.crons.search(thread_id=tid) == [] and client.crons.count(thread_id=tid) == 0
    with pytest.raises(NotFoundError, match="cron"):
        client.crons.delete(cron["cron_id"])


def test_a_cron_without_a_thread_makes_one_per_run_and_keeps_it_when_asked(
    served: Any,
) -> None:
    client = get_sync_client(url=served.url)
    cron = client.crons.create(
        "calculator", schedule=EVERY_SECOND, input=QUESTION, metadata={"suite": "cron-keep"},
        on_run_completed="keep",
    )  # fmt: skip
    assert cron["thread_id"] is None and cron["on_run_completed"] == "keep"
    kept = until(
        "two kept threads",
        lambda: len(found := client.threads.search(metadata={"suite": "cron-keep"})) >= 2 and found,
    )
    client.crons.delete(cron["cron_id"])
    for thread in kept:
        settled(client, thread["thread_id"])
        state = client.threads.get_state(thread["thread_id"])
        assert state["values"]["messages"][-1]["content"] == "The answer is 5."
    assert len({t["thread_id"] for t in kept}) == len(kept)


def test_a_deleted_thread_takes_its_crons_with_it(served: Any) -> None:
    client = get_sync_client(url=served.url)
    tid = client.threads.create()["thread_id"]
    cron = client.crons.create_for_thread(tid, "calculator", schedule="0 0 1 1 *")
    assert client.crons.count(thread_id=tid) == 1
    client.threads.delete(tid)
    assert client.crons.count(thread_id=tid) == 0
    with pytest.raises(NotFoundError):
        client.http.get(f"/runs/crons/{cron['cron_id']}")


def test_a_schedule_is_read_in_its_time_zone(served: Any) -> None:
    """Midnight in Tokyo (UTC+9, no summer time) is 15:00 UTC."""
    client = get_sync_client(url=served.url)
    cron = client.crons.create("calculator", schedule="0 0 * * *", timezone="Asia/Tokyo")
    try:
        assert cron["timezone"] == "Asia/Tokyo"
        assert cron["next_run_date"].endswith("T15:00:00+00:00")
        moved = client.crons.update(cron["cron_id"], schedule="30 1 * * *")
        assert moved["next_run_date"].endswith("T16:30:00+00:00")
    finally:
        client.crons.delete(cron["cron_id"])


@pytest.mark.parametrize(
    "fields,named",
    [
        ({"schedule": "every day"}, "schedule"),
        ({"schedule": "61 * * * *"}, "schedule"),
        ({"schedule": "0 0 * * *", "timezone": "Mars/Olympus"}, "timezone"),
    ],
)
def test_a_bad_schedule_or_time_zone_is_refused(served: Any, fields: Any, named: str) -> None:
    client = get_sync_client(url=served.url)
    with pytest.raises(UnprocessableEntityError, match=named):
        client.crons.create("calculator", **fields)
    created = client.crons.create("calculator", schedule="0 0 1 1 *")
    try:
        with pytest.raises(UnprocessableEntityError, match=named):
            client.crons.update(created["cron_id"], **fields)
    finally:
        client.crons.delete(created["cron_id"])


def test_a_cron_names_what_exists(served: Any) -> None:
    client = get_sync_client(url=served.url)
    with pytest.raises(NotFoundError, match="assistant"):
        client.crons.create("nobody", schedule="0 0 * * *")
    with pytest.raises(NotFoundError, match="thread"):
        client.crons.create_for_thread(
            "0b8bf2a4-6a70-4b36-8b5e-2a3c9f2c0d11", "calculator", schedule="0 0 * * *"
        )


def test_a_cron_never_stores_a_secret(served: Any) -> None:
    """A cron keeps its runs' body for as long as it lives, so a secret-looking key in it
    is refused, not stored (a run's own body keeps the key only while it runs)."""
    client = get_sync_client(url=served.url)
    with pytest.raises(UnprocessableEntityError, match="api_key"):
        client.crons.create(
            "calculator", schedule="0 0 * * *", config={"configurable": {"api_key": "sk-x"}}
        )
    created = client.crons.create("calculator", schedule="0 0 1 1 *")
    try:
        with pytest.raises(UnprocessableEntityError, match="context.token"):
            client.crons.update(created["cron_id"], context={"token": "t"})
    finally:
        client.crons.delete(created["cron_id"])


def test_a_key_that_only_contains_a_secret_word_is_kept(served: Any) -> None:
    client = get_sync_client(url=served.url)
    created = client.crons.create(
        "calculator", schedule="0 0 1 1 *", config={"configurable": {"max_tokens": 5}},
        input={"messages": [{"role": "user", "content": "my password is in the input"}]},
    )  # fmt: skip
    client.crons.delete(created["cron_id"])
    assert created["payload"]["config"]["configurable"]["max_tokens"] == 5


def test_a_cron_switched_back_on_waits_for_its_next_time(served: Any) -> None:
    """Off, then on again after its due time passed: it does not run at once for the time
    it slept through, its next run is the schedule's next time from now."""
    client = get_sync_client(url=served.url)
    tid = client.threads.create()["thread_id"]
    cron = client.crons.create_for_thread(
        tid, "calculator", schedule="* * * * * */3", input=QUESTION, enabled=False
    )
    time.sleep(3.2)  # a due time passes while it is off
    woken = client.crons.update(cron["cron_id"], enabled=True)
    try:
        assert woken["next_run_date"] > cron["next_run_date"]
        assert client.runs.list(tid) == []
    finally:
        client.crons.delete(cron["cron_id"])
