"""LangGraph's side of a scenario: the oracle's `build(kit)` with recording fake chat models
(GenericFakeChatModel; bind_tools records the tools and returns the model), each op run on
thread `t1`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import dualside
from graph_scenario import (
    Scenario,
    Steps,
    Trace,
    answers_by_id,
    canon,
    dump_store,
    error_of,
    load_module,
    load_steps,
    norm,
    norm_call,
    norm_snapshot,
    replies,
    reset_steps,
)

__all__ = ["Kit", "run_langgraph"]


def lc_reply(raw: Any) -> Any:
    from langchain_core.messages import AIMessage

    if isinstance(raw, str):
        return AIMessage(content=raw)
    calls = [
        {"name": c["name"], "args": c.get("args", {}), "id": c.get("id"), "type": "tool_call"}
        for c in raw.get("tool_calls", [])
    ]
    return AIMessage(content=raw.get("content", ""), tool_calls=calls)


def tool_info(t: Any) -> list[Any]:
    from langchain_core.utils.function_calling import convert_to_openai_tool

    if isinstance(t, dict) and "function" not in t and "name" not in t:
        return [canon(t), ""]
    fn = convert_to_openai_tool(t)["function"]
    return [fn["name"], fn.get("description", "")]


def recording_model(sc: Scenario, name: str, log: dict[str, list[Any]]) -> Any:
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel

    class Recording(GenericFakeChatModel):
        key: str = ""
        bound: tuple = ((), None)

        def bind_tools(self, tools, *, tool_choice=None, **kw):
            return self.model_copy(update={"bound": ([tool_info(t) for t in tools], tool_choice)})

        def _generate(self, messages, stop=None, run_manager=None, **kwargs):
            tools, choice = self.bound
            log[self.key].append(norm_call(list(messages), list(tools), choice))
            return super()._generate(messages, stop=stop, run_manager=run_manager, **kwargs)

    log.setdefault(name, [])
    return Recording(messages=iter([lc_reply(r) for r in replies(sc, name)]), key=name)


@dataclass
class Kit:
    """What an oracle's `build(kit)` uses."""

    steps: Any
    checkpointer: Any
    store: Any

    @staticmethod
    def model(name: str) -> Any:
        return dualside.model(name)

    def tool_loop(self, tools: list[Any], system: str | None = None) -> Any:
        """The workflows guide's agent, uncompiled: `llm_call` (the model `llm` with `tools`
        bound, after the `system` prompt if any) and a ToolNode `tools`, looping until the
        model calls no tool. Several scenarios test that loop; only their tools differ."""
        from langchain_core.messages import SystemMessage
        from langgraph.graph import END, START, MessagesState, StateGraph
        from langgraph.prebuilt import ToolNode, tools_condition

        prompt = [SystemMessage(content=system)] if system else []

        def llm_call(state: Any) -> dict[str, Any]:
            model = self.model("llm").bind_tools(tools)
            return {"messages": [model.invoke([*prompt, *state["messages"]])]}

        g = StateGraph(MessagesState)
        g.add_node("llm_call", llm_call)
        g.add_node("tools", ToolNode(tools))
        g.add_edge(START, "llm_call")
        g.add_conditional_edges("llm_call", tools_condition, {"tools": "tools", END: END})
        g.add_edge("tools", "llm_call")
        return g


def lg_config(op: dict[str, Any], checkpoint_id: str | None = None) -> dict[str, Any]:
    conf: dict[str, Any] = {"configurable": {"thread_id": "t1"}}
    if checkpoint_id:
        conf["configurable"]["checkpoint_id"] = checkpoint_id
    if "recursion_limit" in op:
        conf["recursion_limit"] = op["recursion_limit"]
    return conf


def lg_input(op: dict[str, Any], graph: Any = None) -> Any:
    from langgraph.types import Command

    if "resume" in op:
        return Command(resume=op["resume"])
    if "resume_by" in op:  # answer each pending interrupt by its id, matched on its value
        pending = graph.get_state(lg_config(op)).interrupts
        return Command(resume=answers_by_id(pending, op["resume_by"]))
    return op.get("input")


def lg_select(graph: Any, at: dict[str, Any]) -> Any:
    for snap in graph.get_state_history(lg_config({})):
        if sorted(snap.next) == sorted(at["next"]):
            return snap.config
    raise LookupError(f"no checkpoint with next={at['next']}")


def lg_stream(graph: Any, value: Any, config: Any, op: dict[str, Any], rec: dict) -> None:
    steps = Steps()
    try:
        for mode, chunk in graph.stream(
            value,
            config,
            context=op.get("context"),
            stream_mode=["updates", "values", "custom"],
        ):
            if mode == "custom":
                steps.custom(chunk)
            elif "__interrupt__" in chunk:
                if mode == "updates":
                    steps.interrupts(list(chunk["__interrupt__"]))
            elif mode == "values":
                steps.values(chunk)
            else:
                meta = chunk.get("__metadata__")
                for node, update in chunk.items():
                    if node != "__metadata__":
                        steps.update(node, update, meta)
    except Exception as exc:  # the failure is part of the trace
        rec.update(error_of(exc, mapped=True))
    rec["steps"] = steps.done()


def lg_op(graph: Any, op: dict[str, Any]) -> dict[str, Any]:
    kind = op["op"]
    rec: dict[str, Any] = {"op": kind}
    if kind == "stream":
        lg_stream(graph, lg_input(op, graph), lg_config(op), op, rec)
    elif kind == "invoke":
        try:
            out = graph.invoke(lg_input(op, graph), lg_config(op), context=op.get("context"))
            rec["result"] = norm(dict(out))
        except Exception as exc:
            rec.update(error_of(exc, mapped=True))
    elif kind == "state":
        snap = graph.get_state(lg_config(op))
        rec["state"] = norm_snapshot(snap, snap.metadata.get("step"), snap.metadata.get("source"))
    elif kind == "history":
        rec["history"] = [
            norm_snapshot(s, s.metadata.get("step"), s.metadata.get("source"))
            for s in graph.get_state_history(lg_config(op))
        ]
    elif kind == "replay":
        conf = lg_select(graph, op["at"])
        lg_stream(graph, None, {**conf, **_limit(op)}, op, rec)
    elif kind in ("fork", "update_state"):
        conf = lg_select(graph, op["at"]) if "at" in op else lg_config(op)
        conf = graph.update_state(conf, op.get("values"), as_node=op.get("as_node"))
        if kind == "fork":
            lg_stream(graph, None, {**conf, **_limit(op)}, op, rec)
    return rec


def _limit(op: dict[str, Any]) -> dict[str, Any]:
    return {"recursion_limit": op["recursion_limit"]} if "recursion_limit" in op else {}


def run_langgraph(sc: Scenario) -> Trace:
    from langgraph.checkpoint.memory import InMemorySaver
    from langgraph.store.memory import InMemoryStore

    trace = Trace()
    dualside.use("langgraph", sc.dir, lambda name: recording_model(sc, name, trace.calls))
    steps = load_steps(sc.dir / "steps.py")
    if steps is not None:
        reset_steps(sc.dir / "steps.py")
    oracle = load_module(sc.dir / "oracle.py", f"graph_oracle_{sc.name}")
    store = InMemoryStore() if sc.data.get("store") else None
    saver = InMemorySaver() if sc.data.get("checkpoint") else None
    graph = oracle.build(Kit(steps, saver, store), **sc.oracle_kwargs)
    trace.ops = [lg_op(graph, op) for op in sc.runs]
    trace.stored = dump_store(store)
    probe = getattr(steps, "probe", None)
    trace.probe = probe() if probe is not None else None
    return trace
