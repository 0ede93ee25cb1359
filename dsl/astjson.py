"""The AST as JSON, and an on-disk cache of a parsed file's AST (used for the prelude).

Input: an `ast.Module` and its `SourceFile`; or JSON text and the `SourceFile` it was made
from. Output: JSON text; or the equal `ast.Module`, or None when the text is not an AST
this version wrote. Nodes are `{"@": "ClassName", "a": [fields…]}`, spans
`{"s": start, "e": end}` (offsets: lines and columns come back from the source), tuples
JSON arrays. Only `dsl.ast` classes can come out: names are looked up in a fixed table,
never evaluated, and nothing is unpickled.

`cached_parse` keys the cache by the text, the agentc version and the parser's own files
(grammar, AST, builder), so any change to them misses; a corrupt or unwritable cache is
ignored (the file is parsed as usual). Only clean parses are stored — never diagnostics.
"""

from __future__ import annotations

import dataclasses
import gc
import hashlib
import json
import os
from bisect import bisect_right
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from . import ast
from .diagnostics import Diagnostic
from .source import Pos, SourceFile, Span

_CLASSES: dict[str, type[ast.Node]] = {
    name: obj
    for name, obj in vars(ast).items()
    if isinstance(obj, type) and issubclass(obj, ast.Node) and obj is not ast.Node
}
_FIELDS: dict[type[ast.Node], tuple[str, ...]] = {
    cls: tuple(f.name for f in dataclasses.fields(cls)) for cls in _CLASSES.values()
}
FORMAT = 1  # bump when the encoding itself changes


class _Bad(Exception):
    """The JSON is not an AST of this version."""


def encode(module: ast.Module) -> str:
    return json.dumps(_enc(module), separators=(",", ":"), ensure_ascii=False)


def _enc(value: object) -> object:
    if isinstance(value, ast.Node):
        return {
            "@": type(value).__name__,
            "a": [_enc(getattr(value, n)) for n in _FIELDS[type(value)]],
        }
    if isinstance(value, Span):
        return {"s": value.start.offset, "e": value.end.offset}
    if isinstance(value, tuple):
        return [_enc(v) for v in value]
    return value  # str, int, float, bool, None


def decode(text: str, source: SourceFile) -> ast.Module | None:
    """The module `encode` wrote for `source`, or None when `text` is not one."""
    # Thousands of small acyclic objects: the cyclic collector's passes would cost more
    # than the decoding (as in dsl.parse), so it waits until we are done.
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        module = json.loads(text, object_hook=_Decoder(source).hook)
    except (ValueError, TypeError, KeyError, _Bad, RecursionError):
        return None
    finally:
        if was_enabled:
            gc.enable()
    return module if isinstance(module, ast.Module) else None


class _Decoder:
    def __init__(self, source: SourceFile) -> None:
        self.name = source.name
        self.size = len(source.text)
        self.starts = source._line_starts
        self.positions: dict[int, Pos] = {}

    def pos(self, offset: Any) -> Pos:
        pos = self.positions.get(offset)
        if pos is None:
            if type(offset) is not int or not 0 <= offset <= self.size:
                raise _Bad(offset)
            line = bisect_right(self.starts, offset)
            pos = self.positions[offset] = Pos(line, offset - self.starts[line - 1] + 1, offset)
        return pos

    def hook(self, obj: dict[str, Any]) -> ast.Node | Span:
        if "@" in obj:
            cls = _CLASSES[obj["@"]]
            names = _FIELDS[cls]
            args = obj["a"]
            if len(args) != len(names):
                raise _Bad(cls)
            return cls(
                **{n: tuple(v) if type(v) is list else v for n, v in zip(names, args, strict=True)}
            )
        return Span(self.name, self.pos(obj["s"]), self.pos(obj["e"]))


# ---------------------------------------------------------------- the cache

_PARSER_FILES = (
    Path(__file__).with_name("ast.py"),
    Path(__file__).with_name("build.py"),
    Path(__file__).with_name("astclass.py"),
)


def cache_key(text: str, version: str) -> str:
    from agentc.grammar import GRAMMAR_PATH

    digest = hashlib.sha256(f"{FORMAT}\0{version}\0{text}".encode())
    for path in (GRAMMAR_PATH, *_PARSER_FILES):
        try:
            digest.update(path.read_bytes())
        except OSError:
            digest.update(b"?")
    return digest.hexdigest()[:24]


class Parsed(Protocol):
    """What `cached_parse` needs of a parse (`dsl.parse.ParseResult`, without importing the
    parser: a cache hit never loads Lark)."""

    @property
    def module(self) -> ast.Module | None: ...
    @property
    def source(self) -> SourceFile: ...
    @property
    def diagnostics(self) -> tuple[Diagnostic, ...]: ...


def cached_parse(
    text: str, name: str, version: str, parse: Callable[[str, str], Parsed]
) -> tuple[ast.Module | None, SourceFile, tuple[Diagnostic, ...]]:
    """`(module, source, diagnostics)` of `text`, from the user cache when it is there."""
    from agentc.grammar import cache_dir

    source = SourceFile(name, text)
    path = cache_dir() / f"ast-{cache_key(text, version)}.json"
    try:
        module = decode(path.read_text(encoding="utf-8"), source)
    except (OSError, UnicodeDecodeError):
        module = None
    if module is not None:
        return module, source, ()
    result = parse(text, name)
    if result.module is not None and not result.diagnostics:
        _store(path, encode(result.module))
    return result.module, result.source, result.diagnostics


def _store(path: Path, text: str) -> None:
    """Write atomically (a reader never sees half a file); give up quietly on any error."""
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        try:
            tmp.unlink()
        except OSError:
            pass


__all__ = ["FORMAT", "Parsed", "cache_key", "cached_parse", "decode", "encode"]
