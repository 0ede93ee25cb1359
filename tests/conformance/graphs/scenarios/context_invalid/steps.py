"""The run context (context_schema): nodes read the caller's per-run `user_id` and `tone`."""

import dualside as ds


def greet(state, runtime):
    ctx = ds.context(runtime)
    return {"greeting": f"Hello {ds.get(ctx, 'user_id')}, {state['text']}", "log": ["greet"]}


def sign(state, runtime):
    ctx = ds.context(runtime)
    return {"greeting": state["greeting"] + f" ({ds.get(ctx, 'tone')})", "log": ["sign"]}
