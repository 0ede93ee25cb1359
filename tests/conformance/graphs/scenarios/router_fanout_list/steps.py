"""A router answering several labels at once: every chosen branch runs in the next step."""


def start(state):
    return {"log": ["start"]}


def pick(state):
    return [k for k in ("alpha", "beta", "gamma") if k in state["want"]]


def alpha(state):
    return {"log": ["alpha"]}


def beta(state):
    return {"log": ["beta"]}


def gamma(state):
    return {"log": ["gamma"]}
