"""The long-term store from a node: remember a fact per user, recall all of them."""

import dualside as ds


def remember(state):
    store = ds.store()
    key = f"m{len(state['fact'])}"
    store.put(("memories", state["user"]), key, {"fact": state["fact"]})
    return {"saved": key}


def recall(state):
    items = ds.store().search(("memories", state["user"]))
    return {"recalled": sorted(i.value["fact"] for i in items)}
