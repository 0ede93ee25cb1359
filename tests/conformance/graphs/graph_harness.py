"""Run one graph scenario in LangGraph (the oracle) and in agentc; normalise both.

A scenario is a folder of `scenarios/`: `scenario.json` (what to run: a list of operations
on one thread, the options both sides share), `oracle.py` (`build(kit)` → LangGraph's
compiled StateGraph), `graph.agent` (agentc's twin, compiled by the real pipeline),
`steps.py` (the Python nodes and routers both sides run, through `dualside`) and
`replies/NAME.json` (one chat model's scripted replies: agentc's `scripted:` file; the
oracle's fake model replays the same list). `"files_from": OTHER` takes the files a folder
lacks from OTHER's folder, `"oracle_kwargs"` are passed to `build(kit, …)` (README).

Operations (`runs`): `{"op": "stream", "input": {...}}` (or `"resume": X` for
Command(resume=X), `"resume_by": [[interrupt value, answer], …]` for Command(resume={id:
answer}) over the pending interrupts, `"input": null` to continue), `{"op": "invoke", ...}`
(the same, but the result of invoke is recorded), `{"op": "state"}`, `{"op": "history"}`,
`{"op": "update_state", "values": {...}, "as_node": "x", "at": SELECT}`, `{"op": "replay",
"at": SELECT}` and `{"op": "fork", "at": SELECT, "values": {...}, "as_node": "x"}` (update
that checkpoint, then continue from the fork); SELECT picks the newest checkpoint of the
history whose `next` is the given list (`{"next": ["b"]}`). Every op may give `context` and
`recursion_limit`.

Both sides return a `Trace`: per op, the stream cut into supersteps (each step's updates as a
multiset, its custom events in order, the values after it), the invoke result, the
interrupts' values, the snapshots, the error (name, mapped); per chat model, what each call
received (messages by role, content, tool calls; tools offered; tool choice); and the store.
Message and interrupt ids are dropped; tool-call ids are scripted, so they are equal.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from graph_agentc import run_agentc  # noqa: E402
from graph_langgraph import run_langgraph  # noqa: E402
from graph_scenario import Scenario, Trace, compare, discover  # noqa: E402

__all__ = ["Scenario", "Trace", "compare", "discover", "run_agentc", "run_langgraph"]

if __name__ == "__main__":  # python graph_harness.py [lg|ac|both] [NAME…]: print traces
    import pprint

    side, names = (sys.argv[1] if len(sys.argv) > 1 else "both"), set(sys.argv[2:])
    for sc in discover():
        if names and sc.name not in names:
            continue
        print("=" * 20, sc.name)
        if side in ("lg", "both"):
            try:
                pprint.pprint(vars(run_langgraph(sc)), width=110)
            except Exception as exc:
                import traceback

                traceback.print_exc()
                print("LANGGRAPH SIDE BROKEN", exc)
        if side == "ac":
            pprint.pprint(vars(run_agentc(sc)), width=110)
        if side == "both":
            lg_trace, ac_trace = run_langgraph(sc), run_agentc(sc)
            print("\n".join(compare(sc, lg_trace, ac_trace)) or "MATCH")
