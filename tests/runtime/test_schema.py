"""The one JSON-schema check of the runtime (`runtime/schema.py`): Send payloads, run
contexts, and the values `agentc run --input/--set/--context` gives a run. A problem reads
as one phrase naming the path (`feedback.grade`, `sections[1]`) and what fits there."""

from __future__ import annotations

import pytest
from support.graphs import START, chan, compiled, graph, node, schema, sends

from agentc.runtime import InvalidSendError, Send
from agentc.runtime.schema import Problem, check

FEEDBACK = {
    "type": "object",
    "properties": {
        "grade": {"enum": ["funny", "not funny"]},
        "feedback": {"type": "string"},
    },
    "required": ["grade", "feedback"],
    "additionalProperties": False,
}
# a channel's type names a program schema only by `$ref` (no `$defs` of its own)
DEFS = {"Feedback": FEEDBACK}
MAYBE = {"anyOf": [{"$ref": "#/$defs/Feedback"}, {"type": "null"}]}
# a schema naming itself: the compiler stops inlining there, the program has it
TREE = {
    "type": "object",
    "properties": {
        "name": {"type": "string"},
        "children": {"type": "array", "items": {"$ref": "#/$defs/Tree"}},
    },
    "required": ["name"],
}


def said(schema, value, defs=None, at=()) -> str | None:
    problem = check(schema, value, defs, at)
    return None if problem is None else str(problem)


@pytest.mark.parametrize(
    ("schema", "value", "says"),
    [
        (MAYBE, None, None),
        (MAYBE, {"grade": "funny", "feedback": "ok"}, None),
        (
            MAYBE,
            {"grade": "meh", "feedback": "x"},
            'grade: expected one of "funny", "not funny", got "meh"',
        ),
        (MAYBE, {"grade": "funny"}, "feedback: missing (required)"),
        (
            MAYBE,
            {"grade": "funny", "feedback": "x", "tone": 1},
            "tone: not a field (the fields: grade, feedback)",
        ),
        (MAYBE, 3, "expected a `Feedback` or null, got 3"),
        ({"type": "array", "items": {"type": "string"}}, ["a", 3], "[1]: expected a string, got 3"),
        ({"type": "integer"}, True, "expected an integer, got true"),
        ({"const": 1}, True, "expected 1, got true"),
        ({"enum": [1, 2]}, True, "expected one of 1, 2, got true"),
        ({"type": "boolean"}, "yes", 'expected true or false, got "yes"'),
        (
            {"type": "object", "additionalProperties": {"type": "integer"}},
            {"a": "1"},
            'a: expected an integer, got "1"',
        ),
        ({"x-unknown": 1, "type": "madeup"}, object(), None),  # not ours to refuse
    ],
)
def test_wording_and_paths(schema, value, says):
    assert said(schema, value, DEFS) == says


def test_paths_start_where_the_value_stands():
    value = {"grade": "funny", "feedback": 3}
    assert said(MAYBE, value, DEFS, at=("feedback",)) == (
        "feedback.feedback: expected a string, got 3"
    )
    sections = {"type": "array", "items": {"$ref": "#/$defs/Feedback"}}
    two = [{"grade": "funny", "feedback": "a"}, {"grade": "x", "feedback": "b"}]
    problem = check(sections, two, DEFS)
    assert problem is not None and problem.where == "[1].grade"
    assert str(check(sections, [{}], DEFS, at=("sections",))) == (
        "sections[0].grade: missing (required)"
    )


def test_a_schema_naming_itself_is_checked_all_the_way_down():
    tree = {"name": "a", "children": [{"name": "b", "children": [{"name": 3}]}]}
    assert said(TREE, tree, {"Tree": TREE}) == (
        "children[0].children[0].name: expected a string, got 3"
    )


def test_a_ref_found_nowhere_or_looping_takes_anything():
    assert check({"$ref": "#/$defs/Gone"}, 3) is None
    loop = {"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"}}
    assert check({"$ref": "#/$defs/A"}, 3, loop) is None


def test_the_schemas_own_defs_win_over_the_programs():
    own = {"$ref": "#/$defs/N", "$defs": {"N": {"type": "integer"}}}
    assert check(own, 3, {"N": {"type": "string"}}) is None


def test_a_python_value_json_cannot_write_is_shown_with_its_type():
    problem = check({"type": "string"}, {1, 2})
    assert problem == Problem((), "a string", {1, 2})
    assert problem.describe() == "expected a string, got {1, 2} (set)"
    long = check({"type": "integer"}, "x" * 100)
    assert long is not None and long.shown.endswith("…") and len(long.shown) == 58


def test_a_send_payload_of_a_recursive_schema_reads_the_programs_schemas():
    bad = {"name": "root", "children": [{"name": 7}]}
    g = graph(
        state=[chan("log", "append", [])],
        nodes=[
            node("plan", lambda s: None),
            node("worker", lambda s: {"log": [s["name"]]}, input_schema="Tree"),
        ],
        edges=[(START, "plan")],
        branches=[sends("plan", lambda s: [Send("worker", bad)], ["worker"])],
    )
    with pytest.raises(InvalidSendError) as err:
        compiled(g, schemas=[schema("Tree", TREE)]).invoke({})
    assert "field `children[0].name`: expected a string, got 7" in str(err.value)
