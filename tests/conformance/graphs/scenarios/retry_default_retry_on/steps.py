"""LangGraph's default retry_on does not retry a ValueError: one attempt, then the error."""

import dualside as ds

ATTEMPTS = ds.Counts("strict")
reset, probe = ATTEMPTS.reset, ATTEMPTS.probe


def strict(state):
    ATTEMPTS["strict"] += 1
    raise ValueError("bad input")
