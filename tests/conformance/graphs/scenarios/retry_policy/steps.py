"""A node that fails twice with a transient error, under a retry policy of three attempts."""

import dualside as ds

ATTEMPTS = ds.Counts("flaky")
reset, probe = ATTEMPTS.reset, ATTEMPTS.probe


class Transient(Exception):
    """A failure worth retrying."""


def flaky(state):
    ATTEMPTS["flaky"] += 1
    if ATTEMPTS["flaky"] < 3:
        raise Transient(f"attempt {ATTEMPTS['flaky']} failed")
    return {"log": [f"ok on attempt {ATTEMPTS['flaky']}"]}


def done(state):
    return {"log": ["done"]}
