"""`model_fallback` (H4): when the model call fails, the listed models answer instead.

Input: `models` ("provider:name" strings, tried in order after the agent's own model).
Output: the first successful response; every ordinary exception moves on to the next model
(a structured-output error raised inside the call included), once each; the last failure is
raised when all fail. Graph control signals (interrupts) pass straight through.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .base import AgentMiddleware, control_signals


class ModelFallback(AgentMiddleware):
    def __init__(self, models: Sequence[Any] = (), *extra: Any) -> None:
        self.specs = [*models, *extra] if isinstance(models, (list, tuple)) else [models, *extra]
        if not self.specs:
            raise ValueError("model_fallback needs at least one fallback model")
        self.models: list[Any] | None = None
        self._info: Any = None

    def agentc_bind(self, info: Any) -> None:
        self._info = info

    def fallbacks(self) -> list[Any]:
        if self.models is None:
            self.models = [self._info.model(s) if isinstance(s, str) else s for s in self.specs]
        return self.models

    async def awrap_model_call(self, request: Any, handler: Any) -> Any:
        signals = control_signals()
        try:
            return await handler(request)
        except signals:
            raise
        except Exception as exc:  # noqa: BLE001 - H4: any ordinary failure falls back
            last = exc
        for model in self.fallbacks():
            try:
                return await handler(request.override(model=model))
            except signals:
                raise
            except Exception as exc:  # noqa: BLE001
                last = exc
        raise last


ModelFallbackMiddleware = ModelFallback
