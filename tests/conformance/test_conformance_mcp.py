"""MCP tools against the oracle: LangChain 1.4.10's `MCPAdapter` (over fastmcp>=4) and agentc
(`use "http://…/mcp" as files` + `tools [files]`), both talking to the same fake MCP server
on 127.0.0.1. Compared: the tools and what the model reads of them (A9, B10), and the tool
messages each result becomes (E12, H5). Skipped where fastmcp is not installed."""

from __future__ import annotations

import asyncio
import json

import pytest

pytest.importorskip("fastmcp", reason="fastmcp>=4 (LangChain's MCP client) is not installed")
pytest.importorskip("langchain.mcp", reason="langchain (the oracle) is not installed")
from langchain.mcp import MCPAdapter  # noqa: E402

from agentc.api import load_agent  # noqa: E402
from agentc.stdlib.providers import scripted as sc  # noqa: E402
from agentc.testing.fake_mcp import FakeMcpServer, FakeMcpTool  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::Warning")

SCHEMA = {
    "type": "object",
    "title": "ReadArgs",
    "properties": {
        "path": {"type": "string", "description": "where"},
        "opts": {"type": "object"},
        "meta": {"type": ["object", "null"]},
        "closed": {"type": "object", "additionalProperties": False},
    },
    "required": ["path"],
}
RICH = [
    {"type": "text", "text": "ERROR? no."},
    {"type": "image", "data": "iVBO", "mimeType": "image/png"},
    {"type": "resource", "resource": {"uri": "file:///a", "text": "inline"}},
    {
        "type": "resource",
        "resource": {"uri": "file:///b", "blob": "AAAA", "mimeType": "application/pdf"},
    },
    {"type": "resource_link", "uri": "https://x/y.png", "name": "y", "mimeType": "image/png"},
    {"type": "resource_link", "uri": "https://x/doc", "name": "doc"},
]
TOOLS = [
    FakeMcpTool(
        "read_file",
        SCHEMA,
        "Read a file.",
        lambda a: {"content": [{"type": "text", "text": f"read {a.get('path')}"}]},
    ),
    FakeMcpTool("rich", {"type": "object"}, None, {"content": RICH, "structuredContent": {"n": 1}}),
    FakeMcpTool(
        "fails",
        {"type": "object", "properties": {}},
        "Fails.",
        {"content": [{"type": "text", "text": "disk full"}], "isError": True},
    ),
    FakeMcpTool("fails_quietly", {"type": "object"}, "Fails.", {"content": [], "isError": True}),
]
CALLS = [("read_file", {"path": "a.txt"}), ("rich", {}), ("fails", {}), ("fails_quietly", {})]


@pytest.fixture
def server():
    with FakeMcpServer(TOOLS, page_size=3) as s:
        yield s


def no_ids(content):
    if isinstance(content, list):
        return [{k: v for k, v in b.items() if k != "id"} for b in content]
    return content


async def oracle(url: str) -> tuple[list, list]:
    async with MCPAdapter(url) as adapter:
        tools = await adapter.list_tools()
    # B10 at the tool: LangChain's provider formatting (convert_to_openai_tool drops titles
    # and inlines $refs for every tool, MCP or not) is compared elsewhere, not here.
    seen = [(t.name, t.description, t.args_schema) for t in tools]
    by_name = {t.name: t for t in tools}
    results = []
    for i, (name, args) in enumerate(CALLS):
        m = await by_name[name].ainvoke(
            {"type": "tool_call", "name": name, "args": args, "id": f"c{i}"}
        )
        results.append((m.name, m.status, no_ids(m.content), m.artifact))
    return seen, results


def agentc_run(tmp_path, url: str) -> tuple[list, list]:
    turn = {"tool_calls": [{"name": n, "args": a, "id": f"c{i}"} for i, (n, a) in enumerate(CALLS)]}
    path = tmp_path / "mcp.agent"
    path.write_text(
        f'agentc 1\nuse "{url}" as files\nagent a {{\n'
        f'  model "scripted" {{ replies: {json.dumps([turn, "done"])} }}\n'
        "  tools [files]\n}\n"
    )
    sc.CREATED.clear()
    result = load_agent(str(path), "a").invoke({"messages": [{"role": "user", "content": "go"}]})
    seen = [(t.name, t.description, t.parameters) for t in sc.CREATED[-1].calls[0].tools]
    results = [(m.name, m.status, m.content, m.artifact) for m in result["messages"][2:6]]
    return seen, results


def test_A9_B10_same_tools_and_schemas_as_langchain(tmp_path, server):
    lc_seen, _ = asyncio.run(oracle(server.url))
    ours, _ = agentc_run(tmp_path, server.url)
    assert ours == lc_seen


def test_E12_H5_same_tool_messages_as_langchain(tmp_path, server):
    _, lc_results = asyncio.run(oracle(server.url))
    _, ours = agentc_run(tmp_path, server.url)
    assert ours == lc_results
