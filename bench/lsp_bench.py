"""Benchmark the language server: time to diagnostics after an edit, hover and completion.

Generates check_bench's 1,000-node graph file, starts `python -m agentc lsp` in a fresh
process and drives it as an editor does over stdio (pygls's client): open the file, then
edit one line (a typo'd edge target, then the fix) and time until the diagnostics for that
version arrive; time hover and completion requests. Reported beside `agentc check` of the
same file in process (`compile_source`), which is the bulk of each analysis. Medians of
several runs. Targets (informational): diagnostics within 200 ms of an edit, hover and
completion within 50 ms.

Run: python bench/lsp_bench.py [--runs N] [--nodes N]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from check_bench import TOOLS, generate  # noqa: E402
from lsprotocol import types as lsp  # noqa: E402
from pygls.lsp.client import LanguageClient  # noqa: E402

from agentc.compiler.pipeline import compile_source  # noqa: E402


class Bench(LanguageClient):
    def __init__(self) -> None:
        super().__init__("agentc-bench", "1")
        self.arrived: dict[int, asyncio.Event] = {}


async def run(nodes: int, runs: int) -> None:
    folder = Path(tempfile.mkdtemp())
    (folder / "tools.py").write_text(TOOLS)
    path = folder / "big.agent"
    text = generate(nodes)
    path.write_text(text)
    uri = path.as_uri()
    client = Bench()

    @client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def _published(params: lsp.PublishDiagnosticsParams) -> None:
        client.arrived.setdefault(params.version or 0, asyncio.Event()).set()

    await client.start_io(sys.executable, "-m", "agentc", "lsp")
    await client.initialize_async(lsp.InitializeParams(capabilities=lsp.ClientCapabilities()))
    client.initialized(lsp.InitializedParams())
    doc = lsp.TextDocumentItem(uri=uri, language_id="agentc", version=1, text=text)
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(text_document=doc))
    await client.arrived.setdefault(1, asyncio.Event()).wait()

    edits, version = [], 1
    for i in range(runs * 2):
        version += 1
        new = text.replace("edge n0 -> n1\n", "edge n0 -> n1x\n") if i % 2 == 0 else text
        t0 = time.perf_counter()
        client.text_document_did_change(
            lsp.DidChangeTextDocumentParams(
                text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=[lsp.TextDocumentContentChangeWholeDocument(text=new)],
            )
        )
        await client.arrived.setdefault(version, asyncio.Event()).wait()
        edits.append(time.perf_counter() - t0)

    at = text.index("python(tools.step)") + 10
    line = text.count("\n", 0, at)
    where = lsp.Position(line=line, character=at - (text.rfind("\n", 0, at) + 1))
    ident = lsp.TextDocumentIdentifier(uri=uri)
    hovers, completions = [], []
    for _ in range(runs * 4):
        t0 = time.perf_counter()
        await client.text_document_hover_async(lsp.HoverParams(text_document=ident, position=where))
        hovers.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        await client.text_document_completion_async(
            lsp.CompletionParams(text_document=ident, position=where)
        )
        completions.append(time.perf_counter() - t0)
    first = []  # the first request after an edit makes the outline (a parse and an index)
    for _ in range(runs):
        version += 1
        client.text_document_did_change(
            lsp.DidChangeTextDocumentParams(
                text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=[lsp.TextDocumentContentChangeWholeDocument(text=text)],
            )
        )
        await client.arrived.setdefault(version, asyncio.Event()).wait()
        t0 = time.perf_counter()
        await client.text_document_hover_async(lsp.HoverParams(text_document=ident, position=where))
        first.append(time.perf_counter() - t0)
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()

    checks = []
    for _ in range(runs):
        t0 = time.perf_counter()
        compile_source(text, str(path), base_dir=folder)
        checks.append(time.perf_counter() - t0)

    def ms(xs: list[float]) -> str:
        return f"{statistics.median(xs) * 1000:.0f} ms"

    print(f"{nodes}-node file ({text.count(chr(10))} lines):")
    print(f"  diagnostics after an edit (end to end): {ms(edits)}")
    print(f"  agentc check of the same file (in process): {ms(checks)}")
    print(f"  hover: {ms(hovers)}   completion: {ms(completions)}")
    print(f"  first hover after an edit (makes the outline): {ms(first)}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--nodes", type=int, default=1000)
    args = parser.parse_args()
    asyncio.run(run(args.nodes, args.runs))


if __name__ == "__main__":
    main()
