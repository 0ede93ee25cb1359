"""Python nodes for the `.agent` runtime tests."""

import asyncio


def inc(state):
    return {"n": state["n"] + 1, "log": [str(state["n"])]}


def say_a(state):
    return {"log": ["a"], "x": 1}


def say_b(state):
    return {"log": ["b"], "x": 2}


async def slow_first(state):
    await asyncio.sleep(0.05)
    return {"log": ["first"]}


async def fast_second(state):
    return {"log": ["second"]}


def reply(state):
    return {"messages": [("ai", f"echo {state['messages'][-1].text}")]}
