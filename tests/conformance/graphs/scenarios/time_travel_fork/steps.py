"""Three steps saved by a checkpointer, for time travel."""


def pick(state):
    return {"subject": state["topic"] + " facts", "log": [f"pick {state['topic']}"]}


def write(state):
    return {"text": f"About {state['subject']}", "log": [f"write {state['subject']}"]}


def finish(state):
    return {"log": ["finish"]}
