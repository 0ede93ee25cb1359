"""One way to open a SQLite file, shared by the checkpointer and the long-term store, and
the checkpointer's keeper of a small write-ahead log."""

from __future__ import annotations

import os
import sqlite3
import threading
import time

PAGE_BYTES = 1024
# the WAL file is cut back to this size when the log restarts after a checkpoint
WAL_LIMIT_BYTES = 256 * 1024


def connect(path: str) -> sqlite3.Connection:
    """One autocommit connection in WAL mode, shared across threads under the caller's
    lock; the file's folder is made if missing. Used by the checkpointer and the store."""
    if path != ":memory:":
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
    # a new file's pages (an existing file keeps its own): each commit of a step writes
    # about three pages (a table leaf and two index leaves), whatever the row's size, so
    # SQLite's 4 KiB default made the WAL grow 12 KiB a step; 1 KiB pages keep its
    # auto-checkpoint bound (1000 pages) at 1 MiB instead of 4 MiB at the same cost
    conn.execute(f"PRAGMA page_size={PAGE_BYTES}")
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute(f"PRAGMA journal_size_limit={WAL_LIMIT_BYTES}")
    return conn


class WalKeeper:
    """Keeps a file's write-ahead log small while a writer commits now and then.

    SQLite restarts its WAL from the beginning (and `journal_size_limit` cuts the file
    back) only at a commit that finds every frame already copied into the database by a
    checkpoint. Its own auto-checkpoint runs inside the commit that crosses 1000 pages, so
    until then the log of a long run grows to about 4 MB. The keeper runs a PASSIVE
    checkpoint (it never waits for the writer or a reader) on a connection of its own, in
    a daemon thread, once the writer has made no commit for `IDLE_S` — between the steps of
    a real run, which waits for its model — so no commit waits for the checkpoint's fsyncs
    (several ms each) and the next commit restarts the log. A writer that never pauses
    keeps SQLite's own auto-checkpoint as its bound."""

    IDLE_S = 0.005

    def __init__(self, path: str) -> None:
        self.path = path
        self.commits = 0  # advisory: counted under the writer's lock, read by the thread
        self._wake = threading.Event()
        self._closing = False
        self._thread: threading.Thread | None = None

    def committed(self) -> None:
        """One commit was made: the thread watches for the pause after it."""
        self.commits += 1
        if self._wake.is_set():
            return
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="agentc-wal", daemon=True)
            self._thread.start()
        self._wake.set()

    def _run(self) -> None:
        try:
            conn = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            conn.execute(f"PRAGMA journal_size_limit={WAL_LIMIT_BYTES}")
        except sqlite3.Error:
            return  # no checkpoints here: SQLite's own auto-checkpoint still bounds the WAL
        try:
            while not self._closing:
                self._wake.wait()
                self._wake.clear()
                seen = -1
                while seen != self.commits and not self._closing:  # until a pause
                    seen = self.commits
                    time.sleep(self.IDLE_S)
                if self._closing:
                    return
                try:
                    conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                except sqlite3.Error:
                    pass  # busy or failed: the next pause tries again
        finally:
            conn.close()

    def close(self) -> None:
        """Stop the thread and close its connection, before the writer's own close (the
        last connection's close checkpoints the rest and deletes the WAL)."""
        self._closing = True
        self._wake.set()
        if self._thread is not None:
            self._thread.join()


def is_damaged(error: sqlite3.Error) -> bool:
    """Whether SQLite says the file itself is unreadable (corrupt, or not a database), as
    opposed to a failed write or a busy lock."""
    name = str(getattr(error, "sqlite_errorname", "") or "")
    return (
        name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")) or type(error) is sqlite3.DatabaseError
    )
