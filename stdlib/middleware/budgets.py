"""Budgets: tokens, cost and running time per run and per thread.

Input: the limits (`tokens`, `cost` in USD, `time` in seconds; `thread_tokens`,
`thread_cost`, `thread_time`), `exit_behavior` ("end" | "error" | "ask") and optional
`prices` ({input, output} USD per million tokens; default: the model profile's prices, I2).
Output: before each model call the spent amounts are compared with every limit; at a limit
the run ends with an AI message naming it ("end", like F8), raises `BudgetExceededError`
("error"), or pauses with `{"type": "budget", …}` and goes on when the answer is yes
("ask": the budget is then waived for the rest of the run). After each call the reply's
usage (input + output tokens) and cost are added.

Declared in the prelude as `budgets`:
    middleware { budgets { tokens: 20000, cost: 0.5, time: 2m, exit_behavior: "ask" } }

Where the spent amounts live: in the thread's state, the private channel `budget_spent`
(`{"run": {...}, "thread": {...}}`), so they are checkpointed with the run. A run is the run
as the user sees it: `before_agent` starts it (a new input), and a resume of a paused run
(a review, a budget question) goes on from the amounts saved at the pause, in this process
or in another one (`agentc run --thread`), instead of starting again from zero. Thread
totals last as long as the thread. `time` counts the time the run spends running: a pause
waiting for a person is not counted (each resume measures from its own start).
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import replace
from typing import Any, Literal

from ...runtime.records import dataclass
from ..messages import AIMessage
from .base import AgentMiddleware, AgentRuntime, ExitBehavior, StateUpdate, ask_person, hook_config
from .binding import BindInfo

CHANNEL = "budget_spent"  # the private state channel the prelude declares for `budgets`


class BudgetExceededError(Exception):
    """A run or thread spent its token, cost or time budget (exit_behavior "error")."""


Scope = Literal["run", "thread"]
Kind = Literal["tokens", "cost", "time"]
UNITS: dict[Kind, str] = {"tokens": "tokens", "cost": "USD", "time": "s"}


@dataclass(frozen=True, slots=True)
class Spent:
    """What one scope (a run, a thread) has spent, as saved in `budget_spent`."""

    tokens: int = 0
    cost: float = 0.0
    time_s: float = 0.0
    waived: bool = False  # "ask" was answered yes: the run goes on past its budgets

    def amount(self, kind: Kind) -> float:
        return {"tokens": self.tokens, "cost": self.cost, "time": self.time_s}[kind]

    def dump(self) -> dict[str, Any]:
        return {
            "tokens": self.tokens,
            "cost": self.cost,
            "time_s": self.time_s,
            "waived": self.waived,
        }

    @classmethod
    def load(cls, raw: Any) -> Spent:
        if not isinstance(raw, Mapping):
            return cls()
        return cls(
            tokens=int(raw.get("tokens") or 0),
            cost=float(raw.get("cost") or 0.0),
            time_s=float(raw.get("time_s") or 0.0),
            waived=bool(raw.get("waived")),
        )


@dataclass(frozen=True, slots=True)
class Ledger:
    """Both scopes: the value of the `budget_spent` channel."""

    run: Spent = Spent()
    thread: Spent = Spent()

    def of(self, scope: Scope) -> Spent:
        return self.run if scope == "run" else self.thread

    def dump(self) -> dict[str, Any]:
        return {"run": self.run.dump(), "thread": self.thread.dump()}

    @classmethod
    def load(cls, state: Mapping[str, Any]) -> Ledger:
        raw = state.get(CHANNEL)
        if not isinstance(raw, Mapping):
            return cls()
        return cls(Spent.load(raw.get("run")), Spent.load(raw.get("thread")))


@dataclass(frozen=True, slots=True)
class Segment:
    """One stretch of running in this process (a run, or one resume of it): when it began
    and the times saved when it began, so time goes on from them and pauses are not
    counted."""

    started: float
    run_s: float
    thread_s: float


class Budgets(AgentMiddleware):
    def __init__(
        self,
        *,
        tokens: int | None = None,
        cost: float | None = None,
        time: float | None = None,
        thread_tokens: int | None = None,
        thread_cost: float | None = None,
        thread_time: float | None = None,
        exit_behavior: str = "end",
        prices: Mapping[str, float] | None = None,
    ) -> None:
        given: dict[tuple[Scope, Kind], float | None] = {
            ("run", "tokens"): tokens,
            ("run", "cost"): cost,
            ("run", "time"): time,
            ("thread", "tokens"): thread_tokens,
            ("thread", "cost"): thread_cost,
            ("thread", "time"): thread_time,
        }
        self.limits = {k: v for k, v in given.items() if v is not None}
        if not self.limits:
            raise ValueError("Budgets needs at least one limit (tokens, cost, time, thread_…)")
        self.exit_behavior = ExitBehavior(exit_behavior)
        self.prices = dict(prices) if prices else None
        # run id → its stretch of running in this process (time is measured from it)
        self.segments: dict[str, Segment] = {}
        # thread (or run) → the amounts last seen, for `report` after the run: the saved
        # channel is private, so a run's result does not carry it
        self.seen: dict[str, Ledger] = {}
        self._info: BindInfo | None = None

    def agentc_bind(self, info: BindInfo) -> None:
        self._info = info

    # ------------------------------------------------------------ the amounts

    def _key(self, runtime: AgentRuntime) -> str:
        return runtime.thread_id or runtime.run_id

    def _segment(self, runtime: AgentRuntime, saved: Ledger) -> Segment:
        run = runtime.run_id
        if run not in self.segments:
            if len(self.segments) > 256:  # a long-lived process: forget the oldest runs
                self.segments.pop(next(iter(self.segments)))
            self.segments[run] = Segment(time.monotonic(), saved.run.time_s, saved.thread.time_s)
        return self.segments[run]

    def ledger(self, state: Mapping[str, Any], runtime: AgentRuntime) -> Ledger:
        """The saved amounts, with the time of this stretch of running added."""
        saved = Ledger.load(state)
        seg = self._segment(runtime, saved)
        ran = time.monotonic() - seg.started
        now = Ledger(
            replace(saved.run, time_s=seg.run_s + ran),
            replace(saved.thread, time_s=seg.thread_s + ran),
        )
        self.seen[self._key(runtime)] = now
        return now

    def over(self, ledger: Ledger) -> list[str]:
        """Every exceeded limit, as text ("run tokens 1200/1000")."""
        out = []
        for (scope, kind), limit in self.limits.items():
            spent = ledger.of(scope).amount(kind)
            if spent >= limit:
                out.append(f"{scope} {kind} {_fmt(spent)}/{_fmt(limit)} {UNITS[kind]}")
        return out

    # ------------------------------------------------------------ the hooks

    def before_agent(self, state: Mapping[str, Any], runtime: AgentRuntime) -> StateUpdate:
        """A new run (new input, not a resume): its amounts start from zero."""
        saved = Ledger.load(state)
        self.segments.pop(runtime.run_id, None)
        fresh = Ledger(Spent(), saved.thread)
        self.segments[runtime.run_id] = Segment(time.monotonic(), 0.0, saved.thread.time_s)
        self.seen[self._key(runtime)] = fresh
        return {CHANNEL: fresh.dump()}

    @hook_config(can_jump_to=["end"])
    def before_model(self, state: Mapping[str, Any], runtime: AgentRuntime) -> StateUpdate | None:
        ledger = self.ledger(state, runtime)
        exceeded = [] if ledger.run.waived else self.over(ledger)
        if not exceeded:
            return None
        text = f"Budget exceeded: {', '.join(exceeded)}"
        if self.exit_behavior is ExitBehavior.ERROR:
            raise BudgetExceededError(text)
        if self.exit_behavior is ExitBehavior.ASK:
            # on resume this hook runs again from the saved state and gets the answer
            answer = ask_person(
                runtime, {"type": "budget", "exceeded": exceeded, "question": f"{text}. Continue?"}
            )
            if _is_yes(answer):
                waived = Ledger(replace(ledger.run, waived=True), ledger.thread)
                self.seen[self._key(runtime)] = waived
                return {CHANNEL: waived.dump()}
        return {"jump_to": "end", "messages": [AIMessage(content=text)], CHANNEL: ledger.dump()}

    def after_model(self, state: Mapping[str, Any], runtime: AgentRuntime) -> StateUpdate:
        ledger = self.ledger(state, runtime)
        ai = next(
            (m for m in reversed(state.get("messages") or []) if isinstance(m, AIMessage)), None
        )
        usage = ai.usage_metadata if ai is not None else None
        if usage is not None:
            tokens = usage.input_tokens + usage.output_tokens
            cost = self.cost(usage.input_tokens, usage.output_tokens)
            ledger = Ledger(_add(ledger.run, tokens, cost), _add(ledger.thread, tokens, cost))
            self.seen[self._key(runtime)] = ledger
        return {CHANNEL: ledger.dump()}

    def cost(self, tokens_in: int, tokens_out: int) -> float:
        prices = self.prices
        if prices is None and self._info is not None:
            profile = self._info.model().profile
            prices = {
                "input": profile.input_price_per_mtok or 0.0,
                "output": profile.output_price_per_mtok or 0.0,
            }
            self.prices = prices
        prices = prices or {}
        return (tokens_in * prices.get("input", 0.0) + tokens_out * prices.get("output", 0.0)) / 1e6

    # ------------------------------------------------------------ the summary

    def report(self, thread_id: str | None) -> list[str]:
        """Usage against each budget, for `agentc run`'s summary."""
        ledger = self._last(thread_id)
        return [
            f"{scope} {kind}: {_fmt(ledger.of(scope).amount(kind))} of {_fmt(limit)} {UNITS[kind]}"
            for (scope, kind), limit in self.limits.items()
        ]

    def overspends(self, thread_id: str | None) -> list[str]:
        """Each budget spent past its limit, for the summary to flag: the check is before
        each model call, so the last call may go past a limit, and "ask" may waive it."""
        ledger = self._last(thread_id)
        lines = []
        for (scope, kind), limit in self.limits.items():
            spent = ledger.of(scope).amount(kind)
            if spent > limit:
                why = " (continued when asked)" if ledger.run.waived else ""
                lines.append(
                    f"{scope} {kind} {_fmt(spent)} of {_fmt(limit)} {UNITS[kind]}, "
                    f"{_fmt(spent - limit)} past the limit{why}"
                )
        return lines

    def _last(self, thread_id: str | None) -> Ledger:
        """The amounts last seen for the thread (for a run without one, the last run's)."""
        ledger = self.seen.get(thread_id) if thread_id else None
        return ledger if ledger is not None else next(reversed(self.seen.values()), Ledger())


def _add(spent: Spent, tokens: int, cost: float) -> Spent:
    return replace(spent, tokens=spent.tokens + tokens, cost=spent.cost + cost)


def _is_yes(answer: Any) -> bool:
    if isinstance(answer, Mapping):
        return bool(answer.get("continue"))
    return answer in (True, "yes", "y", "continue")


def _fmt(x: float) -> str:
    return f"{x:.4g}" if isinstance(x, float) else str(x)
