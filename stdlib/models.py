"""Model resolution: which `ChatModel` an agent's model node calls (A1, A2, A4).

Input: an `ir.ModelSpec` (or a model string such as `"openai:gpt-4o-mini"`), the directory
of the `.agent` file, and per call the task's `RunContext`. Output: a `ChatModel`, through
the providers registry. Invariants: this module sits below the agent nodes and middleware
binding and imports neither; the fixed model is resolved once per node, on first use;
a configurable model (A4) resolves each distinct per-run choice once.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Callable, Iterator
from dataclasses import field

from ..ir import ModelSpec, SourceSpan
from ..runtime.records import dataclass
from ..runtime.types import RunContext
from .providers.base import ChatModel
from .providers.registry import resolve_model
from .providers.resolve import parse_model_string

__all__ = [
    "ModelChooser",
    "ModelSource",
    "current_model_dir",
    "current_model_source",
    "is_configurable",
    "model_source",
    "model_spec_from_string",
    "resolve_model",
]


def model_spec_from_string(text: str, span: SourceSpan) -> ModelSpec:
    """`"provider:name"` (or `"scripted"` / `"scripted:PATH"`) as a `ModelSpec`."""
    if text == "scripted" or text.startswith("scripted:"):
        return ModelSpec(spec=text, provider="scripted", name=text.partition(":")[2], span=span)
    provider, name = parse_model_string(text)
    return ModelSpec(spec=text, provider=provider, name=name, span=span)


def is_configurable(spec: ModelSpec) -> bool:
    """A4: `model "…" { configurable: true }` lets `RunConfig.configurable["model"]` pick
    the model per run (LangChain: create_agent("") → a _ConfigurableModel)."""
    return bool(spec.options.get("configurable"))


# The model a chooser builds, given its graph's name, its spec and a thunk that resolves
# the real one: `agentc run --record/--replay` wraps or replaces it (cassettes). Read when
# a chooser is made (bind time), and by `init_chat_model` when a model is made or first
# called, from the context the caller sets with `model_source(...)`.
ModelSource = Callable[[str, ModelSpec, Callable[[], ChatModel]], ChatModel]
_MODEL_SOURCE: contextvars.ContextVar[ModelSource | None] = contextvars.ContextVar(
    "agentc_model_source", default=None
)
# The directory `scripted:PATH` starts from for models a Python node makes itself
# (`init_chat_model`): the `.agent` file's, when the caller says so; else the process's.
_MODEL_DIR: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "agentc_model_dir", default=None
)


@contextlib.contextmanager
def model_source(source: ModelSource | None, base_dir: str | None = None) -> Iterator[None]:
    """Graphs bound inside this block build their fixed models through `source`; models
    `init_chat_model` makes or first calls inside it do too, and read `scripted:PATH`
    from `base_dir` (the `.agent` file's directory) when it is given. None leaves the
    outer block's value as it is, so a run can always say `model_source(src, base_dir=d)`."""
    token = _MODEL_SOURCE.set(source) if source is not None else None
    dir_token = _MODEL_DIR.set(base_dir) if base_dir is not None else None
    try:
        yield
    finally:
        if dir_token is not None:
            _MODEL_DIR.reset(dir_token)
        if token is not None:
            _MODEL_SOURCE.reset(token)


def current_model_source() -> ModelSource | None:
    """The source set by the innermost `model_source(...)` of this context, if any."""
    return _MODEL_SOURCE.get()


def current_model_dir() -> str | None:
    """The `.agent` directory set by the innermost `model_source(..., base_dir=…)`."""
    return _MODEL_DIR.get()


@dataclass(slots=True)
class ModelChooser:
    """The fixed model, or per run the one the caller names (A4)."""

    spec: ModelSpec
    base_dir: str
    default: ChatModel | None = None
    per_run: dict[str, ChatModel] = field(default_factory=dict)
    graph: str = ""
    source: ModelSource | None = field(default_factory=_MODEL_SOURCE.get)

    def fixed_spec(self) -> ModelSpec:
        options = {k: v for k, v in self.spec.options.items() if k != "configurable"}
        return self.spec.model_copy(update={"options": options})

    def pick(self, ctx: RunContext | None) -> ChatModel:
        """The model for this call (`ctx` None: outside a run, the fixed model)."""
        if is_configurable(self.spec) and ctx is not None:
            chosen = ctx.config.configurable.get("model")
            if isinstance(chosen, str) and chosen:
                if chosen not in self.per_run:
                    self.per_run[chosen] = resolve_model(
                        model_spec_from_string(chosen, self.spec.span), self.base_dir
                    )
                return self.per_run[chosen]
        if self.default is None:
            self.default = self._fixed()
        return self.default

    def _fixed(self) -> ChatModel:
        spec = self.fixed_spec()

        def make() -> ChatModel:
            return resolve_model(spec, self.base_dir)

        return make() if self.source is None else self.source(self.graph, spec, make)
