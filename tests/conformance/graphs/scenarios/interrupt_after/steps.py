"""A breakpoint after `draft`: the run pauses once draft has run; None continues it."""


def draft(state):
    return {"draft": f"A post about {state['topic']}"}


def approve(state):
    return {"approved": True}


def publish(state):
    return {"log": [f"published: {state['draft']}"]}
