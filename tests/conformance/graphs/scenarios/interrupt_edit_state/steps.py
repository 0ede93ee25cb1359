"""A breakpoint before `publish`; the caller edits the state (update_state), then continues."""


def draft(state):
    return {"draft": f"A post about {state['topic']}"}


def approve(state):
    return {"approved": True}


def publish(state):
    return {"log": [f"published: {state['draft']}"]}
