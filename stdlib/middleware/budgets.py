"""Budgets: tokens, cost and wall-clock time per run and per thread.

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
Thread totals live in this object (per thread id), so they last as long as the process.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from ..messages import AIMessage
from .base import AgentMiddleware, AgentRuntime, ExitBehavior, StateUpdate, ask_person, hook_config
from .binding import BindInfo


class BudgetExceededError(Exception):
    """A run or thread spent its token, cost or time budget (exit_behavior "error")."""


@dataclass
class Usage:
    tokens: int = 0
    cost: float = 0.0
    started: float = field(default_factory=time.monotonic)
    waived: bool = False

    def amount(self, kind: Kind) -> float:
        if kind == "time":
            return time.monotonic() - self.started
        return self.tokens if kind == "tokens" else self.cost


Scope = Literal["run", "thread"]
Kind = Literal["tokens", "cost", "time"]
UNITS: dict[Kind, str] = {"tokens": "tokens", "cost": "USD", "time": "s"}


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
        self.runs: dict[str, Usage] = {}
        self.threads: dict[str, Usage] = {}
        # thread → the run usage of a run paused by "ask": its resume (a new run id) goes on
        # from it, so the question is asked again and answered, not skipped by a reset count.
        self.asking: dict[str, Usage] = {}
        self._info: BindInfo | None = None

    def agentc_bind(self, info: BindInfo) -> None:
        self._info = info

    def usage(self, runtime: AgentRuntime) -> tuple[Usage, Usage]:
        run = runtime.run_id
        thread = self._thread_key(runtime)
        if len(self.runs) > 256:
            self.runs.pop(next(iter(self.runs)))
        if run not in self.runs and thread in self.asking:
            self.runs[run] = self.asking.pop(thread)
        return self.runs.setdefault(run, Usage()), self.threads.setdefault(thread, Usage())

    def _thread_key(self, runtime: AgentRuntime) -> str:
        return runtime.thread_id or runtime.run_id

    def over(self, run: Usage, thread: Usage) -> list[str]:
        """Every exceeded limit, as text ("run tokens 1200/1000")."""
        out = []
        for (scope, kind), limit in self.limits.items():
            spent = (run if scope == "run" else thread).amount(kind)
            if spent >= limit:
                out.append(f"{scope} {kind} {_fmt(spent)}/{_fmt(limit)} {UNITS[kind]}")
        return out

    @hook_config(can_jump_to=["end"])
    def before_model(self, state: Mapping[str, Any], runtime: AgentRuntime) -> StateUpdate | None:
        run, thread = self.usage(runtime)
        exceeded = [] if run.waived else self.over(run, thread)
        if not exceeded:
            return None
        text = f"Budget exceeded: {', '.join(exceeded)}"
        if self.exit_behavior is ExitBehavior.ERROR:
            raise BudgetExceededError(text)
        if self.exit_behavior is ExitBehavior.ASK:
            self.asking[self._thread_key(runtime)] = run
            answer = ask_person(
                runtime, {"type": "budget", "exceeded": exceeded, "question": f"{text}. Continue?"}
            )
            self.asking.pop(self._thread_key(runtime), None)
            if answer in (True, "yes", "y", "continue") or (
                isinstance(answer, Mapping) and answer.get("continue")
            ):
                run.waived = True
                return None
        return {"jump_to": "end", "messages": [AIMessage(content=text)]}

    def after_model(self, state: Mapping[str, Any], runtime: AgentRuntime) -> None:
        ai = next(
            (m for m in reversed(state.get("messages") or []) if isinstance(m, AIMessage)), None
        )
        usage = ai.usage_metadata if ai is not None else None
        if usage is None:
            return None
        cost = self.cost(usage.input_tokens, usage.output_tokens)
        for u in self.usage(runtime):
            u.tokens += usage.input_tokens + usage.output_tokens
            u.cost += cost
        return None

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

    def report(self, thread_id: str | None) -> list[str]:
        """Usage against each budget, for `agentc run`'s summary."""
        run = next(reversed(self.runs.values()), Usage())
        thread = self.threads.get(str(thread_id), run)
        return [
            f"{scope} {kind}: {_fmt((run if scope == 'run' else thread).amount(kind))} of "
            f"{_fmt(limit)} {UNITS[kind]}"
            for (scope, kind), limit in self.limits.items()
        ]


def _fmt(x: float) -> str:
    return f"{x:.4g}" if isinstance(x, float) else str(x)
