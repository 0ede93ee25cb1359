"""The language server: LSP over stdin/stdout (pygls), every answer from the checker's data.

Input: an editor's LSP session. Output: diagnostics on open, change and save (the same as
`agentc check`), hover, definition, references, rename, completion, document symbols,
semantic tokens, formatting (`agentc.fmt`) and code actions applying each diagnostic's
exact replacement (`agentc.fmt.fixes`). Invariant: the user's Python is read statically,
never imported or run; one analysis per document version, shared by every request on it.
"""

from __future__ import annotations

from typing import Protocol

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer

from ..fmt import format_source
from ..version import __version__
from . import complete, hover, navigate, symbols
from .analysis import Analysis, analyse, lsp_diagnostics
from .positions import offset_of, span_range


class AgentcServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("agentc", __version__)
        self.analyses: dict[str, tuple[int | None, Analysis]] = {}

    def analysis(self, uri: str) -> Analysis:
        """The analysis of the document's current version (made once per version)."""
        doc = self.workspace.get_text_document(uri)
        cached = self.analyses.get(uri)
        if cached is not None and cached[0] == doc.version and cached[1].source.text == doc.source:
            return cached[1]
        found = analyse(uri, doc.source, cached[1] if cached else None)
        self.analyses[uri] = (doc.version, found)
        return found

    def publish(self, uri: str) -> None:
        a = self.analysis(uri)
        version = self.analyses[uri][0]
        params = lsp.PublishDiagnosticsParams(
            uri=uri, diagnostics=lsp_diagnostics(a), version=version
        )
        self.text_document_publish_diagnostics(params)


server = AgentcServer()


@server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: AgentcServer, params: lsp.DidOpenTextDocumentParams) -> None:
    ls.publish(params.text_document.uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: AgentcServer, params: lsp.DidChangeTextDocumentParams) -> None:
    ls.publish(params.text_document.uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: AgentcServer, params: lsp.DidSaveTextDocumentParams) -> None:
    ls.analyses.pop(params.text_document.uri, None)  # a used .py may have changed too
    ls.publish(params.text_document.uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: AgentcServer, params: lsp.DidCloseTextDocumentParams) -> None:
    ls.analyses.pop(params.text_document.uri, None)
    ls.text_document_publish_diagnostics(
        lsp.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[])
    )


class _PositionParams(Protocol):
    """What every position request carries (lsprotocol's classes share no base)."""

    @property
    def text_document(self) -> lsp.TextDocumentIdentifier: ...

    @property
    def position(self) -> lsp.Position: ...


def _at(ls: AgentcServer, params: _PositionParams) -> tuple[Analysis, int]:
    a = ls.analysis(params.text_document.uri)
    return a, offset_of(a.source, params.position)


@server.feature(lsp.TEXT_DOCUMENT_HOVER)
def on_hover(ls: AgentcServer, params: lsp.HoverParams) -> lsp.Hover | None:
    a, offset = _at(ls, params)
    card = hover.hover(a, offset)
    if card is None:
        return None
    return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=card))


@server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
def on_definition(ls: AgentcServer, params: lsp.DefinitionParams) -> list[lsp.Location]:
    return navigate.definition(*_at(ls, params))


@server.feature(lsp.TEXT_DOCUMENT_REFERENCES)
def on_references(ls: AgentcServer, params: lsp.ReferenceParams) -> list[lsp.Location]:
    a, offset = _at(ls, params)
    return navigate.references(a, offset, params.context.include_declaration)


@server.feature(lsp.TEXT_DOCUMENT_PREPARE_RENAME)
def on_prepare_rename(ls: AgentcServer, params: lsp.PrepareRenameParams) -> lsp.Range | None:
    return navigate.prepare_rename(*_at(ls, params))


@server.feature(lsp.TEXT_DOCUMENT_RENAME)
def on_rename(ls: AgentcServer, params: lsp.RenameParams) -> lsp.WorkspaceEdit | None:
    a, offset = _at(ls, params)
    return navigate.rename(a, offset, params.new_name)


@server.feature(
    lsp.TEXT_DOCUMENT_COMPLETION,
    lsp.CompletionOptions(trigger_characters=[".", "{", '"', " ", ">"]),
)
def on_completion(ls: AgentcServer, params: lsp.CompletionParams) -> lsp.CompletionList:
    a, offset = _at(ls, params)
    return lsp.CompletionList(is_incomplete=False, items=complete.complete(a, offset))


@server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
def on_symbols(ls: AgentcServer, params: lsp.DocumentSymbolParams) -> list[lsp.DocumentSymbol]:
    return symbols.document_symbols(ls.analysis(params.text_document.uri))


@server.feature(lsp.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL, symbols.LEGEND)
def on_tokens(ls: AgentcServer, params: lsp.SemanticTokensParams) -> lsp.SemanticTokens:
    return lsp.SemanticTokens(data=symbols.semantic_tokens(ls.analysis(params.text_document.uri)))


@server.feature(lsp.TEXT_DOCUMENT_FORMATTING)
def on_format(ls: AgentcServer, params: lsp.DocumentFormattingParams) -> list[lsp.TextEdit] | None:
    a = ls.analysis(params.text_document.uri)
    result = format_source(a.source.text, a.filename)
    if result.text is None or result.text == a.source.text:
        return None if result.text is None else []
    return [lsp.TextEdit(range=span_range(a.source, a.source.whole()), new_text=result.text)]


@server.feature(
    lsp.TEXT_DOCUMENT_CODE_ACTION,
    lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix]),
)
def on_code_action(ls: AgentcServer, params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
    a = ls.analysis(params.text_document.uri)
    start = offset_of(a.source, params.range.start)
    end = offset_of(a.source, params.range.end)
    actions = []
    for fix in a.fixes():
        span = fix.diagnostic.span
        if span.end.offset < start or span.start.offset > end:
            continue
        edit_range = span_range(a.source, a.source.span(fix.edit.start, fix.edit.end))
        edit = lsp.TextEdit(range=edit_range, new_text=fix.edit.new_text)
        actions.append(
            lsp.CodeAction(
                title=fix.title,
                kind=lsp.CodeActionKind.QuickFix,
                diagnostics=[
                    d for d in params.context.diagnostics if d.code == fix.diagnostic.code
                ],
                is_preferred=True,
                edit=lsp.WorkspaceEdit(changes={a.uri: [edit]}),
            )
        )
    return actions


def serve() -> None:
    server.start_io()
