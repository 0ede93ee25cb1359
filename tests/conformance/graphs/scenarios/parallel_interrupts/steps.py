"""Two parallel nodes each ask a question: both interrupts pend at once; one resume answers
both by interrupt id."""

import dualside as ds


def ask_name(state):
    return {"log": [f"name: {ds.interrupt({'question': 'name?'})}"]}


def ask_city(state):
    return {"log": [f"city: {ds.interrupt({'question': 'city?'})}"]}


def summary(state):
    return {"log": [f"summary of {len(state['log'])}"]}
