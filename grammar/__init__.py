"""The grammar of `.agent` files and its parser loader.

Input: nothing but `agent.lark` beside this file. Output: `load_parser()`, one cached Lark
LALR parser per process (positions propagated, contextual lexer, `[]` placeholders).
The analysed parser is cached in a user cache directory (`$XDG_CACHE_HOME/agentc` or
`~/.cache/agentc`), keyed by the grammar's hash and the Lark version, so a cold start
skips grammar analysis; the cache is JSON (`jsoncache`), never Lark's own pickle cache; a
damaged file is rebuilt; when no cache directory is writable, the parser is built in
memory. Nothing is ever written inside the package.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from lark import Lark, Token

GRAMMAR_PATH = Path(__file__).with_name("agent.lark")


class _WholeWords:
    """A no-op post-lexer whose only job is `always_accept`.

    The contextual lexer only tries the terminals the parser accepts in its current state;
    where no name is accepted, `agents` would lex as the keyword `agent` plus `s`. With
    NAME always tried, a word is always lexed whole (keywords are picked out of NAME
    matches by Lark's exact-match rule), and an out-of-place word is reported as such.
    """

    always_accept = ("NAME",)

    def process(self, stream: Iterator[Token]) -> Iterator[Token]:
        return stream


_OPTIONS = dict(
    parser="lalr",
    lexer="contextual",
    propagate_positions=True,
    maybe_placeholders=True,
    postlex=_WholeWords(),
)


def cache_dir() -> Path:
    """Where the analysed parser is kept between processes."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "agentc"


def _cache_file(grammar: str) -> str | None:
    """A writable cache path for this grammar text, or None when there is none."""
    import lark

    digest = hashlib.sha256(f"{grammar}\0{lark.__version__}".encode()).hexdigest()[:20]
    folder = cache_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    if not os.access(folder, os.W_OK | os.R_OK):
        return None
    return str(folder / f"grammar-{digest}.json")


@functools.cache
def load_parser() -> Lark:
    """The process-wide parser (built once; loaded from the user cache when present)."""
    # Lark is imported here, not above: a check of a file that parses reads only the
    # tables kept by dsl/tables.py, and never imports Lark.
    from lark import Lark

    from . import jsoncache

    grammar = GRAMMAR_PATH.read_text(encoding="utf-8")
    path = _cache_file(grammar)
    if path is not None:
        try:
            return jsoncache.load(Path(path), postlex=_OPTIONS["postlex"])
        except jsoncache.CacheMiss:
            pass  # none yet, damaged, or of another format: build it and write it again
    parser = Lark(grammar, **_OPTIONS)
    if path is not None:
        with contextlib.suppress(OSError):  # an unwritable file: the parser still works
            jsoncache.save(parser, Path(path))
    return parser


__all__ = ["GRAMMAR_PATH", "cache_dir", "load_parser"]
