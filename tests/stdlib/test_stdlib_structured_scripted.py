"""structured_output.py (G3, G5, unions, declared schemas) and the scripted model."""

from __future__ import annotations

import asyncio
import dataclasses
import json

import pytest
from pydantic import ValidationError
from support.stdlib_kit import SPAN
from typing_extensions import TypedDict

from agentc import ir
from agentc.stdlib.messages import AIMessage, HumanMessage, ToolCall
from agentc.stdlib.providers.base import ModelProfile, ModelRequest
from agentc.stdlib.providers.scripted import (
    ScriptedModel,
    ScriptedRepliesExhausted,
    ScriptError,
    reply_message,
)
from agentc.stdlib.routing import tools_condition
from agentc.stdlib.structured_output import (
    StructuredOutput,
    handle_tool_strategy,
    model_from_json_schema,
    schema_from_python,
    schema_from_spec,
    supports_native,
)

DECLARED = {
    "type": "object",
    "title": "Answer",
    "description": "A checked answer.",
    "properties": {
        "value": {"type": "integer"},
        "explanation": {"type": "string", "description": "how"},
        "tags": {"type": "array", "items": {"type": "string"}, "default": []},
        "confidence": {"anyOf": [{"type": "number"}, {"type": "null"}], "default": None},
        "mode": {"enum": ["fast", "careful"], "default": "fast"},
    },
    "required": ["value", "explanation"],
}


def test_G3_declared_schema_is_checked():
    model = model_from_json_schema(DECLARED, "Answer")
    ok = model.model_validate({"value": "5", "explanation": "e"})
    assert ok.value == 5 and ok.tags == [] and ok.mode == "fast" and ok.confidence is None
    with pytest.raises(ValidationError):
        model.model_validate({"value": 5, "explanation": "e", "mode": "slow"})
    with pytest.raises(ValidationError):
        model.model_validate({"value": 5})


def test_G3_declared_schema_spec_parses_to_attributes():
    schema = schema_from_spec(
        ir.SchemaSpec(name="Answer", json_schema=DECLARED, doc="A checked answer.", span=SPAN)
    )
    value = schema.parse({"value": 5, "explanation": "2+3=5"})
    assert value.value == 5 and value.explanation == "2+3=5"
    assert schema.tool().description == "A checked answer."
    with pytest.raises(ValueError, match="Failed to parse data to Answer"):
        schema.parse({"value": "x", "explanation": ""})


class TD(TypedDict):
    a: int


@dataclasses.dataclass
class DC:
    """A dataclass."""

    b: str


def test_G3_python_schemas_typeddict_dataclass_raw_dict():
    assert schema_from_python(TD).parse({"a": "1"}) == {"a": 1}
    assert schema_from_python(DC).parse({"b": "x"}) == DC(b="x")
    raw = schema_from_python({"title": "Raw", "type": "object"})
    assert raw.name == "Raw" and raw.parse({"anything": 1}) == {"anything": 1}  # unchecked


def test_union_picks_the_called_schema():
    a = schema_from_python(TD, "TD")
    b = schema_from_python(DC, "DC")
    out = StructuredOutput(ir.OutputStrategy.TOOL, (a, b))
    reply = AIMessage(content="", tool_calls=[ToolCall(name="DC", args={"b": "y"}, id="1")])
    assert handle_tool_strategy(out, reply).structured_response == DC(b="y")
    assert [t.name for t in out.tools()] == ["TD", "DC"]


@pytest.mark.parametrize(
    "name, profile, tools, native",
    [
        ("gpt-4o", None, False, True),
        ("gpt-4o-mini", None, False, True),
        ("gpt-3.5-turbo", None, False, False),
        ("claude-sonnet-4-5", None, False, True),
        ("my-model", ModelProfile(structured_output=True), False, True),
        ("gemini-2.5-pro", ModelProfile(structured_output=True), True, False),
        ("gemini-3-pro", ModelProfile(structured_output=True), True, True),
    ],
)
def test_G5_native_support(name, profile, tools, native):
    assert supports_native(profile, name, tools) is native


def spec(**options):
    return ir.ModelSpec(spec="scripted", provider="scripted", name="", options=options, span=SPAN)


def req():
    return ModelRequest(messages=(HumanMessage(content="q"),))


def test_scripted_replays_and_records():
    m = ScriptedModel.from_spec(
        spec(
            replies=[
                {
                    "tool_calls": [{"name": "add", "args": {"a": 2, "b": 3}, "id": "c1"}],
                    "usage": {"input_tokens": 3, "output_tokens": 1},
                },
                "The answer is 5.",
            ]
        ),
        ".",
    )
    first = asyncio.run(m.generate(req()))
    assert first.tool_calls[0].args == {"a": 2, "b": 3} and first.usage_metadata.total_tokens == 4
    assert asyncio.run(m.generate(req())).content == "The answer is 5."
    assert len(m.calls) == 2
    with pytest.raises(ScriptedRepliesExhausted, match="2 replies but was called a 3rd time"):
        asyncio.run(m.generate(req()))


def test_scripted_from_file_and_cycle(tmp_path):
    (tmp_path / "s.json").write_text(json.dumps({"replies": ["a", "b"], "cycle": True}))
    m = ScriptedModel.from_spec(
        ir.ModelSpec(spec="scripted:s.json", provider="scripted", name="s.json", span=SPAN),
        str(tmp_path),
    )
    got = [asyncio.run(m.generate(req())).content for _ in range(5)]
    assert got == ["a", "b", "a", "b", "a"]


def test_scripted_errors_are_clear(tmp_path):
    with pytest.raises(ScriptError, match="does not exist"):
        ScriptedModel.from_spec(
            ir.ModelSpec(
                spec="scripted:none.json", provider="scripted", name="none.json", span=SPAN
            ),
            str(tmp_path),
        )
    with pytest.raises(ScriptError, match="needs `replies"):
        ScriptedModel.from_spec(spec(), ".")
    with pytest.raises(ScriptError, match="unknown keys"):
        reply_message({"text": "x"})


def test_scripted_stream_gives_one_delta():
    m = ScriptedModel(
        [
            reply_message(
                {"content": "hi", "tool_calls": [{"name": "f", "args": {"x": 1}, "id": "1"}]}
            )
        ]
    )

    async def collect():
        return [d async for d in m.stream(req())]

    deltas = asyncio.run(collect())
    assert deltas[0].text == "hi" and deltas[0].tool_call_chunks[0].args == '{"x": 1}'


def test_tools_condition():
    assert (
        tools_condition(
            {"messages": [AIMessage(content="", tool_calls=[ToolCall(name="f", args={}, id="1")])]}
        )
        == "tools"
    )
    assert tools_condition({"messages": [AIMessage(content="done")]}) == "end"
    assert tools_condition({"messages": []}) == "end"
