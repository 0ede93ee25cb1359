"""The conformance scenarios: each names the seats it shows (docs/conformance.md is built
from these names by make_table.py)."""

from __future__ import annotations

from harness import Output, Scenario


def tc(name, args=None, id="c1"):
    return {"name": name, "args": args or {}, "id": id}


def calls(*cs, content=""):
    return {"content": content, "tool_calls": list(cs)}


def user(text="hi", **kw):
    return {"role": "user", "content": text, **kw}


ANSWER = Output(("Answer",))
GOOD = {"value": 5, "explanation": "2+3=5"}
S = Scenario

SCENARIOS = [
    # ---- A: intake and routing
    S("A11_no_tools_one_model_call", ("A11", "G1"), ("hi back",)),
    S(
        "A11_tools_loop",
        ("A11", "C5", "D1", "D2"),
        (calls(tc("add", {"a": 2, "b": 3})), "The answer is 5."),
        tools=("add",),
        prompt="You are a careful calculator.",
    ),
    S("A5_extra_input_keys_dropped", ("A5",), ("ok",), extra_input={"foo": 1}),
    S(
        "A5_structured_response_not_input",
        ("A5",),
        ("ok",),
        extra_input={"structured_response": {"x": 1}},
    ),
    S("A6_bare_string", ("A6",), ("ok",), inputs=(["hello"],)),
    S("A6_role_pair", ("A6",), ("ok",), inputs=([("user", "hello")],)),
    S(
        "A6_system_and_developer_roles",
        ("A6", "B1"),
        ("ok",),
        prompt="P",
        inputs=(
            [{"role": "system", "content": "S"}, {"role": "developer", "content": "D"}, user()],
        ),
    ),
    S(
        "A6_assistant_and_tool_roles",
        ("A6",),
        ("ok",),
        inputs=(
            [
                user("q"),
                {
                    "role": "assistant",
                    "content": "",
                    "tool_calls": [tc("add", {"a": 1, "b": 1}, "x1")],
                },
                {"role": "tool", "content": "2", "tool_call_id": "x1"},
                user("thanks"),
            ],
        ),
    ),
    S(
        "A7_last_tool_of_a_name_wins",
        ("A7",),
        (calls(tc("echo", {"text": "hi"})), "done"),
        tools=("echo", "echo_loud"),
        divergence="A7: two tools with one name are refused by "
        "`agentc check` (duplicate-tool) instead of the last silently winning",
        expect_agentc={"error": "LoadError"},
    ),
    S(
        "A8_provider_tools_bound_every_step",
        ("A8", "B5"),
        (calls(tc("add", {"a": 1, "b": 2})), "3"),
        tools=("add",),
        provider_tools=({"type": "web_search", "name": "web_search"},),
    ),
    S(
        "A8_provider_tool_only_no_tools_node",
        ("A8", "A11", "C2"),
        (calls(tc("web_search", {"q": "x"})),),
        provider_tools=({"type": "web_search", "name": "web_search"},),
    ),
    S(
        "A8_provider_tool_call_is_unknown_to_tools_node",
        ("A8", "E1"),
        (calls(tc("web_search", {"q": "x"})), "ok"),
        tools=("add",),
        provider_tools=({"type": "web_search", "name": "web_search"},),
    ),
    # ---- B: what the model sees
    S(
        "B1_prompt_prepended_each_call_never_saved",
        ("B1",),
        (calls(tc("add", {"a": 1, "b": 1})), "2"),
        tools=("add",),
        prompt="Be exact.",
    ),
    S("B1_no_prompt_no_system_message", ("B1",), ("ok",)),
    S(
        "B2_whole_history_each_call",
        ("B2", "F3", "F10"),
        ("one", "two"),
        checkpoint=True,
        inputs=([user("first")], [user("second")]),
    ),
    S(
        "B3_same_id_replaces",
        ("B3",),
        ("one", "two"),
        checkpoint=True,
        inputs=([user("a", id="m1")], [user("b", id="m1")]),
    ),
    S(
        "B3_remove_message",
        ("B3", "A6"),
        ("one", "two"),
        checkpoint=True,
        inputs=([user("a", id="m1")], [{"role": "remove", "id": "m1", "content": ""}, user("c")]),
    ),
    S(
        "B4_only_invalid_calls_end_the_run",
        ("B4", "E10", "C2", "C4"),
        (
            {
                "invalid_tool_calls": [
                    {"name": "add", "args": '{"a": 1,', "id": "bad1", "error": "truncated"}
                ]
            },
        ),
    ),
    S(
        "B4_repair_reaches_model_next_invocation",
        ("B4", "E10"),
        ({"invalid_tool_calls": [{"name": "add", "args": "{", "id": "bad1"}]}, "sorry"),
        checkpoint=True,
        inputs=([user("q")], [user("again")]),
    ),
    S(
        "B4_repair_with_valid_calls_same_run",
        ("B4", "E10"),
        (
            {
                "tool_calls": [tc("add", {"a": 1, "b": 2}, "ok1")],
                "invalid_tool_calls": [{"name": "add", "args": "{", "id": "bad1"}],
            },
            "done",
        ),
        tools=("add",),
    ),
    S(
        "B4_invalid_call_without_id_left_alone",
        ("B4",),
        (
            {
                "tool_calls": [tc("add", {"a": 1, "b": 2}, "ok1")],
                "invalid_tool_calls": [{"name": "add", "args": "{"}],
            },
            "done",
        ),
        tools=("add",),
    ),
    S(
        "B5_every_tool_every_step",
        ("B5", "B6", "C1"),
        (calls(tc("add", {"a": 1, "b": 2})), calls(tc("multiply", {"a": 2, "b": 3}, "c2")), "6"),
        tools=("add", "multiply"),
    ),
    S(
        "B7_C3_tool_strategy_forces_any",
        ("B7", "C3", "B6"),
        (calls(tc("Answer", GOOD, "s1")),),
        output=ANSWER,
    ),
    S(
        "B7_provider_strategy_native_format",
        ("B7", "G3"),
        ('{"value": 5, "explanation": "2+3=5"}',),
        output=Output(("Answer",), "provider"),
    ),
    S(
        "B8_list_of_strings_becomes_json",
        ("B8", "E9"),
        (calls(tc("as_list", {"n": 3})), "ok"),
        tools=("as_list",),
    ),
    S(
        "B8_dict_becomes_json",
        ("B8", "E9", "E13"),
        (calls(tc("as_dict", {"key": "k"})), "ok"),
        tools=("as_dict",),
    ),
    S(
        "B8_content_blocks_pass",
        ("B8", "E9"),
        (calls(tc("as_blocks", {"text": "t"})), "ok"),
        tools=("as_blocks",),
    ),
    S("B8_none_is_null", ("B8",), (calls(tc("as_none")), "ok"), tools=("as_none",)),
    S("B8_model_object_is_str", ("B8",), (calls(tc("as_model")), "ok"), tools=("as_model",)),
    S(
        "B8_long_output_not_cut",
        ("B8",),
        (calls(tc("echo", {"text": "x" * 20000})), "ok"),
        tools=("echo",),
    ),
    S("B11_description_is_whole_docstring", ("B11",), ("ok",), tools=("multiply", "add")),
    # ---- C: choosing the next action
    S(
        "C1_parallel_calls_in_one_reply",
        ("C1", "E5"),
        (
            calls(
                tc("echo", {"text": "a"}, "1"),
                tc("echo", {"text": "b"}, "2"),
                tc("add", {"a": 1, "b": 1}, "3"),
            ),
            "ok",
        ),
        tools=("echo", "add"),
    ),
    S(
        "C2_text_with_calls_goes_to_tools",
        ("C2",),
        (calls(tc("echo", {"text": "a"}), content="let me check"), "ok"),
        tools=("echo",),
    ),
    S(
        "C5_G2_return_direct_ends_run",
        ("C5", "G2"),
        (calls(tc("lookup", {"key": "k"})),),
        tools=("lookup", "echo"),
    ),
    S(
        "G2_mixed_return_direct_goes_back",
        ("G2", "C5"),
        (calls(tc("lookup", {"key": "k"}, "1"), tc("echo", {"text": "e"}, "2")), "done"),
        tools=("lookup", "echo"),
    ),
    S(
        "C6_G8_structured_with_other_tools_ends",
        ("C6", "G8", "C2"),
        (calls(tc("add", {"a": 2, "b": 3}, "1"), tc("Answer", GOOD, "2")),),
        tools=("add",),
        output=ANSWER,
    ),
    S(
        "C6_G8_invalid_structured_with_other_tools_ends",
        ("C6", "G8"),
        (calls(tc("add", {"a": 2, "b": 3}, "1"), tc("Answer", {"value": "x"}, "2")),),
        tools=("add",),
        output=ANSWER,
    ),
    S(
        "C7_D3_command_answers_and_updates",
        ("C7", "D3", "E11"),
        (calls(tc("set_flag", {"value": "on"})), "after"),
        tools=("set_flag",),
    ),
    S(
        "E11_command_without_answer_fails",
        ("E11", "D3", "C7"),
        (calls(tc("bad_command", {"value": "x"})), "after"),
        tools=("bad_command",),
    ),
    # ---- E: execution
    S(
        "E1_unknown_tool_lists_valid_names",
        ("E1",),
        (calls(tc("nope", {"x": 1})), "ok"),
        tools=("add", "echo"),
    ),
    S(
        "E2_bad_argument_told_to_model",
        ("E2",),
        (calls(tc("add", {"a": "two", "b": 3})), "ok"),
        tools=("add",),
    ),
    S(
        "E2_missing_argument_told_to_model",
        ("E2",),
        (calls(tc("add", {"a": 1})), "ok"),
        tools=("add",),
    ),
    S(
        "E2_injected_args_filtered_from_errors",
        ("E2", "E4"),
        (calls(tc("who_called", {"call_id": "forged"})), "ok"),
        tools=("who_called",),
    ),
    S(
        "E3_exception_stops_run",
        ("E3", "E7"),
        (calls(tc("crash", {"reason": "boom"})), "never"),
        tools=("crash",),
    ),
    S(
        "E3_tool_exception_unhandled_stops_run",
        ("E3",),
        (calls(tc("fails", {"reason": "no"})), "never"),
        tools=("fails",),
    ),
    S(
        "E3_handled_tool_exception_is_a_reply",
        ("E3",),
        (calls(tc("fails_handled", {"reason": "no"})), "ok"),
        tools=("fails_handled",),
    ),
    S(
        "E4_injected_state_filled_and_unforgeable",
        ("E4",),
        (calls(tc("count_messages", {"state": {"messages": []}})), "ok"),
        tools=("count_messages",),
    ),
    S(
        "E4_injected_tool_call_id",
        ("E4",),
        (calls(tc("who_called", {"q": "me", "call_id": "forged"}, "real")), "ok"),
        tools=("who_called",),
    ),
    # ---- I1 / E4: the long-term store (none unless given; only tools and middleware use it)
    S(
        "I1_E4_tool_writes_and_reads_the_store",
        ("I1", "E4"),
        (
            calls(tc("remember", {"user": "ann", "fact": "likes tea"})),
            calls(tc("remember", {"user": "ann", "fact": "walks", "store": "forged"}, "c2")),
            calls(tc("recall", {"user": "ann"}, "c3")),
            "Ann likes tea and walks.",
        ),
        tools=("remember", "recall"),
        store=True,
    ),
    S(
        "I1_E4_store_tool_without_a_store_fails_the_run",
        ("I1", "E4"),
        (calls(tc("remember", {"user": "ann", "fact": "x"})), "never"),
        tools=("remember",),
        checkpoint=True,
    ),
    S(
        "I1_agent_loop_writes_nothing_to_the_store",
        ("I1",),
        (calls(tc("add", {"a": 1, "b": 2})), "3"),
        tools=("add", "recall"),
        store=True,
        checkpoint=True,
    ),
    S(
        "I1_E4_tool_runtime_store",
        ("I1", "E4"),
        (calls(tc("has_store", {})), "ok"),
        tools=("has_store",),
        store=True,
    ),
    S(
        "I1_E4_tool_runtime_without_store_is_none",
        ("I1", "E4"),
        (calls(tc("has_store", {})), "ok"),
        tools=("has_store",),
    ),
    S(
        "E5_results_in_listed_order",
        ("E5",),
        (calls(*[tc("echo", {"text": str(i)}, f"k{i}") for i in range(6)]), "ok"),
        tools=("echo",),
    ),
    S(
        "E6_one_failure_aborts_the_batch",
        ("E6", "E3"),
        (calls(tc("echo", {"text": "a"}, "1"), tc("crash", {"reason": "x"}, "2")), "never"),
        tools=("echo", "crash"),
    ),
    S(
        "E9_content_and_artifact",
        ("E9",),
        (calls(tc("fetch", {"url": "u"})), "ok"),
        tools=("fetch",),
    ),
    # ---- F: limits and memory
    S(
        "F1_recursion_limit_stops_run",
        ("F1",),
        tuple(calls(tc("add", {"a": 1, "b": 1}, f"r{i}")) for i in range(10)),
        tools=("add",),
        steps=4,
    ),
    S(
        "F10_thread_continues_with_checkpointer",
        ("F10",),
        ("one", "two"),
        checkpoint=True,
        inputs=([user("a")], [user("b")]),
    ),
    S(
        "F10_no_checkpointer_starts_fresh",
        ("F10",),
        ("one", "two"),
        inputs=([user("a")], [user("b")]),
    ),
    S(
        "F12_answer_cleared_next_turn",
        ("F12", "G1"),
        (
            calls(tc("Answer", GOOD, "s1")),
            "plain",
            calls(tc("Answer", {"value": 6, "explanation": "again"}, "s2")),
        ),
        output=ANSWER,
        checkpoint=True,
        inputs=([user("a")], [user("b")]),
    ),
    # ---- G: judging the result
    S("G1_first_plain_reply_is_the_answer", ("G1",), ("final", "unused"), tools=("add",)),
    S(
        "G3_raw_json_schema_unchecked",
        ("G3",),
        (calls(tc("Raw", {"value": "not a number"}, "s1")),),
        output=Output(("RAW_SCHEMA",)),
        divergence="G3: a JSON-schema dict from Python is refused (unknown-schema); a schema "
        "written in the .agent file is always checked",
        expect_agentc={"error": "LoadError"},
    ),
    S(
        "G3_declared_schema_checked_and_retried",
        ("G3", "G4", "B7"),
        (calls(tc("Answer", {"value": "five"}, "s1")), calls(tc("Answer", GOOD, "s2"))),
        output=Output(("Answer",), declared=True),
    ),
    S(
        "G3_declared_schema_union",
        ("G3", "B7", "G7"),
        (calls(tc("Other", {"label": "x"}, "s1")),),
        output=Output(("Answer", "Other"), declared=True),
    ),
    S(
        "G3_typeddict_checked",
        ("G3", "G4"),
        (calls(tc("TDAnswer", {"value": "x"}, "s1")), calls(tc("TDAnswer", {"value": 3}, "s2"))),
        output=Output(("TDAnswer",)),
    ),
    S(
        "G3_dataclass_checked",
        ("G3",),
        (calls(tc("DCAnswer", {"value": 3}, "s1")),),
        output=Output(("DCAnswer",)),
    ),
    S(
        "G4_retry_until_valid",
        ("G4", "C2"),
        (calls(tc("Answer", {"value": 5}, "s1")), calls(tc("Answer", GOOD, "s2"))),
        output=ANSWER,
    ),
    S(
        "G4_retry_with_tools_node",
        ("G4", "C2"),
        (calls(tc("Answer", {"value": 5}, "s1")), calls(tc("Answer", GOOD, "s2"))),
        tools=("add",),
        output=ANSWER,
    ),
    S(
        "G4_handle_errors_false_raises",
        ("G4",),
        (calls(tc("Answer", {"value": 5}, "s1")),),
        output=Output(("Answer",), handle_errors=False),
    ),
    S(
        "G4_handle_errors_text",
        ("G4",),
        (calls(tc("Answer", {"value": 5}, "s1")), calls(tc("Answer", GOOD, "s2"))),
        output=Output(("Answer",), handle_errors="Try again."),
    ),
    S(
        "G4_tool_message_content",
        ("G4", "B7"),
        (calls(tc("Answer", GOOD, "s1")),),
        output=Output(("Answer",), tool_message_content="Got it."),
    ),
    S(
        "G5_auto_native_by_profile",
        ("G5", "I2"),
        ('{"value": 5, "explanation": "e"}',),
        output=Output(("Answer",), "auto"),
        profile={"structured_output": True},
    ),
    S(
        "G5_auto_native_by_model_name",
        ("G5",),
        ('{"value": 5, "explanation": "e"}',),
        output=Output(("Answer",), "auto"),
        model_name="gpt-4o",
    ),
    S(
        "G5_auto_falls_back_to_tool",
        ("G5",),
        (calls(tc("Answer", GOOD, "s1")),),
        output=Output(("Answer",), "auto"),
    ),
    S(
        "G6_native_bad_answer_raises",
        ("G6",),
        ('{"value": "x"}',),
        output=Output(("Answer",), "provider"),
    ),
    S("G6_native_not_json_raises", ("G6",), ("not json",), output=Output(("Answer",), "provider")),
    S(
        "G7_several_answers_none_counts",
        ("G7", "G4"),
        (
            calls(tc("Answer", GOOD, "s1"), tc("Answer", GOOD, "s2")),
            calls(tc("Answer", GOOD, "s3")),
        ),
        output=ANSWER,
    ),
    S(
        "G7_union_picks_called_schema",
        ("G7", "B7"),
        (calls(tc("Other", {"label": "x"}, "s1")),),
        output=Output(("Answer", "Other")),
    ),
    S(
        "F1_finishing_exactly_at_the_limit",
        ("F1",),
        (calls(tc("add", {"a": 1, "b": 1})), "2"),
        tools=("add",),
        steps=3,
        divergence="F1: a run that reaches END on its last allowed step succeeds "
        "(LangGraph raises, lg #9163)",
        expect_agentc={"error": None},
    ),
    # ---- D: pauses
    S(
        "D4_interrupt_without_checkpointer_returns_question",
        ("D4",),
        (calls(tc("ask_human", {"question": "ok?"})), "never"),
        tools=("ask_human",),
    ),
    S(
        "D7_D8_interrupt_before_tools_then_resume",
        ("D7", "D8", "F10"),
        (calls(tc("add", {"a": 1, "b": 2})), "3"),
        tools=("add",),
        checkpoint=True,
        interrupt_before_tools=True,
        inputs=([user("q")], None),
    ),
]

BY_NAME = {s.name: s for s in SCENARIOS}
assert len(BY_NAME) == len(SCENARIOS), "scenario names must be unique"
