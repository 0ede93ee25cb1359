"""Run one scenario in LangChain's create_agent (the oracle) and in agentc; normalise both.

A `Scenario` is data: scripted replies (agentc's reply shape), tool names from `toolkit.py`,
options (prompt, output, provider tools, limits, checkpointing, breakpoints) and the input.
`run_langchain` builds create_agent with a recording fake model; `run_agentc` writes the
same agent as an `.agent` file, compiles it with the real pipeline and runs it. Both return a
`Trace`: final messages, what each model call received, the structured answer, interrupts
and the exception type — ids normalised, so the two compare with `==`.
"""

from __future__ import annotations

import dataclasses
import json
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import toolkit

TOOLKIT = Path(toolkit.__file__).resolve()

# LangChain exception names → the agentc class that reports the same failure.
SAME_FAILURE = {
    "GraphRecursionError": "RecursionLimitError",
    "StructuredOutputValidationError": "StructuredOutputValidationError",
    "MultipleStructuredOutputsError": "MultipleStructuredOutputsError",
    "RuntimeError": "RuntimeError",
    "ToolException": "ToolException",
    "KeyError": "KeyError",
}


@dataclass(frozen=True)
class Output:
    schemas: tuple[str, ...]  # toolkit names (Answer, Other, TDAnswer, DCAnswer, RAW_SCHEMA)
    strategy: str = "tool"  # tool | provider | auto
    handle_errors: bool | str = True
    tool_message_content: str | None = None
    declared: bool = False  # agentc: written as `schema` blocks in the file, not kit.X


@dataclass(frozen=True)
class Scenario:
    name: str
    seats: tuple[str, ...]
    replies: tuple[Any, ...]
    tools: tuple[str, ...] = ()
    prompt: str | None = None
    output: Output | None = None
    provider_tools: tuple[dict[str, Any], ...] = ()
    inputs: tuple[Any, ...] = ([{"role": "user", "content": "hi"}],)  # one list per run
    extra_input: dict[str, Any] = field(default_factory=dict)
    steps: int | None = None
    checkpoint: bool = False
    store: bool = False  # I1: a long-term store (LangGraph's InMemoryStore / `store memory`)
    interrupt_before_tools: bool = False
    model_name: str | None = None
    profile: dict[str, Any] | None = None
    divergence: str | None = None  # why agentc differs by design (then `expect_agentc`)
    expect_agentc: dict[str, Any] | None = None


@dataclass
class Trace:
    messages: list[dict[str, Any]] = field(default_factory=list)
    calls: list[dict[str, Any]] = field(default_factory=list)
    structured: Any = None
    keys: list[str] = field(default_factory=list)
    interrupts: list[Any] = field(default_factory=list)
    error: str | None = None
    error_mro: tuple[str, ...] = ()  # agentc: the class names the error is an instance of
    stored: list[Any] = field(default_factory=list)  # I1: (namespace, key, value) after the run


def same_error(expected: Trace, got: Trace) -> bool:
    """The same failure: the same name, a mapped name, or a subclass of LangChain's builtin."""
    if expected.error is None or got.error is None:
        return expected.error == got.error
    return expected.error == got.error or expected.error in got.error_mro


# ---------------------------------------------------------------- normalisation


class Ids:
    """Maps each id seen to a stable token in order of first appearance."""

    def __init__(self) -> None:
        self.seen: dict[str, str] = {}

    def __call__(self, value: str | None) -> str | None:
        if value is None:
            return None
        return self.seen.setdefault(value, f"id{len(self.seen)}")


def norm_message(m: Any) -> dict[str, Any]:
    kind = m.type
    out: dict[str, Any] = {"type": kind, "content": m.content}
    if kind == "ai":
        out["tool_calls"] = [
            (
                c["name"] if isinstance(c, dict) else c.name,
                c["args"] if isinstance(c, dict) else c.args,
                c["id"] if isinstance(c, dict) else c.id,
            )
            for c in m.tool_calls
        ]
        out["invalid"] = [(c["id"] if isinstance(c, dict) else c.id) for c in m.invalid_tool_calls]
    if kind == "tool":
        out.update(tool_call_id=m.tool_call_id, status=m.status, name=m.name, artifact=m.artifact)
    return out


def dump_store(store: Any) -> list[Any]:
    """Every item of a long-term store (LangGraph's or agentc's), in the store's order."""
    if store is None:
        return []
    return [(list(i.namespace), i.key, i.value) for i in store.search((), limit=10_000)]


def norm_structured(value: Any) -> Any:
    if value is None:
        return None
    if hasattr(value, "model_dump"):
        return ("model", type(value).__name__, value.model_dump())
    if dataclasses.is_dataclass(value):
        return ("dataclass", type(value).__name__, dataclasses.asdict(value))
    return ("dict", value)


def clean(doc: str) -> str:
    """B11: the docstring dedented. Python 3.13 dedents `__doc__` itself (seed 002 ran on
    3.13); on older Pythons LangChain keeps the indentation, agentc dedents as the seat says."""
    import inspect

    return inspect.cleandoc(doc or "")


def norm_call(messages: list[Any], tools: list[str], choice: Any, fmt: Any) -> dict[str, Any]:
    return {
        "messages": [norm_message(m) for m in messages],
        "tools": tools,
        "tool_choice": choice,
        "response_format": fmt,
    }


# ---------------------------------------------------------------- replies


def lc_reply(raw: Any) -> Any:
    from langchain_core.messages import AIMessage

    if isinstance(raw, str):
        return AIMessage(content=raw)
    calls = [
        {"name": c["name"], "args": c.get("args", {}), "id": c.get("id"), "type": "tool_call"}
        for c in raw.get("tool_calls", [])
    ]
    invalid = [
        {
            "name": c.get("name"),
            "args": c.get("args"),
            "id": c.get("id"),
            "error": c.get("error"),
            "type": "invalid_tool_call",
        }
        for c in raw.get("invalid_tool_calls", [])
    ]
    return AIMessage(content=raw.get("content", ""), tool_calls=calls, invalid_tool_calls=invalid)


# ---------------------------------------------------------------- LangChain side


def lc_tools(names: tuple[str, ...]) -> list[Any]:
    from langchain_core.tools import StructuredTool
    from lc_toolkit import TWINS as twins

    from agentc.stdlib.tools import Tool

    out = []
    for name in names:
        if name in twins:
            out.append(twins[name])
            continue
        obj = getattr(toolkit, name)
        if isinstance(obj, Tool):
            obj = StructuredTool.from_function(
                func=obj.fn,
                name=obj.name,
                description=obj.description,
                return_direct=obj.return_direct,
                response_format=obj.response_format,
            )
        out.append(obj)
    return out


def lc_output(out: Output | None) -> Any:
    if out is None:
        return None
    from typing import Union

    from langchain.agents.structured_output import ProviderStrategy, ToolStrategy

    schemas = [getattr(toolkit, s) for s in out.schemas]
    schema = schemas[0] if len(schemas) == 1 else Union[tuple(schemas)]  # noqa: UP007 (a runtime union of classes)
    if out.strategy == "tool":
        return ToolStrategy(
            schema, handle_errors=out.handle_errors, tool_message_content=out.tool_message_content
        )
    if out.strategy == "provider":
        return ProviderStrategy(schema)
    return schema


def lc_model(sc: Scenario, calls: list[dict[str, Any]]) -> Any:
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel

    class Recording(GenericFakeChatModel):
        model_name: str = "fake"
        bound: list = []

        def bind_tools(self, tools, **kw):
            names = [t if isinstance(t, dict) else (t.name, clean(t.description)) for t in tools]
            fmt = kw.get("response_format", {}).get("json_schema", {}).get("name")
            self.bound.append((names, kw.get("tool_choice"), fmt))
            return self

        def _generate(self, messages, stop=None, run_manager=None, **kwargs):
            names, choice, fmt = self.bound[-1] if self.bound else ([], None, None)
            calls.append(norm_call(list(messages), names, choice, fmt))
            return super()._generate(messages, stop=stop, run_manager=run_manager, **kwargs)

    model = Recording(
        messages=iter([lc_reply(r) for r in sc.replies]),
        model_name=sc.model_name or "fake",
        bound=[],
    )
    if sc.profile:
        model.profile = sc.profile
    return model


def run_langchain(sc: Scenario) -> Trace:
    from langchain.agents import create_agent
    from langgraph.checkpoint.memory import InMemorySaver
    from langgraph.store.memory import InMemoryStore

    calls: list[dict[str, Any]] = []
    tools = lc_tools(sc.tools) + list(sc.provider_tools)
    store = InMemoryStore() if sc.store else None
    agent = create_agent(
        lc_model(sc, calls),
        tools=tools,
        system_prompt=sc.prompt,
        response_format=lc_output(sc.output),
        checkpointer=InMemorySaver() if sc.checkpoint else None,
        interrupt_before=["tools"] if sc.interrupt_before_tools else None,
        store=store,
    )
    config: dict[str, Any] = {"configurable": {"thread_id": "t1"}}
    if sc.steps is not None:
        config["recursion_limit"] = sc.steps
    trace = Trace(calls=calls)
    try:
        result = None
        for entry in sc.inputs:
            payload = None if entry is None else {"messages": list(entry), **sc.extra_input}
            result = agent.invoke(payload, config)
        fill(trace, result)
    except Exception as exc:  # the failure is part of the trace
        trace.error = SAME_FAILURE.get(type(exc).__name__, type(exc).__name__)
    trace.stored = dump_store(store)
    return finish(trace)


def fill(trace: Trace, result: dict[str, Any]) -> None:
    trace.keys = sorted(k for k in result if k != "__interrupt__")
    trace.messages = [norm_message(m) for m in result.get("messages", [])]
    trace.structured = norm_structured(result.get("structured_response"))
    trace.interrupts = [getattr(i, "value", i) for i in result.get("__interrupt__", [])]


def finish(trace: Trace) -> Trace:
    """Replace every id by its order of first appearance, across the whole trace."""
    ids = Ids()
    for m in trace.messages + [m for c in trace.calls for m in c["messages"]]:
        m.pop("id", None)
        if m["type"] == "ai":
            m["tool_calls"] = [(n, a, ids(i)) for n, a, i in m["tool_calls"]]
            m["invalid"] = [ids(i) for i in m["invalid"]]
        if m["type"] == "tool":
            m["tool_call_id"] = ids(m["tool_call_id"])
    return trace


# ---------------------------------------------------------------- agentc side


def lit(value: Any) -> str:
    """A value written in the `.agent` literal syntax."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(lit(v) for v in value) + "]"
    return "{ " + ", ".join(f"{json.dumps(str(k))}: {lit(v)}" for k, v in value.items()) + " }"


def agent_text(sc: Scenario) -> str:
    options: dict[str, Any] = {"replies": list(sc.replies)}
    if sc.model_name:
        options["name"] = sc.model_name
    if sc.profile:
        options["profile"] = sc.profile
    body = [f'  model "scripted" {lit(options)}']
    if sc.prompt is not None:
        body.append(f"  prompt {json.dumps(sc.prompt)}")
    tools = [f"kit.{t}" for t in sc.tools] + [lit(p) for p in sc.provider_tools]
    if tools:
        body.append(f"  tools [{', '.join(tools)}]")
    if sc.output is not None:
        body.append(output_text(sc.output))
    if sc.steps is not None:
        body.append(f"  limits {{ steps: {sc.steps} }}")
    if sc.interrupt_before_tools:
        body.append("  interrupt before tools")
    body.append("  checkpoint memory" if sc.checkpoint else "  checkpoint none")
    if sc.store:
        body.append("  store memory")
    schemas = declared_schemas(sc.output) if sc.output and sc.output.declared else ""
    return (
        f'agentc 1\nuse "./toolkit.py" as kit\n{schemas}\nagent conf {{\n'
        + "\n".join(body)
        + "\n}\n"
    )


def declared_schemas(out: Output) -> str:
    """The toolkit's pydantic models written as `schema` blocks (int/str fields)."""
    types = {int: "int", str: "str", float: "float", bool: "bool"}
    blocks = []
    for name in out.schemas:
        cls = getattr(toolkit, name)
        fields = "\n".join(
            f"  {f}: {types[info.annotation]}" for f, info in cls.model_fields.items()
        )
        blocks.append(f"schema {name} {json.dumps(cls.__doc__)} {{\n{fields}\n}}\n")
    return "\n" + "\n".join(blocks)


def output_text(out: Output) -> str:
    names = ", ".join(s if out.declared else f"kit.{s}" for s in out.schemas)
    names = f"[{names}]" if len(out.schemas) > 1 else names
    opts = {}
    if out.handle_errors is not True:
        opts["handle_errors"] = out.handle_errors
    if out.tool_message_content is not None:
        opts["tool_message_content"] = out.tool_message_content
    tail = f" {lit(opts)}" if opts else ""
    return f"  output {names} via {out.strategy}{tail}"


def run_agentc(sc: Scenario, tmp: Path) -> Trace:
    from agentc.api import load_agent
    from agentc.runtime.types import RunConfig
    from agentc.stdlib.providers import scripted

    path = tmp / f"{sc.name}.agent"
    path.write_text(agent_text(sc))
    shutil.copy(TOOLKIT, tmp / "toolkit.py")  # a used file stays inside the file's project
    scripted.CREATED.clear()
    config = RunConfig(thread_id="t1", recursion_limit=None)
    trace = Trace()
    graph = None
    try:
        graph = load_agent(path)
        result = None
        for entry in sc.inputs:
            payload = None if entry is None else {"messages": list(entry), **sc.extra_input}
            result = graph.invoke(payload, config)
        fill(trace, dict(result))
    except Exception as exc:
        trace.error = type(exc).__name__
        trace.error_mro = tuple(c.__name__ for c in type(exc).__mro__)
    trace.stored = dump_store(getattr(graph, "store", None))
    trace.calls = [
        norm_call(
            list(r.messages),
            [(t.name, clean(t.description)) for t in r.tools] + list(r.provider_tools),
            r.tool_choice,
            r.response_format.name if r.response_format else None,
        )
        for m in scripted.CREATED
        for r in m.calls
    ]
    return finish(trace)
