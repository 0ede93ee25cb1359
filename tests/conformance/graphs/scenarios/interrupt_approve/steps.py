"""Human approval inside a node: interrupt() pauses the run; Command(resume=...) answers."""

import dualside as ds


def draft(state):
    return {"draft": f"A post about {state['topic']}"}


def approve(state):
    answer = ds.interrupt({"question": "Publish this draft?", "draft": state["draft"]})
    return {"approved": answer}


def publish(state):
    return {"log": ["published" if state["approved"] else "discarded"]}
