"""A join: `c` waits for `a` (one step) and `b2` (two steps), and runs once."""


def a(state):
    return {"log": ["a"]}


def b1(state):
    return {"log": ["b1"]}


def b2(state):
    return {"log": ["b2"]}


def c(state):
    return {"log": ["c"]}
