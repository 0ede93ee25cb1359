"""Plain edges from branches of different lengths: `c` runs after each."""


def a(state):
    return {"log": ["a"]}


def b1(state):
    return {"log": ["b1"]}


def b2(state):
    return {"log": ["b2"]}


def c(state):
    return {"log": ["c"]}
