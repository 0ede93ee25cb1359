"""update_state(as_node=check): the edited state routes as if `check` had written it."""


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
