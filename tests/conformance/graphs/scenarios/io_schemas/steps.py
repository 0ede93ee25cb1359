"""Input and output schemas: the caller sets `question`, gets `answer`; `notes` is internal."""


def think(state):
    return {"notes": f"thinking about {state['question']}"}


def answer(state):
    return {"answer": f"answer to {state['question']} ({state['notes']})"}
