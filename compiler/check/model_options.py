"""A model's options against what its provider's API takes, so a typo is refused before
the first call instead of going into the request body (`temprature: 0.2`).

Input: the provider a model string resolved to (A1/A2), its wire format (the provider
table's `wire`), and the options as written — the `{ … }` of an agent's `model` line or
the named arguments of a graph `model(…)` node. Output: `unknown-param` for an option the
provider does not take, with the nearest known one; `type-mismatch` for an `extra_body`
that is not a map.

What is checked, by wire:
- every HTTP provider takes the client options (`timeout`, `max_retries`, `base_url`, …:
  the ones `stdlib/providers/settings.py` reads) and `extra_body: { … }`, whose keys are
  merged into the request body as written, unchecked — the way to send an option this
  table does not know yet (the name is the OpenAI and Anthropic SDKs' and ChatOpenAI's);
- `openai` (chat completions) and `anthropic` (messages) are checked strictly against
  their APIs' request fields below;
- other providers that speak the OpenAI wire (Ollama, vLLM, Groq, …) take fields of their
  own this table cannot list: there only a near miss of a known field is refused (a typo),
  and any other name is sent as written;
- `scripted` takes its own few options and, since it stands in for a real model, that
  model's (ignored); only a near miss is refused there;
- a provider agentc does not speak, an installed provider and a Python factory are not
  checked here (a factory's options are its parameters: `models.check_factory`).
The tables are data of the compiler (the runtime's own list of client options is not
imported: the compiler never imports stdlib Python).
Invariant: the AST is only read; at most one suggestion per option.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from ...dsl import ast
from ...dsl.astclass import Record, record
from ...dsl.codes import Code
from ...dsl.diagnostics import Diagnostic, error
from ..models import provider_wire
from ..suggest import distance, nearest
from ..typecheck import describe, expressions_in, not_a_value
from .secrets import credential_name

EXTRA_BODY = "extra_body"

# What `stdlib/providers/settings.py` reads to build the client (never sent in the body).
CLIENT_OPTIONS = frozenset(
    {"timeout", "connect_timeout", "max_retries", "base_url", "api_key_env", "headers"}
    | {"rate_limit", EXTRA_BODY}
)

# POST /v1/chat/completions request fields a `.agent` file may set (the ones agentc itself
# writes — model, messages, tools, tool_choice, response_format, stream — are left out).
OPENAI_CHAT = frozenset(
    {"temperature", "top_p", "n", "stop", "max_tokens", "max_completion_tokens", "seed"}
    | {"presence_penalty", "frequency_penalty", "logit_bias", "logprobs", "top_logprobs"}
    | {"user", "parallel_tool_calls", "reasoning_effort", "service_tier", "store"}
    | {"metadata", "modalities", "audio", "prediction", "web_search_options", "verbosity"}
    | {"prompt_cache_key", "prompt_cache_retention", "safety_identifier"}
)

# POST /v1/messages request fields (model, messages, system, tools, tool_choice and stream
# are agentc's to write).
ANTHROPIC_MESSAGES = frozenset(
    {"max_tokens", "temperature", "top_p", "top_k", "stop_sequences", "metadata"}
    | {"thinking", "service_tier", "container", "mcp_servers", "context_management"}
)

# Fields of servers that speak the OpenAI wire with sampling options of their own (vLLM,
# llama.cpp, Ollama, OpenRouter, Mistral, Perplexity …): listed so that a near miss of an
# OpenAI field (`top_k` beside `top_p`) is not taken for a typo.
COMPATIBLE_EXTRAS = frozenset(
    {"top_k", "min_p", "repetition_penalty", "repeat_penalty", "typical_p", "tfs_z", "top_a"}
    | {"best_of", "use_beam_search", "length_penalty", "min_tokens", "ignore_eos", "mirostat"}
    | {"guided_json", "guided_regex", "guided_choice", "guided_grammar", "grammar"}
    | {"skip_special_tokens", "chat_template_kwargs", "keep_alive", "num_ctx", "cache_prompt"}
    | {"safe_prompt", "random_seed", "reasoning", "include_reasoning", "provider", "models"}
    | {"transforms", "route", "documents", "search_domain_filter", "search_recency_filter"}
    | {"return_images", "return_related_questions", "thinking", "json_schema", "n_probs"}
)

SCRIPTED = frozenset({"replies", "profile", "name", "cycle"})


@record
class OptionTable(Record):
    known: frozenset[str]
    strict: bool  # False: a name far from every known one is sent as written
    renames: tuple[tuple[str, str], ...] = ()  # another API's name → this one's

    def rename(self, key: str) -> str | None:
        return dict(self.renames).get(key)


# ChatOpenAI's / ChatAnthropic's constructor names for the same things
_LANGCHAIN_NAMES = (("request_timeout", "timeout"), ("model_kwargs", EXTRA_BODY))

_TABLES: dict[str, OptionTable] = {
    "openai": OptionTable(
        CLIENT_OPTIONS | OPENAI_CHAT,
        strict=True,
        renames=(
            ("stop_sequences", "stop"),
            ("max_output_tokens", "max_completion_tokens"),
            *_LANGCHAIN_NAMES,
        ),
    ),
    "anthropic": OptionTable(
        CLIENT_OPTIONS | ANTHROPIC_MESSAGES,
        strict=True,
        renames=(
            ("stop", "stop_sequences"),
            ("max_completion_tokens", "max_tokens"),
            *_LANGCHAIN_NAMES,
        ),
    ),
    # it stands in for a real model: that model's options are taken (and ignored)
    "scripted": OptionTable(
        SCRIPTED | OPENAI_CHAT | ANTHROPIC_MESSAGES | CLIENT_OPTIONS, strict=False
    ),
}
_COMPATIBLE = OptionTable(CLIENT_OPTIONS | OPENAI_CHAT | COMPATIBLE_EXTRAS, strict=False)


def option_table(provider: str) -> OptionTable | None:
    """The options `provider` takes; None where agentc does not check them."""
    if provider in _TABLES:
        return _TABLES[provider]
    wire = provider_wire(provider)
    if wire == "openai":
        return _COMPATIBLE
    if wire == "anthropic":
        return _TABLES["anthropic"]
    return None


@record
class Option(Record):
    """One option as written: `temperature: 0` in a map or `temperature: 0` in a call."""

    key: ast.Name
    value: ast.Expr


def map_options(options: ast.MapLit | None) -> list[Option]:
    return [Option(e.key, e.value) for e in (options.entries if options else ())]


def call_options(args: Iterable[ast.Arg]) -> list[Option]:
    return [Option(a.name, a.value) for a in args if a.name is not None]


def check_model_options(provider: str, options: Iterable[Option]) -> Iterator[Diagnostic]:
    options = list(options)
    for opt in options:  # an option holds a value as written, whatever the provider
        yield from (not_a_value(e) for e in expressions_in(opt.value))
    table = option_table(provider)
    if table is None:
        return
    for opt in options:
        key = opt.key.text
        if key == EXTRA_BODY and provider != "scripted":
            if not isinstance(opt.value, ast.MapLit):
                yield error(
                    Code.TYPE_MISMATCH,
                    f"`{EXTRA_BODY}` must be a map, found {describe(opt.value)}",
                    opt.value.span,
                    "its keys are merged into the request body",
                    help=f"write `{EXTRA_BODY}: {{ name: value }}`",
                )
            continue
        # a credential's name (`api_key`) is refused as a secret already (secrets.py)
        if key not in table.known and not credential_name(key):
            yield from _unknown(provider, table, opt.key)


def _unknown(provider: str, table: OptionTable, key: ast.Name) -> Iterator[Diagnostic]:
    near = table.rename(key.text) or nearest(key.text, sorted(table.known))
    if not table.strict and (near is None or distance(key.text, near) > 2):
        return  # a field of the server's own (not a typo of a known one): sent as written
    passes = provider != "scripted"
    notes: tuple[str, ...] = ()
    if near is None:  # not a typo: where the options are listed, and how to send it anyway
        notes = ("`agentc check --explain unknown-param` lists each provider's options",)
        if passes:
            notes += (
                "an option agentc does not list yet is sent as written under "
                f"`{EXTRA_BODY}`: `{EXTRA_BODY}: {{ {key.text}: … }}`",
            )
    fallback = f"remove it, or move it under `{EXTRA_BODY}`" if passes else "remove it"
    yield error(
        Code.UNKNOWN_PARAM,
        f"`{provider}` models have no option `{key.text}`",
        key.span,
        "unknown model option",
        notes=notes,
        help=f"did you mean `{near}`?" if near else fallback,
    )
