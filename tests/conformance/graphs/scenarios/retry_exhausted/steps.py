"""A node that fails twice with a transient error, under a retry policy of three attempts."""

ATTEMPTS = {"flaky": 0}


class Transient(Exception):
    """A failure worth retrying."""


def reset():
    ATTEMPTS["flaky"] = 0


def probe():
    return dict(ATTEMPTS)


def flaky(state):
    ATTEMPTS["flaky"] += 1
    if ATTEMPTS["flaky"] < 3:
        raise Transient(f"attempt {ATTEMPTS['flaky']} failed")
    return {"log": [f"ok on attempt {ATTEMPTS['flaky']}"]}


def done(state):
    return {"log": ["done"]}
