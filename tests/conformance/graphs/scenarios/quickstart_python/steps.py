"""LangGraph's Graph API quickstart: a calculator agent whose model node is Python code
calling a chat model, with an `llm_calls` counter."""

import dualside as ds

PROMPT = "You are a helpful assistant tasked with performing arithmetic on a set of inputs."


def add(a: int, b: int) -> int:
    """Adds `a` and `b`."""
    return a + b


def multiply(a: int, b: int) -> int:
    """Multiply `a` and `b`."""
    return a * b


def divide(a: int, b: int) -> float:
    """Divide `a` and `b`."""
    return a / b


TOOLS = {"add": add, "multiply": multiply, "divide": divide}


def llm_call(state):
    model = ds.model("llm").bind_tools([add, multiply, divide])
    reply = model.invoke([ds.message("system", PROMPT), *state["messages"]])
    return {"messages": [reply], "llm_calls": state.get("llm_calls", 0) + 1}


def tool_node(state):
    out = []
    for call in state["messages"][-1].tool_calls:
        result = TOOLS[ds.get(call, "name")](**ds.get(call, "args"))
        out.append(ds.message("tool", str(result), tool_call_id=ds.get(call, "id")))
    return {"messages": out}


def should_continue(state):
    return "tool_node" if state["messages"][-1].tool_calls else ds.END
