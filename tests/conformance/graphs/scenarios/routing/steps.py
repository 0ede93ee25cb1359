"""The workflows guide's routing: a structured-output call picks the next model call."""

import dualside as ds


def route_decision(state):
    """Return the node name you want to visit next."""
    step = ds.get(state["decision"], "step")
    if step == "story":
        return "llm_call_1"
    if step == "joke":
        return "llm_call_2"
    return "llm_call_3"
