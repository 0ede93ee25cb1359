"""A deferred node: `c` waits until no other task is left, then runs once."""


def a(state):
    return {"log": ["a"]}


def b1(state):
    return {"log": ["b1"]}


def b2(state):
    return {"log": ["b2"]}


def c(state):
    return {"log": ["c"]}
