"""`model_router` (A12, beta in LangChain): a classifier picks the model of a whole run.

Input: `choices` (route → { model: "provider:name", criteria: when to pick it }),
`instructions` (what the classifier weighs), `classifier` (a decision model, see
`decisions.py`). Output: before the agent runs, the newest human message is classified
once; the answer (label, probabilities, confidence) is kept in state as `model_route`, and
every model call of the run goes to that route's model. A run with no human message, a
classifier failure, or a label that names no route fails the run — another model is never
picked silently.

As LangChain 1.5.2's ModelRouterMiddleware, except that `model_route` holds the answer's
JSON form (a map), since agentc's checkpoints keep JSON only; LangChain keeps a
`ChoiceAnswer` object.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...ir import ModelSpec
from ...runtime.errors import AgentcRuntimeError
from ...runtime.records import dataclass
from ..messages import HumanMessage
from ..models import ModelSource, current_model_source
from ..providers.base import ChatModel
from ..providers.registry import model_spec, resolve_model
from .base import AgentMiddleware, AgentRuntime, ModelRequest, ModelResult, StateUpdate
from .binding import BindInfo
from .chain import ModelHandler
from .decisions import (
    Choice,
    ChoiceAnswer,
    Content,
    DecisionModel,
    JsonValue,
    classify,
    require_classifier,
)

QUESTION_ID = "model_route"


class RouteError(AgentcRuntimeError, ValueError):
    """A12: no route for the run: no human message to classify, or `model_route` in state
    names no route."""

    code = "no-model-route"


@dataclass(frozen=True, slots=True)
class ModelChoice:
    """One route: the model (a "provider:name" string or a model object) and when to use it."""

    model: str | ChatModel
    criteria: JsonValue = None


def _choice(route: str, value: ModelChoice | Mapping[str, Any]) -> ModelChoice:
    if isinstance(value, ModelChoice):
        return value
    unknown = set(value) - {"model", "criteria"} if isinstance(value, Mapping) else set()
    model = value.get("model") if isinstance(value, Mapping) else None
    if unknown or model is None:
        raise ValueError(
            f'model_router route `{route}` must be {{ model: "provider:name", criteria: … }}'
            + (f"; unknown keys {sorted(unknown)}" if unknown else "; `model` is missing")
        )
    return ModelChoice(model=model, criteria=value.get("criteria"))


class ModelRouter(AgentMiddleware):
    def __init__(
        self,
        *,
        choices: Mapping[str, ModelChoice | Mapping[str, Any]],
        instructions: Content,
        classifier: DecisionModel,
    ) -> None:
        if not choices:
            raise ValueError("model_router needs at least one route in `choices`")
        self.routes = {route: _choice(route, c) for route, c in choices.items()}
        self.question = Choice(
            instructions=instructions,
            criteria={route: c.criteria for route, c in self.routes.items()},
        )
        self.classifier = require_classifier("model_router", classifier)
        self.models: dict[str, ChatModel] = {
            route: c.model for route, c in self.routes.items() if not isinstance(c.model, str)
        }
        self._info: BindInfo | None = None
        self._source: ModelSource | None = None
        self._specs: dict[str, ModelSpec] = {}

    def agentc_bind(self, info: BindInfo) -> None:
        self._info = info
        # Every call of a routed run goes to a route's model, so they come through the
        # run's model source as the agent's own does (`agentc run --record/--replay`, the
        # call count); it is read at bind time, as the model node's chooser reads it.
        self._source = current_model_source()
        self._specs = {  # a bad model string fails at load, at the declaration
            route: model_spec(c.model, span=info.spec.span)
            for route, c in self.routes.items()
            if isinstance(c.model, str)
        }

    def model(self, route: str) -> ChatModel:
        """The route's model, built on first use (a provider client is not made for routes
        a run never takes)."""
        if route not in self.models:
            info, spec = self._info, self._specs.get(route)
            assert info is not None and spec is not None, "bound before use"

            def make() -> ChatModel:
                return resolve_model(spec, info.base_dir)

            source = self._source
            graph = info.graph.name
            self.models[route] = make() if source is None else source(graph, spec, make)
        return self.models[route]

    async def abefore_agent(self, state: Mapping[str, Any], runtime: AgentRuntime) -> StateUpdate:
        asked = next(
            (m for m in reversed(state.get("messages", [])) if isinstance(m, HumanMessage)), None
        )
        if asked is None:
            raise RouteError(
                "model_router needs a human message in the agent's state to route on",
                help="start the run with a user message",
            )
        decisions = await classify(
            "model_router", self.classifier, asked, {QUESTION_ID: self.question}
        )
        answer = decisions.answers[QUESTION_ID]
        assert isinstance(answer, ChoiceAnswer), "`classify` checks the answer fits the question"
        return {QUESTION_ID: answer.to_json()}

    async def awrap_model_call(self, request: ModelRequest, handler: ModelHandler) -> ModelResult:
        route = request.state.get(QUESTION_ID)
        label = route.get("choice") if isinstance(route, Mapping) else None
        if label not in self.routes:
            raise RouteError(
                f"model_router found no route in state (`model_route` is {route!r})",
                help="the route is set before the agent runs; do not overwrite `model_route`",
            )
        return await handler(request.override(model=self.model(str(label))))


ModelRouterMiddleware = ModelRouter
