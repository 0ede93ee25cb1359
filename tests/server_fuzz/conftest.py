"""Fixtures for fuzzing `agentc serve` with schemathesis: a real server and its own
OpenAPI document.

`fuzzed` is `python -m agentc serve tests/server/app/serve_app.agent` (scripted models,
so nothing leaves the machine) on a free port of 127.0.0.1, its threads in a SQLite file
of the session's temp dir, started by the server tests' own kit (`serve_kit`) once per
session and stopped at its end. `api_schema` is schemathesis's view of the document that
server sends at `GET /openapi.json`: the fuzzer's requests are made from it, and its
answers are checked against it.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))

from serve_kit import Served, needs_serve, start, stop  # noqa: E402

if TYPE_CHECKING:
    from schemathesis import BaseSchema


def _restore_many_more() -> None:
    """Give Hypothesis's `many` back the `more()` that hypothesis-jsonschema calls.

    schemathesis 4.15.2 is the newest release that installs beside langgraph-api (which
    caps jsonschema-rs below 0.45; later schemathesis needs 0.46 or more), and it draws
    request bodies with hypothesis-jsonschema 0.23.1. That calls `elements.more()`, which
    Hypothesis 6.170 replaced by `with many(...) as elements: for _ in elements:`. This
    adds `more()` on top of the new protocol; it does nothing where `more()` exists.
    """
    try:
        from hypothesis.internal.conjecture import utils
    except ImportError:  # no Hypothesis: the test module skips itself
        return

    many = utils.many
    if hasattr(many, "more"):
        return

    def more(self: utils.many) -> bool:
        if not hasattr(self, "_shim_elements"):
            self.__enter__()
            self._shim_elements = iter(self)  # type: ignore[attr-defined]
        try:
            next(self._shim_elements)  # type: ignore[attr-defined]
        except StopIteration:
            self.__exit__(None)
            return False
        return True

    many.more = more  # type: ignore[attr-defined]


_restore_many_more()


@pytest.fixture(scope="session")
def fuzzed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    needs_serve()
    workdir = tmp_path_factory.mktemp("fuzzed")
    proc, info = start(workdir, "--db", f"sqlite:///{workdir / 'serve.db'}", name="fuzzed")
    try:
        yield info
    finally:
        stop(proc)


@pytest.fixture(scope="session")
def api_schema(fuzzed: Served) -> BaseSchema:
    import schemathesis

    return schemathesis.openapi.from_url(fuzzed.url + "/openapi.json")


@pytest.fixture(scope="session")
def real_thread(fuzzed: Served) -> str:
    """A thread that exists, with one finished run, for the cases that name a real id."""
    thread = httpx.post(fuzzed.url + "/threads", json={}, timeout=30).json()["thread_id"]
    run = {
        "assistant_id": "calculator",
        "input": {"messages": [{"role": "user", "content": "2+3"}]},
    }
    answer = httpx.post(f"{fuzzed.url}/threads/{thread}/runs/wait", json=run, timeout=60)
    assert answer.status_code == 200, answer.text
    return str(thread)
