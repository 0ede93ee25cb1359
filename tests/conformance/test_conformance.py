"""Each scenario run in LangChain 1.4.10's create_agent and in agentc: the traces must match,
or agentc must show its named divergence (docs/divergences.md)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from harness import run_agentc, run_langchain, same_error  # noqa: E402
from scenarios import SCENARIOS  # noqa: E402

HAVE_ORACLE = importlib.util.find_spec("langchain") is not None
needs_oracle = pytest.mark.skipif(
    not HAVE_ORACLE,
    reason="the oracle (langchain==1.4.10) is not installed: "
    "pip install -e .[oracle] to run the conformance suite",
)


@needs_oracle
@pytest.mark.parametrize("sc", SCENARIOS, ids=[s.name for s in SCENARIOS])
def test_scenario(sc, tmp_path):
    expected = run_langchain(sc)
    got = run_agentc(sc, tmp_path)
    if sc.divergence:
        for key, value in (sc.expect_agentc or {}).items():
            assert getattr(got, key) == value, f"divergence by design: {sc.divergence}"
        # the divergence is real: LangChain answers otherwise
        assert any(getattr(expected, k) != v for k, v in (sc.expect_agentc or {}).items())
        return
    assert same_error(expected, got), (expected.error, got.error)
    assert got.messages == expected.messages
    assert got.structured == expected.structured
    assert got.keys == expected.keys
    assert got.interrupts == expected.interrupts
    assert got.calls == expected.calls
    assert got.stored == expected.stored  # I1: what the run left in the long-term store
