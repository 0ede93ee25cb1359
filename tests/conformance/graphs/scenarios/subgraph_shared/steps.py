"""A subgraph sharing the parent's `foo` channel; `bar` is the child's own."""


def node_1(state):
    return {"foo": "hi! " + state["foo"]}


def subgraph_node_1(state):
    return {"bar": "bar"}


def subgraph_node_2(state):
    return {"foo": state["foo"] + state["bar"]}
