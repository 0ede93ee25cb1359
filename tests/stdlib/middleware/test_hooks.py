"""Hook points, decorators, wrapper order, jump_to, and the seed 002 middleware examples."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.mwkit import Command, RunConfig, agent, ask, call, contents, model_calls, reply

from agentc.api import load_agent
from agentc.stdlib.middleware import AgentMiddleware, before_model
from agentc.stdlib.middleware.binding import middleware_of

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"

HOOKS = """
TRACE = []

@wrap_model_call
def outer(request, handler):
    TRACE.append("outer>")
    out = handler(request)
    TRACE.append("<outer")
    return out

@wrap_model_call
async def inner(request, handler):
    TRACE.append("inner>")
    out = await handler(request.override(system_prompt="from inner"))
    TRACE.append("<inner")
    return out

@before_model(can_jump_to=["end"])
def stop_early(state, runtime):
    if state["messages"][-1].content == "stop":
        return {"jump_to": "end", "messages": [{"role": "ai", "content": "stopped"}]}
    return None

@wrap_tool_call
def guard(request, handler):
    TRACE.append("guard:" + request.tool_call["name"] + ":" + str(request.tool is None))
    if request.tool is None:
        from agentc.stdlib.messages import ToolMessage
        return ToolMessage(content="no such tool", tool_call_id=request.tool_call["id"], status="error")
    return handler(request.override(tool_call={**request.tool_call, "args": {"a": 100, "b": 1}}))

@before_agent
def hello(state, runtime):
    TRACE.append("before_agent")

@after_agent
async def bye(state, runtime):
    TRACE.append("after_agent")

class Both(AgentMiddleware):
    def __init__(self, label: str = "x"):
        self.label = label
        self.seen = []
    def before_model(self, state, runtime):
        self.seen.append(("before", self.label))
    async def aafter_model(self, state, runtime):
        self.seen.append(("after", self.label))
"""  # noqa: E501 - fixture code, written to a file as is


def test_seed_counting_middleware_counts_across_hooks():
    a = load_agent(EXAMPLES / "counting.agent")
    a.invoke(ask())
    counter = middleware_of(a, "CountingMiddleware")
    assert (counter.calls, counter.replies) == (1, 1)  # one object behind both hook nodes


def test_seed_decorators_name_and_dynamic_prompt(capsys):
    from importlib import util

    spec = util.spec_from_file_location("example_hooks", EXAMPLES / "hooks.py")
    module = util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert type(module.log_turn).__name__ == "log_turn"
    assert isinstance(module.log_turn, AgentMiddleware)
    result = load_agent(EXAMPLES / "decorated_hooks.agent").invoke(ask())
    assert result["messages"][-1].content == "hi back"
    assert capsys.readouterr().out == "[middleware] messages so far: 1\n"
    assert model_calls()[0].messages[0].content == "You are answering turn 1."


def test_seed_human_review_example():
    a = load_agent(EXAMPLES / "human_review.agent")
    cfg = RunConfig(thread_id="1")
    paused = a.invoke(ask("what is 2+3?"), cfg)
    assert list(paused)[-1] == "__interrupt__"
    request = paused["__interrupt__"][0].value["action_requests"][0]
    assert (request["name"], request["args"]) == ("add", {"a": 2, "b": 3})
    resumed = a.invoke(Command(resume={"decisions": [{"type": "approve"}]}), cfg)
    assert resumed["messages"][-1].content == "The answer is 5."


def test_seed_context_editing_example():
    result = load_agent(EXAMPLES / "context_editing.agent").invoke(ask("report?"))
    assert repr(model_calls()[1].messages[-1].content)[:40] == "'[cleared]'"
    assert repr(result["messages"][2].content)[:40] == "'LONG REPORT LONG REPORT LONG REPORT LON"


def test_wrap_model_call_first_declared_is_outermost(tmp_path):
    a = agent(tmp_path, replies_=["ok"], middleware="kit.outer\nkit.inner", extra_py=HOOKS)
    a.invoke(ask())
    import sys

    trace = next(
        m
        for n, m in sys.modules.items()
        if n.startswith("agentc_user_") and hasattr(m, "TRACE") and m.TRACE
    ).TRACE
    assert trace == ["outer>", "inner>", "<inner", "<outer"]
    assert model_calls()[0].messages[0].content == "from inner"


def test_C2_jump_to_end_from_before_model(tmp_path):
    from agentc.stdlib.providers.scripted import CREATED

    a = agent(tmp_path, replies_=["never"], middleware="kit.stop_early", extra_py=HOOKS)
    last = CREATED[-1] if CREATED else None
    result = a.invoke(ask("stop"))
    assert contents(result) == [("human", "stop"), ("ai", "stopped")]
    assert (CREATED[-1] if CREATED else None) is last  # the model was never called
    assert "jump_to" not in result


def test_E1_unknown_tool_reaches_wrap_tool_call_first(tmp_path):
    first = reply("", call("nope", {}, "c1"), call("add", {"a": 1, "b": 1}, "c2"))
    a = agent(
        tmp_path, replies_=[first, "ok"], tools="kit.add", middleware="kit.guard", extra_py=HOOKS
    )
    result = a.invoke(ask())
    tools = {m.tool_call_id: m.content for m in result["messages"] if m.type == "tool"}
    assert tools == {"c1": "no such tool", "c2": "101"}  # the wrapper edited c2's args


def test_before_and_after_agent_hooks_run_once(tmp_path):
    a = agent(
        tmp_path,
        replies_=[reply("", call("add", {"a": 1, "b": 1}, "c1")), "ok"],
        tools="kit.add",
        middleware="kit.hello\nkit.bye",
        extra_py=HOOKS,
    )
    a.invoke(ask())
    import sys

    mod = next(
        m
        for n, m in sys.modules.items()
        if n.startswith("agentc_user_") and hasattr(m, "TRACE") and "before_agent" in m.TRACE
    )
    assert mod.TRACE.count("before_agent") == 1 and mod.TRACE[-1] == "after_agent"


def test_python_class_middleware_gets_settings_and_async_hooks(tmp_path):
    a = agent(tmp_path, replies_=["ok"], middleware='kit.Both { label: "L" }', extra_py=HOOKS)
    a.invoke(ask())
    assert middleware_of(a, "Both").seen == [("before", "L"), ("after", "L")]


def test_decorator_options_and_bare_form():
    @before_model(name="custom", can_jump_to=["end"])
    def fn(state, runtime):
        return None

    assert type(fn).__name__ == "custom"
    assert fn.before_model.__can_jump_to__ == ["end"]


def test_agentc_middleware_alias_exports_langchain_names():
    import agentc.middleware as m

    assert m.HumanInTheLoopMiddleware.__name__ == "HumanInTheLoop"
    assert m.before_model is before_model
    with pytest.raises(AttributeError):
        m.NoSuchThing  # noqa: B018
