"""Command(goto=[Send(...), ...]) from a node: one task per item, with the update applied."""

import dualside as ds


def plan(state):
    sends = [ds.Send("work", {"item": i}) for i in state["items"]]
    return ds.Command(update={"log": ["planned"]}, goto=sends)


def work(state):
    return {"log": [f"work {state['item']}"]}
