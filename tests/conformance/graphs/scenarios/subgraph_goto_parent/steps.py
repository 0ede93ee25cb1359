"""A node inside a subgraph steers its parent: Command(graph=PARENT, goto=..., update=...)."""

import dualside as ds


def inner(state):
    return ds.parent_command(goto="escalate", update={"log": ["inner asks to escalate"]})


def escalate(state):
    return {"log": ["escalated"]}


def normal(state):
    return {"log": ["normal"]}
