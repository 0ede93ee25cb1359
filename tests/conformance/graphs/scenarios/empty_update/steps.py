"""A node that returns {} (or None): no channel changes in its step."""


def first(state):
    return {"log": ["first"]}


def quiet(state):
    return {}


def silent(state):
    return None


def last(state):
    return {"log": ["last"]}
