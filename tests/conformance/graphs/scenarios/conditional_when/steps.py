"""A review loop with conditions on state: retry the draft until it is approved."""


def write(state):
    attempts = state["attempts"] + 1
    return {"draft": "details " * attempts, "attempts": attempts, "log": [f"wrote {attempts}"]}


def check(state):
    approved = state["draft"].count("details") >= 2
    return {"approved": approved, "log": ["approved" if approved else "sent back"]}


def publish(state):
    return {"log": ["published"]}


def after_check(state):
    return "publish" if state["approved"] else "write"
