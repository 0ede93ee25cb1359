"""A parent that tidies the topic, and a child that polishes its model's draft."""


def prepare(state):
    return {"topic": state["topic"].strip().lower()}


def polish(state):
    return {"joke": state["draft"].rstrip(".") + "!"}
