"""Saving a run's progress under the durability modes of F11.

Input: checkpoints the loop builds after each step, pending writes (finished tasks of an
unfinished step, interrupts, resume answers, Command updates). Output: calls on the
`Checkpointer`. `sync` waits for each save; `async` (the default) hands blocking stores'
saves to one writer thread per store, in order, with at most one save of a run in flight:
before handing the writer the next one, the run awaits the previous one, so the save of
step N overlaps the run of step N+1 and nothing more (back-pressure: a crash loses at most
the last completed step's checkpoint, whose step then runs again); `exit` keeps the latest
checkpoint in memory and saves it once, when the run ends or before anything is written
against it. A SQLite file's saves are made on the run's own thread in every mode (a commit
costs less than the hop; there is never one in flight). The first save that fails stops the
run's saving (later saves are skipped, in order), so the saved chain never has a checkpoint
whose parent is missing: the run ends with that failure (`CheckpointWriteError`) and the
thread resumes from its last good checkpoint. A root run is its thread's only writer from
its load to its final flush (`claim` / `release`; a second is `ThreadBusyError`).
"""

from __future__ import annotations

import asyncio
import sys
import weakref
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from agentc.runtime.checkpoint import Checkpoint, Checkpointer, PendingWrite
from agentc.runtime.errors import AgentcRuntimeError, CheckpointWriteError
from agentc.runtime.events import DebugKind
from agentc.runtime.threadlock import ThreadClaim
from agentc.runtime.types import Durability

_IO_POOLS: weakref.WeakKeyDictionary[Any, ThreadPoolExecutor] = weakref.WeakKeyDictionary()

Build = Callable[[str | None], Checkpoint]  # parent id → the checkpoint to save


def io_pool(store: Any) -> ThreadPoolExecutor:
    """One writer thread per blocking store: saves stay in order (F11 async)."""
    pool = _IO_POOLS.get(store)
    if pool is None:
        pool = _IO_POOLS[store] = ThreadPoolExecutor(1, thread_name_prefix="agentc-ckpt")
    return pool


def _local_file(store: Checkpointer | None) -> bool:
    """A SQLite checkpointer (if its module was never loaded, no store is one)."""
    module = sys.modules.get("agentc.runtime.checkpoint.sqlite")
    return module is not None and isinstance(store, module.SqliteCheckpointer)


class Saver:
    """One run's view of its store: the thread, namespace, durability and the id of the
    checkpoint the next save hangs off (`parent_id`)."""

    __slots__ = (
        "store",
        "thread",
        "ns",
        "durability",
        "active",
        "parent_id",
        "pending",
        "last_submitted",
        "held",
        "exit_build",
        "debug",
        "failed",
        "local",
    )

    def __init__(
        self,
        store: Checkpointer | None,
        thread: str | None,
        ns: str,
        durability: Durability,
        debug: Callable[..., None] | None,
    ) -> None:
        self.store, self.thread, self.ns, self.durability = store, thread, ns, durability
        self.active = store is not None and thread is not None
        self.parent_id: str | None = None
        self.pending: Future[Any] | None = None  # the one async save in flight
        self.last_submitted: Future[Any] | None = None  # the writer's last job for this run
        self.held: ThreadClaim | None = None
        self.exit_build: Build | None = None
        self.debug = debug
        # the first save that failed: every later save of this run is skipped (in the
        # writer's order), so the saved chain ends at the last good checkpoint
        self.failed: BaseException | None = None
        # a local file's save (a SQLite commit: no fsync in WAL mode, its checkpoints run
        # while the run pauses, `sqlitedb.WalKeeper`) costs less than the hop to the writer
        # thread and back, so it is made on the run's own thread in every mode; a database
        # over the network keeps the hop, so the loop's other runs go on while it answers
        self.local = _local_file(store)

    @property
    def live(self) -> Checkpointer:
        """The checkpointer; asked for only while the run saves (`active`)."""
        assert self.store is not None, "a saver without a checkpointer saves nothing"
        return self.store

    async def io(self, fn: Callable[..., Any], *args: Any, wait: bool) -> Any:
        store = self.live
        if not store.blocking:
            return fn(*args)
        if not wait:
            await self.drain()  # back-pressure (F11 async): one save in flight, no more
        job = self.last_submitted = io_pool(store).submit(fn, *args)
        if wait:
            return await asyncio.wrap_future(job)
        self.pending = job  # no asyncio future: a save that ends wakes the loop only if awaited
        return None

    async def drain(self) -> None:
        """Wait for the save in flight, if it has not ended. Its failure is kept in
        `failed` (`_write`) and raised by the next `check`. A cancelled wait cancels
        nothing (`asyncio.wait`): a save still queued is not dropped, so a later save
        (the writer keeps their order) never hangs off a parent that was never written."""
        job, self.pending = self.pending, None
        if job is None or job.done():
            return
        fut = asyncio.wrap_future(job)
        await asyncio.wait((fut,))
        if not fut.cancelled():
            fut.exception()  # retrieved here, so asyncio does not log it

    def claim(self) -> None:
        """Become the thread's only writer (F11: two writers fork its history), or raise
        `ThreadBusyError`. A subgraph's run (a namespace) writes under its parent's claim
        (H3); a run without a checkpointer or thread claims nothing."""
        if self.held is None and self.store is not None and self.thread is not None:
            if not self.ns:
                self.held = self.store.claim(self.thread)

    def release(self) -> None:
        held, self.held = self.held, None
        if held is None:
            return
        job = self.last_submitted
        if job is not None and not job.done():  # a cancelled flush: the writer still saves
            job.add_done_callback(lambda _: held.release())
        else:
            held.release()

    async def load(
        self, checkpoint_id: str | None
    ) -> tuple[list[Checkpoint], list[PendingWrite]] | None:
        """The chain of checkpoints up to `checkpoint_id` (or the latest), and its writes."""
        store, thread, ns = self.live, self.thread, self.ns
        last = await self.io(store.get, thread, ns, checkpoint_id, wait=True)
        if last is None:
            return None
        chain = await self.io(store.chain, thread, ns, last.id, wait=True)
        writes = await self.io(store.writes, thread, ns, last.id, wait=True)
        return chain, writes

    async def checkpoint(self, build: Build) -> None:
        if self.durability is Durability.EXIT:
            self.exit_build = build  # built from the state at the time it is saved
            return
        await self._put(build)

    async def _put(self, build: Build) -> None:
        await self.drain()  # a failure of the save in flight stops this one (`check`)
        self.check()
        ckpt = build(self.parent_id)
        self.parent_id = ckpt.id
        await self._save(
            self.live.put, self.thread, self.ns, ckpt, wait=self.durability is not Durability.ASYNC
        )
        if self.debug is not None:
            self.debug(
                DebugKind.CHECKPOINT,
                {"id": ckpt.id, "step": ckpt.step, "next": [t.node for t in ckpt.next]},
                ckpt.step,
            )

    async def put_writes(self, writes: list[PendingWrite], *, wait: bool = False) -> None:
        if not self.active or not writes:
            return
        if self.exit_build is not None:  # the writes hang off a checkpoint: save it first
            build, self.exit_build = self.exit_build, None
            await self._put(build)
        await self.drain()
        self.check()
        await self._save(
            self.live.put_writes,
            self.thread,
            self.ns,
            self.parent_id,
            writes,
            wait=wait or self.durability is not Durability.ASYNC,
        )

    async def _save(self, fn: Callable[..., Any], *args: Any, wait: bool) -> None:
        """One save through `_write`: here on a local file, else by the writer thread. A
        failed save the run does not wait for (F11 async) is raised by the next `check`,
        wherever it was made."""
        if not self.local:
            await self.io(self._write, fn, *args, wait=wait)
            return
        try:
            self._write(fn, *args)
        except Exception:
            if wait:
                raise

    def _write(self, fn: Callable[..., Any], *args: Any) -> None:
        """One save, run by the writer in order: skipped once an earlier save failed, so
        no checkpoint is ever saved whose parent is missing (a failed save
        followed by later ones once left a gap in the chain)."""
        if self.failed is not None:
            return
        try:
            fn(*args)
        except Exception as e:
            self.failed = e
            raise

    def check(self) -> None:
        """Raise the failure of an earlier save (saving has stopped), as a clear error."""
        if self.failed is None:
            return
        failed = self.failed
        if isinstance(failed, AgentcRuntimeError):
            raise failed
        text = " ".join((str(failed).strip() or type(failed).__name__).split())
        raise CheckpointWriteError(
            f"could not save thread `{self.thread}`: {text} [{type(failed).__name__}]; "
            "saving stopped there, so the thread resumes from its last saved checkpoint",
        ) from failed

    async def flush(self) -> None:
        """The run's last save, awaited; then the thread is free for the next writer."""
        try:
            if self.exit_build is not None:
                build, self.exit_build = self.exit_build, None
                await self._put(build)
            await self.drain()
            self.check()
        finally:
            self.release()
