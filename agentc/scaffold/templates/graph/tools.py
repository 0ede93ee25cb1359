"""The Python nodes of {{name}}.agent: each takes the state and returns the channels it
writes."""


def check_draft(state):
    """Approve a draft of at least five words."""
    return {"approved": len(state["draft"].split()) >= 5}
