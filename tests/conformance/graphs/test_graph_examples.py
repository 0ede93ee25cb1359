"""Every example of examples/graphs/ runs offline with `agentc run FILE --input …` (the CLI
in this process, with the final state as JSON) and ends in the state its header promises."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agentc.cli import main

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "graphs"

# example → (--input, the final state's key facts)
CASES = {
    "quickstart": ("Add 3 and 4, then double it.", {"llm_calls": 3}),
    "quickstart_python": ("Add 3 and 4, then double it.", {"llm_calls": 3}),
    "prompt_chaining": (
        '{"topic": "cats"}',
        {"final_joke": "Cats are purr-fessional nappers. The twist? The dog wrote their schedule."},
    ),
    "parallelization": (
        '{"topic": "cats"}',
        {"joke": "Why do cats hate water? It is too mainstream."},
    ),
    "routing": ('{"input": "Write me a joke about cats"}', {"decision": {"step": "joke"}}),
    "orchestrator_worker": ('{"topic": "LLM scaling laws"}', {"topic": "LLM scaling laws"}),
    "evaluator_optimizer": ('{"topic": "cats"}', {"funny_or_not": "funny"}),
    "agent_loop": ("Add and multiply 3 and 4.", {}),
    "supervisor_python": ("Schedule a team standup for tomorrow at 9am and tell the team.", {}),
}


def test_every_example_has_a_case():
    examples = [p for p in EXAMPLES.glob("*.agent") if not p.name.endswith(".test.agent")]
    assert sorted(p.stem for p in examples) == sorted(CASES)  # (their `agentc test` files aside)


@pytest.mark.parametrize("name", sorted(CASES))
def test_example_runs_offline(name, capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)  # a saved thread (if any) lands here, not in the repository
    text, facts = CASES[name]
    code = main(["run", str(EXAMPLES / f"{name}.agent"), "--input", text, "--json"])
    out = capsys.readouterr().out
    assert code == 0, out
    state = json.loads(out)
    for key, value in facts.items():
        assert state[key] == value
    if "messages" in state:  # the conversation ends with the model's answer
        assert state["messages"][-1]["type"] == "ai"
        assert not state["messages"][-1].get("tool_calls")
