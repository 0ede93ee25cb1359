"""The messages reducer: a message with a known id replaces that message; RemoveMessage
deletes one; others are appended."""

import dualside as ds


def edit(state):
    first = state["messages"][0]
    return {
        "messages": [
            ds.message("human", first.content.upper(), id=first.id),
            ds.remove(state["messages"][1].id),
            ds.message("ai", "a new answer", id="a9"),
        ]
    }
