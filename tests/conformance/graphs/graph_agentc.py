"""agentc's side of a scenario: `graph.agent` through the real pipeline
(`agentc.api.load_agent`), the scripted provider for every model (what each call received is
read from `scripted.CREATED`), each op run on thread `t1`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import dualside
from graph_scenario import (
    Scenario,
    Steps,
    Trace,
    answers_by_id,
    dump_store,
    error_of,
    load_steps,
    norm,
    norm_call,
    norm_snapshot,
    reset_steps,
)


def ac_config(op: dict[str, Any], checkpoint_id: str | None = None) -> Any:
    from agentc.runtime.types import RunConfig

    kw: dict[str, Any] = {"thread_id": "t1", "checkpoint_id": checkpoint_id}
    if "recursion_limit" in op:
        kw["recursion_limit"] = op["recursion_limit"]
    if op.get("context") is not None:
        kw["context"] = op["context"]
    return RunConfig(**kw)


def ac_input(op: dict[str, Any], graph: Any = None) -> Any:
    from agentc.runtime.types import Command

    if "resume" in op:
        return Command(resume=op["resume"])
    if "resume_by" in op:
        pending = graph.get_state(ac_config(op)).interrupts
        return Command(resume=answers_by_id(pending, op["resume_by"]))
    return op.get("input")


def ac_stream(graph: Any, value: Any, config: Any, rec: dict) -> None:
    steps = Steps()
    try:
        for ev in graph.stream(value, config, mode=["updates", "values", "custom"]):
            kind = type(ev).__name__
            if kind == "CustomEvent":
                steps.custom(ev.payload)
            elif kind == "InterruptEvent":
                steps.interrupts(list(ev.interrupts))
            elif kind == "ValuesEvent":
                steps.values(ev.values)
            elif kind == "UpdatesEvent":
                meta = {"cached": True} if getattr(ev, "cached", False) else None
                steps.update(ev.node, ev.update, meta)
    except Exception as exc:
        rec.update(error_of(exc, mapped=False))
    rec["steps"] = steps.done()


def ac_select(graph: Any, at: dict[str, Any]) -> Any:
    for snap in graph.get_state_history(ac_config({})):
        if sorted(snap.next) == sorted(at["next"]):
            return snap.config
    raise LookupError(f"no checkpoint with next={at['next']}")


def ac_op(graph: Any, op: dict[str, Any]) -> dict[str, Any]:
    from dataclasses import replace

    kind = op["op"]
    rec: dict[str, Any] = {"op": kind}
    if kind == "stream":
        ac_stream(graph, ac_input(op, graph), ac_config(op), rec)
    elif kind == "invoke":
        try:
            rec["result"] = norm(dict(graph.invoke(ac_input(op, graph), ac_config(op))))
        except Exception as exc:
            rec.update(error_of(exc, mapped=False))
    elif kind == "state":
        snap = graph.get_state(ac_config(op))
        rec["state"] = norm_snapshot(snap, snap.step, snap.source.value)
    elif kind == "history":
        rec["history"] = [
            norm_snapshot(s, s.step, s.source.value) for s in graph.get_state_history(ac_config(op))
        ]
    elif kind == "replay":
        conf = ac_select(graph, op["at"])
        ac_stream(graph, None, replace(ac_config(op), checkpoint_id=conf.checkpoint_id), rec)
    elif kind in ("fork", "update_state"):
        conf = ac_select(graph, op["at"]) if "at" in op else ac_config(op)
        conf = graph.update_state(conf, op.get("values"), as_node=op.get("as_node"))
        if kind == "fork":
            ac_stream(graph, None, replace(ac_config(op), checkpoint_id=conf.checkpoint_id), rec)
    return rec


def run_agentc(sc: Scenario) -> Trace:
    from agentc.api import load_agent
    from agentc.stdlib.providers import scripted

    trace = Trace()
    dualside.use("agentc", sc.dir)
    if (sc.dir / "steps.py").exists():
        reset_steps(sc.dir / "steps.py")
    scripted.CREATED.clear()
    try:
        graph = load_agent(sc.dir / "graph.agent", sc.graph)
    except Exception as exc:  # a file that does not compile or bind fails every op
        trace.ops = [{"op": op["op"], **error_of(exc, mapped=False)} for op in sc.runs]
        return trace
    trace.ops = [ac_op(graph, op) for op in sc.runs]
    trace.stored = dump_store(getattr(graph, "store", None))
    steps = load_steps(sc.dir / "steps.py")
    probe = getattr(steps, "probe", None)
    trace.probe = probe() if probe is not None else None
    trace.missing = sorted(dualside.MISSING)
    seen: set[int] = set()
    for m in scripted.CREATED:
        if id(m) in seen:
            continue
        seen.add(id(m))
        name = Path(str(m.name)).stem
        trace.calls.setdefault(name, []).extend(
            norm_call(list(r.messages), [[t.name, t.description] for t in r.tools], r.tool_choice)
            for r in m.calls
        )
    return trace
