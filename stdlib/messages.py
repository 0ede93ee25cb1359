"""Messages: the conversation an agent carries, and the `add_messages` reducer.

Input: message objects or what a caller may write for one (A6: a bare string, a
`(role, content)` pair, a role dict). Output: typed, frozen pydantic messages and the
merged history. `add_messages` follows B3: a message without an id gets a fresh one; a new
id is appended; a known id replaces that message in place; a `RemoveMessage` deletes by id
and fails on an unknown id; a remove-all marker keeps only what follows it in the update.
"""

from __future__ import annotations

import json
import random as _random
from collections.abc import Iterable
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ..runtime.channels import MISSING as _MISSING
from ..runtime.channels import Channel as _Channel
from ..runtime.channels import DeltaKind as _DK
from ..runtime.channels import ListView as _ListView
from ..runtime.errors import AgentcRuntimeError
from ..runtime.serde import register_type as _register

REMOVE_ALL_MESSAGES = "__remove_all__"

Content = str | list[str | dict[str, Any]]


class _Frozen(BaseModel):
    # Schemas are built on a model's first use, not at import: a run builds only the
    # message kinds it meets (ARCHITECTURE.md, start-up budget).
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    def __repr__(self) -> str:
        """pydantic's repr, built in one pass. (`asyncio.run` on Python 3.11 builds the repr
        of its main task, result included, when it restores the SIGINT handler: a run's
        messages were reprs of a few µs each at the end of every `asyncio.run(ainvoke)`.)"""
        cls = type(self)
        plain = _PLAIN_REPR.get(cls)
        if plain is None:
            plain = _PLAIN_REPR[cls] = _plain_repr(cls)
        if not plain:
            return super().__repr__()
        return f"{cls.__name__}({', '.join([f'{k}={v!r}' for k, v in self.__dict__.items()])})"


def _plain_repr(cls: type[BaseModel]) -> bool:
    """pydantic's repr of `cls` shows each `__dict__` item as `name=repr(value)`: no field
    hidden from it, no extras, no computed fields, no repr hooks of a subclass's own."""
    return (
        not cls.__pydantic_computed_fields__
        and cls.model_config.get("extra") != "allow"
        and all(f.repr for f in cls.__pydantic_fields__.values())
        and cls.__repr_args__ is BaseModel.__repr_args__
        and cls.__repr_name__ is BaseModel.__repr_name__
        and cls.__repr_str__ is BaseModel.__repr_str__
    )


_PLAIN_REPR: dict[type, bool] = {}


class ToolCall(_Frozen):
    name: str
    args: dict[str, Any] = Field(default_factory=dict)
    id: str | None = None
    type: Literal["tool_call"] = "tool_call"


class InvalidToolCall(_Frozen):
    """A tool call whose arguments could not be parsed (C4); never executed."""

    name: str | None = None
    args: str | None = None
    id: str | None = None
    error: str | None = None
    type: Literal["invalid_tool_call"] = "invalid_tool_call"


class UsageMetadata(_Frozen):
    input_tokens: int = 0
    output_tokens: int = 0
    total_tokens: int = 0
    input_token_details: dict[str, int] = Field(default_factory=dict)
    output_token_details: dict[str, int] = Field(default_factory=dict)


class BaseMessage(_Frozen):
    content: Content = ""
    id: str | None = None
    name: str | None = None
    additional_kwargs: dict[str, Any] = Field(default_factory=dict)
    response_metadata: dict[str, Any] = Field(default_factory=dict)

    @property
    def text(self) -> str:
        """The text of the content: a string as is, text blocks joined."""
        if isinstance(self.content, str):
            return self.content
        parts = []
        for block in self.content:
            if isinstance(block, str):
                parts.append(block)
            elif block.get("type") == "text":
                parts.append(str(block.get("text", "")))
        return "".join(parts)


class HumanMessage(BaseMessage):
    type: Literal["human"] = "human"


class SystemMessage(BaseMessage):
    type: Literal["system"] = "system"


class AIMessage(BaseMessage):
    type: Literal["ai"] = "ai"
    tool_calls: list[ToolCall] = Field(default_factory=list)
    invalid_tool_calls: list[InvalidToolCall] = Field(default_factory=list)
    usage_metadata: UsageMetadata | None = None


class ToolMessage(BaseMessage):
    type: Literal["tool"] = "tool"
    tool_call_id: str
    status: Literal["success", "error"] = "success"
    artifact: Any = None


class RemoveMessage(BaseMessage):
    """Deletes the message with this id from the history (or all: REMOVE_ALL_MESSAGES)."""

    type: Literal["remove"] = "remove"


AnyMessage = Annotated[
    HumanMessage | SystemMessage | AIMessage | ToolMessage | RemoveMessage,
    Field(discriminator="type"),
]

_BY_ROLE: dict[str, type[BaseMessage]] = {
    "human": HumanMessage,
    "user": HumanMessage,
    "ai": AIMessage,
    "assistant": AIMessage,
    "system": SystemMessage,
    "developer": SystemMessage,
    "tool": ToolMessage,
    "remove": RemoveMessage,
}


class MessageCoercionError(AgentcRuntimeError, ValueError):
    """A value that cannot be read as a message; names what was given and what is accepted."""

    code = "bad-message"


def coerce_message(value: Any) -> BaseMessage:
    """Read one input entry as a message (A6)."""
    if isinstance(value, BaseMessage):
        return value
    if isinstance(value, str):
        return HumanMessage(content=value)
    if isinstance(value, (tuple, list)) and len(value) == 2 and isinstance(value[0], str):
        return _from_role(value[0], {"content": value[1]})
    if isinstance(value, dict):
        role = value.get("role", value.get("type"))
        if not isinstance(role, str):
            raise MessageCoercionError(
                f"a message dict needs a `role` or `type` key, got keys {sorted(value)}"
            )
        fields = {k: v for k, v in value.items() if k not in ("role", "type")}
        return _from_role(role, fields)
    raise MessageCoercionError(
        f"cannot read {type(value).__name__} as a message; expected a message, a string, "
        "a (role, content) pair or a dict with `role` and `content`"
    )


def _from_role(role: str, fields: dict[str, Any]) -> BaseMessage:
    cls = _BY_ROLE.get(role)
    if cls is None:
        raise MessageCoercionError(
            f"unknown message role {role!r}; expected one of {sorted(_BY_ROLE)}"
        )
    if cls is AIMessage and "tool_calls" in fields:
        fields = dict(fields, tool_calls=[_tool_call(c) for c in fields["tool_calls"] or []])
    if cls is RemoveMessage and "id" not in fields:
        raise MessageCoercionError("a `remove` message needs the `id` of the message to delete")
    if role == "developer":
        # A6: LangChain keeps the role on the SystemMessage so an OpenAI provider sends
        # `developer` again; other providers read it as a plain system message.
        extra = dict(fields.get("additional_kwargs") or {}, __openai_role__="developer")
        fields = dict(fields, additional_kwargs=extra)
    return cls(**fields)


def _tool_call(call: Any) -> ToolCall:
    """Accept LangChain's flat shape and OpenAI's `{function: {name, arguments}}` shape."""
    if isinstance(call, ToolCall):
        return call
    if "function" in call:
        fn = call["function"]
        args = fn.get("arguments") or {}
        return ToolCall(
            name=fn["name"],
            args=json.loads(args) if isinstance(args, str) else args,
            id=call.get("id"),
        )
    return ToolCall(name=call["name"], args=call.get("args") or {}, id=call.get("id"))


def coerce_messages(values: Any) -> list[BaseMessage]:
    if isinstance(values, (str, BaseMessage, dict)) or (
        isinstance(values, tuple) and len(values) == 2 and isinstance(values[0], str)
    ):
        values = [values]
    return [coerce_message(v) for v in values]


def new_message_id() -> str:
    """A fresh random id in UUID-4 form (B3). `random`, not `uuid.uuid4()`: ids need to be
    unique, not secret, and this is three times cheaper on the per-step path."""
    h = f"{_random.getrandbits(128):032x}"
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{_VARIANT[h[16]]}{h[17:20]}-{h[20:]}"


_VARIANT = {c: "89ab"[int(c, 16) & 3] for c in "0123456789abcdef"}  # RFC 4122's variant digit


def with_id(message: BaseMessage) -> BaseMessage:
    """`message`, or a copy of it with a fresh id (B3). The copy is what pydantic's own
    `__copy__` builds, without copying the field dict twice: messages are frozen, so the
    copy may share every field value (half the cost of `model_copy` on the step path)."""
    if message.id:
        return message
    new = object.__new__(type(message))
    fields = message.__dict__.copy()
    fields["id"] = new_message_id()
    _setattr(new, "__dict__", fields)
    _set_fields_set(new, message.__pydantic_fields_set__ | _ID)  # (the slots' own setters)
    _set_extra(new, message.__pydantic_extra__)
    _set_private(new, message.__pydantic_private__)
    return new


_setattr = object.__setattr__
_set_fields_set = BaseModel.__dict__["__pydantic_fields_set__"].__set__
_set_extra = BaseModel.__dict__["__pydantic_extra__"].__set__
_set_private = BaseModel.__dict__["__pydantic_private__"].__set__
_ID = frozenset({"id"})


class MissingMessageError(AgentcRuntimeError, ValueError):
    """A RemoveMessage named an id that is not in the history (B3)."""

    code = "missing-message"


def add_messages(left: Iterable[Any] | None, right: Any) -> list[BaseMessage]:
    """Merge `right` into `left` by id (B3); a pure reference implementation."""
    current = [with_id(m) for m in coerce_messages(left or [])]
    update = [with_id(m) for m in coerce_messages(right)]
    for i in range(len(update) - 1, -1, -1):
        m = update[i]
        if isinstance(m, RemoveMessage) and m.id == REMOVE_ALL_MESSAGES:
            current, update = [], update[i + 1 :]
            break
    index = {m.id: i for i, m in enumerate(current)}
    removed: set[str | None] = set()  # ids are set by `with_id`; the type says Optional
    for m in update:
        at = index.get(m.id)
        if isinstance(m, RemoveMessage):
            if at is None:
                raise MissingMessageError(
                    f"cannot remove message {m.id!r}: no message with that id in the history"
                )
            removed.add(m.id)
        elif at is not None:
            current[at] = m
            removed.discard(m.id)
        else:
            index[m.id] = len(current)
            current.append(m)
    return [m for m in current if m.id not in removed]


# ---------------------------------------------------------------- the incremental channel
# B3 semantics as above, applied in O(size of update) for appends: the history is one
# append-only list shared by snapshots (`MessagesView` = list + length), an id → index map
# finds replacements, and a checkpoint stores each step's normalised writes, not the list.


class MessagesView(_ListView):
    """A read-only snapshot of the history: what nodes see as `state["messages"]`."""

    __slots__ = ()


class MessagesChannel(_Channel):
    """The `messages` channel: add_messages (B3) applied incrementally."""

    __slots__ = ("base", "index", "ops")

    def __init__(self, name: str, default: Any = _MISSING) -> None:
        super().__init__(name)
        self.base: list[BaseMessage] = []
        self.index: dict[str | None, int] = {}
        self.ops: list[tuple[bool, list[BaseMessage]]] = []
        if default is not _MISSING:
            self.update([default or []])

    def view(self) -> Any:
        return MessagesView(self.base, len(self.base)) if self.value is not _MISSING else _MISSING

    def output(self) -> Any:
        return list(self.base) if self.value is not _MISSING else _MISSING

    def prepare(self, value: Any) -> Any:
        return [with_id(m) for m in coerce_messages(value)]

    def update(self, values: Any) -> bool:
        for write in values:
            msgs, removes = _with_ids(write)
            reset = False
            if removes:
                for i in range(len(msgs) - 1, -1, -1):
                    if isinstance(msgs[i], RemoveMessage) and msgs[i].id == REMOVE_ALL_MESSAGES:
                        reset, msgs = True, msgs[i + 1 :]
                        break
                self._apply(reset, msgs)
            else:
                self._add(msgs)
            self.ops.append((reset, msgs))
        self.value, self.dirty = True, True
        return True

    def _add(self, msgs: list[BaseMessage]) -> None:
        """`_apply(False, msgs)` for messages none of which is a RemoveMessage."""
        base, index, copied = self.base, self.index, False
        for m in msgs:
            at = index.get(m.id)
            if at is None:
                index[m.id] = len(base)
                base.append(m)
            else:
                if not copied:  # copy-on-write: views handed out keep their snapshot
                    base, copied = list(base), True
                base[at] = m
        self.base = base

    def _apply(self, reset: bool, msgs: list[BaseMessage]) -> None:
        if reset:
            self.base, self.index = [], {}
        self._check_removals(msgs)
        removed: set[str | None] = set()
        base, index, copied = self.base, self.index, False
        for m in msgs:
            at = index.get(m.id)
            if isinstance(m, RemoveMessage):
                removed.add(m.id)
            elif at is None:
                index[m.id] = len(base)
                base.append(m)
            else:
                if not copied:  # copy-on-write: views handed out keep their snapshot
                    base, copied = list(base), True
                base[at] = m
                removed.discard(m.id)
        if removed:
            base = [m for m in base if m.id not in removed]
            index = {m.id: i for i, m in enumerate(base)}
        self.base, self.index = base, index

    def _check_removals(self, msgs: list[BaseMessage]) -> None:
        known = None
        for m in msgs:
            if isinstance(m, RemoveMessage) and m.id not in self.index:
                known = known or {x.id for x in msgs if not isinstance(x, RemoveMessage)}
                if m.id not in known:
                    raise MissingMessageError(
                        f"cannot remove message {m.id!r}: no message with that id in the history"
                    )

    def drop_delta(self) -> None:
        self.dirty, self.ops = False, []

    def take_delta(self) -> Any:
        if not self.dirty:
            return None
        self.dirty = False
        ops, self.ops = self.ops, []
        return (_DK.OPS, [[reset, msgs] for reset, msgs in ops])

    def apply_delta(self, delta: Any) -> None:
        kind, payload = delta
        if kind is _DK.OPS:
            for reset, msgs in payload:
                self._apply(reset, list(msgs))
            self.value = True
        elif kind is _DK.CLEAR:
            self.base, self.index, self.value = [], {}, _MISSING
        else:  # a whole list (an older or foreign checkpoint)
            self.base, self.index, self.value = [], {}, True
            self._apply(False, [with_id(m) for m in coerce_messages(payload)])
        self.dirty, self.ops = False, []


def _with_ids(write: Any) -> tuple[list[BaseMessage], bool]:
    """One write as messages, each with an id (B3), and whether any is a RemoveMessage."""
    if type(write) is list:  # the usual write, a node's list of messages: one pass
        msgs: list[BaseMessage] = []
        removes = False
        for m in write:
            if not isinstance(m, BaseMessage):
                break
            if isinstance(m, RemoveMessage):
                removes = True
            msgs.append(m if m.id else with_id(m))
        else:
            return msgs, removes
    msgs = [with_id(m) for m in coerce_messages(write)]
    return msgs, any(isinstance(m, RemoveMessage) for m in msgs)


add_messages.__agentc_channel__ = MessagesChannel  # type: ignore[attr-defined]

for _cls in (HumanMessage, SystemMessage, AIMessage, ToolMessage, RemoveMessage):
    _register(_cls, f"message.{_cls.model_fields['type'].default}")
_register(ToolCall, "message.tool_call")  # a pending tool task's Send carries one (E5)
