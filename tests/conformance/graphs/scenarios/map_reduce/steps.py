"""Map-reduce with Send: one task per subject, a reducer gathers the jokes, one picks."""

import dualside as ds


def generate_topics(state):
    return {"subjects": [f"{state['topic']} {k}" for k in ("lions", "elephants", "penguins")]}


def continue_to_jokes(state):
    return [ds.Send("generate_joke", {"subject": s}) for s in state["subjects"]]


def generate_joke(state):
    return {"jokes": [f"Why did the {state['subject']} cross the road?"]}


def best_joke(state):
    return {"best_selected_joke": max(state["jokes"], key=len)}
