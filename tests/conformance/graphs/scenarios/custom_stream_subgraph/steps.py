"""Custom events written inside a subgraph's node reach the parent's `custom` stream."""

import dualside as ds


def inner(state):
    ds.writer()({"from": "inner", "n": len(state["log"])})
    return {"log": ["inner"]}


def outer(state):
    ds.writer()({"from": "outer"})
    return {"log": ["outer"]}
