"""agentc's fake MCP server (agentc/testing/fake_mcp.py) made to answer `server/discover`
as a modern-protocol (2026-07-28) server does, so LangChain's MCPAdapter drives its
elicitation loop (SEP-2322 `input_required` rounds answered with `interrupt()`, D22/D23)
against it. The legacy handshake still works, so agentc's client talks to the same server
and the same tools; requests of the stateless modern protocol carry no session id."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from agentc.testing.fake_mcp import FakeMcpServer, FakeMcpTool

MODERN_VERSION = "2026-07-28"
CACHE = {"resultType": "complete", "ttlMs": 0, "cacheScope": "private"}


class ModernFakeMcpServer(FakeMcpServer):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.sessions.add(None)  # type: ignore[arg-type] - modern requests have no session

    def answer(self, message: dict[str, Any], session: str | None) -> tuple[Any, str | None]:
        if message.get("method") == "server/discover":
            result = {
                "supportedVersions": [MODERN_VERSION],
                "capabilities": {"tools": {"listChanged": False}},
            }
            return {"jsonrpc": "2.0", "id": message.get("id"), "result": {**CACHE, **result}}, None
        reply, sid = super().answer(message, session)
        modern = session is None and message.get("method") != "initialize"
        if modern and isinstance(reply, dict) and isinstance(reply.get("result"), dict):
            # the modern surface requires these on every result; `resultType` is the
            # tool's own when it asks for input (`input_required`)
            reply["result"] = {**CACHE, **reply["result"]}
        return reply, sid


def calls_seen(server: FakeMcpServer) -> list[tuple]:
    """What each `tools/call` carried: arguments, the answers and the echoed state."""
    return [
        (r.params.get("arguments"), r.params.get("inputResponses"), r.params.get("requestState"))
        for r in server.requests
        if r.method == "tools/call"
    ]


def outcome(result: Any) -> tuple:
    """(interrupt values, message trace with content-block ids dropped) of one invoke."""
    from lc_scripted import trace

    rows = []
    for kind, content, calls, call_id, status in trace(result["messages"]):
        if isinstance(content, list):
            content = [{k: v for k, v in b.items() if k != "id"} for b in content]
        rows.append((kind, content, calls, call_id, status))
    return [i.value for i in result.get("__interrupt__", ())], rows


async def _langchain(url: str, script: list, answers: list, saver: bool) -> list:
    from langchain.agents import create_agent
    from langchain.mcp import MCPAdapter
    from langgraph.checkpoint.memory import InMemorySaver
    from langgraph.types import Command
    from lc_scripted import LcScripted, lc_reply

    async with MCPAdapter(url) as adapter:
        tools = await adapter.list_tools()
    model = LcScripted(script=[lc_reply(r) for r in script])
    graph = create_agent(model, tools, checkpointer=InMemorySaver() if saver else None)
    config = {"configurable": {"thread_id": "t"}}
    inputs = [{"messages": [{"role": "user", "content": "go"}]}]
    out: list = []
    for step in [*inputs, *(Command(resume=a) for a in answers)]:
        try:
            out.append(outcome(await graph.ainvoke(step, config)))
        except Exception as exc:  # noqa: BLE001 - the failure is the observation
            return [*out, type(exc).__name__]
    return out


def langchain_run(url: str, script: list, answers: list, saver: bool = True) -> list:
    """Each invoke's outcome (or the exception's class name) in create_agent + MCPAdapter."""
    import asyncio

    return asyncio.run(_langchain(url, script, answers, saver))


def agentc_run(tmp_path: Any, url: str, script: list, answers: list, saver: bool = True) -> list:
    """The same in agentc: `use "<url>" as files`, `tools [files]`, a scripted model."""
    from agentc.api import load_agent
    from agentc.runtime import Command, RunConfig

    path = tmp_path / "mcp.agent"
    path.write_text(
        f'agentc 1\nuse "{url}" as files\nagent a {{\n'
        f'  model "scripted" {{ replies: {json.dumps(script)} }}\n  tools [files]\n'
        f"{'  checkpoint memory' if saver else ''}\n}}\n"
    )
    graph = load_agent(str(path), "a")
    config = RunConfig(thread_id="t") if saver else None
    out: list = []
    inputs = [{"messages": [{"role": "user", "content": "go"}]}]
    for step in [*inputs, *(Command(resume=a) for a in answers)]:
        try:
            out.append(outcome(graph.invoke(step, config)))
        except Exception as exc:  # noqa: BLE001
            return [*out, type(exc).__name__]
    return out


FORM = {
    "method": "elicitation/create",
    "params": {
        "mode": "form",
        "message": "Which environment?",
        "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}},
    },
}
LINK = {
    "method": "elicitation/create",
    "params": {
        "mode": "url",
        "message": "Sign in first",
        "url": "https://auth.example/x",
        "elicitationId": "e1",
    },
}


def asking(requests: dict, state: str | None = "s1") -> FakeMcpTool:
    """A tool that asks `requests` first, then answers with the responses it was sent."""

    def rounds(params: dict) -> dict:
        if "inputResponses" not in params:
            out = {"resultType": "input_required", "inputRequests": requests}
            return out if state is None else {**out, "requestState": state}
        return {"content": [{"type": "text", "text": json.dumps(params["inputResponses"])}]}

    schema = {"type": "object", "properties": {"v": {"type": "integer"}}}
    return FakeMcpTool("deploy", schema, "Deploy.", rounds=rounds)


def server_pairs() -> Iterator[Callable[..., list[ModernFakeMcpServer]]]:
    """The body of the `modern` fixture: start(tool) → two servers of that tool."""
    pytest.importorskip("fastmcp", reason="fastmcp>=4 (LangChain's MCP client) is not installed")
    servers: list = []

    def start(tool, **options):  # one server per side, so each side's calls are its own
        pair = [ModernFakeMcpServer([tool], **options).start() for _ in range(2)]
        servers.extend(pair)
        return pair

    yield start
    for s in servers:
        s.stop()


CALL = {"content": "", "tool_calls": [{"name": "deploy", "args": {"v": 1}, "id": "c1"}]}
ACCEPT = {
    "env": {"action": "accept", "content": {"name": "prod", "unasked": 1}},
    "login": {"action": "accept", "content": {}},
}


def both_mcp(tmp_path, modern, tool, answers, saver=True, script=(CALL, "deployed")):
    theirs_server, ours_server = modern(tool)
    theirs = langchain_run(theirs_server.url, list(script), answers, saver)
    mine = agentc_run(tmp_path, ours_server.url, list(script), answers, saver)
    return (theirs, calls_seen(theirs_server)), (mine, calls_seen(ours_server))
