"""The language server end to end: a real LSP client session (pytest-lsp) against
`python -m agentc lsp` on stdio, over files written to a temporary folder.

Covers: a mistake's diagnostic (code, range, doc link, related information), hover on a
middleware and on a Python tool, definition into a `.py` at the function's line and into
another `.agent` file, rename of a node across its edges, references, completion after
`middleware {`, in a middleware's parameters, after `edge x ->` and after `tools.`,
document symbols, semantic tokens, formatting, and the code action fixing a typo'd name.
Each wait has the client's own hang guard; nothing is timed.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

pytest_lsp = pytest.importorskip("pytest_lsp", reason="pytest-lsp is not installed")

from lsprotocol import types as lsp  # noqa: E402
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.asyncio
GUARD_S = 60  # a hang (a server that never answers) fails the test; nothing is timed

TOOLS = '''
def add(a: int, b: int = 1) -> int:
    """Add two integers."""
    return a + b


def shout(text: str) -> str:
    """Upper-case the text."""
    return text.upper()
'''

AGENT = """agentc 1
use "./tools.py" as tools
use "./shared.agent" as shared

agent helper {
  model "openai:gpt-4o-mini"
  tools [tools.add]
  middleware {
    summarization { model: "openai:gpt-4o-mini" }
  }
}

graph g {
  state {
    approved: bool = false
  }
  node write = python(tools.add)
  node check = python(tools.shout)
  edge START -> write
  edge write -> check
  edge check -> END when approved
  edge check -> write otherwise
}
"""

SHARED = 'agentc 1\n\nagent support {\n  model "openai:gpt-4o-mini"\n}\n'


@pytest_lsp.fixture(
    config=ClientServerConfig(server_command=[sys.executable, "-m", "agentc", "lsp"]),
)
async def client(lsp_client: LanguageClient):
    params = lsp.InitializeParams(capabilities=client_capabilities("visual-studio-code"))
    await lsp_client.initialize_session(params)
    yield
    await lsp_client.shutdown_session()


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "tools.py").write_text(TOOLS)
    (tmp_path / "shared.agent").write_text(SHARED)
    return tmp_path


async def _open(client: LanguageClient, path: Path, text: str) -> str:
    path.write_text(text)
    uri = path.resolve().as_uri()
    client.text_document_did_open(
        lsp.DidOpenTextDocumentParams(
            text_document=lsp.TextDocumentItem(uri=uri, language_id="agentc", version=1, text=text)
        )
    )
    await asyncio.wait_for(
        client.wait_for_notification(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), GUARD_S
    )
    return uri


def _pos(text: str, needle: str, delta: int = 0) -> lsp.Position:
    at = text.index(needle) + delta
    line = text.count("\n", 0, at)
    return lsp.Position(line=line, character=at - (text.rfind("\n", 0, at) + 1))


def _doc(uri: str) -> lsp.TextDocumentIdentifier:
    return lsp.TextDocumentIdentifier(uri=uri)


async def test_a_mistake_is_a_diagnostic_with_code_range_and_link(
    client: LanguageClient, project: Path
) -> None:
    text = AGENT.replace("edge write -> check", "edge write -> chek")
    uri = await _open(client, project / "main.agent", text)
    found = client.diagnostics[uri]
    assert [d.code for d in found] == ["unknown-node"]
    d = found[0]
    assert d.range.start == _pos(text, "chek") and d.range.end == _pos(text, "chek", 4)
    assert d.severity == lsp.DiagnosticSeverity.Error and d.source == "agentc"
    assert d.code_description is not None
    assert d.code_description.href.endswith("diagnostics.md#unknown-node")
    assert "help: did you mean `check`?" in d.message


async def test_a_fixed_mistake_clears_on_change(client: LanguageClient, project: Path) -> None:
    text = AGENT.replace("edge write -> check", "edge write -> chek")
    uri = await _open(client, project / "main.agent", text)
    assert client.diagnostics[uri]
    client.text_document_did_change(
        lsp.DidChangeTextDocumentParams(
            text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[lsp.TextDocumentContentChangeWholeDocument(text=AGENT)],
        )
    )
    await asyncio.wait_for(
        client.wait_for_notification(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), GUARD_S
    )
    assert list(client.diagnostics[uri]) == []


async def test_secondary_labels_are_related_information(
    client: LanguageClient, project: Path
) -> None:
    text = AGENT.replace("  node check =", "  node write = python(tools.add)\n  node check =")
    uri = await _open(client, project / "main.agent", text)
    dup = [d for d in client.diagnostics[uri] if d.code == "duplicate-node"]
    assert dup and dup[0].related_information
    assert dup[0].related_information[0].location.uri == uri


async def test_hover_a_middleware_shows_its_parameters(
    client: LanguageClient, project: Path
) -> None:
    uri = await _open(client, project / "main.agent", AGENT)
    hover = await client.text_document_hover_async(
        lsp.HoverParams(text_document=_doc(uri), position=_pos(AGENT, "summarization", 3))
    )
    assert hover is not None and isinstance(hover.contents, lsp.MarkupContent)
    card = hover.contents.value
    assert "summarization" in card and "`keep`" in card and "`messages(20)`" in card


async def test_hover_a_python_tool_shows_its_signature_and_docstring(
    client: LanguageClient, project: Path
) -> None:
    uri = await _open(client, project / "main.agent", AGENT)
    hover = await client.text_document_hover_async(
        lsp.HoverParams(text_document=_doc(uri), position=_pos(AGENT, "tools.add]", 7))
    )
    assert hover is not None and isinstance(hover.contents, lsp.MarkupContent)
    assert "def add(a: int, b: int = 1)" in hover.contents.value
    assert "Add two integers." in hover.contents.value


async def test_definition_goes_into_the_python_function(
    client: LanguageClient, project: Path
) -> None:
    uri = await _open(client, project / "main.agent", AGENT)
    found = await client.text_document_definition_async(
        lsp.DefinitionParams(text_document=_doc(uri), position=_pos(AGENT, "tools.shout", 7))
    )
    assert isinstance(found, list) and len(found) == 1
    assert found[0].uri == (project / "tools.py").resolve().as_uri()
    assert found[0].range.start.line == TOOLS.splitlines().index("def shout(text: str) -> str:")


async def test_definition_of_a_node_and_into_another_agent_file(
    client: LanguageClient, project: Path
) -> None:
    text = AGENT.replace("  tools [tools.add]", "  tools [tools.add, shared.support]")
    uri = await _open(client, project / "main.agent", text)
    node = await client.text_document_definition_async(
        lsp.DefinitionParams(text_document=_doc(uri), position=_pos(text, "-> check", 4))
    )
    assert isinstance(node, list) and node[0].range.start == _pos(text, "check =")
    other = await client.text_document_definition_async(
        lsp.DefinitionParams(text_document=_doc(uri), position=_pos(text, "shared.support", 8))
    )
    assert isinstance(other, list) and other[0].uri == (project / "shared.agent").as_uri()
    assert other[0].range.start == _pos(SHARED, "support")


async def test_rename_a_node_across_its_edges(client: LanguageClient, project: Path) -> None:
    uri = await _open(client, project / "main.agent", AGENT)
    edit = await client.text_document_rename_async(
        lsp.RenameParams(
            text_document=_doc(uri), position=_pos(AGENT, "node check", 6), new_name="verify"
        )
    )
    assert edit is not None and edit.changes is not None
    edits = edit.changes[uri]
    assert len(edits) == 4  # the node and three edges
    lines = AGENT.splitlines()
    for e in edits:
        assert lines[e.range.start.line][e.range.start.character : e.range.end.character] == "check"
    refs = await client.text_document_references_async(
        lsp.ReferenceParams(
            text_document=_doc(uri),
            position=_pos(AGENT, "when approved", 6),
            context=lsp.ReferenceContext(include_declaration=True),
        )
    )
    assert refs is not None and len(refs) == 2  # the channel and its use in `when`


async def _complete(client: LanguageClient, uri: str, at: lsp.Position) -> list[str]:
    found = await client.text_document_completion_async(
        lsp.CompletionParams(text_document=_doc(uri), position=at)
    )
    assert found is not None
    items = found.items if isinstance(found, lsp.CompletionList) else found
    return [i.label for i in items]


async def test_completion_in_context(client: LanguageClient, project: Path) -> None:
    text = AGENT.replace(
        '    summarization { model: "openai:gpt-4o-mini" }\n',
        '    summarization { model: "openai:gpt-4o-mini", k }\n    \n',
    )
    uri = await _open(client, project / "main.agent", text)
    in_block = await _complete(client, uri, _pos(text, "    \n  }", 4))
    assert "model_call_limit" in in_block and "human_review" in in_block
    params = await _complete(client, uri, _pos(text, "k }", 1))
    assert "keep" in params and "trigger" in params
    nodes = await _complete(client, uri, _pos(text, "edge write -> check", 14))
    assert {"write", "check", "END"} <= set(nodes)
    tools = await _complete(client, uri, _pos(text, "tools.add]", 6))
    assert {"add", "shout"} <= set(tools)
    models = await _complete(client, uri, _pos(text, 'openai:gpt-4o-mini"\n  tools', 1))
    assert "openai:gpt-4o-mini" in models


async def test_symbols_tokens_and_formatting(client: LanguageClient, project: Path) -> None:
    messy = AGENT.replace("  node write = python(tools.add)", "node   write=python( tools.add )")
    uri = await _open(client, project / "main.agent", messy)
    outline = await client.text_document_document_symbol_async(
        lsp.DocumentSymbolParams(text_document=_doc(uri))
    )
    assert outline is not None
    names = [s.name for s in outline]
    assert names == ["tools", "shared", "helper", "g"]
    tokens = await client.text_document_semantic_tokens_full_async(
        lsp.SemanticTokensParams(text_document=_doc(uri))
    )
    assert tokens is not None and len(tokens.data) % 5 == 0 and tokens.data
    edits = await client.text_document_formatting_async(
        lsp.DocumentFormattingParams(
            text_document=_doc(uri), options=lsp.FormattingOptions(tab_size=2, insert_spaces=True)
        )
    )
    assert edits is not None and len(edits) == 1
    assert "  node write = python(tools.add)\n" in edits[0].new_text


async def test_a_code_action_fixes_a_typod_name(client: LanguageClient, project: Path) -> None:
    text = AGENT.replace("summarization {", "sumarization {")
    uri = await _open(client, project / "main.agent", text)
    [d] = client.diagnostics[uri]
    assert d.code == "unknown-middleware"
    actions = await client.text_document_code_action_async(
        lsp.CodeActionParams(
            text_document=_doc(uri), range=d.range, context=lsp.CodeActionContext(diagnostics=[d])
        )
    )
    assert actions is not None and len(actions) == 1
    action = actions[0]
    assert isinstance(action, lsp.CodeAction) and action.edit and action.edit.changes
    [edit] = action.edit.changes[uri]
    assert edit.new_text == "summarization"
    assert edit.range == d.range
