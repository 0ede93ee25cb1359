"""An input that writes no channel: the run still starts; no `values` event for the input."""


def a(state):
    return {"log": ["a"]}
