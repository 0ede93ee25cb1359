"""Both sides of the seat tests (tests/conformance/test_conformance_seats.py): each helper
runs one case in LangChain 1.5.2's create_agent and in agentc and returns what each side
showed (the message trace or the exception, and what each model call received). Imported
only after the test module has checked that LangChain is installed."""

from __future__ import annotations

import json
import os
import re

import pytest
from langchain.agents import create_agent
from langchain.agents import middleware as lcm
from langchain.chat_models import init_chat_model
from langchain.chat_models.base import _BUILTIN_PROVIDERS, _parse_model
from langchain_core import exceptions as lce
from langchain_core.tools import tool
from langgraph.checkpoint.memory import InMemorySaver
from lc_scripted import LcScripted, lc_reply, seen, trace
from support.mwkit import RunConfig, agent, ask, call, reply

from agentc.compiler.pipeline import compile_source
from agentc.stdlib.providers import scripted as sc
from agentc.stdlib.providers.resolve import UnknownModelError, parse_model_string
from agentc.testing.fake_provider import FakeReply


@tool
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


@tool
def multiply(a: int, b: int) -> int:
    """Multiply two integers."""
    return a * b


TWO = reply("", call("add", {"a": 2, "b": 3}, "c1"), call("multiply", {"a": 7, "b": 3}, "c2"))


def lc_agent(script, middleware=(), tools=(add, multiply), **kw):
    model = LcScripted(script=[lc_reply(r) for r in script])
    return model, create_agent(model=model, tools=list(tools), middleware=list(middleware), **kw)


def ours(tmp_path, script, middleware, tools="kit.add, kit.multiply", **kw):
    sc.CREATED.clear()
    return agent(tmp_path, replies_=script, tools=tools, middleware=middleware, **kw)


CLASS_OF = {key: cls for key, (_, cls, _) in _BUILTIN_PROVIDERS.items()}


MODEL_STRINGS = [
    "openai:gpt-5.5",
    "anthropic:claude-sonnet-4-5",
    "ollama:llama3:8b",  # only the first colon splits
    "openai:gpt-4o:2024",
    "llama3:8b",  # not a known prefix: the whole string is inferred, and fails
    "gpt-oss-20b",  # A2 reads the name only
    "GPT-4o",
    "o4-mini",
    "claude-x",
    "gemini-2.5-pro",
    "anthropic.claude-v2",
    "mystery",
    "Openai:gpt-4o",  # prefixes are case-sensitive
    ":gpt-4o",
    "langsmith:openai:gpt-4o",
    *(f"{key}:m" for key in _BUILTIN_PROVIDERS),
]


# Placeholder credentials, so a provider class whose integration is installed (langchain-openai
# is, for the server's reference twin) builds: building never calls the network, and a
# missing key would only end the comparison before the class is known.
_PLACEHOLDER_ENV = {
    "OPENAI_API_KEY": "sk-placeholder",
    "AZURE_OPENAI_API_KEY": "placeholder",
    "AZURE_OPENAI_ENDPOINT": "http://127.0.0.1:9",
    "OPENAI_API_VERSION": "2024-10-21",
}


def langchain_model(spec: str) -> tuple[str, str] | None:
    """(provider, name) create_agent resolves `spec` to, None when it cannot tell."""
    with pytest.MonkeyPatch.context() as env:
        for key, value in _PLACEHOLDER_ENV.items():
            env.setenv(key, os.environ.get(key, value))
        return _langchain_model(spec)


def _langchain_model(spec: str) -> tuple[str, str] | None:
    try:
        name, provider = _parse_model(spec, None)
    except ValueError:
        name, provider = spec, None
    try:
        create_agent(spec)
    except ImportError as exc:  # the provider's integration package is not installed
        found = re.match(r"Initializing (\w+) requires", str(exc))
        assert provider is not None and found and found.group(1) == CLASS_OF[provider]
        return provider, name
    except ValueError:  # no provider; or, when one is installed, its class refused to build
        return None if provider is None else (provider, name)
    assert provider is not None  # built: the class is the one the table names
    assert type(init_chat_model(spec)).__name__ == CLASS_OF[provider]
    return provider, name


def agentc_model(spec: str) -> tuple[str, str] | None:
    try:
        return parse_model_string(spec)
    except UnknownModelError:
        return None


def adapter_accepts(target: str) -> bool:
    from langchain.mcp import MCPAdapter

    try:
        MCPAdapter(target)  # builds the client; connects only on `async with`
    except ValueError:
        return False
    return True


def check_accepts(target: str) -> bool:
    result = compile_source(f'agentc 1\nuse "{target}" as files\n', "t.agent")
    codes = [d.code for d in result.diagnostics]
    assert codes in ([], ["mcp-url"]), codes
    return not codes


def big(request) -> bool:
    return request.tool_call["args"]["a"] > 5


def pause_both(tmp_path, lc_on, our_rules, extra_py="", mode=""):
    _, theirs = lc_agent(
        [TWO, "done"],
        [lcm.HumanInTheLoopMiddleware(interrupt_on=lc_on, **mode_kw(mode))],
        checkpointer=InMemorySaver(),
    )
    lc_paused = theirs.invoke(ask(), {"configurable": {"thread_id": "t"}})
    mode_opt = f', interrupt_mode: "{mode}"' if mode else ""
    mine = ours(
        tmp_path,
        [TWO, "done"],
        f"human_review {{ {our_rules}{mode_opt} }}",
        extra="checkpoint memory",
        extra_py=extra_py,
    )
    our_paused = mine.invoke(ask(), RunConfig(thread_id="t"))
    return lc_paused, our_paused


def mode_kw(mode: str) -> dict:
    return {"interrupt_mode": mode} if mode else {}


def held(result) -> list:
    """Each interrupt's value without agentc's extra `tool_call_id` (D10 divergence)."""
    out = []
    for i in result.get("__interrupt__", ()):
        value = dict(i.value)
        if "action_requests" in value:
            value["action_requests"] = [
                {k: v for k, v in r.items() if k != "tool_call_id"}
                for r in value["action_requests"]
            ]
        out.append(value)
    return out


# agentc's scripted failure kinds and the langchain-core error a provider raises for each
LC_ERRORS = {
    "ConnectionError": lce.ModelConnectionError,
    "RateLimitError": lce.ModelRateLimitError,
    "TimeoutError": lce.ModelTimeoutError,
    "ServerError": lce.ModelAPIError,
    "AuthenticationError": lce.ModelAuthenticationError,
    "BadRequestError": lce.ModelInvalidRequestError,
}


def failing(kind: str, message: str = "boom") -> dict:
    return {"raise": kind, "message": message}


def lc_script(script):
    return [
        LC_ERRORS[r["raise"]](r["message"]) if isinstance(r, dict) and "raise" in r else r
        for r in script
    ]


def run_both(tmp_path, script, lc_mw, our_mw, **kw):
    """(outcome, what each call received) in LangChain and in agentc; the outcome is the
    message trace or the exception's class."""
    model, theirs_agent = lc_agent(lc_script(script), lc_mw)
    try:
        theirs = trace(theirs_agent.invoke(ask())["messages"])
    except Exception as exc:  # noqa: BLE001 - the oracle's failure is the observation
        theirs = type(exc)
    mine_agent = ours(tmp_path, script, our_mw, **kw)
    try:
        mine = trace(mine_agent.invoke(ask())["messages"])
    except Exception as exc:  # noqa: BLE001
        mine = type(exc)
    return (theirs, seen(model.calls)), (mine, seen(sc.CREATED[0].calls))


def by_name(name: str):
    return next(m for m in sc.CREATED if m.name == name)


def calls_of(name: str) -> list:
    """The requests a scripted model received; none when the run never built it."""
    return next((m.calls for m in sc.CREATED if m.name == name), [])


def fallback_both(tmp_path, primary, fallbacks):
    """Run primary + fallbacks (scripts) in both; (outcome, calls per model) for each side."""
    lc_models = [LcScripted(script=[lc_reply(r) for r in lc_script(f)]) for f in fallbacks]
    model, theirs_agent = lc_agent(lc_script(primary), [lcm.ModelFallbackMiddleware(*lc_models)])
    try:
        theirs = trace(theirs_agent.invoke(ask())["messages"])
    except Exception as exc:  # noqa: BLE001 - the oracle's failure is the observation
        theirs = type(exc).__name__
    names = []
    for i, script in enumerate(fallbacks):
        (tmp_path / f"fb{i}.json").write_text(json.dumps(script))
        names.append(f'"scripted:fb{i}.json"')
    mine_agent = ours(tmp_path, primary, f"model_fallback {{ models: [{', '.join(names)}] }}")
    try:
        mine = trace(mine_agent.invoke(ask())["messages"])
    except Exception as exc:  # noqa: BLE001
        mine = type(exc).__name__
    their_calls = [seen(m.calls) for m in (model, *lc_models)]
    our_names = ("scripted", *(f"fb{i}.json" for i in range(len(fallbacks))))
    our_calls = [seen(by_name(n).calls) for n in our_names]
    return (theirs, their_calls), (mine, our_calls)


def pairs(n: int) -> list[dict]:
    return [
        m
        for i in range(n)
        for m in ({"role": "user", "content": f"q{i}"}, {"role": "assistant", "content": f"a{i}"})
    ]


def with_tools(n_before: int) -> list[dict]:
    """`n_before` messages, an AI turn with two calls and their two results, then more."""
    turn = {
        "role": "assistant",
        "content": "",
        "tool_calls": [
            {"name": "add", "args": {"a": 1, "b": 2}, "id": "t1"},
            {"name": "add", "args": {"a": 3, "b": 4}, "id": "t2"},
        ],
    }
    results = [
        {"role": "tool", "content": "3", "tool_call_id": "t1"},
        {"role": "tool", "content": "7", "tool_call_id": "t2"},
    ]
    return pairs(n_before // 2) + [turn, *results] + pairs(9)[1:]


def summarize_both(tmp_path, history, keep: int | None = None):
    summarizer = LcScripted(script=["SUMMARY TEXT"])
    options = {} if keep is None else {"keep": ("messages", keep)}
    mw = lcm.SummarizationMiddleware(summarizer, trigger=("messages", 5), **options)
    model, theirs_agent = lc_agent(["final"], [mw])
    theirs = theirs_agent.invoke({"messages": history})
    (tmp_path / "summary.json").write_text('["SUMMARY TEXT"]')
    keep_opt = "" if keep is None else f", keep: messages({keep})"
    mine_agent = ours(
        tmp_path,
        ["final"],
        f'summarization {{ model: "scripted:summary.json", trigger: messages(5){keep_opt} }}',
    )
    mine = mine_agent.invoke({"messages": history})
    their_side = (trace(theirs["messages"]), seen(model.calls), seen(summarizer.calls))
    our_side = (
        trace(mine["messages"]),
        seen(by_name("scripted").calls),
        seen(calls_of("summary.json")),
    )
    return their_side, our_side


# ---------------------------------------------------------------- B9: the Anthropic wire

ANTHROPIC_KEY = "sk-ant-test-ANTHROPIC-9876543210"
ROLES = {"system": "SystemMessage", "human": "HumanMessage", "ai": "AIMessage"}


def blocks(content):
    """Anthropic takes a string or text blocks alike; compare them as blocks."""
    return [{"type": "text", "text": content}] if isinstance(content, str) else content


def sent(server) -> tuple:
    body = server.requests[-1].body
    system = body.get("system")
    turns = [(t["role"], blocks(t["content"])) for t in body["messages"]]
    return (None if system is None else blocks(system), turns)


def anthropic_both(server, history, *, model="claude-sonnet-4-5", in_place=None):
    """What ChatAnthropic and agentc's Anthropic model send the same fake server for
    `history` [(type, text)], or the exception each raised; and the warnings each gave.
    `in_place` overrides the profile's mid_conversation_system_messages on both sides."""
    import dataclasses
    import warnings

    from langchain_anthropic import ChatAnthropic
    from langchain_core import messages as lc_messages
    from support.provider_kit import anthropic_model, run

    from agentc.stdlib import messages as our_messages
    from agentc.stdlib.providers.base import ModelRequest

    extra = {} if in_place is None else {"profile": {"mid_conversation_system_messages": in_place}}
    theirs_model = ChatAnthropic(
        model=model, base_url=server.url, api_key=ANTHROPIC_KEY, max_retries=0, **extra
    )
    ours_model = anthropic_model(server, name=model)
    if in_place is not None:
        ours_model.profile = dataclasses.replace(
            ours_model.profile, mid_conversation_system_messages=in_place
        )
    out = []
    for kit, send in (
        (lc_messages, lambda ms: theirs_model.invoke(ms)),
        (our_messages, lambda ms: run(ours_model.generate(ModelRequest(tuple(ms))))),
    ):
        server.push(FakeReply(text="ok"))
        before = len(server.requests)
        msgs = [getattr(kit, ROLES[kind])(content=text) for kind, text in history]
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                send(msgs)
                got = sent(server) if len(server.requests) > before else "nothing sent"
            except Exception as exc:  # noqa: BLE001 - the failure is the observation
                got = (type(exc).__name__, len(server.requests) > before)
        moved = any("moved to the top" in str(w.message) for w in caught)
        out.append((got, moved))
    return tuple(out)


S, H, A = "system", "human", "ai"
PLACEMENTS = [
    [(S, "a"), (S, "b"), (H, "hi")],  # leading ones merge into the system field
    [(H, "hi"), (S, "later")],  # no leading one: moved to the top, with a warning
    [(H, "hi"), (A, "yo"), (H, "x"), (S, "later"), (S, "l2")],
]
IN_PLACE = [
    [(S, "a"), (H, "hi"), (S, "terse")],  # after a user turn: sent where it is
    [(H, "hi"), (S, "later")],
    [(H, "hi"), (A, "yo"), (H, "x"), (S, "later"), (S, "l2")],
]


def anthropic_server(fake_server, monkeypatch):
    """The body of the `anthropic` fixture: the fake server, with an Anthropic key set."""
    pytest.importorskip("langchain_anthropic", reason="langchain-anthropic is not installed")
    monkeypatch.delenv("ANTHROPIC_BASE_URL", raising=False)
    monkeypatch.setenv("ANTHROPIC_API_KEY", ANTHROPIC_KEY)
    return fake_server
