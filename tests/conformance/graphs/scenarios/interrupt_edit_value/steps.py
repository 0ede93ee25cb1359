"""Human editing inside a node: the resume value replaces the draft."""

import dualside as ds


def draft(state):
    return {"draft": f"A post about {state['topic']}"}


def approve(state):
    edited = ds.interrupt({"instruction": "Review and edit this draft", "content": state["draft"]})
    return {"draft": edited, "approved": True}


def publish(state):
    return {"log": [f"published: {state['draft']}"]}
