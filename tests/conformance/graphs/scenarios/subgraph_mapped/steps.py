"""A subgraph with a different state: the parent maps `foo` into the child's `bar`."""


def node_1(state):
    return {"foo": "hi! " + state["foo"]}


def subgraph_node_1(state):
    return {"baz": "baz"}


def subgraph_node_2(state):
    return {"bar": state["bar"] + state["baz"]}
