"""Make two servers' answers comparable: ids, times and host facts replaced, the rest kept.

Ids become placeholders numbered by first appearance within one step's answer and by kind
(`<thread:0>`, `<run:0>`, `<checkpoint:1>`, `<id:0>` for task and interrupt ids), so "the
same id used twice" is still checked while the ids' values and formats are not, and one
id only one side sends shifts the numbers of its own kind only. An id is the value of an
id key (whatever its format: agentc's checkpoint ids are not uuids), or a uuid, a long
hex string or a provider message id anywhere in a string. Timestamps become "<time>".
Keys that name the host rather than the run (versions, URLs, the request's own headers
copied into metadata, tracing tags) are dropped: a client of either server must not
depend on them. Each documented divergence (docs/divergences.md) is taken out where it
shows and nowhere else — a key of one structure, a node name, a task path — with a comment
naming its row. What stays is compared, differences and all.
"""

from __future__ import annotations

import json
import re
from typing import Any

UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.I)
HEX_ID = re.compile(r"^[0-9a-f]{16,}$")  # interrupt and checkpoint ids (D4: formats differ)
PROVIDER_ID = re.compile(r"chatcmpl-[0-9A-Za-z]+")
TIME = re.compile(r"^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})?$")
STREAM_ID = re.compile(r"^\d{10,}-\d+$")  # ms-seq SSE event ids

# Keys whose values say which server answered, not what the run did.
HOST_KEYS = frozenset(
    {
        "langgraph_version",
        "langgraph_api_version",
        "langgraph_plan",
        "langgraph_host",
        "langgraph_api_url",
        "langgraph_request_id",
        "langgraph_auth_user",
        "langgraph_auth_user_id",
        "langgraph_auth_permissions",
        "host",
        "origin",
        "user-agent",
        "x-request-id",
        "x-forwarded-for",
        "accept",
        "accept-encoding",
        "content-type",
        "content-length",
        "connection",
        "__request_start_time_ms__",
        "__after_seconds__",
        "system_fingerprint",
    }
)
ID_KINDS = {
    "thread_id": "thread",
    "run_id": "run",
    "checkpoint_id": "checkpoint",
    "parent_checkpoint_id": "checkpoint",
    "assistant_id": "assistant",
    "id": "id",
    "task_id": "id",
}
NAMESPACE_KEYS = frozenset({"checkpoint_ns", "langgraph_checkpoint_ns"})  # "node:<task id>"
TIME_KEYS = frozenset({"created_at", "updated_at", "state_updated_at", "modified_at"})
# LangSmith's tracing tags in a `messages` event's metadata: they describe the tracer.
TRACING_PREFIXES = ("ls_", "lc_versions")
# What langchain-openai's ChatOpenAI copies from the raw reply into a message and agentc's
# own OpenAI provider does not (the provider's request id, logprobs, its token usage block,
# an empty refusal); usage itself is compared in `usage_metadata`.
PROVIDER_FIELDS = {
    "response_metadata": frozenset(
        {"id", "logprobs", "token_usage", "system_fingerprint", "service_tier"}
    ),
    "additional_kwargs": frozenset({"refusal"}),
}


# Divergence "node names of stdlib middleware": the compiler names a middleware's hook node
# after the `.agent` file's middleware (`human_review.after_model`), create_agent after the
# class; the reference's name is mapped to ours, wherever a node name appears.
NODE_NAMES = {"HumanInTheLoopMiddleware.after_model": "human_review.after_model"}
# Divergence "tool calls run in one task": create_agent sends each tool call to `tools` as a
# Send (`["__pregel_push", i, false]`); agentc's tool node runs one step's calls in one
# pulled task. Only a `tools` task's path is mapped.
TOOLS_PULL = ["__pregel_pull", "tools"]
# Divergence "run labels not in checkpoint metadata": LangGraph's server merges the run's
# config metadata into each checkpoint's; agentc's checkpoints keep source, step and
# parents only. Dropped from a state's `metadata` alone (they are compared elsewhere).
RUN_LABELS = frozenset(
    {"graph_id", "assistant_id", "user_id", "created_by", "run_attempt", "thread_id", "run_id"}
)


# Divergence "unwritten reducer channel": a reducer channel no node has written yet (the
# messages of a thread's input checkpoint) is absent from agentc's saved state and `[]` in
# LangGraph's; an empty list is dropped from a state's values on both sides.
# Divergence "finished tasks' writes in history": LangGraph keeps each task's writes as
# pending writes of the checkpoint it ran from and shows them as `tasks[].result`; agentc
# keeps a finished step's writes only in the next checkpoint's deltas (pending writes only
# for a step that paused or failed), so its history shows `result: null`.
# Divergence "served file named": agentc's assistants name the `.agent` file they come
# from (relative to the server's folder, never absolute); LangGraph's carry no such key.
ASSISTANT_ONLY = frozenset({"file"})


# Divergence "messages metadata without task namespace": a `messages` chunk's metadata in
# LangGraph names the task's checkpoint namespace (`model:<task id>`) and the channels that
# triggered it (`branch:to:model`); agentc's message events carry neither.
MESSAGE_ONLY = frozenset({"checkpoint_ns", "langgraph_checkpoint_ns", "langgraph_triggers"})


def _is_message_meta(value: dict[str, Any]) -> bool:
    return "langgraph_node" in value and "langgraph_path" in value


def _is_assistant(value: dict[str, Any]) -> bool:
    return {"assistant_id", "graph_id", "metadata"} <= value.keys()


def _is_state(value: dict[str, Any]) -> bool:
    return {"values", "next", "tasks", "metadata"} <= value.keys()


def _state(value: dict[str, Any]) -> dict[str, Any]:
    """A `ThreadState` without the three documented differences of saved states."""
    out = dict(value)
    if isinstance(out["metadata"], dict):
        out["metadata"] = {k: v for k, v in out["metadata"].items() if k not in RUN_LABELS}
    if isinstance(out["values"], dict):  # "unwritten reducer channel"
        out["values"] = {k: v for k, v in out["values"].items() if v != []}
    if isinstance(out["tasks"], list):  # "finished tasks' writes in history"
        out["tasks"] = [_without(t, "result") for t in out["tasks"]]
    return out


class Normaliser:
    """One per step's answer: placeholders are numbered within it, kind by kind."""

    def __init__(self) -> None:
        self._names: dict[str, str] = {}
        self._counts: dict[str, int] = {}

    def _place(self, kind: str, value: str) -> str:
        key = value.lower()
        if key not in self._names:
            count = self._counts.get(kind, 0)
            self._counts[kind] = count + 1
            self._names[key] = f"<{kind}:{count}>"
        return self._names[key]

    def _namespace(self, value: str) -> str:
        parts = [p.partition(":") for p in value.split("|")] if value else []
        return "|".join(f"{n}:{self._place('id', t)}" if t else n for n, _, t in parts)

    def text(self, value: str) -> str:
        if value in NODE_NAMES:
            return NODE_NAMES[value]
        if TIME.match(value):
            return "<time>"
        if HEX_ID.match(value):
            return self._place("id", value)
        if STREAM_ID.match(value):
            return "<event-id>"
        value = UUID.sub(lambda m: self._place("id", m.group(0)), value)
        return PROVIDER_ID.sub(lambda m: self._place("id", m.group(0)), value)

    def __call__(self, value: Any) -> Any:
        if isinstance(value, dict):
            out: dict[str, Any] = {}
            if _is_state(value):
                value = _state(value)
            if _is_assistant(value) and isinstance(value["metadata"], dict):
                meta = {k: v for k, v in value["metadata"].items() if k not in ASSISTANT_ONLY}
                value = {**value, "metadata": meta}
            if _is_message_meta(value):
                value = {k: v for k, v in value.items() if k not in MESSAGE_ONLY}
            if value.get("name") == "tools" and _pushed(value.get("path")):
                value = {**value, "path": TOOLS_PULL}
            for key, item in value.items():
                if key in HOST_KEYS or (
                    isinstance(key, str) and key.startswith(("x-", *TRACING_PREFIXES))
                ):
                    continue
                if key in PROVIDER_FIELDS and isinstance(item, dict):
                    item = {k: v for k, v in item.items() if k not in PROVIDER_FIELDS[key]}
                if key in TIME_KEYS and item is not None:
                    out[key] = "<time>"
                    continue
                if key in ID_KINDS and isinstance(item, str) and item:
                    out[key] = self._place(ID_KINDS[key], item)
                    continue
                if key in NAMESPACE_KEYS and isinstance(item, str):
                    out[key] = self._namespace(item)
                    continue
                if key == "action_requests" and isinstance(item, list):
                    # D10 (documented): agentc's review requests also carry tool_call_id.
                    item = [_without(r, "tool_call_id") for r in item]
                out[self.text(key) if isinstance(key, str) else key] = self(item)
            return out
        if isinstance(value, (list, tuple)):
            return [self(v) for v in value]
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, float):
            return round(value, 6)
        return value


def _pushed(path: Any) -> bool:
    return isinstance(path, list) and len(path) == 3 and path[0] == "__pregel_push"


def _without(value: Any, key: str) -> Any:
    return {k: v for k, v in value.items() if k != key} if isinstance(value, dict) else value


def message_id_free(value: Any) -> Any:
    """The same value with every message's "id" taken out: message ids are made by
    different code on the two sides (`lc_run--…` in LangChain) and never compared."""
    if isinstance(value, dict):
        is_message = "type" in value and "content" in value
        return {k: message_id_free(v) for k, v in value.items() if not (is_message and k == "id")}
    if isinstance(value, list):
        return [message_id_free(v) for v in value]
    return value


def differences(want: Any, got: Any, path: str = "") -> list[str]:
    """Where two JSON values differ, one line a place: `path: reference X, agentc Y`."""
    where = path or "(top)"
    if isinstance(want, dict) and isinstance(got, dict):
        out = []
        for key in list(want) + [k for k in got if k not in want]:
            sub = f"{path}.{key}" if path else str(key)
            if key not in got:
                out.append(f"{sub}: only langgraph dev has it ({_short(want[key])})")
            elif key not in want:
                out.append(f"{sub}: only agentc serve has it ({_short(got[key])})")
            else:
                out += differences(want[key], got[key], sub)
        return out
    if isinstance(want, list) and isinstance(got, list):
        if len(want) != len(got):
            return [f"{where}: {len(want)} items in langgraph dev, {len(got)} in agentc serve"]
        out = []
        for i, (a, b) in enumerate(zip(want, got, strict=True)):
            out += differences(a, b, f"{path}[{i}]")
        return out
    if want != got:
        return [f"{where}: langgraph dev {_short(want)}, agentc serve {_short(got)}"]
    return []


def _short(value: Any, limit: int = 160) -> str:
    text = json.dumps(value, sort_keys=True, default=str)
    return text if len(text) <= limit else text[: limit - 1] + "…"
