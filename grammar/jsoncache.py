"""The analysed parser kept between processes as JSON, never as pickle.

Input: a Lark LALR parser (`save`), or a cache file this module wrote (`load`). Output: the
file; a parser equal to the one saved. Why: Lark's own `cache=` option writes and reads the
parser with pickle, and unpickling a file in a user cache directory runs whatever code the
file says. Lark's serialised form (`memo_serialize`, what its standalone generator writes
out) is plain data — dicts, lists, tuples, strings, numbers, booleans, None, some dicts
with integer keys — so it is written as JSON with tuples and non-string keys tagged, and
read back with `Lark._load_from_dict`. Invariants: a file that is not exactly that shape
(damaged, foreign, another version) is a miss (`CacheMiss`), never an exception to the
caller and never code; options that are objects (the post-lexer) are not stored but given
again on load.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from lark import Lark
from lark.grammar import Rule
from lark.lexer import TerminalDef

FORMAT = 1
_TUPLE, _DICT = "__tuple__", "__dict__"  # tags: a tuple, a dict whose keys are not all str
NOT_STORED = ("postlex",)  # objects, given again to `load`


class CacheMiss(Exception):
    """The cache file is missing, damaged or of another format: build the parser anew."""


def save(parser: Lark, path: Path) -> None:
    """Write the parser to `path` atomically (a reader never sees half a file)."""
    data, memo = parser.memo_serialize([TerminalDef, Rule])
    data["options"] = {k: v for k, v in data["options"].items() if k not in NOT_STORED}
    text = json.dumps({"format": FORMAT, "data": _encode(data), "memo": _encode(memo)})
    fd, tmp = tempfile.mkstemp(prefix=path.name, dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def load(path: Path, **objects: Any) -> Lark:
    """The parser saved at `path`, with `objects` (e.g. `postlex=`) given back to it."""
    try:
        whole = json.loads(path.read_text(encoding="utf-8"), object_hook=_untag)
    except (OSError, ValueError, TypeError) as exc:
        raise CacheMiss(str(exc)) from None
    if not isinstance(whole, dict) or whole.get("format") != FORMAT:
        raise CacheMiss("not a parser cache of this format")
    try:
        return Lark._load_from_dict(whole["data"], whole["memo"], **objects)
    except Exception as exc:  # a damaged file: any shape Lark cannot read is a miss
        raise CacheMiss(f"{type(exc).__name__}: {exc}") from None


def _encode(value: Any) -> Any:
    if isinstance(value, tuple):
        return {_TUPLE: [_encode(v) for v in value]}
    if isinstance(value, list):
        return [_encode(v) for v in value]
    if isinstance(value, dict):
        if all(isinstance(k, str) for k in value) and _TUPLE not in value and _DICT not in value:
            return {k: _encode(v) for k, v in value.items()}
        return {_DICT: [[_encode(k), _encode(v)] for k, v in value.items()]}
    if value is None or isinstance(value, str | int | float | bool):
        return value
    raise TypeError(f"a parser cache holds plain data, not {type(value).__name__}")


def _untag(obj: dict[str, Any]) -> Any:
    """`json.loads`'s hook, called bottom-up on every object as it is read (in C: no second
    walk over the table in Python)."""
    if len(obj) == 1:
        if _TUPLE in obj:
            return tuple(obj[_TUPLE])
        if _DICT in obj:
            return {k: v for k, v in obj[_DICT]}
    return obj
