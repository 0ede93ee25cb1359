"""What the command line asks the run to start from: its input channels and its context.

Input: the user's input text (`--input`, `--input-file` or piped stdin), the `--set
key=value` pairs, `--context '{…}'`, and the chosen graph with its program. Output:
`split_input` (text → the user's message, or a JSON object → channel values);
`input_value` → the run's input dict, every key an input channel of the graph and every
value of its channel's type (else `UsageError`, before anything runs); `context_value` →
the run context, checked against the graph's `context` schema when it declares one.

Invariants: a JSON object is channel values for agents and graphs alike; text is a user
message, and only a graph with a `messages` channel takes one. A `--set` value is JSON when
it parses, else the raw string; when the parsed value does not fit the channel but the raw
string does (`--set topic=3` for a `str`), the string is meant. `--set` wins over the same
key in a JSON `--input`. The runtime drops input keys that are not input channels (A5);
here they are refused, since on a command line they are typos.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .errors import UsageError

if TYPE_CHECKING:
    import agentc.ir as ir
    from agentc.runtime.schema import Problem

MESSAGES = "messages"  # the channel a text input becomes a user message in


@dataclass(frozen=True, slots=True)
class Given:
    """One value the command line gives a channel, and where it came from."""

    value: Any
    source: str  # `--input` or `--set`
    raw: str | None = None  # the text after `=` of a `--set`: meant when the JSON does not fit


def split_input(text: str | None) -> tuple[str | None, dict[str, Any] | None]:
    """(the user's message, channel values): a JSON object is channels, else text."""
    if text is None:
        return None, None
    stripped = text.strip()
    if not stripped.startswith("{"):
        return text, None
    try:
        value = json.loads(stripped)
    except ValueError as exc:
        if stripped.endswith("}"):  # meant as JSON: sending it as a message hides the typo
            raise UsageError(
                f"the input looks like a JSON object but does not parse ({exc}); fix it, "
                "or send it as a message with --set messages='\"…\"'"
            ) from None
        return text, None
    return (None, value) if isinstance(value, dict) else (text, None)


def parse_sets(pairs: Sequence[str] | None) -> dict[str, Given]:
    """`--set key=value` pairs, in order (a later one wins)."""
    found: dict[str, Given] = {}
    for pair in pairs or ():
        key, eq, raw = pair.partition("=")
        key = key.strip()
        if not eq or not key:
            raise UsageError(
                f"--set needs KEY=VALUE, got {pair!r}; e.g. --set topic=cats or --set n=3"
            )
        try:
            value = json.loads(raw)
        except ValueError:
            value = raw
        found[key] = Given(value, "--set", raw)
    return found


def input_value(
    program: ir.Program,
    graph: ir.Graph,
    text: str | None,
    channels: Mapping[str, Any] | None,
    sets: Mapping[str, Given],
    resuming: bool,
) -> dict[str, Any] | None:
    """The run's input, every key an input channel of `graph` holding a value of its type.
    None (nothing given, `--thread`) continues a saved run."""
    given: dict[str, Given] = {k: Given(v, "--input") for k, v in (channels or {}).items()}
    has_messages = any(c.name == MESSAGES for c in graph.state)
    if text is not None:
        if not has_messages:
            raise UsageError(_not_an_object(graph))
        if MESSAGES in sets:
            raise UsageError(
                "both a text --input and --set messages=… give the conversation; keep one"
            )
        given[MESSAGES] = Given([{"role": "user", "content": text}], "--input")
    given.update(sets)
    if not given:
        return None if resuming else _nothing_given(graph)
    by_name = {c.name: c for c in graph.state}
    return {key: checked(program, graph, by_name, key, g) for key, g in given.items()}


def checked(
    program: ir.Program,
    graph: ir.Graph,
    by_name: Mapping[str, ir.ChannelSpec],
    key: str,
    given: Given,
) -> Any:
    """The value for channel `key`, or `UsageError` naming the channel and what it takes."""
    channel = by_name.get(key)
    if channel is None or not channel.input:
        raise UsageError(_not_an_input(graph, key, given.source, known=channel is not None))
    if channel.type.display == "messages":
        return _messages(graph, key, given)
    schema = channel.type.json_schema
    problem = _problem(program, schema, given.value, (key,))
    if problem is None:
        return given.value
    if given.raw is not None and _problem(program, schema, given.raw) is None:
        return given.raw  # `--set topic=3` for a str channel: the text was meant
    display, sample = channel.type.display, _sample(schema)
    if problem.path == (key,) and not problem.note:  # the whole value is of the wrong kind
        what = f"{problem.shown}, which is not of type `{display}`"
    else:
        what = f"a value not of type `{display}`: {problem}"
    raise UsageError(f"{given.source} gives `{key}` {what}; e.g. --set {key}={sample}")


def _problem(
    program: ir.Program, schema: Mapping[str, Any], value: Any, at: tuple[str, ...] = ()
) -> Problem | None:
    """Where `value` does not fit `schema` (`$ref`s name the program's schemas): the
    runtime's own check of Send payloads and run contexts, so both read values alike."""
    # imported on first use, as the runner imports all of the runtime: a usage error
    # found before any value is checked (a typo in a key) costs no runtime import
    from agentc.runtime.schema import check, program_defs

    return check(schema, value, program_defs(program), at)


def _messages(graph: ir.Graph, key: str, given: Given) -> Any:
    """A conversation channel takes what the runtime reads as messages (A6); checked here
    so a bad entry is a usage error, not a failed run."""
    from agentc.stdlib.messages import MessageCoercionError, coerce_messages

    try:
        coerce_messages(given.value)
    except (MessageCoercionError, TypeError) as exc:
        raise UsageError(
            f"{given.source} gives `{key}` of `{graph.name}` something that is not messages: "
            f'{exc}; e.g. --set {key}=\'[{{"role": "user", "content": "hi"}}]\''
        ) from None
    return given.value


def context_value(program: ir.Program, graph: ir.Graph, text: str | None) -> dict[str, Any] | None:
    """`--context '{…}'`: a JSON object, checked against the graph's `context` schema."""
    if text is None:
        return None
    try:
        value = json.loads(text)
    except ValueError as exc:
        value, why = None, f" ({exc})"
    else:
        why = ""
    if not isinstance(value, dict):
        raise UsageError(
            f'--context takes a JSON object{why}, e.g. --context \'{{"user_id": "u1"}}\''
        )
    schema = next((s for s in program.schemas if s.name == graph.context), None)
    if schema is not None:
        problem = _problem(program, schema.json_schema, value)
        if problem is not None:
            raise UsageError(
                f"--context does not fit `{schema.name}`, the context of `{graph.name}`: "
                f"{problem}; its fields: {_fields(schema.json_schema)}"
            )
    return value


# ---------------------------------------------------------------- wording


def accepted(graph: ir.Graph) -> list[str]:
    return [c.name for c in graph.state if c.input]


def _nothing_given(graph: ir.Graph) -> dict[str, Any]:
    """A graph block starts from its channels' defaults; an agent needs a message."""
    if graph.agent is None:
        return {}
    raise UsageError(
        f"`{graph.name}` needs the user's message: --input TEXT, text piped to stdin, or "
        "its channels as --input '{\"messages\": …}' (--thread ID continues a saved run)"
    )


def _not_an_input(graph: ir.Graph, key: str, source: str, known: bool) -> str:
    from agentc.dsl.suggest import suggest

    names = accepted(graph)
    if known:
        head = f"{source} sets `{key}`, which `{graph.name}` does not take as input"
    else:
        near = suggest(key, names)
        guess = f" (did you mean `{near}`?)" if near else ""
        head = f"{source} sets `{key}`, but `{graph.name}` has no channel `{key}`{guess}"
    takes = ", ".join(f"`{n}`" for n in names) or "none"
    first = names[0] if names else "key"
    example = f"--set {first}=… or --input '{{\"{first}\": …}}'"
    return f"{head}; its input channels: {takes} (e.g. {example})"


def _not_an_object(graph: ir.Graph) -> str:
    names = ", ".join(accepted(graph)) or "none"
    first = next(iter(accepted(graph)), "key")
    return (
        f"`{graph.name}` has no `messages` channel, so its input is a JSON "
        f"object of its state channels ({names}), e.g. --input "
        f"'{{\"{first}\": …}}' or --set {first}=…"
    )


def _sample(schema: Mapping[str, Any]) -> str:
    """A value of the type as it is written after `--set key=` (shell-quoted where needed)."""
    options = schema.get("anyOf") or schema.get("oneOf")
    if options:
        return _sample(options[0])
    if "enum" in schema:
        return json.dumps(schema["enum"][0]) if schema["enum"] else "…"
    kind = schema.get("type")
    kind = kind[0] if isinstance(kind, list) and kind else kind
    samples = {"string": "text", "integer": "3", "number": "1.5", "boolean": "true"}
    return samples.get(str(kind), "'[…]'" if kind == "array" else "'{…}'")


def _fields(schema: Mapping[str, Any]) -> str:
    props = schema.get("properties") or {}
    required = set(schema.get("required") or ())
    return ", ".join(f"{k}{'' if k in required else '?'}" for k in props) or "none"
