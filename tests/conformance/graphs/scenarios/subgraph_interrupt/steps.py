"""An interrupt inside a subgraph: the parent pauses; resuming finishes both graphs."""

import dualside as ds


def prepare(state):
    return {"log": ["prepare"]}


def ask(state):
    answer = ds.interrupt({"question": "name?"})
    return {"name": answer, "log": ["asked"]}


def greet(state):
    return {"log": [f"hello {state['name']}"]}
