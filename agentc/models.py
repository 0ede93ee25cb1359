"""`init_chat_model`: a chat model for a Python node to call itself, as in LangGraph.

```python
from agentc.models import init_chat_model

llm = init_chat_model("openai:gpt-4o-mini", temperature=0)

def write(state):
    reply = llm.invoke(f"Write a joke about {state['topic']}")       # an AIMessage
    return {"joke": reply.text}

def grade(state):
    verdict = llm.with_structured_output(Feedback).invoke(state["joke"])  # a Feedback
    return {"feedback": verdict.model_dump()}
```

Input: a model string, resolved exactly as a `.agent` file's (A1: `provider:name`; A2: the
provider inferred from the name; `scripted` / `scripted:PATH` with `replies`), LangChain's
`model_provider=`, and model options (`temperature`, `max_tokens`, `base_url`,
`api_key_env`, … as in a file's `model "…" { … }` block). Output: a `ChatHandle`
(`stdlib/chat.py`): `.invoke` / `await .ainvoke` (messages, role dicts or a string) → an
`AIMessage`; `.bind_tools([...])`; `.with_structured_output(Schema, method=…)`.

Invariants: options are checked here, when the model is made, with one clear error each;
no key is read and no client built until the first call. Under `agentc run --record/--replay`
calls are recorded or replayed like the file's own model nodes; `scripted:PATH` is read from
the `.agent` file's directory when the run says which it is (`models.model_source(…,
base_dir=…)`), else from the current directory.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from agentc.stdlib.chat import ChatHandle

__all__ = ["ModelSetupError", "init_chat_model"]

# A key written into code would be sent in the request body and could reach a cassette.
_SECRET_KEY = re.compile(r"(?i)(^|_)(api_?key|secret|password|token|credentials?)$")
_UNSUPPORTED = {
    "configurable_fields": "a model chosen per run is a `.agent` model's `configurable: true`",
    "config_prefix": "a model chosen per run is a `.agent` model's `configurable: true`",
    "configurable": "a model chosen per run is a `.agent` model's `configurable: true`",
}


class ModelSetupError(ValueError):
    """An `init_chat_model` call whose model string or options cannot be used."""


def init_chat_model(
    model: str | None = None, *, model_provider: str | None = None, **options: Any
) -> ChatHandle:
    """A chat model for `model` ("provider:name", a name whose provider is inferred, or
    "scripted:PATH"), with `options` sent as the file's model options are."""
    import agentc.ir as ir
    from agentc.stdlib.chat import ChatHandle, ModelResolver
    from agentc.stdlib.models import current_model_dir, current_model_source

    text = _model_string(model, model_provider)
    _check_options(options)
    spec = _spec(text, options, ir)
    _check_provider(spec)
    resolver = ModelResolver(spec, current_model_source(), current_model_dir())
    return ChatHandle(resolver)


def _model_string(model: Any, provider: str | None) -> str:
    if not isinstance(model, str) or not model.strip():
        raise ModelSetupError(
            "init_chat_model needs a model string such as 'openai:gpt-4o-mini' "
            f"(got {model!r}); a model chosen per run is a `.agent` model's `configurable: true`"
        )
    if provider is None:
        return model
    if not isinstance(provider, str) or not provider:
        raise ModelSetupError(f"model_provider must be a provider name, got {provider!r}")
    head, sep, _ = model.partition(":")
    return model if sep and head == provider else f"{provider}:{model}"


def _check_options(options: dict[str, Any]) -> None:
    for key, value in options.items():
        if key in _UNSUPPORTED:
            raise ModelSetupError(f"init_chat_model does not take `{key}`: {_UNSUPPORTED[key]}")
        if _SECRET_KEY.search(key) and value is not None:
            raise ModelSetupError(
                f"init_chat_model does not take `{key}`: a credential in code gets copied and "
                "committed; name the environment variable that holds it instead: "
                f'api_key_env="MY_KEY"'
            )
        try:
            json.dumps(value)
        except (TypeError, ValueError):
            raise ModelSetupError(
                f"model option `{key}` must be a JSON value (string, number, boolean, list "
                f"or map), got {type(value).__name__}"
            ) from None


def _spec(text: str, options: dict[str, Any], ir: Any) -> Any:
    from agentc.stdlib.models import model_spec_from_string
    from agentc.stdlib.providers.resolve import UnknownModelError

    span = ir.SourceSpan(
        file="<init_chat_model>", line=1, col=1, end_line=1, end_col=1, offset=0, end_offset=0
    )
    try:
        spec = model_spec_from_string(text, span)
    except UnknownModelError as exc:
        raise ModelSetupError(str(exc)) from None
    return spec.model_copy(update={"options": dict(options)})


def _check_provider(spec: Any) -> None:
    from agentc.stdlib.providers.resolve import UnknownModelError, Wire, provider_info

    try:
        info = provider_info(spec.provider)
    except UnknownModelError as exc:
        raise ModelSetupError(str(exc)) from None
    if info.plugin:  # an installed package's provider checks its own options when built
        return
    if info.wire is None:
        raise ModelSetupError(
            f"provider `{spec.provider}` is not supported by agentc yet; use `openai`, "
            "`anthropic`, or an OpenAI-compatible server with `openai:` and a `base_url` option"
        )
    if info.wire is Wire.SCRIPTED:
        if not spec.name and not isinstance(spec.options.get("replies"), list):
            raise ModelSetupError(
                "the scripted model needs replies=[...] (strings or maps with content / "
                "tool_calls), or 'scripted:PATH' naming a JSON file"
            )
        return
    from agentc.stdlib.providers.settings import ModelOptionError, check_client_options

    try:
        check_client_options(spec.options)
    except ModelOptionError as exc:
        raise ModelSetupError(str(exc)) from None
