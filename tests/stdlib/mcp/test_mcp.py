"""MCP tools in `.agent` files, against a fake MCP server on 127.0.0.1 (real sockets):
A9 (every listed tool, the server's names, listed once), A10 (http/https URLs only, checked
without connecting), B10 (what the model reads is the server's), E12/H5 (isError is an error
reply with the server's text; transport and protocol failures stop the run).

No oracle run: LangChain's MCPAdapter needs `fastmcp>=4`, which is not installed here, so
these tests assert the seat map's answers directly."""

from __future__ import annotations

import json
import socket

import pytest

from agentc.api import load_agent
from agentc.compiler.pipeline import compile_source
from agentc.runtime import Command, RunConfig
from agentc.runtime.errors import ResumeValidationError
from agentc.stdlib.mcp import (
    McpToolNameClashError,
    McpToolNotFoundError,
    convert_block,
    open_schema,
)
from agentc.stdlib.mcp.client import McpError, McpServerRequestError
from agentc.stdlib.providers import scripted as sc
from agentc.testing.fake_mcp import FakeMcpServer, FakeMcpTool

ASK = {"messages": [{"role": "user", "content": "go"}]}
READ_SCHEMA = {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}


def read_file(args: dict) -> dict:
    return {"content": [{"type": "text", "text": f"contents of {args['path']}"}]}


def served(*extra: FakeMcpTool) -> list[FakeMcpTool]:
    return [
        FakeMcpTool("read_file", READ_SCHEMA, "Read a file.", read_file),
        FakeMcpTool("list_dir", {"type": "object", "properties": {}}, "List a folder."),
        FakeMcpTool("stat", {"type": "object"}, None),
        *extra,
    ]


@pytest.fixture
def mcp_server():
    servers = []

    def start(tools=None, **options) -> FakeMcpServer:
        server = FakeMcpServer(served() if tools is None else tools, **options).start()
        servers.append(server)
        return server

    yield start
    for s in servers:
        s.stop()


def agent_file(tmp_path, url: str, tools: str, *replies, extra: str = "") -> str:
    path = tmp_path / "mcp.agent"
    path.write_text(
        f'agentc 1\nuse "{url}" as files\n\nagent a {{\n'
        f'  model "scripted" {{ replies: {json.dumps(list(replies))} }}\n'
        f"  tools [{tools}]\n{extra}}}\n"
    )
    return str(path)


def call(name: str, args: dict, id: str = "c1") -> dict:
    return {"tool_calls": [{"name": name, "args": args, "id": id}]}


def run(path: str) -> tuple[dict, object]:
    sc.CREATED.clear()
    result = load_agent(path, "a").invoke(ASK)
    return result, sc.CREATED[-1]


def seen_tools(model) -> list:
    return [(t.name, t.description, t.parameters) for t in model.calls[0].tools]


# ---------------------------------------------------------------- A9


def test_A9_every_listed_tool_with_the_servers_names_across_pages(tmp_path, mcp_server):
    server = mcp_server(page_size=2)
    path = agent_file(tmp_path, server.url, "files", call("read_file", {"path": "a.txt"}), "done")
    result, model = run(path)
    assert [t[0] for t in seen_tools(model)] == ["read_file", "list_dir", "stat"]
    assert server.methods().count("tools/list") == 2  # two pages, followed by the cursor
    tool = result["messages"][2]
    assert (tool.name, tool.status, tool.content) == (
        "read_file",
        "success",
        [{"type": "text", "text": "contents of a.txt"}],
    )
    assert result["messages"][-1].content == "done"


def test_A9_the_list_is_read_once_per_bound_agent(tmp_path, mcp_server):
    server = mcp_server()
    path = agent_file(
        tmp_path,
        server.url,
        "files",
        call("read_file", {"path": "a"}),
        call("read_file", {"path": "b"}, "c2"),
        "done",
        call("stat", {}),
        "again",
    )
    agent = load_agent(path, "a")
    agent.invoke(ASK)
    agent.invoke(ASK)
    assert server.methods().count("tools/list") == 1
    assert server.methods().count("tools/call") == 3


def test_A9_one_named_tool_is_checked_when_listed(tmp_path, mcp_server):
    server = mcp_server()
    _, model = run(agent_file(tmp_path, server.url, "files.stat", "ok"))
    assert [t[0] for t in seen_tools(model)] == ["stat"]
    with pytest.raises(McpToolNotFoundError, match="lists no tool `nope`.*read_file, list_dir"):
        run(agent_file(tmp_path, server.url, "files.nope", "ok"))


def test_A9_streamed_replies_and_session_ids(tmp_path, mcp_server):
    server = mcp_server(sse=True)
    result, _ = run(
        agent_file(tmp_path, server.url, "files", call("read_file", {"path": "x"}), "done")
    )
    assert result["messages"][2].content == [{"type": "text", "text": "contents of x"}]
    after_init = [r for r in server.requests if r.method != "initialize"]
    assert after_init and all(r.session for r in after_init)  # Mcp-Session-Id sent back
    assert server.methods().count(None) == 2  # each session ended with DELETE


# ---------------------------------------------------------------- A10


@pytest.mark.parametrize(
    "url", ["file:///bin/sh", "stdio://server", "ftp://127.0.0.1/mcp", "http:///mcp"]
)
def test_A10_a_string_server_must_be_an_http_url(url):
    result = compile_source(f'agentc 1\nuse "{url}" as files\n', "t.agent")
    assert [d.code for d in result.diagnostics] == ["mcp-url"]


def test_A10_check_never_connects():
    with socket.socket() as s:  # a port nobody listens on: any connection would fail
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    text = (
        f'agentc 1\nuse "http://127.0.0.1:{port}/mcp" as files\n'
        'agent a {\n  model "scripted" { replies: ["x"] }\n  tools [files, files.one]\n}\n'
    )
    result = compile_source(text, "t.agent")
    assert result.program is not None and not result.diagnostics
    ref = result.program.graph("a").agent.mcp_tools
    assert [(r.server, r.tool) for r in ref] == [("files", "*"), ("files", "one")]


# ---------------------------------------------------------------- B10


def test_B10_the_model_reads_what_the_server_wrote(tmp_path, mcp_server):
    schema = {
        "type": "object",
        "title": "Args",
        "properties": {
            "opts": {"type": "object"},
            "meta": {"type": ["object", "null"]},
            "closed": {"type": "object", "additionalProperties": False},
            "shaped": {"type": "object", "properties": {"a": {"type": "integer"}}},
            "n": {"type": "integer"},
        },
    }
    server = mcp_server(
        [
            FakeMcpTool("x-Weird name!", schema, "  Does  things.  "),
            FakeMcpTool("bare", {"type": "object"}),
        ]
    )
    _, model = run(agent_file(tmp_path, server.url, "files", "ok"))
    (name, desc, params), bare = seen_tools(model)
    assert (name, desc) == ("x-Weird name!", "  Does  things.  ")  # unchanged, unchecked
    props = params["properties"]
    assert props["opts"] == {"type": "object", "additionalProperties": True}
    assert props["meta"] == {"type": ["object", "null"], "additionalProperties": True}
    assert props["closed"] == schema["properties"]["closed"]
    assert props["shaped"] == schema["properties"]["shaped"]
    assert {k: v for k, v in params.items() if k != "properties"} == {
        "type": "object",
        "title": "Args",
    }
    assert bare == ("bare", "", {"type": "object"})  # no description: ""


def test_B10_open_schema_leaves_the_input_alone():
    schema = {"type": "object", "properties": {"o": {"type": "object"}}}
    assert open_schema(schema)["properties"]["o"]["additionalProperties"] is True
    assert schema == {"type": "object", "properties": {"o": {"type": "object"}}}


# ---------------------------------------------------------------- E12 / H5


def test_E12_is_error_is_told_to_the_model_and_the_run_goes_on(tmp_path, mcp_server):
    failing = FakeMcpTool(
        "write_file",
        READ_SCHEMA,
        "Write.",
        {"content": [{"type": "text", "text": "disk full"}], "isError": True},
    )
    server = mcp_server(served(failing))
    result, model = run(
        agent_file(tmp_path, server.url, "files", call("write_file", {"path": "p"}), "gave up")
    )
    tool = result["messages"][2]
    assert (tool.status, tool.content, tool.name) == (
        "error",
        [{"type": "text", "text": "disk full"}],
        "write_file",
    )
    assert result["messages"][-1].content == "gave up"
    assert model.calls[1].messages[-1].status == "error"  # the model read it


def test_E12_an_error_with_no_content_gets_a_placeholder(tmp_path, mcp_server):
    server = mcp_server([FakeMcpTool("boom", result={"content": [], "isError": True})])
    result, _ = run(agent_file(tmp_path, server.url, "files", call("boom", {}), "ok"))
    assert result["messages"][2].content == [
        {"type": "text", "text": "The MCP tool reported an error with empty content."}
    ]


def test_E12_transport_failure_stops_the_run(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(McpError, match="cannot reach the server"):
        run(agent_file(tmp_path, f"http://127.0.0.1:{port}/mcp", "files", "ok"))


def test_E12_unconvertible_content_stops_the_run(tmp_path, mcp_server):
    audio = FakeMcpTool(
        "listen", result={"content": [{"type": "audio", "data": "AA==", "mimeType": "audio/wav"}]}
    )
    server = mcp_server([audio])
    with pytest.raises(McpError, match="audio/wav"):
        run(agent_file(tmp_path, server.url, "files", call("listen", {}), "ok"))


def test_E12_a_json_rpc_error_stops_the_run(tmp_path, mcp_server):
    server = mcp_server()
    original = server.answer

    def forget_after_listing(message, session):  # the server drops its tools once listed
        reply = original(message, session)
        if message.get("method") == "tools/list":
            server.tools = []
        return reply

    server.answer = forget_after_listing
    with pytest.raises(McpError, match="Unknown tool: read_file"):
        run(agent_file(tmp_path, server.url, "files", call("read_file", {"path": "a"}), "x"))


def test_H5_success_is_passed_on_unchecked(tmp_path, mcp_server):
    content = [
        {"type": "text", "text": "ERROR: nothing wrong, really"},
        {"type": "image", "data": "iVBO", "mimeType": "image/png"},
        {"type": "resource", "resource": {"uri": "file:///a", "text": "inline"}},
        {
            "type": "resource",
            "resource": {"uri": "file:///b", "blob": "AAAA", "mimeType": "application/pdf"},
        },
        {"type": "resource_link", "uri": "https://x/y.png", "name": "y", "mimeType": "image/png"},
    ]
    server = mcp_server(
        [FakeMcpTool("fetch", result={"content": content, "structuredContent": {"n": 1}})]
    )
    result, _ = run(agent_file(tmp_path, server.url, "files", call("fetch", {}), "ok"))
    tool = result["messages"][2]
    assert tool.status == "success"
    assert tool.content == [
        {"type": "text", "text": "ERROR: nothing wrong, really"},
        {"type": "image", "base64": "iVBO", "mime_type": "image/png"},
        {"type": "text", "text": "inline"},
        {"type": "file", "base64": "AAAA", "mime_type": "application/pdf"},
        {"type": "image", "url": "https://x/y.png", "mime_type": "image/png"},
    ]
    assert tool.artifact == {"structured_content": {"n": 1}}


def test_H5_arguments_reach_the_server_as_the_model_wrote_them(tmp_path, mcp_server):
    server = mcp_server()
    run(
        agent_file(
            tmp_path, server.url, "files", call("read_file", {"path": 7, "extra": [1]}), "ok"
        )
    )
    sent = [r.params for r in server.requests if r.method == "tools/call"]
    assert sent == [{"name": "read_file", "arguments": {"path": 7, "extra": [1]}}]


# ---------------------------------------------------------------- D22 / D23

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


def asking(requests: dict, state: str | None = "s1"):
    """A tool that asks `requests` first, then answers from the retried call's responses."""

    def rounds(params: dict) -> dict:
        if "inputResponses" not in params:
            out = {"resultType": "input_required", "inputRequests": requests}
            return out if state is None else {**out, "requestState": state}
        return {"content": [{"type": "text", "text": json.dumps(params["inputResponses"])}]}

    return FakeMcpTool(
        "deploy",
        {"type": "object", "properties": {"v": {"type": "integer"}}},
        "Deploy.",
        rounds=rounds,
    )


def test_D22_questions_pause_the_run_and_the_answers_reach_the_server(tmp_path, mcp_server):
    server = mcp_server([asking({"env": FORM, "login": LINK})])
    agent = load_agent(
        agent_file(
            tmp_path,
            server.url,
            "files",
            call("deploy", {"v": 1}),
            "deployed",
            extra="  checkpoint memory\n",
        ),
        "a",
    )
    config = RunConfig(thread_id="t")
    paused = agent.invoke(ASK, config)
    assert [i.value for i in paused["__interrupt__"]] == [
        {
            "type": "mcp_elicitation",
            "tool_name": "deploy",
            "requests": [
                {
                    "key": "env",
                    "message": "Which environment?",
                    "mode": "form",
                    "requested_schema": FORM["params"]["requestedSchema"],
                },
                {
                    "key": "login",
                    "message": "Sign in first",
                    "mode": "url",
                    "url": "https://auth.example/x",
                },
            ],
        }
    ]
    answers = {
        "env": {"action": "accept", "content": {"name": "prod", "unasked": 1}},
        "login": {"action": "accept"},
    }
    result = agent.invoke(Command(resume={"responses": answers}), config)
    tool = result["messages"][2]
    assert json.loads(tool.content[0]["text"]) == {  # D23: content passed on unchecked
        "env": {"action": "accept", "content": {"name": "prod", "unasked": 1}},
        "login": {"action": "accept"},  # no content given: none sent, as LangChain
    }
    calls = [r.params for r in server.requests if r.method == "tools/call"]
    assert len(calls) == 3  # asked, asked again on resume (from the first round), answered
    assert (calls[2]["requestState"], calls[2]["arguments"]) == ("s1", {"v": 1})
    init = next(r.params for r in server.requests if r.method == "initialize")
    assert set(init["capabilities"]["elicitation"]) == {"form", "url"}


def test_D22_decline_and_cancel_are_passed_on(tmp_path, mcp_server):
    server = mcp_server([asking({"env": FORM, "login": LINK}, state=None)])
    agent = load_agent(
        agent_file(
            tmp_path, server.url, "files", call("deploy", {}), "ok", extra="  checkpoint memory\n"
        ),
        "a",
    )
    config = RunConfig(thread_id="t")
    agent.invoke(ASK, config)
    result = agent.invoke(
        Command(
            resume={"responses": {"env": {"action": "decline"}, "login": {"action": "cancel"}}}
        ),
        config,
    )
    assert json.loads(result["messages"][2].content[0]["text"]) == {
        "env": {"action": "decline"},
        "login": {"action": "cancel"},
    }
    retried = [r.params for r in server.requests if r.method == "tools/call"][-1]
    assert "requestState" not in retried


@pytest.mark.parametrize(
    "answers, match",
    [
        ({"env": {"action": "accept", "content": {}}}, "none for: login"),
        ({"env": {"action": "accept"}, "login": {"action": "maybe"}}, "action 'maybe'"),
    ],
)
def test_D23_every_question_needs_a_valid_answer(tmp_path, mcp_server, answers, match):
    server = mcp_server([asking({"env": FORM, "login": LINK})])
    agent = load_agent(
        agent_file(
            tmp_path, server.url, "files", call("deploy", {}), "ok", extra="  checkpoint memory\n"
        ),
        "a",
    )
    config = RunConfig(thread_id="t")
    agent.invoke(ASK, config)
    with pytest.raises(ResumeValidationError, match=match):
        agent.invoke(Command(resume={"responses": answers}), config)


@pytest.mark.parametrize(
    "requests, match",
    [
        (
            {"q": {"method": "sampling/createMessage", "params": {"messages": []}}},
            r"q \(sampling/createMessage\)",
        ),
        ({"env": FORM, "r": {"method": "roots/list"}}, r"r \(roots/list\)"),
        ({}, "continuation round"),
    ],
)
def test_D23_only_elicitations_are_answered(tmp_path, mcp_server, requests, match):
    server = mcp_server([asking(requests)])
    with pytest.raises(McpServerRequestError, match=match):
        run(agent_file(tmp_path, server.url, "files", call("deploy", {}), "ok"))


def test_D23_a_request_the_server_sends_on_its_own_is_refused(tmp_path, mcp_server):
    """The legacy path: `elicitation/create` sent by the server during the call."""
    legacy = FakeMcpTool(
        "ask",
        result={"content": []},
        server_request={
            "method": "elicitation/create",
            "params": {"message": "Which file?", "requestedSchema": {"type": "object"}},
        },
    )
    server = mcp_server([legacy], sse=True)
    with pytest.raises(McpServerRequestError, match="elicitation/create"):
        run(agent_file(tmp_path, server.url, "files", call("ask", {}), "ok"))


def test_convert_block_refuses_unknown_types():
    with pytest.raises(ValueError, match="unknown MCP content type"):
        convert_block({"type": "video"})


# ---------------------------------------------------------------- A7 at bind time (issue 12)

ADD_PY = 'def add(a: int, b: int) -> int:\n    """Add two numbers."""\n    return a + b\n'
ADD_SCHEMA = {"type": "object", "properties": {"a": {"type": "integer"}}}


def two_source_file(tmp_path, uses: dict[str, str], tools: str, *replies) -> str:
    (tmp_path / "local.py").write_text(ADD_PY)
    lines = "".join(f'use "{src}" as {alias}\n' for alias, src in uses.items())
    path = tmp_path / "clash.agent"
    path.write_text(
        f"agentc 1\n{lines}\nagent a {{\n"
        f'  model "scripted" {{ replies: {json.dumps(list(replies))} }}\n'
        f"  tools [{tools}]\n}}\n"
    )
    return str(path)


def test_A7_an_mcp_tool_never_replaces_a_local_tool(tmp_path, mcp_server):
    server = mcp_server([FakeMcpTool("add", ADD_SCHEMA, "The server's add."), *served()])
    path = two_source_file(
        tmp_path,
        {"local": "./local.py", "files": server.url},
        "local.add, files",
        call("add", {"a": 2, "b": 3}),
        "5",
    )
    sc.CREATED.clear()
    with pytest.raises(McpToolNameClashError) as err:
        load_agent(path, "a").invoke(ASK)
    text = str(err.value)
    assert "error[duplicate-tool]" in text
    assert "the agent's own tool `add`" in text and f"`files` ({server.url})" in text
    assert "files.other_tool" in text  # the hint: pick the server's tools by name
    assert not sc.CREATED or not sc.CREATED[-1].calls  # stopped before any model call
    assert "tools/call" not in server.methods()  # and the server's `add` never ran


def test_A7_picking_other_server_tools_by_name_avoids_the_clash(tmp_path, mcp_server):
    server = mcp_server([FakeMcpTool("add", ADD_SCHEMA), *served()])
    path = two_source_file(
        tmp_path,
        {"local": "./local.py", "files": server.url},
        "local.add, files.stat",
        call("add", {"a": 2, "b": 3}),
        "5",
    )
    result, model = run(path)
    assert [t[0] for t in seen_tools(model)] == ["add", "stat"]
    assert result["messages"][2].content == "5"  # the local add ran
    assert "tools/call" not in server.methods()


def test_A7_two_servers_listing_one_name_stop_the_run(tmp_path, mcp_server):
    one = mcp_server([FakeMcpTool("search", description="one"), FakeMcpTool("a_only")])
    two = mcp_server([FakeMcpTool("b_only"), FakeMcpTool("search", description="two")])
    path = two_source_file(tmp_path, {"one": one.url, "two": two.url}, "one, two", "ok")
    sc.CREATED.clear()
    with pytest.raises(McpToolNameClashError) as err:
        load_agent(path, "a").invoke(ASK)
    text = str(err.value)
    assert "error[duplicate-tool]" in text and "two tools named `search`" in text
    assert f"`one` ({one.url})" in text and f"`two` ({two.url})" in text
    assert "one.search" in text  # the hint: pick tools by name
    assert not sc.CREATED or not sc.CREATED[-1].calls
    # one server reached under two names is one tool, not a clash
    path = two_source_file(tmp_path, {"one": one.url, "again": one.url}, "one, again", "ok")
    _, model = run(path)
    assert [t[0] for t in seen_tools(model)] == ["search", "a_only"]


def test_A7_a_server_listing_one_name_twice_is_refused(tmp_path, mcp_server):
    server = mcp_server([FakeMcpTool("x"), FakeMcpTool("x", description="again")])
    with pytest.raises(McpToolNameClashError, match="lists two tools named `x`"):
        run(agent_file(tmp_path, server.url, "files", "ok"))


# ---------------------------------------------------------------- hostile replies (issue 12)

DEEP = 100_000


def deep_schema(depth: int) -> bytes:
    return b'{"type": "object", "properties": {"a": ' * depth + b"{}" + b"}}" * depth


@pytest.mark.parametrize(
    ("faults", "match"),
    [
        pytest.param(
            {"raw_results": {"tools/list": b'{"tools": [], "nextCursor": ["p2"]}'}},
            "nextCursor that is a JSON array, not a string",
            id="list-nextCursor",
        ),
        pytest.param(
            {"raw_results": {"tools/list": b'{"tools": [], "nextCursor": {"page": 2}}'}},
            "nextCursor that is a JSON object, not a string",
            id="object-nextCursor",
        ),
        pytest.param(
            {
                "raw_results": {
                    "tools/list": b'{"tools": [{"name": "t", "inputSchema": '
                    + deep_schema(DEEP)
                    + b"}]}"
                }
            },
            "nests too deeply",
            id="100000-deep-schema",
        ),
        pytest.param(
            {
                "raw_results": {
                    "tools/list": b'{"tools": [{"name": "t", "inputSchema": '
                    + deep_schema(300)
                    + b"}]}"
                }
            },
            "tool `t` has an inputSchema nested more than 64 levels deep",
            id="300-deep-schema",
        ),
        pytest.param(
            {"sse": True, "raw_results": {"tools/list": b'{"tools": [], "x": "\xff\xfe"}'}},
            "not (valid )?UTF-8",
            id="sse-invalid-utf8",
        ),
        pytest.param(
            {"raw_results": {"tools/list": b'{"tools": [], "x": "\xff\xfe"}'}},
            "a reply that is not UTF-8",
            id="json-invalid-utf8",
        ),
        pytest.param(
            {"session_id": "s\u00e9ance-1"},
            "Mcp-Session-Id header 's\u00e9ance-1' is not visible ASCII",
            id="non-ascii-session-id",
        ),
        pytest.param(
            {"session_id": "two words"},
            "is not visible ASCII",
            id="session-id-with-space",
        ),
    ],
)
def test_hostile_replies_are_the_mcp_modules_own_errors(tmp_path, mcp_server, faults, match):
    server = mcp_server(**faults)
    with pytest.raises(McpError, match=match) as err:
        run(agent_file(tmp_path, server.url, "files", "ok"))
    assert f"MCP server {server.url}" in str(err.value)  # names the server
    assert err.value.__cause__ is None  # the module's own error, not a wrapped raw one


def test_an_elicitation_whose_params_is_a_list_is_refused(tmp_path, mcp_server):
    bad = {"ask": {"method": "elicitation/create", "params": ["message", "name?"]}}
    server = mcp_server([asking(bad)])
    path = agent_file(
        tmp_path, server.url, "files", call("deploy", {}), "ok", extra="  checkpoint memory\n"
    )
    expected = r"input request `ask` \(elicitation/create\) has params that are a JSON array"
    with pytest.raises(McpError, match=expected) as err:
        load_agent(path, "a").invoke(ASK, RunConfig(thread_id="t"))
    assert f"MCP server {server.url}" in str(err.value)
