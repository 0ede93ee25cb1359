"""Fixtures for provider tests: a real fake provider server on a free port, and fake keys."""

from __future__ import annotations

import pytest
from support.provider_kit import ANTHROPIC_KEY, OPENAI_KEY

from agentc.stdlib.providers import http


@pytest.fixture
def keys(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", OPENAI_KEY)
    monkeypatch.setenv("ANTHROPIC_API_KEY", ANTHROPIC_KEY)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    monkeypatch.delenv("ANTHROPIC_BASE_URL", raising=False)
    return {"openai": OPENAI_KEY, "anthropic": ANTHROPIC_KEY}


@pytest.fixture
def fast_backoff(monkeypatch):
    """Retries without the SDK-sized waits, so fault tests run in milliseconds."""
    monkeypatch.setattr(http, "INITIAL_BACKOFF_S", 0.001)
