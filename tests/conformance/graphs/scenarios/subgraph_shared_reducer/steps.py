"""A subgraph sharing an appended list with its parent: the child's whole list comes back
as its update, and the parent's reducer appends it again (LangGraph's behaviour)."""


def prepare(state):
    return {"log": ["prepare"]}


def inner(state):
    return {"log": ["inner"]}


def after(state):
    return {"log": [f"after ({len(state['log'])} entries)"]}
