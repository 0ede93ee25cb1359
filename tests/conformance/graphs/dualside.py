"""What a scenario's `steps.py` imports instead of LangGraph or agentc: one name per helper
(`Command`, `Send`, `interrupt`, `writer`, `store`, `model`), answered by the side the
harness is running now, and `Counts` for a steps.py's `probe()`.

Nodes and routers are written once and run on both sides; the harness calls `use(side, …)`
before each side's run, and `model(name)` hands out that run's chat model for
`replies/NAME.json` (a recording fake on LangGraph's side, `agentc.models.init_chat_model`
over the scripted provider on agentc's), made once per run so replies are consumed in order.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

SIDE = "langgraph"
_DIR: Path | None = None
_MODELS: dict[str, Any] = {}
_MAKE: Callable[[str], Any] | None = None
# public helpers `agentc` did not export (`from agentc import interrupt` failed): the call
# then goes to `agentc.runtime.context`, and the harness reports the missing name
MISSING: set[str] = set()


def use(side: str, scenario_dir: Path, make_model: Callable[[str], Any] | None = None) -> None:
    """Switch every helper to `side` for the next run; forget the last run's models."""
    global SIDE, _DIR, _MAKE
    SIDE, _DIR, _MAKE = side, scenario_dir, make_model
    _MODELS.clear()
    MISSING.clear()


def _agentc(name: str) -> Any:
    """`agentc.NAME` (the public helper GRAPH_SPEC names), else the runtime's own."""
    import agentc

    try:
        return getattr(agentc, name)
    except AttributeError:
        MISSING.add(f"agentc.{name}")
        import agentc.runtime.context as rc

        return getattr(rc, name)


def lg() -> bool:
    return SIDE == "langgraph"


def Command(**kw: Any) -> Any:  # noqa: N802 (named as the class it builds)
    if lg():
        from langgraph.types import Command as C
    else:
        from agentc.runtime.types import Command as C
    return C(**kw)


def Send(node: str, arg: Any) -> Any:  # noqa: N802
    if lg():
        from langgraph.types import Send as S
    else:
        from agentc.runtime.types import Send as S
    return S(node, arg)


END = "__end__"


def parent_command(**kw: Any) -> Any:
    """Command(graph=PARENT, ...): steer the graph that runs this one as a node."""
    if lg():
        from langgraph.types import Command as C

        return C(graph=C.PARENT, **kw)
    from agentc.runtime.types import Command as AC
    from agentc.runtime.types import CommandGraph

    return AC(graph=CommandGraph.PARENT, **kw)


def interrupt(value: Any) -> Any:
    if lg():
        from langgraph.types import interrupt as i
    else:
        i = _agentc("interrupt")
    return i(value)


def writer() -> Callable[[Any], None]:
    if lg():
        from langgraph.config import get_stream_writer
    else:
        get_stream_writer = _agentc("get_stream_writer")
    return get_stream_writer()


def store() -> Any:
    if lg():
        from langgraph.config import get_store
    else:
        get_store = _agentc("get_store")
    return get_store()


def context(runtime: Any) -> Any:
    """The run context a node was handed (LangGraph's Runtime, agentc's ctx): both `.context`."""
    return runtime.context


def model(name: str) -> Any:
    """This run's chat model for `replies/NAME.json`."""
    if name not in _MODELS:
        if lg():
            assert _MAKE is not None, "the harness gives LangGraph's side a model maker"
            _MODELS[name] = _MAKE(name)
        else:
            from agentc.models import init_chat_model  # type: ignore[import-not-found]

            assert _DIR is not None
            _MODELS[name] = init_chat_model(f"scripted:{_DIR / 'replies' / (name + '.json')}")
    return _MODELS[name]


_KINDS = {
    "system": "SystemMessage",
    "human": "HumanMessage",
    "ai": "AIMessage",
    "tool": "ToolMessage",
}


def remove(message_id: str) -> Any:
    """RemoveMessage(id=…): the messages reducer deletes that message."""
    if lg():
        from langchain_core.messages import RemoveMessage
    else:
        from agentc.stdlib.messages import RemoveMessage  # type: ignore[no-redef]
    return RemoveMessage(id=message_id)


def message(kind: str, content: Any = "", **fields: Any) -> Any:
    """A message of this side's classes (`system`, `human`, `ai`, `tool`); the fields are
    named alike on both sides (content, tool_calls, tool_call_id, name, status)."""
    if lg():
        import langchain_core.messages as m
    else:
        import agentc.stdlib.messages as m  # type: ignore[no-redef]
    return getattr(m, _KINDS[kind])(content=content, **fields)


def get(obj: Any, key: str) -> Any:
    """A tool call's field: LangChain's calls are dicts, agentc's are objects."""
    return obj[key] if isinstance(obj, dict) else getattr(obj, key)


class Counts(dict[str, int]):
    """How often each named step ran, for a steps.py's `probe()`: `COUNTS = Counts("a")`,
    then `reset, probe = COUNTS.reset, COUNTS.probe` (the harness zeroes it before each run
    and compares what both sides counted)."""

    def __init__(self, *names: str) -> None:
        super().__init__(dict.fromkeys(names, 0))

    def reset(self) -> None:
        for name in self:
            self[name] = 0

    def probe(self) -> dict[str, int]:
        return dict(self)
