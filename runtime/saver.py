"""Saving a run's progress under the durability modes of F11.

Input: checkpoints the loop builds after each step, pending writes (finished tasks of an
unfinished step, interrupts, resume answers, Command updates). Output: calls on the
`Checkpointer`. `sync` waits for each save; `async` (the default) hands blocking stores'
saves to one writer thread per store, in order, and waits only at the end of the run;
`exit` keeps the latest checkpoint in memory and saves it once, when the run ends or
before anything is written against it. The first save that fails stops the run's saving
(later saves queued behind it are skipped, in order), so the saved chain never has a
checkpoint whose parent is missing: the run ends with that failure (`CheckpointWriteError`)
and the thread resumes from its last good checkpoint.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from agentc.runtime.checkpoint import Checkpoint, Checkpointer, PendingWrite
from agentc.runtime.errors import AgentcRuntimeError, CheckpointWriteError
from agentc.runtime.events import DebugKind
from agentc.runtime.types import Durability

_IO_POOLS: weakref.WeakKeyDictionary[Any, ThreadPoolExecutor] = weakref.WeakKeyDictionary()

Build = Callable[[str | None], Checkpoint]  # parent id → the checkpoint to save


def io_pool(store: Any) -> ThreadPoolExecutor:
    """One writer thread per blocking store: saves stay in order (F11 async)."""
    pool = _IO_POOLS.get(store)
    if pool is None:
        pool = _IO_POOLS[store] = ThreadPoolExecutor(1, thread_name_prefix="agentc-ckpt")
    return pool


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
        "bg",
        "exit_build",
        "debug",
        "failed",
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
        self.bg: list[asyncio.Future[Any]] = []
        self.exit_build: Build | None = None
        self.debug = debug
        # the first save that failed: every later save of this run is skipped (in the
        # writer's order), so the saved chain ends at the last good checkpoint
        self.failed: BaseException | None = None

    @property
    def live(self) -> Checkpointer:
        """The checkpointer; asked for only while the run saves (`active`)."""
        assert self.store is not None, "a saver without a checkpointer saves nothing"
        return self.store

    async def io(self, fn: Callable[..., Any], *args: Any, wait: bool) -> Any:
        if not self.live.blocking:
            return fn(*args)
        fut = asyncio.get_running_loop().run_in_executor(io_pool(self.live), fn, *args)
        if wait:
            return await fut
        self.bg.append(fut)
        return None

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
        self.check()
        ckpt = build(self.parent_id)
        self.parent_id = ckpt.id
        await self.io(
            self._write,
            self.live.put,
            self.thread,
            self.ns,
            ckpt,
            wait=self.durability is not Durability.ASYNC,
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
        self.check()
        await self.io(
            self._write,
            self.live.put_writes,
            self.thread,
            self.ns,
            self.parent_id,
            writes,
            wait=wait or self.durability is not Durability.ASYNC,
        )

    def _write(self, fn: Callable[..., Any], *args: Any) -> None:
        """One save, run by the writer in order: skipped once an earlier save failed, so
        no checkpoint is ever saved whose parent is missing (issue 12 item 4)."""
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
        if self.exit_build is not None:
            build, self.exit_build = self.exit_build, None
            await self._put(build)
        if self.bg:
            bg, self.bg = self.bg, []
            await asyncio.gather(*bg, return_exceptions=True)  # all done: none left running
        self.check()
