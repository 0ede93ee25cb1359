"""todo_list: the `write_todos` tool the model is given is LangChain's, field for field."""

from __future__ import annotations

from langchain.agents.middleware import TodoListMiddleware
from langchain_core.utils.function_calling import convert_to_openai_tool
from support.mwkit import agent, ask, call, model_calls, reply

from agentc.stdlib.providers.openai import format_tool

THEIRS = convert_to_openai_tool(TodoListMiddleware().tools[0])


def test_write_todos_reaches_the_model_as_langchains_schema(tmp_path):
    todos = [{"content": "plan", "status": "in_progress"}]
    a = agent(
        tmp_path,
        replies_=[reply("", call("write_todos", {"todos": todos}, "c1")), "done"],
        middleware="todo_list",
    )
    result = a.invoke(ask())
    sent = next(t for t in model_calls()[0].tools if t.name == "write_todos")
    assert format_tool(sent) == THEIRS
    assert "$defs" not in str(sent.parameters) and "$ref" not in str(sent.parameters)
    item = sent.parameters["properties"]["todos"]["items"]
    assert item["description"] == "A single todo item with content and status."
    assert result["todos"] == todos


def test_write_todos_still_checks_each_item(tmp_path):
    bad = [{"content": "plan", "status": "started"}]
    a = agent(
        tmp_path,
        replies_=[reply("", call("write_todos", {"todos": bad}, "c1")), "done"],
        middleware="todo_list",
    )
    result = a.invoke(ask())
    answer = result["messages"][2]
    assert answer.type == "tool" and answer.status == "error"
    assert "status" in answer.content and "todos" not in result
