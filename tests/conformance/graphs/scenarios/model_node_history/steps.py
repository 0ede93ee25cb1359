"""A model node over a conversation channel other than `messages`, with a prompt template."""


def count(state):
    return {"turns": state.get("turns", 0) + 1}
