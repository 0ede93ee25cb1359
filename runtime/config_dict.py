"""LangGraph's call shapes read as agentc's: a config dict as a `RunConfig`, a context
object as the mapping a `context` schema checks, and a LangGraph saver, store or input
`Command` refused with agentc's own names.

Input: what a caller passed as `config` (a `RunConfig`, LangChain's `RunnableConfig` dict,
or None), as `context`, as `checkpointer` / `store`. Output: a `RunConfig` (or None), a
mapping, or an `InvalidConfigError` / `ForeignObjectError` saying what to use instead.

The dict is read as LangChain's `ensure_config` reads it: `configurable` holds the thread
(`thread_id`, `checkpoint_id`, `checkpoint_ns`) and the caller's own values (e.g. a per-run
`model`, A4), which stay in `RunConfig.configurable`; a top-level key LangChain does not
know goes into `configurable`, as there, unless it is one letter or two away from a key it
does know (`recursion_limt`: refused, naming the key it resembles) or is one of the call's
own keywords (`context`, `durability`, …: refused, saying to pass it to the call). Keys set to
None count as absent, as there. `run_name` and `run_id` only name LangSmith traces, which
agentc does not write, so they are dropped; `callbacks` and `max_concurrency` change what a
run does in LangGraph and agentc has no such setting, so they are refused.
"""

from __future__ import annotations

import dataclasses
import uuid
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel

from agentc.runtime.errors import ForeignObjectError, InvalidConfigError
from agentc.runtime.types import RunConfig, StreamMode

ConfigArg = RunConfig | Mapping[str, Any] | None
_KNOWN = (
    "configurable",
    "recursion_limit",
    "tags",
    "metadata",
    "run_name",
    "run_id",
    "callbacks",
    "max_concurrency",
)
_REFUSED = {
    "callbacks": "agentc does not call LangChain callbacks; read each model and tool call "
    'with stream(…, mode="events") instead',
    "max_concurrency": "agentc runs every task of a step at once and has no per-run "
    "concurrency limit; a graph that must run fewer at once says so with its edges",
}
# the call's own keywords (LangGraph's too), which a config dict would hide in `configurable`
_KEYWORDS = frozenset(
    {"context", "durability", "interrupt_before", "interrupt_after", "stream_mode", "subgraphs"}
)
_ACCEPTED = (
    "configurable (thread_id, checkpoint_id, your own values), recursion_limit, tags, metadata"
)


def run_config(config: ConfigArg) -> RunConfig | None:
    """`config` as a `RunConfig`: itself, or LangGraph's dict read as described above."""
    if config is None or isinstance(config, RunConfig):
        return config
    if not isinstance(config, Mapping):
        raise InvalidConfigError(
            f"the config must be a RunConfig or a LangGraph config dict, not a "
            f"{type(config).__name__}",
            help='pass RunConfig(thread_id="1") or {"configurable": {"thread_id": "1"}}',
        )
    given = {k: v for k, v in config.items() if v is not None}
    configurable = dict(_mapping(given.pop("configurable", {}), "configurable"))
    for key in [k for k in given if k not in _KNOWN]:
        _check_not_typo(key)
        if key in _KEYWORDS:
            raise InvalidConfigError(
                f"`{key}` is a keyword of invoke() and stream(), not a config key",
                help=f"pass {key}=… to the call itself",
            )
        configurable[key] = given.pop(key)  # as LangChain's ensure_config (this one wins)
    for key, why in _REFUSED.items():
        if key in given:
            raise InvalidConfigError(f"the config key `{key}` is not supported: {why}")
    thread = _thread(configurable)
    return RunConfig(
        thread_id=thread[0],
        checkpoint_id=thread[1],
        recursion_limit=given.get("recursion_limit"),
        configurable=configurable,
        tags=_tags(given.get("tags", ())),
        metadata=dict(_mapping(given.get("metadata", {}), "metadata")),
    )


def _check_not_typo(key: str) -> None:
    import difflib  # only for an unknown key: kept off every run's start-up

    near = difflib.get_close_matches(key, _KNOWN, n=1, cutoff=0.8)
    if near:
        raise InvalidConfigError(
            f"the config key `{key}` is unknown; did you mean `{near[0]}`?",
            help=f"a config dict takes {_ACCEPTED}",
        )


def _thread(configurable: dict[str, Any]) -> tuple[str | None, str | None]:
    """The thread and checkpoint the dict names, taken out of the caller's own values."""
    thread_id = _id(configurable.pop("thread_id", None), "thread_id")
    checkpoint_id = _id(configurable.pop("checkpoint_id", None), "checkpoint_id")
    ns = configurable.pop("checkpoint_ns", None)
    if ns not in (None, ""):
        raise InvalidConfigError(
            f'the config\'s checkpoint_ns is "{ns}": agentc addresses the checkpoints of '
            "the graph it runs only (a subgraph's are saved under it, not run by name)",
            help='leave checkpoint_ns out, or "" as get_state() gives it',
        )
    return thread_id, checkpoint_id


def _id(value: Any, key: str) -> str | None:
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, (int, uuid.UUID)) and not isinstance(value, bool):
        return str(value)  # LangGraph's savers key threads by the value's text too
    raise InvalidConfigError(
        f"the config's {key} must be text, not a {type(value).__name__}",
        help=f'pass {{"configurable": {{"{key}": "1"}}}}',
    )


def _mapping(value: Any, key: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise InvalidConfigError(
            f"the config's `{key}` must be a dict, not a {type(value).__name__}",
            help=f"a config dict takes {_ACCEPTED}",
        )
    return value


def _tags(value: Any) -> tuple[str, ...]:
    if isinstance(value, (list, tuple)) and all(isinstance(t, str) for t in value):
        return tuple(value)
    raise InvalidConfigError(
        f"the config's `tags` must be a list of strings, not {value!r}",
        help='pass e.g. {"tags": ["nightly"]}',
    )


def with_context(config: RunConfig | None, context: object) -> RunConfig | None:
    """`invoke(…, context=…)` is `RunConfig(context=…)` (the keyword wins)."""
    if context is None:
        return config
    return dataclasses.replace(config or RunConfig(), context=context_mapping(context))


def invoke_config(config: ConfigArg, stream_mode: object) -> RunConfig | None:
    """`invoke`'s config; its `stream_mode` may only be "values", what invoke returns."""
    if stream_mode not in (None, StreamMode.VALUES.value, StreamMode.VALUES):
        raise InvalidConfigError(
            'invoke() returns the final state, as stream_mode="values" does; '
            f"stream_mode={stream_mode!r} gives chunks",
            help=f"use list(graph.stream(input, config, stream_mode={stream_mode!r}))",
        )
    return run_config(config)


def saved_config(config: ConfigArg) -> RunConfig:
    """The config of a saved-state call (no thread: the call says what is missing)."""
    return run_config(config) or RunConfig()


def context_mapping(context: Any) -> Any:
    """A LangGraph-style context object (a dataclass or pydantic instance, as LangGraph
    1.x's `context_schema` takes) as the mapping of its fields a `context` schema checks;
    anything else as it is."""
    if dataclasses.is_dataclass(context) and not isinstance(context, type):
        return {f.name: getattr(context, f.name) for f in dataclasses.fields(context)}
    if isinstance(context, BaseModel):
        return context.model_dump()
    return context


def own_checkpointer(saver: object) -> None:
    """Refuse a LangGraph checkpointer (`InMemorySaver`, `SqliteSaver`, …): agentc saves
    through its own, which its run loop and resume depend on."""
    if _from(saver, "langgraph.checkpoint"):
        raise ForeignObjectError(
            f"checkpointer={type(saver).__name__}() is LangGraph's; agentc has its own "
            "checkpointers",
            help='write `checkpoint memory` or `checkpoint sqlite("state.db")` in the file, '
            "or pass checkpointer=agentc.MemoryCheckpointer() / "
            'agentc.SqliteCheckpointer("state.db")',
        )


def own_store(store: object) -> None:
    """Refuse a LangGraph long-term store (I1): agentc's tools read their own."""
    if _from(store, "langgraph.store"):
        raise ForeignObjectError(
            f"store={type(store).__name__}() is LangGraph's; agentc has its own long-term stores",
            help='write `store memory` or `store sqlite("store.db")` in the file, or pass '
            "store=agentc.InMemoryStore()",
        )


def own_input(value: object) -> None:
    """Refuse LangGraph's `Command` given as a run's input: agentc reads its own."""
    if _from(value, "langgraph"):
        name = type(value).__name__
        raise ForeignObjectError(
            f"the input is LangGraph's {name}; agentc reads its own",
            help=f"use agentc.{name}(…) (same fields: resume, update, goto)"
            if name == "Command"
            else "pass a dict of input channels, None, or agentc.Command(resume=…)",
        )


def _from(obj: object, package: str) -> bool:
    """Whether `obj`'s class, or one it derives from, is defined in `package`."""
    return any(
        (c.__module__ or "").startswith(package + ".") or c.__module__ == package
        for c in type(obj).__mro__
    )
