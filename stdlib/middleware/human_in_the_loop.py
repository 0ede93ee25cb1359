"""`human_review` (HumanInTheLoopMiddleware): a person reviews tool calls before they run.

Input: `interrupt_on` (tool name → true | false | {allowed_decisions, description, when}),
`description_prefix`, `edit_notice`, `interrupt_mode` ("batched" | "per_call"). Output: in
batched mode (the default) `after_model` pauses once per model turn with
`{"action_requests": [...], "review_configs": [...]}` and applies the answer; in per_call
mode `wrap_tool_call` pauses once per gated call with a `tool_approval` request. Decisions:
approve, edit (the reviewer's call runs, the model's stays in history, the result carries
the edit notice), reject and respond (a synthetic ToolMessage answers the call, D12).

DIVERGENCE (D10, docs/divergences.md): in batched mode a decision may name the call it
answers — `{"decisions": {"<tool call id>": {...}}}` or `{"type": …, "tool_call_id": …}`
inside the list — and is then matched by id, so a review UI that reorders the requests
cannot misapply them; a list without ids is matched by position, as LangChain does. Unknown
ids, a wrong count, or a decision a tool does not allow are errors (D11).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Mapping
from typing import Annotated, Any, NotRequired, TypedDict

from ...runtime.records import dataclass
from ...runtime.types import Command
from ..messages import AIMessage, ToolMessage
from ..tools import Tool, ToolResult, ToolRuntime
from .base import (
    AgentMiddleware,
    AgentRuntime,
    StateUpdate,
    ToolCallDict,
    ToolCallRequest,
    ask_person,
    tool_call_dict,
)
from .binding import BindInfo
from .chain import ToolHandler
from .state import AgentState, PrivateStateAttr

EDITED_KEY = "hitl_edited_tool_calls"
DECISIONS = ("approve", "edit", "reject", "respond")
DECISION_SOURCE = "hitl_interrupt_decision"  # `lc_source` of a reject/respond answer (D12)
EDIT_NOTICE = (
    "Note: a human reviewer replaced this tool call before it ran. The call "
    "recorded in your message is the one you produced, not the one that executed. "
    "This was intentional and authorized. Do not re-issue your original call."
)

Runtime = AgentRuntime | ToolRuntime | None
Decision = Mapping[str, Any]  # {"type": "approve" | "edit" | …, …}, checked by check_allowed
Describe = Callable[[ToolCallDict, Mapping[str, Any], Runtime], str]


class ReviewError(ValueError):
    """A review answer that does not fit the request (D11)."""


@dataclass(frozen=True, slots=True)
class ReviewRule:
    """How one tool's calls are reviewed (an `interrupt_on` entry, D9)."""

    allowed_decisions: tuple[str, ...]
    description: str | Describe | None = None
    when: Callable[[ToolCallRequest], bool] | None = None  # None: every call


class EditedCall(TypedDict):
    """The call a reviewer's edit runs instead of the model's."""

    name: str
    args: dict[str, Any]


def answer_message(call: ToolCallDict, decision: Decision) -> ToolMessage:
    """D12: what the model reads instead of the tool's result (reject / respond)."""
    if decision["type"] == "respond":
        content = decision["message"]
    elif reason := decision.get("message"):
        content = f"User rejected the tool call for `{call['name']}` with reason: {reason}"
    else:
        content = (
            f"User rejected the tool call for `{call['name']}` with id {call['id']}. "
            "The tool was not executed. Do not retry this tool call unless the user "
            "explicitly requests it."
        )
    # LangChain 1.5.2 marks the answer as the harness's, not the tool's (its notification
    # metadata); providers never send `additional_kwargs` to a model.
    return ToolMessage(
        content=content,
        name=call["name"],
        tool_call_id=call["id"] or "",
        status="success" if decision["type"] == "respond" else "error",
        additional_kwargs={
            "lc_source": DECISION_SOURCE,
            "lc_data": {"decision": decision["type"]},
        },
    )


def resolve_rules(interrupt_on: Mapping[str, bool | Mapping[str, Any]]) -> dict[str, ReviewRule]:
    """D9: true → every decision allowed; false → waved through; a map needs decisions."""
    rules: dict[str, ReviewRule] = {}
    for name, rule in interrupt_on.items():
        if isinstance(rule, bool):
            if rule:
                rules[name] = ReviewRule(DECISIONS)
            continue
        allowed = rule.get("allowed_decisions") if isinstance(rule, Mapping) else None
        if not allowed:
            raise ValueError(
                f"Invalid `interrupt_on` config for tool '{name}': `allowed_decisions` must be "
                "a non-empty list of decision types (e.g. ['approve', 'reject'])."
            )
        bad = [d for d in allowed if d not in DECISIONS]
        if bad:
            raise ValueError(
                f"`interrupt_on` for tool '{name}' allows unknown decisions "
                f"{bad}; use {list(DECISIONS)}"
            )
        rules[name] = ReviewRule(tuple(allowed), rule.get("description"), rule.get("when"))
    return rules


class HumanInTheLoopState(AgentState):
    hitl_edited_tool_calls: NotRequired[Annotated[dict[str, Any], PrivateStateAttr]]


class HumanInTheLoop(AgentMiddleware):
    """D9–D12: gate tool calls on a person's decision."""

    state_schema = HumanInTheLoopState  # read statically by the compiler when used from Python

    def __init__(
        self,
        interrupt_on: Mapping[str, bool | Mapping[str, Any]],
        *,
        description_prefix: str = "Tool execution requires approval",
        edit_notice: str | None = EDIT_NOTICE,
        interrupt_mode: str = "batched",
    ) -> None:
        if interrupt_mode not in ("batched", "per_call"):
            raise ValueError(
                f"`interrupt_mode` must be 'batched' or 'per_call', got {interrupt_mode!r}."
            )
        self.interrupt_on = resolve_rules(interrupt_on)
        self.description_prefix = description_prefix
        self.edit_notice = edit_notice
        self.interrupt_mode = interrupt_mode
        self.tool_names: tuple[str, ...] = ()

    def agentc_bind(self, info: BindInfo) -> None:
        agent = info.graph.agent
        assert agent is not None, "middleware is bound only to an agent's graph"
        self.tool_names = tuple(t.name for t in agent.tools) + tuple(
            t.name for m in agent.middleware for t in m.tools
        )

    @property
    def name(self) -> str:
        return "HumanInTheLoopMiddleware"

    # ---- requests

    def gated(
        self,
        call: ToolCallDict,
        state: Mapping[str, Any],
        runtime: Runtime,
        tool: Tool | None = None,
    ) -> ReviewRule | None:
        """The rule for `call` when it must be reviewed (D9), else None."""
        rule = self.interrupt_on.get(call["name"])
        if rule is None:
            return None
        if rule.when is not None and not rule.when(ToolCallRequest(call, tool, state, runtime)):
            return None  # D9: re-evaluated on resume, as LangChain's
        return rule

    def describe(
        self, call: ToolCallDict, rule: ReviewRule, state: Mapping[str, Any], runtime: Runtime
    ) -> str:
        text = rule.description
        if callable(text):
            return text(call, state, runtime)
        if text is not None:
            return str(text)
        return f"{self.description_prefix}\n\nTool: {call['name']}\nArgs: {call['args']}"

    # ---- batched mode (after_model)

    def after_model(self, state: Mapping[str, Any], runtime: AgentRuntime) -> StateUpdate | None:
        if self.interrupt_mode != "batched":
            return None
        ai = next(
            (m for m in reversed(state.get("messages") or []) if isinstance(m, AIMessage)), None
        )
        if ai is None or not ai.tool_calls:
            return None
        calls = [tool_call_dict(c) for c in ai.tool_calls]
        gated = [(c, rule) for c in calls if (rule := self.gated(c, state, runtime))]
        if not gated:
            return {EDITED_KEY: {}} if state.get(EDITED_KEY) else None
        request = {
            # `tool_call_id` is ours (D10): a reviewer may answer by id
            "action_requests": [
                {
                    "name": c["name"],
                    "args": c["args"],
                    "description": self.describe(c, r, state, runtime),
                    "tool_call_id": c.get("id"),
                }
                for c, r in gated
            ],
            "review_configs": [
                {"action_name": c["name"], "allowed_decisions": list(r.allowed_decisions)}
                for c, r in gated
            ],
        }
        answer = ask_person(runtime, request)
        decisions = match_decisions(answer, [c for c, _ in gated])
        answers: list[ToolMessage] = []
        edited: dict[str, EditedCall] = {}
        for call, rule in gated:
            decision = check_allowed(decisions[id(call)], call, rule)
            if decision["type"] == "edit" and call.get("id"):
                edited[call["id"] or ""] = _edited_action(decision, call)
            elif decision["type"] in ("reject", "respond"):
                answers.append(answer_message(call, decision))
        # As LangChain 1.5.2: the reviewed AI message comes back first (its id is kept, so
        # add_messages replaces it with itself; every call stays in it, an edit is applied
        # at execution time), then the answers to rejected calls.
        return {"messages": [ai, *answers], EDITED_KEY: edited}

    # ---- the tool call (both modes)

    async def awrap_tool_call(self, request: ToolCallRequest, handler: ToolHandler) -> ToolResult:
        executed: EditedCall | None = None
        if self.interrupt_mode == "per_call":
            resolved = self._per_call(request)
            if isinstance(resolved, ToolMessage):
                return resolved
            request, executed = resolved
        else:
            edits: Mapping[str, EditedCall] = (request.state or {}).get(EDITED_KEY) or {}
            executed = edits.get(request.tool_call.get("id") or "")
            if executed is not None:
                request = self.apply_edit(request, executed)
        return self.annotate(await handler(request), request, executed)

    def _per_call(
        self, request: ToolCallRequest
    ) -> tuple[ToolCallRequest, EditedCall | None] | ToolMessage:
        call = request.tool_call
        rule = self.gated(call, request.state, request.runtime, request.tool)
        if rule is None:
            return request, None
        if call.get("id") is None:
            raise ReviewError(
                f"Tool call `{call['name']}` has no ID, so its result can't be "
                "matched to it. Make sure the chat model returns tool call IDs."
            )
        value = {
            "type": "tool_approval",
            "tool_call_id": call["id"],
            "name": call["name"],
            "args": call["args"],
            "description": self.describe(call, rule, request.state, request.runtime),
        }
        answer = ask_person(request.runtime, value)
        answer = answer if isinstance(answer, Mapping) else {"type": answer}
        decision = check_allowed(answer, call, rule)
        if decision["type"] == "approve":
            return request, None
        if decision["type"] == "edit":
            executed = _edited_action(decision, call)
            if executed["name"] != call["name"]:  # D11: per-call edits keep the tool
                raise ReviewError(
                    f"an edit of `{call['name']}` must keep its name, got `{executed['name']}`"
                )
            return self.apply_edit(request, executed), executed
        return answer_message(call, decision)

    def apply_edit(self, request: ToolCallRequest, executed: EditedCall) -> ToolCallRequest:
        call: ToolCallDict = {
            **request.tool_call,
            "name": executed["name"],
            "args": executed["args"],
        }
        if executed["name"] == request.tool_call["name"]:
            return request.override(tool_call=call)
        tool = next((t for t in request.available if t.name == executed["name"]), None)
        if tool is None:
            names = sorted(t.name for t in request.available) or sorted(self.tool_names)
            raise ReviewError(
                f"Reviewer edited tool call {request.tool_call['id']!r} to "
                f"{executed['name']!r}, which is not an available tool. Available tools: "
                f"{', '.join(names)}."
            )
        return request.override(tool_call=call, tool=tool)

    def notice(self, executed: EditedCall, has_content: bool) -> str:
        text = (
            f"{self.edit_notice} Executed instead: {executed['name']} with arguments "
            f"{json.dumps(executed['args'], default=str)}."
        )
        return f"{text}\n\nTool response:" if has_content else text

    def annotate(
        self, result: ToolResult, request: ToolCallRequest, executed: EditedCall | None
    ) -> ToolResult:
        """D12: an edited call's result starts with the notice (unless edit_notice=None)."""
        if not self.edit_notice or executed is None:
            return result
        if isinstance(result, ToolMessage):
            return self._prepend(result, executed)
        if not isinstance(result, Command):
            return result
        update = result.update
        if not isinstance(update, Mapping) or not isinstance(update.get("messages"), list):
            return result
        cid = request.tool_call.get("id")
        messages = [
            self._prepend(m, executed)
            if isinstance(m, ToolMessage) and m.tool_call_id == cid
            else m
            for m in update["messages"]
        ]
        return dataclasses.replace(result, update={**update, "messages": messages})

    def _prepend(self, message: ToolMessage, executed: EditedCall) -> ToolMessage:
        text = self.notice(executed, bool(message.content))
        content = message.content
        if isinstance(content, str):
            if text in content:
                return message
            return message.model_copy(update={"content": f"{text}\n{content}" if content else text})
        if any(text in str(b) for b in content):
            return message
        block: str | dict[str, Any] = (
            text
            if content and all(isinstance(b, str) for b in content)
            else {"type": "text", "text": text}
        )
        return message.model_copy(update={"content": [block, *content]})


HumanInTheLoopMiddleware = HumanInTheLoop


def _edited_action(decision: Decision, call: ToolCallDict) -> EditedCall:
    action = decision.get("edited_action")
    if not isinstance(action, Mapping) or not isinstance(action.get("args", {}), Mapping):
        raise ReviewError(f"an edit of `{call['name']}` needs `edited_action: {{name, args}}`")
    return {"name": action.get("name") or call["name"], "args": dict(action.get("args") or {})}


def check_allowed(decision: object, call: ToolCallDict, rule: ReviewRule) -> Decision:
    """D11: the decision's type must be one the tool allows; returns the decision."""
    allowed = list(rule.allowed_decisions)
    kind = decision.get("type") if isinstance(decision, Mapping) else None
    if not isinstance(decision, Mapping) or kind not in allowed:
        raise ReviewError(
            f"Unexpected human decision: {decision}. Decision type '{kind}' is not allowed "
            f"for tool '{call['name']}'. Expected one of {allowed} based on the tool's "
            "configuration."
        )
    if kind == "respond" and not isinstance(decision.get("message"), str):
        raise ReviewError(f"a `respond` decision for `{call['name']}` needs a `message`")
    return decision


def match_decisions(answer: object, calls: list[ToolCallDict]) -> dict[int, object]:
    """D10: decisions by tool call id where given (our divergence), else by position."""
    raw = answer.get("decisions") if isinstance(answer, Mapping) else answer
    if isinstance(raw, Mapping):  # {tool call id: decision}
        ids = {c.get("id"): c for c in calls}
        unknown = [k for k in raw if k not in ids]
        missing = [c.get("id") for c in calls if c.get("id") not in raw]
        if unknown or missing:
            raise ReviewError(
                f"review decisions name unknown tool call ids {unknown} and "
                f"leave {missing} unanswered"
            )
        return {id(ids[k]): v for k, v in raw.items()}
    if not isinstance(raw, list):
        raise ReviewError(
            'resume a review with {"decisions": [ … ]} (one per request) or '
            '{"decisions": {tool_call_id: decision}}'
        )
    if all(isinstance(d, Mapping) and d.get("tool_call_id") for d in raw) and raw:
        return match_decisions({"decisions": {d["tool_call_id"]: d for d in raw}}, calls)
    if len(raw) != len(calls):
        raise ReviewError(
            f"Number of human decisions ({len(raw)}) does not match number of "
            f"hanging tool calls ({len(calls)})."
        )
    return {id(c): d for c, d in zip(calls, raw, strict=True)}
