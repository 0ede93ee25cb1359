"""The request bodies the server reads, as pydantic models (the OpenAPI document is made
from these and the route table, so the two cannot drift).

Input: a request's JSON body. Output: a validated model, or pydantic's `ValidationError`,
which `errors.py` answers with 422 naming the field. Invariants: fields the SDK sends that
agentc has no use for (`webhook`, `feedback_keys`, `langsmith_tracer` …) are accepted and
ignored, as LangGraph's server does for fields it does not act on; a field of the wrong
type or value is refused.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

MultitaskStrategy = Literal["reject", "enqueue", "interrupt", "rollback"]
ThreadStatus = Literal["idle", "busy", "interrupted", "error"]
RunStatus = Literal["pending", "running", "error", "success", "timeout", "interrupted"]
CancelAction = Literal["interrupt", "rollback"]
StreamModeName = Literal[
    "values", "updates", "messages", "messages-tuple", "custom", "events", "debug"
]


class Body(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)


class CheckpointRef(Body):
    thread_id: str | None = None
    checkpoint_ns: str | None = ""
    checkpoint_id: str | None = None
    checkpoint_map: dict[str, Any] | None = None


class CommandBody(Body):
    """`command` of a run: resume an interrupt, write state, go to a node."""

    resume: Any = None
    update: dict[str, Any] | list[Any] | None = None
    goto: str | dict[str, Any] | list[str | dict[str, Any]] | None = None


class RunCreate(Body):
    """The body of every run endpoint (stream, wait, background; stateful or not)."""

    assistant_id: str
    input: dict[str, Any] | list[Any] | None = None
    command: CommandBody | None = None
    config: dict[str, Any] | None = None
    context: dict[str, Any] | None = None
    metadata: dict[str, Any] | None = None
    stream_mode: StreamModeName | list[StreamModeName] = "values"
    stream_subgraphs: bool = False
    stream_resumable: bool = False
    checkpoint: CheckpointRef | None = None
    checkpoint_id: str | None = None
    interrupt_before: Literal["*"] | list[str] | None = None
    interrupt_after: Literal["*"] | list[str] | None = None
    multitask_strategy: MultitaskStrategy = "enqueue"
    if_not_exists: Literal["create", "reject"] = "reject"
    on_disconnect: Literal["cancel", "continue"] = "continue"
    on_completion: Literal["delete", "keep"] = "delete"
    durability: Literal["sync", "async", "exit"] | None = None

    def modes(self) -> list[str]:
        return [self.stream_mode] if isinstance(self.stream_mode, str) else list(self.stream_mode)


class RunsCancel(Body):
    """Cancel several runs: these of one thread, or every pending and/or running one."""

    thread_id: str | None = None
    run_ids: list[str] | None = None
    status: Literal["pending", "running", "all"] | None = None


class AssistantSearch(Body):
    metadata: dict[str, Any] | None = None
    graph_id: str | None = None
    name: str | None = None
    limit: int = Field(10, ge=1, le=1000)
    offset: int = Field(0, ge=0)
    sort_by: Literal["assistant_id", "created_at", "updated_at", "name", "graph_id"] | None = None
    sort_order: Literal["asc", "desc"] | None = None


class ThreadCreate(Body):
    thread_id: str | None = None
    metadata: dict[str, Any] | None = None
    if_exists: Literal["raise", "do_nothing"] = "raise"
    graph_id: str | None = None


class ThreadPatch(Body):
    metadata: dict[str, Any] | None = None


class ThreadPrune(Body):
    """Delete several threads at once (`keep_latest`, keeping each one's last state, is
    refused: as in `langgraph dev`)."""

    thread_ids: list[str] = Field(default_factory=list, max_length=1000)
    strategy: Literal["delete", "keep_latest"] = "delete"


class ThreadSearch(Body):
    ids: list[str] | None = None
    metadata: dict[str, Any] | None = None
    values: dict[str, Any] | None = None
    status: ThreadStatus | None = None
    limit: int = Field(10, ge=1, le=1000)
    offset: int = Field(0, ge=0)
    sort_by: Literal["thread_id", "status", "created_at", "updated_at", "state_updated_at"] = (
        "created_at"
    )
    sort_order: Literal["asc", "desc"] = "desc"


class StateUpdate(Body):
    values: dict[str, Any] | None = None
    as_node: str | None = None
    checkpoint: CheckpointRef | None = None
    checkpoint_id: str | None = None


class HistoryRequest(Body):
    limit: int = Field(10, ge=1, le=1000)
    before: CheckpointRef | str | None = None
    metadata: dict[str, Any] | None = None
    checkpoint: CheckpointRef | None = None


class StorePut(Body):
    namespace: list[str]
    key: str
    value: dict[str, Any]
    index: Any = None
    ttl: float | None = None


class StoreDelete(Body):
    namespace: list[str]
    key: str


class StoreSearch(Body):
    namespace_prefix: list[str] = Field(default_factory=list)
    filter: dict[str, Any] | None = None
    limit: int = Field(10, ge=0, le=1000)
    offset: int = Field(0, ge=0)
    query: str | None = None


class StoreNamespaces(Body):
    prefix: list[str] | None = None
    suffix: list[str] | None = None
    max_depth: int | None = Field(None, ge=1)
    limit: int = Field(100, ge=0, le=1000)
    offset: int = Field(0, ge=0)


class CronRun(Body):
    """The run a cron starts each time: the fields of a run's body it keeps."""

    input: dict[str, Any] | list[Any] | None = None
    config: dict[str, Any] | None = None
    context: dict[str, Any] | None = None
    metadata: dict[str, Any] | None = None
    interrupt_before: Literal["*"] | list[str] | None = None
    interrupt_after: Literal["*"] | list[str] | None = None
    multitask_strategy: MultitaskStrategy | None = None
    stream_mode: StreamModeName | list[StreamModeName] | None = None
    stream_subgraphs: bool | None = None
    stream_resumable: bool | None = None
    durability: Literal["sync", "async", "exit"] | None = None


class CronCreate(CronRun):
    """A schedule of runs (`crons.create` / `crons.create_for_thread`). `schedule` is a
    cron expression (five fields, or six with seconds last), read in `timezone` (UTC
    when not given)."""

    assistant_id: str
    schedule: str
    end_time: datetime | None = None
    enabled: bool = True
    timezone: str | None = None
    on_run_completed: Literal["delete", "keep"] | None = None


class CronPatch(CronRun):
    """What `crons.update` changes; a field left out stays, `end_time: null` clears it."""

    schedule: str | None = None
    end_time: datetime | None = None
    enabled: bool | None = None
    timezone: str | None = None
    on_run_completed: Literal["delete", "keep"] | None = None


CronSort = Literal[
    "cron_id", "assistant_id", "thread_id", "next_run_date", "end_time", "created_at", "updated_at"
]


class CronSearch(Body):
    assistant_id: str | None = None
    thread_id: str | None = None
    enabled: bool | None = None
    metadata: dict[str, Any] | None = None
    limit: int = Field(10, ge=1, le=1000)
    offset: int = Field(0, ge=0)
    sort_by: CronSort = "created_at"
    sort_order: Literal["asc", "desc"] = "desc"
    select: list[str] | None = None


class CronCount(Body):
    assistant_id: str | None = None
    thread_id: str | None = None
    metadata: dict[str, Any] | None = None
