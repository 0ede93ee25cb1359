"""Tools for the review cases (read by the compiler, never run by these tests)."""


def read_file(path: str) -> str:
    """Read a file in the workspace."""
    return path


def delete_file(path: str) -> str:
    """Delete a file in the workspace."""
    return path


def report(summary: str) -> str:
    """Report what was tidied and stop."""
    return summary


def check_draft(state: dict) -> dict:
    """Approve a draft that is long enough."""
    return {"approved": len(state.get("draft", "")) > 20}


def publish(state: dict) -> dict:
    """Publish the draft."""
    return {"log": ["published"]}


def log_turn(state: dict) -> dict:
    """Log a turn."""
    return {"log": ["turn"]}
