"""A cached node: the same input is answered from the cache (the node does not run again)."""

import dualside as ds

CALLS = ds.Counts("expensive")
reset, probe = CALLS.reset, CALLS.probe


def expensive(state):
    CALLS["expensive"] += 1
    return {"result": state["x"] * 2}
