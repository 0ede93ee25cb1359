"""Wake-ups for the readers of runs that execute in other processes: PostgreSQL's
LISTEN/NOTIFY.

Input: the notifications `PostgresRepository` sends on `CHANNEL` whenever a run's row
changes (payload: the run id) or it has new events (`events_payload`: the run id behind
`EVENTS`), from any process, and on `CANCEL_CHANNEL` when a cancel of a run is asked (what
a worker running it waits for). Output: `RunSignals`, which an API process's waiters use
instead of polling every run: `watch(run_id)` gives an `asyncio.Event` that is set at the
next change of that run, `watch(run_id, rows_only=True)` one that its events leave alone
(what a `join` waits for: the run's end is a change of its row); `wait(event)` waits.
Invariants: a notification is a hint, never the data — a waiter takes its event *before*
it reads the rows, reads them, and only then waits, so a change between the read and the
wait is not missed; and it waits at most `FALLBACK_S` (`POLL_S` while the listening
connection is down), so a lost notification delays a reader, it never loses an event.
One listening connection and one thread per process, whatever the number of waiters.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable

import psycopg
from psycopg import sql

CHANNEL = "agentc_run"
CANCEL_CHANNEL = "agentc_cancel"
POLL_S = 0.05  # how often a waiter reads while no notification can come
# how long a waiter trusts the notifications alone: PostgreSQL delivers every one to a
# live listening session (psycopg keeps those that come between two reads), so this is a
# safety net, long enough that a thousand waiters do not turn it into a poll
FALLBACK_S = 10.0
RETRY_S = 1.0  # between attempts to listen again after the connection dropped
KEEP = 10_000  # events kept for runs no notification came for (read after their end)
EVENTS = "events:"  # before the run id: the run has new events, its row is unchanged


def events_payload(run_id: str) -> str:
    return EVENTS + run_id


class RunSignals:
    def __init__(self, connect: Callable[[], psycopg.Connection], channel: str = CHANNEL):
        self._connect, self.channel = connect, channel
        self._events: dict[str, asyncio.Event] = {}  # woken by any change of the run
        self._rows: dict[str, asyncio.Event] = {}  # woken by a change of its row only
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.live = False  # whether the listening connection is up

    def watch(self, run_id: str, *, rows_only: bool = False) -> asyncio.Event:
        """The event the next change of `run_id` sets (take it before reading the rows);
        with `rows_only`, the next change of its row (new events do not set it)."""
        loop = asyncio.get_running_loop()
        if loop is not self._loop:  # first use, or a new loop: events belong to theirs
            self._loop, self._events, self._rows = loop, {}, {}
            self._start()
        waiting = self._rows if rows_only else self._events
        event = waiting.get(run_id)
        if event is None:
            if len(self._events) + len(self._rows) >= KEEP:
                self._wake_all()  # a spurious wake-up costs its waiters one read each
            event = waiting[run_id] = asyncio.Event()
        return event

    async def wait(self, event: asyncio.Event) -> None:
        """Until `event` is set, or a fallback read is due."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(event.wait(), FALLBACK_S if self.live else POLL_S)

    def _wake(self, payload: str) -> None:
        run_id = payload.removeprefix(EVENTS)
        woken = [self._events.pop(run_id, None)]
        if run_id == payload:  # its row changed
            woken.append(self._rows.pop(run_id, None))
        for event in woken:
            if event is not None:
                event.set()

    def _wake_all(self) -> None:
        waiting = [*self._events.values(), *self._rows.values()]
        self._events, self._rows = {}, {}
        for event in waiting:
            event.set()

    def _post(self, fn: Callable[..., None], *args: str) -> None:
        loop = self._loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # the loop closed in between
                loop.call_soon_threadsafe(fn, *args)

    def _start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._listen, name="agentc-listen",
                                            daemon=True)  # fmt: skip
            self._thread.start()

    def _listen(self) -> None:
        while not self._stop.is_set():
            try:
                with self._connect() as conn:
                    conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(self.channel)))
                    self.live = True
                    self._post(self._wake_all)  # what changed while nobody listened
                    while not self._stop.is_set():
                        for note in conn.notifies(timeout=0.5):
                            self._post(self._wake, note.payload)
            except Exception:  # the database is away: waiters poll until it is back
                self.live = False
                self._post(self._wake_all)
                self._stop.wait(RETRY_S)
        self.live = False

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
