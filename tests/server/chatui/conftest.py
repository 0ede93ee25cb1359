"""Fixtures for the Agent Chat UI replay: the sequence replayed once per server per session.

The servers are started by the differential test's kit (tests/server/differential), which
is put on the import path here: the two folders share one way of starting them.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "differential"))

from chatui_replay import SEQUENCE, replay_all  # noqa: E402
from servekit import ServeMissing, agentc_serve, langgraph_dev, reference_missing  # noqa: E402


@pytest.fixture(scope="session", params=["langgraph-dev", "agentc-serve"])
def replayed(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory):
    workdir = tmp_path_factory.mktemp(request.param)
    if request.param == "langgraph-dev":
        if (missing := reference_missing()) is not None:
            pytest.skip(missing)
        with langgraph_dev(workdir) as served:
            return replay_all(served.url, served.fake)
    try:
        # The UI is a web page on another origin: the server is told to allow it.
        with agentc_serve(workdir, extra=("--cors-origin", SEQUENCE["origin"])) as served:
            return replay_all(served.url, served.fake)
    except ServeMissing as e:
        pytest.fail(str(e))
