"""Helpers shared by the provider tests (imported by name; conftest holds the fixtures)."""

from __future__ import annotations

import asyncio
from typing import Any

from agentc.stdlib.messages import HumanMessage, SystemMessage
from agentc.stdlib.providers import http
from agentc.stdlib.providers.base import ModelRequest
from agentc.stdlib.providers.registry import model_spec, resolve_model

OPENAI_KEY = "sk-test-OPENAI-0123456789abcdef"
ANTHROPIC_KEY = "sk-ant-test-ANTHROPIC-9876543210"


def run(coro):
    """Run one coroutine on a fresh loop, closing that loop's pooled clients after."""

    async def main():
        try:
            return await coro
        finally:
            await http.close_clients()

    return asyncio.run(main())


def openai_model(server, name: str = "gpt-4o-mini", **options: Any):
    return resolve_model(
        model_spec(f"openai:{name}", {"base_url": server.openai_base_url, **options})
    )


def anthropic_model(server, name: str = "claude-sonnet-4-5", **options: Any):
    return resolve_model(model_spec(f"anthropic:{name}", {"base_url": server.url, **options}))


def ask(text: str = "hi", **fields: Any) -> ModelRequest:
    return ModelRequest(
        messages=(SystemMessage(content="be brief"), HumanMessage(content=text)), **fields
    )


async def collect(model, request):
    return [d async for d in model.stream(request)]
