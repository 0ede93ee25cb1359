"""The gate: where the request goes, as a Command."""

import dualside as ds


def gate(state):
    return ds.Command(goto="short" if state["style"] == "short" else "long")
