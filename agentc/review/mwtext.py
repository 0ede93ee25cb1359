"""What each middleware does, in one sentence a newcomer can read.

Input: one `ir.MiddlewareSpec` (its declaration and validated config, defaults filled) and
the agent's `ir.Graph`. Output: `describe(mw, graph)` → a sentence saying what happens at
run time ("when the history passes 6 messages, `openai:gpt-4o-mini` summarises …"), never
the config echoed back. One describer per middleware
of stdlib/prelude.agent (tests/review/test_summary.py keeps them equal); a user's own
Python middleware is described by its hook points. Invariant: pure functions of the IR.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

import agentc.ir as ir

from .facts import local_tools, number_text, ticks

_num = number_text

STDLIB = "agentc.stdlib"
Describer = Callable[[Mapping[str, Any], ir.Graph], str]


def is_stdlib(mw: ir.MiddlewareSpec) -> bool:
    return mw.impl.module.startswith(STDLIB)


def model_text(value: Any, fallback: str = "the agent's own model") -> str:
    """A `model` setting: a "provider:name" string, a factory `{"$import": …}`, or none."""
    if isinstance(value, str):
        return f"`{value}`"
    if isinstance(value, dict) and "$import" in value:
        return f"the model built by `{str(value['$import']).rpartition(':')[2]}`"
    return fallback


def count(amount: float | int, word: str) -> str:
    """`6 messages`, `1 token`: a number and its noun (`word` in the plural)."""
    return f"{_num(amount)} {word.removesuffix('s') if amount == 1 else word}"


def size_text(value: Any) -> str:
    """A context size `["messages", 6]` → "6 messages"; tokens and fractions alike."""
    if isinstance(value, list) and len(value) == 2:
        kind, amount = value
        if kind == "fraction" and isinstance(amount, (int, float)):
            return f"{_num(float(amount) * 100)}% of the model's context window"
        return count(amount, str(kind))
    return str(value)


def _names(value: Any, every: str) -> str:
    return ticks([str(v) for v in value]) if isinstance(value, list) and value else every


def _ref(value: Any) -> str:
    if isinstance(value, dict) and "$import" in value:
        return f"`{str(value['$import']).rpartition(':')[2]}`"
    return f"`{value}`"


# ---------------------------------------------------------------- one describer each


def _human_review(c: Mapping[str, Any], g: ir.Graph) -> str:
    setting = c.get("interrupt_on") or {}
    gated = [n for n, v in setting.items() if v not in (False, None)]
    rest = [t.name for t in local_tools(g) if t.name not in gated]
    per = (
        "one pause per held call"
        if c.get("interrupt_mode") == "per_call"
        else ("one pause per model turn")
    )
    said = (
        f"the run pauses before {ticks(gated)} runs so a person can approve, edit or reject "
        f"the call, or answer in its place ({per})"
        if gated
        else "no tool is listed, so nothing pauses"
    )
    return said + (f"; {ticks(rest)} run without review" if rest and gated else "")


def _summarization(c: Mapping[str, Any], g: ir.Graph) -> str:
    trigger = c.get("trigger")
    if trigger is None:
        return "never summarises: no `trigger` is set"
    triggers = trigger if trigger and isinstance(trigger[0], list) else [trigger]
    when = " or ".join(size_text(t) for t in triggers)
    by = model_text(c.get("model"))
    return (
        f"when the history passes {when}, {by} replaces the older messages with one summary "
        f"and the last {size_text(c.get('keep'))} are kept as written"
    )


def _context_editing(c: Mapping[str, Any], g: ir.Graph) -> str:
    said = []
    for edit in c.get("edits") or []:
        trigger, keep = edit.get("trigger", 100_000), edit.get("keep", 3)
        placeholder = edit.get("placeholder", "[cleared]")
        which = f"every tool result but the newest {keep}" if keep else "every tool result"
        said.append(
            f"when a request passes {count(trigger, 'tokens')}, {which} is sent as "
            f'"{placeholder}" (the saved history keeps them)'
        )
    return "; ".join(said) or "edits nothing: no edit is listed"


def _limit_end(behavior: Any, what: str) -> str:
    return {
        "end": f"the run ends with a message saying {what}",
        "error": "the run fails with an error",
        "continue": "further calls are answered with an error message instead of running",
        "ask": "a person is asked whether to go on",
    }.get(str(behavior), str(behavior))


def _caps(c: Mapping[str, Any], unit: str) -> str:
    caps = [f"{count(c[k], unit)} per {k}" for k in ("run", "thread") if c.get(k) is not None]
    return " and ".join(caps) or "no cap (neither `run` nor `thread` is set)"


def _model_call_limit(c: Mapping[str, Any], g: ir.Graph) -> str:
    end = _limit_end(c.get("exit_behavior"), "the limit was reached")
    return f"counts this agent's own model calls: after {_caps(c, 'calls')}, {end}"


def _tool_call_limit(c: Mapping[str, Any], g: ir.Graph) -> str:
    which = f"calls of `{c['tool_name']}`" if c.get("tool_name") else "tool calls"
    end = _limit_end(c.get("exit_behavior"), "the limit was reached")
    return f"counts {which}: after {_caps(c, 'calls')}, {end}"


def _model_fallback(c: Mapping[str, Any], g: ir.Graph) -> str:
    models = ", then ".join(model_text(m) for m in c.get("models") or [])
    return f"when a model call fails, the same request goes to {models or 'no other model'}"


def _retry(c: Mapping[str, Any], what: str) -> str:
    on = c.get("on_failure")
    after = {
        "continue": "the error is handed on as the answer",
        "error": "the run fails",
    }.get(str(on), f"{_ref(on)} decides the answer")
    only = f" (only {ticks(c['retry_on'])})" if c.get("retry_on") else ""
    return (
        f"a failed {what}{only} is tried again up to {count(c.get('max_retries', 2), 'times')}, "
        "waiting "
        f"{_num(c.get('initial_delay', 1))} s and then {_num(c.get('backoff_factor', 2))}× "
        f"longer each time (at most {_num(c.get('max_delay', 60))} s); after that {after}"
    )


def _tool_retry(c: Mapping[str, Any], g: ir.Graph) -> str:
    return _retry(c, "call of " + _names(c.get("tools"), "any tool"))


def _tool_error(c: Mapping[str, Any], g: ir.Graph) -> str:
    text = f"the message {_ref(c['on_error'])} writes" if c.get("on_error") else "the error text"
    return (
        f"a call of {_names(c.get('tools'), 'any tool')} that raises answers the model with "
        f"{text} instead of failing the run"
    )


_PII_DOING = {
    "redact": "replaces it with a `[REDACTED_…]` marker",
    "mask": "masks all but its last characters",
    "hash": "replaces it with a hash",
    "block": "stops the run with an error",
}


def _pii(c: Mapping[str, Any], g: ir.Graph) -> str:
    where = [
        text
        for key, text in (
            ("apply_to_input", "the newest user message before each model call"),
            ("apply_to_output", "each model reply"),
            ("apply_to_tool_results", "tool results"),
        )
        if c.get(key)
    ]
    found = f"{c.get('pii_type')}" + (f" (by {_ref(c['detector'])})" if c.get("detector") else "")
    doing = _PII_DOING.get(str(c.get("strategy")), str(c.get("strategy")))
    return f"looks for {found} in {', and '.join(where) or 'nothing'}, and {doing}"


def _todo_list(c: Mapping[str, Any], g: ir.Graph) -> str:
    return "gives the model a `write_todos` tool and asks it to keep a to-do list (`todos`)"


def _llm_tool_selector(c: Mapping[str, Any], g: ir.Graph) -> str:
    most = f" (at most {c['max_tools']})" if c.get("max_tools") else ""
    keep = f", always keeping {ticks(c['always_include'])}" if c.get("always_include") else ""
    return (
        f"before each model call, {model_text(c.get('model'))} picks the tools the call may "
        f"use{most}{keep}"
    )


def _tool_emulator(c: Mapping[str, Any], g: ir.Graph) -> str:
    which = f"calls of {_names(c.get('tools'), '')}" if c.get("tools") else "tool calls"
    return (
        f"{which} never run: {model_text(c.get('model'))} writes the answer each would have given"
    )


def _shell_tool(c: Mapping[str, Any], g: ir.Graph) -> str:
    where = (
        "in a bubblewrap sandbox (no network, only the workspace writable)"
        if c.get("execution") != "host"
        else "on this machine, unconfined"
    )
    folder = f"`{c['workspace_root']}`" if c.get("workspace_root") else "a fresh temporary folder"
    return (
        f"gives the model a `{c.get('tool_name', 'shell')}` tool: its commands run {where} in "
        f"{folder}, each for at most {_num(c.get('timeout', 30))} s and "
        f"{_num(c.get('max_output_chars', 20000))} characters of output"
    )


def _file_search(c: Mapping[str, Any], g: ir.Graph) -> str:
    hidden = "" if c.get("include_hidden") else " and hidden files"
    return (
        f"gives the model `glob_search` and `grep_search`, which read only inside "
        f"`{c.get('root_path')}` (files over {_num(c.get('max_file_size_mb', 10))} MB{hidden} "
        "are skipped)"
    )


def _model_refusal(c: Mapping[str, Any], g: ir.Graph) -> str:
    return "a reply the provider marks as a refusal fails the run instead of passing as the answer"


def _budgets(c: Mapping[str, Any], g: ir.Graph) -> str:
    units = {"tokens": "{} tokens", "cost": "${}", "time": "{} s"}
    caps = [
        units[k.removeprefix("thread_")].format(_num(c[k]))
        + (" per thread" if "_" in k else " per run")
        for k in ("tokens", "cost", "time", "thread_tokens", "thread_cost", "thread_time")
        if c.get(k) is not None
    ]
    end = _limit_end(c.get("exit_behavior"), "the budget is spent")
    return (
        f"counts this agent's own model calls against {', '.join(caps) or 'no budget'}; "
        f"at the budget {end}"
    )


def _auto_mode(c: Mapping[str, Any], g: ir.Graph) -> str:
    return (
        f"a classifier ({_ref(c.get('classifier'))}) judges each call of "
        f"{_names(c.get('tools'), 'no tool')} before it runs and blocks the risky ones (the "
        "model reads why); other tools run unjudged"
    )


def _model_router(c: Mapping[str, Any], g: ir.Graph) -> str:
    choices = c.get("choices") or {}
    routes = ", ".join(
        f"{name} → {model_text(v.get('model'))}"
        for name, v in choices.items()
        if isinstance(v, dict)
    )
    return (
        f"a classifier ({_ref(c.get('classifier'))}) reads the newest user message once per run "
        f"and sends every model call of the run to the model of the route it picks: {routes}"
    )


DESCRIBERS: Mapping[str, Describer] = MappingProxyType(
    {
        "human_review": _human_review,
        "summarization": _summarization,
        "context_editing": _context_editing,
        "model_call_limit": _model_call_limit,
        "tool_call_limit": _tool_call_limit,
        "model_fallback": _model_fallback,
        "model_retry": lambda c, g: _retry(c, "model call"),
        "tool_retry": _tool_retry,
        "tool_error": _tool_error,
        "pii": _pii,
        "todo_list": _todo_list,
        "llm_tool_selector": _llm_tool_selector,
        "tool_emulator": _tool_emulator,
        "shell_tool": _shell_tool,
        "file_search": _file_search,
        "model_refusal": _model_refusal,
        "budgets": _budgets,
        "auto_mode": _auto_mode,
        "model_router": _model_router,
    }
)

_HOOK_WORDS = {
    ir.HookPoint.BEFORE_AGENT: "once when a run starts",
    ir.HookPoint.BEFORE_MODEL: "before each model call",
    ir.HookPoint.AFTER_MODEL: "after each model call",
    ir.HookPoint.AFTER_AGENT: "once when a run ends",
    ir.HookPoint.WRAP_MODEL_CALL: "around each model call (it may change the request, "
    "switch the model, or answer in its place)",
    ir.HookPoint.WRAP_TOOL_CALL: "around each tool call (it may change, block or answer it)",
    ir.HookPoint.DYNAMIC_PROMPT: "to write the system prompt of each call",
}


def _python(mw: ir.MiddlewareSpec) -> str:
    where = "; ".join(_HOOK_WORDS[p] for p in mw.hooks) or "at no hook point"
    return f"your Python middleware `{mw.impl.attr}` runs {where}"


def _allowed(c: Mapping[str, Any], g: ir.Graph) -> str:
    return (
        "the person's answer must be a decision `interrupt_on` allows for that tool (approve, "
        "edit, reject or respond unless it lists fewer), one for every held call"
    )


def _after_review(c: Mapping[str, Any], g: ir.Graph) -> str:
    notice = "with a notice telling the model" if c.get("edit_notice") else "with no notice"
    return (
        "a refused call does not run and the model reads why; an edited call runs as the "
        f"person wrote it, {notice}"
    )


def _summary_by(c: Mapping[str, Any], g: ir.Graph) -> str:
    prompt = "the prompt written here" if c.get("summary_prompt") else "LangChain's default prompt"
    return f"{model_text(c.get('model'))} writes it from the older messages, with {prompt}"


def _shell_env(c: Mapping[str, Any], g: ir.Graph) -> str:
    env = c.get("env")
    if isinstance(env, dict) and env:
        return f"commands see only {ticks(sorted(env))}, never this process's environment"
    return "commands see an empty environment, never this process's own"


# Seats a middleware answers more precisely than its one sentence: (declaration, seat).
SEAT_WORDS: Mapping[tuple[str, str], Describer] = MappingProxyType(
    {
        ("human_review", "D11"): _allowed,
        ("human_review", "D12"): _after_review,
        ("summarization", "F4"): lambda c, g: (
            f"when the history passes {size_text(c['trigger'])}"
            if c.get("trigger") and not isinstance(c["trigger"][0], list)
            else _summarization(c, g)
        ),
        ("summarization", "F5"): _summary_by,
        ("summarization", "F6"): lambda c, g: f"the last {size_text(c.get('keep'))}, as written",
        ("shell_tool", "D18"): _shell_env,
    }
)


def describe(mw: ir.MiddlewareSpec, graph: ir.Graph, seat: str | None = None) -> str:
    """What `mw` does at run time, in one sentence (no final period); with `seat`, the
    part of it that answers that seat when SEAT_WORDS has one."""
    if not is_stdlib(mw):
        return _python(mw)
    precise = SEAT_WORDS.get((mw.declared, seat)) if seat is not None else None
    describer = precise or DESCRIBERS.get(mw.declared)
    if describer is None:
        return _python(mw)
    return describer(mw.config, graph)
