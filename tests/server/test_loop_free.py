"""A repository that waits on its database (PostgreSQL's round trips) never stalls the event
loop: while one request's repository call is held, the same server answers another request.

The server is the real route table (`app.table`) and run engine on a real uvicorn on
127.0.0.1; its repository is SQLite in memory, marked `blocking` as PostgreSQL's is, with
one call held on a `threading.Event` until the test lets it go. What is checked is the
order of two facts — the other request was answered, the held call returned — never a
time: on a server that made the call on its loop the held call returns first (after its
hang guard), since nothing else can run until it does.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator

import httpx
import pytest
from serve_kit import APP, free_port, needs_serve

needs_serve()

import uvicorn  # noqa: E402
from starlette.applications import Starlette  # noqa: E402
from starlette.routing import Route  # noqa: E402

from agentc.runtime import InMemoryStore, MemoryCheckpointer  # noqa: E402
from agentc.server.app import table  # noqa: E402
from agentc.server.assistants import Registry  # noqa: E402
from agentc.server.backends import Backends  # noqa: E402
from agentc.server.engine import InProcessEngine  # noqa: E402
from agentc.server.errors import HANDLERS  # noqa: E402
from agentc.server.execute import GraphExecutor  # noqa: E402
from agentc.server.repo import RunRow, SqliteRepository, ThreadRow  # noqa: E402
from agentc.server.routing import Context  # noqa: E402

ASK = {"messages": [{"role": "user", "content": "what is 2+3?"}]}
GUARD_S = 20.0  # hang guard: a held call that nobody lets go returns after this


class HeldRepository(SqliteRepository):
    """SQLite in memory that says it blocks; once `hold(name, key)` is called, the next call
    of `name` for `key` waits until `release`."""

    blocking = True

    def __init__(self) -> None:
        super().__init__(":memory:")
        self.held: tuple[str, str] | None = None
        self.entered, self.released = threading.Event(), threading.Event()
        self.order: list[str] = []

    def hold(self, name: str, key: str) -> None:
        self.held = (name, key)

    def _maybe_hold(self, name: str, key: str) -> None:
        if self.held == (name, key):
            self.held = None
            self.entered.set()
            self.released.wait(GUARD_S)
            self.order.append("held call returned")

    def get_thread(self, thread_id: str) -> ThreadRow | None:
        self._maybe_hold("get_thread", thread_id)
        return super().get_thread(thread_id)

    def put_run(self, row: RunRow) -> None:
        self._maybe_hold("put_run", row.thread_id)
        super().put_run(row)


@pytest.fixture
def served() -> Iterator[tuple[str, HeldRepository]]:
    repo = HeldRepository()
    backends = Backends(MemoryCheckpointer(), InMemoryStore(), repo, "memory")
    registry = Registry([str(APP)], backends)
    ctx = Context(registry, repo, InProcessEngine(GraphExecutor(registry, repo)), backends.store)
    routes = [Route(op.path, op.handler, methods=[op.method]) for op in table(ctx)]
    app = Starlette(routes=routes, exception_handlers=HANDLERS)
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{port}"
    while not server.started and thread.is_alive():
        threading.Event().wait(0.02)
    try:
        yield url, repo
    finally:
        repo.released.set()
        server.should_exit = True
        thread.join(GUARD_S)
        backends.close()


def _answered_while_held(url: str, repo: HeldRepository, request: httpx.Request) -> None:
    """Send `request` (whose repository call is held), then `/ok`; let go once `/ok` has
    answered, and check that it answered first and that `request` then succeeded."""
    with httpx.Client(timeout=GUARD_S * 3) as client:
        got: list[httpx.Response] = []
        sender = threading.Thread(target=lambda: got.append(client.send(request)))
        sender.start()
        assert repo.entered.wait(GUARD_S), "the request never reached the held call"
        assert client.get(url + "/ok").status_code == 200
        repo.order.append("another request answered")
        repo.released.set()
        sender.join(GUARD_S * 2)
    assert repo.order == ["another request answered", "held call returned"]
    assert got and got[0].status_code == 200, got and got[0].text


def test_a_held_thread_read_does_not_stall_other_requests(
    served: tuple[str, HeldRepository],
) -> None:
    url, repo = served
    tid = httpx.post(url + "/threads", json={}).json()["thread_id"]
    repo.hold("get_thread", tid)
    run = httpx.Request("POST", f"{url}/threads/{tid}/runs/wait",
                        json={"assistant_id": "calculator", "input": ASK})  # fmt: skip
    _answered_while_held(url, repo, run)
    state = httpx.get(f"{url}/threads/{tid}/state").json()
    assert [m["type"] for m in state["values"]["messages"]] == ["human", "ai", "tool", "ai"]


def test_a_held_run_write_does_not_stall_other_requests(
    served: tuple[str, HeldRepository],
) -> None:
    url, repo = served
    tid = httpx.post(url + "/threads", json={}).json()["thread_id"]
    repo.hold("put_run", tid)  # the route's own write of the new run
    run = httpx.Request("POST", f"{url}/threads/{tid}/runs",
                        json={"assistant_id": "calculator", "input": ASK})  # fmt: skip
    _answered_while_held(url, repo, run)
    joined = httpx.get(f"{url}/threads/{tid}/runs/{_only_run(url, tid)}/join", timeout=GUARD_S)
    assert joined.status_code == 200


def _only_run(url: str, tid: str) -> str:
    runs = httpx.get(f"{url}/threads/{tid}/runs").json()
    assert len(runs) == 1
    return str(runs[0]["run_id"])
