"""Fixtures for the differential test: both servers started once per session, the SDK
script run once against each, and every step's answer kept for the parametrised tests.

AGENTC_DIFF_REFERENCE_ONLY=1 runs the script against `langgraph dev` alone (the agentc
side's tests are then skipped, saying so): it proves the reference side and the script.
AGENTC_DIFF_CANDIDATE=langgraph compares a second `langgraph dev` with the first: every
step must then be equal, which proves the normalisation hides only ids and times.
"""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path

import pytest
from diff_normalise import Normaliser, message_id_free
from diff_script import STEP_NAMES, Outcome, run_script
from servekit import Served, ServeMissing, agentc_serve, langgraph_dev, reference_missing

REFERENCE_ONLY = os.environ.get("AGENTC_DIFF_REFERENCE_ONLY") == "1"
SELF_CHECK = os.environ.get("AGENTC_DIFF_CANDIDATE") == "langgraph"
# AGENTC_DIFF_DUMP=FOLDER writes each side's normalised answers there (SIDE.json) to read.
DUMP = os.environ.get("AGENTC_DIFF_DUMP")


def _record(served: Served) -> dict[str, Outcome]:
    raw = asyncio.run(run_script(served.url, served.fake))
    # A normaliser per step: an id one side alone sends shifts no other step's numbers.
    out = {
        name: Outcome(raw[name].ok, Normaliser()(message_id_free(raw[name].value)))
        for name in STEP_NAMES
    }
    if DUMP:
        Path(DUMP).mkdir(parents=True, exist_ok=True)
        dump = {name: {"ok": o.ok, "value": o.value} for name, o in out.items()}
        text = json.dumps(dump, indent=1, sort_keys=True, default=str)
        (Path(DUMP) / f"{served.side}.json").write_text(text)
    return out


@pytest.fixture(scope="session")
def reference(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Outcome]:
    if (missing := reference_missing()) is not None:
        pytest.skip(missing)
    with langgraph_dev(tmp_path_factory.mktemp("langgraph-dev")) as served:
        return _record(served)


@pytest.fixture(scope="session")
def candidate(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Outcome]:
    if REFERENCE_ONLY:
        pytest.skip("AGENTC_DIFF_REFERENCE_ONLY=1: langgraph dev alone")
    workdir: Path = tmp_path_factory.mktemp("agentc-serve")
    if SELF_CHECK:
        with langgraph_dev(workdir) as served:
            return _record(served)
    try:
        with agentc_serve(workdir) as served:
            return _record(served)
    except ServeMissing as e:
        pytest.fail(str(e))
