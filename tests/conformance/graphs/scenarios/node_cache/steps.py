"""A cached node: the same input is answered from the cache (the node does not run again)."""

CALLS = {"expensive": 0}


def reset():
    CALLS["expensive"] = 0


def probe():
    return dict(CALLS)


def expensive(state):
    CALLS["expensive"] += 1
    return {"result": state["x"] * 2}
