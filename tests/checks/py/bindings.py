"""Every module-level binding form Python has (read statically, never imported)."""

import json as codec
import os.path
from functools import partial as bind, reduce  # noqa: F401

from .shared import *  # noqa: F403

raise SystemExit("this file must never run")


def make(name):
    return lambda state: {}


tuple_a, tuple_b = make("a"), make("b")
[list_a, *list_rest] = [make("c"), make("d")]
chain_a = chain_b = make("e")
annotated: object = make("f")
counter = 0
counter += 1
for loop_node in [make("g")]:
    pass
with open(os.devnull) as handle, open(os.devnull) as (pair_a, pair_b):
    pass
if codec:
    in_if = make("h")
else:

    def in_else(state):
        return {}


try:
    from fast import in_try
except ImportError:
    in_except = make("i")
finally:
    in_finally = make("j")
match counter:
    case {"key": matched_value, **matched_rest}:
        pass
    case [matched_head, *matched_tail]:
        pass
if walrus := make("k"):
    pass
nodes = [(in_comprehension := n) for n in [make("l")]]


def install():
    global installed
    installed = make("m")
