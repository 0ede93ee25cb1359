"""Command(update=..., goto=...) from a node with declared targets (LangGraph's
`destinations`, agentc's `{ goto: [...] }`)."""

import dualside as ds


def decide(state):
    target = "big" if state["n"] > 10 else "small"
    return ds.Command(update={"log": [f"decide -> {target}"]}, goto=target)


def big(state):
    return {"log": ["big"]}


def small(state):
    return {"log": ["small"]}
