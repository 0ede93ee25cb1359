"""Approve or reject: the reviewing node asks with interrupt() and steers with Command(goto)."""

import dualside as ds


def draft(state):
    return {"draft": f"A post about {state['topic']}", "log": ["draft"]}


def review(state):
    decision = ds.interrupt({"question": "Approve?", "draft": state["draft"]})
    if decision == "approve":
        return ds.Command(update={"log": ["approved"]}, goto="publish")
    return ds.Command(update={"log": ["rejected"]}, goto="revise")


def revise(state):
    return {"draft": state["draft"] + " (revised)", "log": ["revise"]}


def publish(state):
    return {"log": [f"published: {state['draft']}"]}
