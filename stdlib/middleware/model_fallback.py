"""`model_fallback` (H4): when the model call fails, the listed models answer instead.

Input: `models` ("provider:name" strings, tried in order after the agent's own model).
Output: the first successful response; every ordinary exception moves on to the next model
(a structured-output error raised inside the call included), once each; the last failure is
raised when all fail. Graph control signals (interrupts) pass straight through.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..providers.base import ChatModel
from .base import CONTROL_SIGNALS, AgentMiddleware, ModelRequest, ModelResult
from .binding import BindInfo
from .chain import ModelHandler

ModelChoice = str | ChatModel  # a model string, or a model object given from Python


class ModelFallback(AgentMiddleware):
    def __init__(
        self, models: Sequence[ModelChoice] | ModelChoice = (), *extra: ModelChoice
    ) -> None:
        self.specs = [*models, *extra] if isinstance(models, (list, tuple)) else [models, *extra]
        if not self.specs:
            raise ValueError("model_fallback needs at least one fallback model")
        self.models: list[ChatModel] | None = None
        self._info: BindInfo | None = None

    def agentc_bind(self, info: BindInfo) -> None:
        self._info = info

    def fallbacks(self) -> list[ChatModel]:
        if self.models is None:
            self.models = [self._model(s) for s in self.specs]
        return self.models

    def _model(self, choice: ModelChoice) -> ChatModel:
        if not isinstance(choice, str):
            return choice
        assert self._info is not None, "a model string needs the agent (agentc_bind)"
        return self._info.model(choice)

    async def awrap_model_call(self, request: ModelRequest, handler: ModelHandler) -> ModelResult:
        try:
            return await handler(request)
        except CONTROL_SIGNALS:
            raise
        except Exception as exc:  # noqa: BLE001 - H4: any ordinary failure falls back
            last = exc
        for model in self.fallbacks():
            try:
                return await handler(request.override(model=model))
            except CONTROL_SIGNALS:
                raise
            except Exception as exc:  # noqa: BLE001
                last = exc
        raise last


ModelFallbackMiddleware = ModelFallback
