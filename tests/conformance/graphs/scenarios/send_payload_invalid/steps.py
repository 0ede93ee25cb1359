"""A Send whose payload lacks a field the mapped node's payload schema requires."""

import dualside as ds


def plan(state):
    return {"log": ["plan"]}


def fan_out(state):
    return [ds.Send("work", {"subject": "ok"}), ds.Send("work", {"topic": "wrong key"})]


def work(state):
    return {"log": [f"work {state.get('subject')}"]}
