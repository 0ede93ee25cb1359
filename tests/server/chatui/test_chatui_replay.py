"""Agent Chat UI's requests (sequence.json, read from the UI and its useStream) replayed
against `langgraph dev` — which proves the sequence — and against `agentc serve`; each
step checks what the UI reads of the answer."""

from __future__ import annotations

import pytest
from chatui_replay import STEP_NAMES


@pytest.mark.parametrize("step", STEP_NAMES)
def test_chat_ui_step(step: str, replayed: dict[str, list[str]]) -> None:
    problems = replayed[step]
    assert not problems, "\n".join(problems)
