"""MCP calls have total deadlines: a server that stalls, streams keep-alive comments for ever
or trickles its reply (every read in time, the answer never complete) no longer holds a run
for httpx's 600 s. Listing (initialize + tools/list) gets `connect_timeout` (default 10 s)
and stops the run when it runs out; a tool call gets `timeout` (default 30 s) and is
answered to the model as a tool error, the run going on. Both are options of the `use`
line: `use "http://…/mcp" as files { timeout: 1s, connect_timeout: 1s }`.

Against the fake MCP server on 127.0.0.1; every call under a 60 s hang guard.
"""

from __future__ import annotations

import asyncio
import json

import pytest

from agentc.api import load_agent
from agentc.ir import McpToolRef, SourceSpan
from agentc.stdlib.mcp import McpTimeoutError, McpToolset
from agentc.stdlib.mcp.client import (
    CALL_TIMEOUT_S,
    CONNECT_TIMEOUT_S,
    McpToolInfo,
    call_tool,
    list_tools,
)
from agentc.stdlib.mcp.tools import mcp_tool
from agentc.stdlib.messages import ToolMessage
from agentc.stdlib.providers import http
from agentc.testing.fake_mcp import FakeMcpServer, FakeMcpTool

GUARD_S = 60  # a hang guard, not a speed bound
ASK = {"messages": [{"role": "user", "content": "go"}]}
ECHO = FakeMcpTool("echo", result={"content": [{"type": "text", "text": "echoed"}]})


def guarded(coro):
    async def main():
        try:
            return await asyncio.wait_for(coro, GUARD_S)
        finally:
            await http.close_clients()

    return asyncio.run(main())


@pytest.fixture
def slow_server():
    servers: list[FakeMcpServer] = []

    def start(**slow: str) -> FakeMcpServer:
        server = FakeMcpServer([ECHO], slow={k.replace("_", "/"): v for k, v in slow.items()})
        servers.append(server.start())
        return server

    yield start
    for s in servers:
        s.stop()


def _ref(url: str, **deadlines: float) -> McpToolRef:
    span = SourceSpan(file="a.agent", line=1, col=1, end_line=1, end_col=2, offset=0, end_offset=1)
    return McpToolRef(server="files", url=url, span=span, **deadlines)


def agent_file(tmp_path, url: str, options: str, *replies) -> str:
    path = tmp_path / "mcp.agent"
    path.write_text(
        f'use "{url}" as files {options}\n\nagent a {{\n'
        f'  model "scripted" {{ replies: {json.dumps(list(replies))} }}\n'
        "  tools [files]\n}\n"
    )
    return str(path)


@pytest.mark.parametrize("mode", ["stall", "keepalive", "trickle"])
def test_listing_a_slow_server_ends_at_connect_timeout(slow_server, mode):
    server = slow_server(tools_list=mode)
    toolset = McpToolset([_ref(server.url, connect_timeout_s=1.0)])
    with pytest.raises(McpTimeoutError) as err:
        guarded(toolset.tools())
    assert "tools/list did not finish within 1 s" in str(err.value)
    assert "connect_timeout" in str(err.value)  # the message names the option to raise


def test_a_stalled_initialize_ends_at_the_listing_deadline(slow_server):
    server = slow_server(initialize="stall")
    with pytest.raises(McpTimeoutError, match="within 1 s"):
        guarded(list_tools(server.url, 1.0))


@pytest.mark.parametrize("mode", ["stall", "keepalive", "trickle"])
def test_a_slow_tool_call_ends_at_its_deadline(slow_server, mode):
    server = slow_server(tools_call=mode)
    with pytest.raises(McpTimeoutError, match="tools/call `echo` did not finish within 1 s"):
        guarded(call_tool(server.url, "echo", {}, timeout_s=1.0))


def test_a_tool_call_that_runs_out_is_told_to_the_model_and_the_run_goes_on(tmp_path, slow_server):
    server = slow_server(tools_call="keepalive")
    path = agent_file(
        tmp_path,
        server.url,
        "{ timeout: 1s }",
        {"tool_calls": [{"name": "echo", "args": {}, "id": "c1"}]},
        "answered without it",
    )
    out = guarded(load_agent(path, "a").ainvoke(ASK))
    (late,) = [m for m in out["messages"] if isinstance(m, ToolMessage)]
    assert late.status == "error" and late.tool_call_id == "c1"
    assert "the tool `echo` did not answer within 1 s" in late.content
    assert out["messages"][-1].content == "answered without it"


def test_the_use_lines_deadlines_reach_the_run(tmp_path, slow_server):
    """`connect_timeout` from the file bounds the listing of a stalled server."""
    server = slow_server(tools_list="stall")
    path = agent_file(tmp_path, server.url, "{ connect_timeout: 1s }", "never")
    with pytest.raises(McpTimeoutError, match="within 1 s"):
        guarded(load_agent(path, "a").ainvoke(ASK))


def test_the_defaults_bound_every_call():
    """Without options: 10 s to list, 30 s per tool call (never httpx's 600 s per read)."""
    assert (CONNECT_TIMEOUT_S, CALL_TIMEOUT_S) == (10.0, 30.0)
    tool = mcp_tool("http://127.0.0.1:1/mcp", _info())
    assert tool.timeout_s == CALL_TIMEOUT_S
    chosen = mcp_tool(
        "http://127.0.0.1:1/mcp", _info(), _ref("http://127.0.0.1:1/mcp", timeout_s=5)
    )
    assert chosen.timeout_s == 5


def _info() -> McpToolInfo:
    return McpToolInfo("echo", None, {"type": "object"}, {})
