"""Nodes of the review_loop example: each takes the state and returns the channels it writes."""


def write_draft(state):
    """Write (or rewrite) the draft; each attempt is a little longer."""
    attempt = state["attempts"] + 1
    draft = f"{state['topic']}: " + "details " * attempt
    return {"draft": draft.strip(), "attempts": attempt, "log": [f"wrote draft {attempt}"]}


def check_draft(state):
    """Approve a draft once it has at least two words of detail."""
    approved = state["draft"].count("details") >= 2
    return {"approved": approved, "log": ["approved" if approved else "sent back"]}


def publish(state):
    """Publish the approved draft."""
    return {"log": [f"published: {state['draft']}"]}
