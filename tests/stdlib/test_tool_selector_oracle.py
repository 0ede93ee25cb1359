"""B5: what `llm_tool_selector`'s selection model receives, against LangChain's own middleware.

LangChain asks through `model.with_structured_output(schema)`: a model without native
structured output gets the schema as a tool it must call (`tool_choice` any), one with it
gets a JSON-schema response format. The oracle is a LangChain chat model that records what
it was bound with; ours is the scripted model, which records every request.
"""

from __future__ import annotations

import json
from typing import Any

from langchain.agents import create_agent
from langchain.agents.middleware import LLMToolSelectorMiddleware
from langchain.agents.middleware.tool_selection import _create_tool_selection_response
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.tools import tool
from langchain_core.utils.function_calling import convert_to_openai_tool
from support.mwkit import agent, ask, reply

from agentc.stdlib.middleware.tool_selection import selection_output
from agentc.stdlib.providers.scripted import CREATED


def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


def multiply(a: int, b: int) -> int:
    """Multiply two integers."""
    return a * b


def echo(text: str) -> str:
    """Echo the text back."""
    return text


class Recorder(BaseChatModel):
    """A LangChain chat model with no native structured output that records each call."""

    replies: list[AIMessage]
    seen: list[dict[str, Any]] = []

    @property
    def _llm_type(self) -> str:
        return "recorder"

    def bind_tools(self, tools: Any, *, tool_choice: Any = None, **kwargs: Any) -> Any:
        return self.bind(tools=[convert_to_openai_tool(t) for t in tools], tool_choice=tool_choice)

    def _generate(self, messages: Any, stop: Any = None, run_manager: Any = None, **kw: Any):
        self.seen.append({"messages": [(m.type, m.content) for m in messages], **kw})
        return ChatResult(generations=[ChatGeneration(message=self.replies.pop(0))])


SELECTION = {"name": "ToolSelectionResponse", "args": {"tools": ["multiply"]}, "id": "s1"}


def langchain_requests() -> tuple[dict[str, Any], dict[str, Any]]:
    selector = Recorder(replies=[AIMessage(content="", tool_calls=[SELECTION])], seen=[])
    main = Recorder(replies=[AIMessage(content="ok")], seen=[])
    graph = create_agent(
        model=main,
        tools=[tool(add), tool(multiply), tool(echo)],
        middleware=[LLMToolSelectorMiddleware(model=selector, always_include=["echo"])],
    )
    graph.invoke({"messages": [{"role": "user", "content": "times?"}]})
    return selector.seen[0], main.seen[0]


def wire_tool(definition: Any) -> dict[str, Any]:
    return {
        "type": "function",
        "function": {
            "name": definition.name,
            "description": definition.description,
            "parameters": definition.parameters,
        },
    }


def test_B5_selector_without_native_output_gets_a_forced_tool_like_langchain(tmp_path):
    theirs, their_main = langchain_requests()
    (tmp_path / "sel.json").write_text(json.dumps([reply("", SELECTION)]))
    a = agent(
        tmp_path,
        replies_=["ok"],
        tools="kit.add, kit.multiply, kit.echo",
        middleware='llm_tool_selector { model: "scripted:sel.json", always_include: ["echo"] }',
    )
    a.invoke(ask("times?"))
    selector = next(m for m in reversed(CREATED) if m.replies[0].tool_calls)
    main = next(m for m in reversed(CREATED) if m.replies[0].content == "ok")
    ours = selector.calls[0]
    assert [(m.type, m.content) for m in ours.messages] == theirs["messages"]
    assert [wire_tool(t) for t in ours.tools] == theirs["tools"]
    assert ours.tool_choice == theirs["tool_choice"] == "any"
    assert ours.response_format is None
    assert [t.name for t in main.calls[0].tools] == [
        t["function"]["name"] for t in their_main["tools"]
    ]


def test_B5_selector_with_native_output_gets_langchains_schema(tmp_path):
    (tmp_path / "sel.json").write_text(
        json.dumps(
            {
                "replies": [json.dumps({"tools": ["multiply"]})],
                "profile": {"structured_output": True},
            }
        )
    )
    a = agent(
        tmp_path,
        replies_=["ok"],
        tools="kit.add, kit.multiply, kit.echo",
        middleware='llm_tool_selector { model: "scripted:sel.json" }',
    )
    a.invoke(ask("times?"))
    selector = next(m for m in reversed(CREATED) if "tools" in m.replies[0].text)
    ours = selector.calls[0]
    assert ours.tools == () and ours.tool_choice is None
    schema = _create_tool_selection_response([tool(add), tool(multiply), tool(echo)])
    expected = convert_to_openai_tool(schema.json_schema())["function"]
    assert ours.response_format.name == expected["name"]
    assert ours.response_format.schema == expected["parameters"]
    main = next(m for m in reversed(CREATED) if m.replies[0].content == "ok")
    assert [t.name for t in main.calls[0].tools] == ["multiply"]


def test_B5_one_tool_schema_has_langchains_shape():
    out = selection_output(("echo",), ("Echo the text back.",))
    theirs = convert_to_openai_tool(_create_tool_selection_response([tool(echo)]).json_schema())[
        "function"
    ]
    definition = out.tools()[0]
    assert wire_tool(definition)["function"] == theirs
