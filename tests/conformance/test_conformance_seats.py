"""Seats the scenarios do not reach, each run in LangChain 1.5.2 (the oracle) and in agentc.

A1/A2: the model strings `create_agent` is given (the provider its `init_chat_model` picks,
read from the integration class it imports) against agentc's `parse_model_string`. A10:
`MCPAdapter(str)` against `agentc check` of `use "<str>"`. B9: ChatAnthropic and agentc's
Anthropic model against one fake Anthropic server (needs langchain-anthropic, else skipped).
D9: which calls HumanInTheLoopMiddleware holds. D22/D23: MCPAdapter's elicitation loop and
agentc's against the fake MCP server speaking the modern protocol (modern_mcp.py). E8:
ModelRetryMiddleware over a model that fails first. F6: what SummarizationMiddleware keeps
word for word. H4: ModelFallbackMiddleware. Compared: the messages, what each model call
and server received, the interrupts and the exception raised. Where agentc differs, the
test (named `…_differs`, or saying so) asserts the difference exactly.
"""

from __future__ import annotations

import warnings

import pytest

pytest.importorskip("langchain.agents", reason="langchain (the oracle) is not installed")
from langchain.agents import middleware as lcm  # noqa: E402
from langchain_core import exceptions as lce  # noqa: E402
from lc_scripted import trace  # noqa: E402
from modern_mcp import (  # noqa: E402
    ACCEPT,
    CALL,
    FORM,
    LINK,
    agentc_run,
    asking,
    both_mcp,
    langchain_run,
    server_pairs,
)
from seat_kit import (  # noqa: E402
    IN_PLACE,
    LC_ERRORS,
    MODEL_STRINGS,
    PLACEMENTS,
    TWO,
    A,
    H,
    S,
    adapter_accepts,
    agentc_model,
    anthropic_both,
    anthropic_server,
    big,
    blocks,
    check_accepts,
    failing,
    fallback_both,
    held,
    langchain_model,
    lc_agent,
    lc_script,
    ours,
    pairs,
    pause_both,
    run_both,
    summarize_both,
    with_tools,
)
from support.mwkit import ask  # noqa: E402

from agentc.compiler.pipeline import compile_source  # noqa: E402
from agentc.stdlib.providers import scripted as sc  # noqa: E402
from agentc.stdlib.providers.resolve import UnknownModelError, parse_model_string  # noqa: E402
from agentc.testing.fake_mcp import FakeMcpServer, FakeMcpTool  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::Warning")

# ---------------------------------------------------------------- A1, A2


@pytest.mark.parametrize("spec", MODEL_STRINGS)
def test_A1_A2_model_string_resolves_like_create_agent(spec):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = langchain_model(spec)
    assert agentc_model(spec) == theirs


def test_A1_a_prefix_with_no_model_name_differs():
    """LangChain builds the provider's class with model "" (the provider refuses later, on
    the first call); agentc refuses the string, so `agentc check` reports it."""
    assert langchain_model("openai:") == ("openai", "")
    with pytest.raises(UnknownModelError, match="names provider `openai` but no model"):
        parse_model_string("openai:")


# ---------------------------------------------------------------- A10


@pytest.mark.parametrize(
    "target",
    [
        "http://127.0.0.1:1/mcp",
        "https://example.com/mcp",
        "http://h/mcp?x=1#f",
        "file:///bin/sh",
        "stdio://server",
        "ftp://127.0.0.1/mcp",
        "ws://127.0.0.1/mcp",
        "c://server.py",
    ],
)
def test_A10_a_string_target_is_an_http_url_in_both(target):
    assert check_accepts(target) == adapter_accepts(target)


@pytest.mark.parametrize(
    "target, langchain, agentc",
    [
        ("http:///mcp", True, False),  # no host: agentc refuses, pydantic's AnyUrl takes it
        ("HTTP://127.0.0.1/mcp", False, True),  # fastmcp reads only a lower-case `http`
        ("http://h%20x/mcp", False, True),  # the URL checks differ, neither runs a program
    ],
)
def test_A10_malformed_http_urls_differ(target, langchain, agentc):
    assert (adapter_accepts(target), check_accepts(target)) == (langchain, agentc)


@pytest.mark.parametrize(
    "target",
    ["http://:80/mcp", "http://a b/mcp", "http://127.0.0.1:99999/mcp", "http://h:abc/mcp"],
)
def test_A10_a_url_without_a_host_or_with_a_bad_port_is_refused_in_both(target):
    assert (adapter_accepts(target), check_accepts(target)) == (False, False)


def test_A10_a_url_python_cannot_read_is_refused_in_both():
    """LangChain refuses `https://[::1/mcp` with a ValueError naming the target; agentc's
    check refuses it with a located `mcp-url` diagnostic (it once raised urllib's error)."""
    assert not adapter_accepts("https://[::1/mcp")
    result = compile_source('agentc 1\nuse "https://[::1/mcp" as files\n', "t.agent")
    codes = {(e.code.value, "cannot be read" in (e.primary.text or "")) for e in result.errors}
    assert ("mcp-url", True) in codes


# ---------------------------------------------------------------- D9

D9_CASES = [
    ({"add": True, "multiply": False}, "interrupt_on: { add: true, multiply: false }"),
    ({"add": True}, "interrupt_on: { add: true }"),
    (
        {"multiply": {"allowed_decisions": ["approve", "reject"]}},
        ('interrupt_on: { multiply: { allowed_decisions: ["approve", "reject"] } }'),
    ),
    ({"add": False, "multiply": False}, "interrupt_on: { add: false, multiply: false }"),
]


@pytest.mark.parametrize("lc_on, our_rules", D9_CASES)
def test_D9_the_same_calls_are_held_for_review(tmp_path, lc_on, our_rules):
    theirs, mine = pause_both(tmp_path, lc_on, our_rules)
    assert held(mine) == held(theirs)
    assert trace(mine["messages"]) == trace(theirs["messages"])


def test_D9_a_when_predicate_holds_only_matching_calls(tmp_path):
    py = "\ndef big(request):\n    return request.tool_call['args']['a'] > 5\n"
    gate = {"allowed_decisions": ["approve", "reject"], "when": big}
    lc_on = {"add": gate, "multiply": gate}
    our_gate = '{ allowed_decisions: ["approve", "reject"], when: kit.big }'
    rules = f"interrupt_on: {{ add: {our_gate}, multiply: {our_gate} }}"
    theirs, mine = pause_both(tmp_path, lc_on, rules, extra_py=py)
    assert [r["name"] for r in held(theirs)[0]["action_requests"]] == ["multiply"]
    assert held(mine) == held(theirs)


def test_D9_per_call_mode_holds_each_gated_call(tmp_path):
    lc_on = {"add": True, "multiply": False}
    theirs, mine = pause_both(tmp_path, lc_on, "interrupt_on: { add: true }", mode="per_call")
    assert held(mine) == held(theirs)


# ---------------------------------------------------------------- E8, H4

RETRY = "max_retries: 2, initial_delay: 0, jitter: false"
LC_RETRY = {"max_retries": 2, "initial_delay": 0, "jitter": False}


@pytest.mark.parametrize("kind", ["ConnectionError", "RateLimitError", "TimeoutError"])
def test_E8_a_retryable_failure_is_retried_then_answers(tmp_path, kind):
    script = [failing(kind), failing(kind), "ok"]
    theirs, mine = run_both(
        tmp_path, script, [lcm.ModelRetryMiddleware(**LC_RETRY)], f"model_retry {{ {RETRY} }}"
    )
    assert mine == theirs
    assert len(mine[1]) == 3 and mine[1][0] == mine[1][2]  # the same request each time


def test_E8_retries_used_up_answer_with_the_failure(tmp_path):
    script = [failing("ConnectionError")] * 3
    theirs, mine = run_both(
        tmp_path, script, [lcm.ModelRetryMiddleware(**LC_RETRY)], f"model_retry {{ {RETRY} }}"
    )
    assert mine[1] == theirs[1]
    (their_text,), (our_text,) = ([m[1] for m in t[0][1:]] for t in (theirs, mine))
    # the class name is each side's own provider error; the rest is the same
    assert their_text == "Model call failed after 3 attempts with ModelConnectionError: boom"
    assert our_text == (  # agentc's provider errors name the provider
        "Model call failed after 3 attempts with ProviderConnectionError: "
        "scripted request failed: boom"
    )


@pytest.mark.parametrize("kind", ["AuthenticationError", "BadRequestError"])
def test_E8_a_non_retryable_failure_is_not_retried_like_langchain(tmp_path, kind):
    """LangChain's default `retry_on` passes a ModelError whose `is_retryable` is false (401,
    400) straight through after one call; so does agentc's, by the provider error's
    `retryable` flag: one call, and the failure handled (`on_failure`)."""
    script = [failing(kind), "ok"]
    theirs, mine = run_both(
        tmp_path, script, [lcm.ModelRetryMiddleware(**LC_RETRY)], f"model_retry {{ {RETRY} }}"
    )
    assert theirs[0] is LC_ERRORS[kind] and len(theirs[1]) == 1
    assert len(mine[1]) == 1


def test_E8_on_failure_error_raises_after_the_retries(tmp_path):
    script = [failing("ConnectionError")] * 3
    theirs, mine = run_both(
        tmp_path,
        script,
        [lcm.ModelRetryMiddleware(on_failure="error", **LC_RETRY)],
        f'model_retry {{ {RETRY}, on_failure: "error" }}',
    )
    assert theirs[0] is lce.ModelConnectionError and len(theirs[1]) == len(mine[1]) == 3
    assert isinstance(mine[0], type) and issubclass(mine[0], Exception)


def test_E8_without_middleware_a_failed_call_fails_the_run(tmp_path):
    script = [failing("ConnectionError"), "ok"]
    model, theirs_agent = lc_agent(lc_script(script))
    with pytest.raises(lce.ModelConnectionError):
        theirs_agent.invoke(ask())
    from agentc.stdlib.providers.errors import ProviderConnectionError

    mine = ours(tmp_path, script, "")
    with pytest.raises(ProviderConnectionError, match="boom"):
        mine.invoke(ask())
    assert len(model.calls) == len(sc.CREATED[0].calls) == 1


def test_H4_the_fallback_answers_when_the_model_fails(tmp_path):
    theirs, mine = fallback_both(tmp_path, [failing("ConnectionError")], [["from fallback"]])
    assert mine == theirs
    assert theirs[0][-1][:2] == ("ai", "from fallback")


def test_H4_fallbacks_are_tried_in_order_once_each(tmp_path):
    theirs, mine = fallback_both(
        tmp_path,
        [failing("ConnectionError")],
        [[failing("RateLimitError")], ["second"], ["never"]],
    )
    assert mine == theirs
    assert [len(c) for c in theirs[1]] == [1, 1, 1, 0]


def test_H4_every_call_tries_the_primary_first(tmp_path):
    theirs, mine = fallback_both(tmp_path, [TWO, failing("ServerError")], [["done"]])
    assert mine == theirs
    assert [len(c) for c in theirs[1]] == [2, 1]


def test_H4_every_model_failing_raises_the_last_error(tmp_path):
    theirs, mine = fallback_both(
        tmp_path, [failing("ConnectionError")], [[failing("AuthenticationError", "bad key")]]
    )
    assert theirs[0] == "ModelAuthenticationError"
    assert mine == ("ProviderStatusError", theirs[1])  # the 401 of the last fallback


# ---------------------------------------------------------------- F6


def test_F6_the_last_20_messages_are_kept_by_default(tmp_path):
    history = pairs(12) + [{"role": "user", "content": "last"}]  # 25 messages
    theirs, mine = summarize_both(tmp_path, history)
    assert mine == theirs
    assert len(theirs[0]) == 1 + 20 + 1  # the summary, 20 kept word for word, the answer


def test_F6_twenty_messages_or_fewer_are_never_summarized(tmp_path):
    theirs, mine = summarize_both(tmp_path, pairs(10))
    assert mine == theirs
    assert theirs[2] == []  # the summarizer was never called


@pytest.mark.parametrize("before", [2, 4])
@pytest.mark.parametrize("keep", [18, 19, 20])  # the plain cut lands on t2, t1, the AI turn
def test_F6_the_cut_never_parts_a_tool_result_from_its_call(tmp_path, before, keep):
    theirs, mine = summarize_both(tmp_path, with_tools(before), keep=keep)
    assert mine == theirs
    assert theirs[0][1][2][0][2] == "t1"  # kept from the AI turn that made the calls on


# ---------------------------------------------------------------- B9


@pytest.fixture
def anthropic(fake_server, monkeypatch):
    return anthropic_server(fake_server, monkeypatch)


@pytest.mark.parametrize("history", PLACEMENTS)
def test_B9_system_messages_are_placed_like_chat_anthropic(anthropic, history):
    theirs, mine = anthropic_both(anthropic, history)
    assert mine == theirs


@pytest.mark.parametrize("history", IN_PLACE)
def test_B9_in_place_when_the_profile_allows_like_chat_anthropic(anthropic, history):
    theirs, mine = anthropic_both(anthropic, history, in_place=True)
    assert mine == theirs


@pytest.mark.parametrize("in_place", [None, True])
def test_B9_a_later_system_after_a_leading_one_raises(anthropic, in_place):
    """Nothing is sent; the class is each side's own (langchain: ValueError)."""
    history = [(S, "a"), (H, "hi"), (A, "yo"), (S, "later")]
    theirs, mine = anthropic_both(anthropic, history, in_place=in_place)
    assert theirs == (("ValueError", False), False)
    assert mine == (("SystemMessagePlacementError", False), False)


@pytest.mark.parametrize("model", ["claude-opus-4-8", "claude-sonnet-5"])
def test_B9_profiles_that_allow_in_place_system_messages_match(anthropic, model):
    """langchain-anthropic's profiles let these models take a later system message in place;
    agentc's profiles say so too, so both send the same history the same way."""
    history = [(S, "a"), (H, "hi"), (S, "terse")]
    theirs, mine = anthropic_both(anthropic, history, model=model)
    assert theirs == ((blocks("a"), [("user", blocks("hi")), ("system", blocks("terse"))]), False)
    assert mine == theirs


# ---------------------------------------------------------------- D22, D23


@pytest.fixture
def modern():
    yield from server_pairs()


@pytest.mark.parametrize(
    "answers",
    [
        ACCEPT,
        {"env": {"action": "decline"}, "login": {"action": "cancel"}},
    ],
)
def test_D22_questions_pause_the_run_and_the_answers_reach_the_server(tmp_path, modern, answers):
    theirs, mine = both_mcp(
        tmp_path, modern, asking({"env": FORM, "login": LINK}), [{"responses": answers}]
    )
    assert mine == theirs
    assert len(theirs[1]) == 3  # asked, asked again on resume (from the first round), answered


def test_D22_without_a_checkpointer_the_pause_ends_the_run(tmp_path, modern):
    theirs, mine = both_mcp(tmp_path, modern, asking({"env": FORM}), [], saver=False)
    assert mine == theirs


def test_D22_an_accept_without_content_reaches_the_server_as_in_langchain(tmp_path, modern):
    """An accept with no `content` (the usual answer to a URL question) reaches the server
    as `{"action": "accept"}` from both; all else (the pause, the calls, the state echoed)
    is the same too."""
    answers = {"env": {"action": "accept", "content": {"name": "x"}}, "login": {"action": "accept"}}
    theirs, mine = both_mcp(
        tmp_path, modern, asking({"env": FORM, "login": LINK}), [{"responses": answers}]
    )
    assert mine[0][0] == theirs[0][0]  # the same pause
    assert mine[1][:2] == theirs[1][:2]  # the first round, asked twice
    their_last, our_last = theirs[1][2], mine[1][2]
    assert their_last[1]["login"] == {"action": "accept"}
    assert our_last[1]["login"] == {"action": "accept"}
    assert (their_last[0], their_last[2]) == (our_last[0], our_last[2]) == ({"v": 1}, "s1")


@pytest.mark.parametrize(
    "answers",
    [
        {"env": {"action": "accept", "content": {}}},  # no answer for `login`
        {"env": {"action": "accept"}, "login": {"action": "maybe"}},
    ],
)
def test_D23_every_question_needs_a_valid_answer(tmp_path, modern, answers):
    theirs, mine = both_mcp(
        tmp_path, modern, asking({"env": FORM, "login": LINK}), [{"responses": answers}]
    )
    assert mine[0][0] == theirs[0][0] and mine[1] == theirs[1]  # the pause; nothing sent on
    assert (theirs[0][1], mine[0][1]) == ("ValueError", "ResumeValidationError")


@pytest.mark.parametrize(
    "requests",
    [
        {"q": {"method": "sampling/createMessage", "params": {"messages": [], "maxTokens": 9}}},
        {"env": FORM, "r": {"method": "roots/list"}},
        {},  # a continuation round: no question
    ],
)
def test_D23_only_elicitations_are_answered(tmp_path, modern, requests):
    theirs, mine = both_mcp(tmp_path, modern, asking(requests), [])
    assert mine[1] == theirs[1]  # one call, nothing answered
    assert (theirs[0], mine[0]) == (["NotImplementedError"], ["McpServerRequestError"])


def test_D23_a_request_the_server_sends_on_its_own_differs(tmp_path):
    """The legacy path: `elicitation/create` sent by the server during the call. LangChain's
    handler raises, fastmcp turns that into an error answer to the server, and the call's
    result stands (the run goes on); agentc fails the run with McpServerRequestError."""
    legacy = FakeMcpTool(
        "deploy",
        result={"content": [{"type": "text", "text": "done anyway"}]},
        server_request={
            "method": "elicitation/create",
            "params": {"message": "Which file?", "requestedSchema": {"type": "object"}},
        },
    )
    with FakeMcpServer([legacy], sse=True) as theirs_server:
        theirs = langchain_run(theirs_server.url, [CALL, "ok"], [])
    with FakeMcpServer([legacy], sse=True) as ours_server:
        mine = agentc_run(tmp_path, ours_server.url, [CALL, "ok"], [])
    [(interrupts, messages)] = theirs
    assert interrupts == [] and messages[2][1:] == (
        [{"type": "text", "text": "done anyway"}],
        (),
        "c1",
        "success",
    )
    assert messages[-1][:2] == ("ai", "ok")
    assert mine == ["McpServerRequestError"]
