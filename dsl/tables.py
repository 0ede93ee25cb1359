"""The parse tables `dsl/reduce.py` drives, kept between processes as JSON.

Input: nothing (the grammar, Lark's installed version and `dsl/reduce.py` itself make the
key). Output: `load_tables()`, one `reduce.Tables` per process. Why: a check of a file
without syntax errors needs only Lark's analysed tables, not Lark: reading them from
this file skips importing Lark and loading its whole parser (about a third of a small
file's check); Lark itself is loaded only for a syntax error, a very deep file, or when
the file is missing. Invariants: the file is in the same user cache directory as the
grammar cache (`grammar.cache_dir`), never in the package; it is JSON, never pickle; it
starts with the sha256 of the rest, so a damaged or foreign file is a miss (rebuilt from
Lark's parser), never an exception; it is written atomically.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from agentc.grammar import GRAMMAR_PATH, cache_dir, load_parser

from .reduce import Tables, tables_of

FORMAT = 1


@functools.cache
def load_tables() -> Tables:
    """The process-wide tables: from the cache file when it is there and whole, else read
    from Lark's parser (and written for the next process)."""
    path = _path()
    if path is not None:
        data = _read(path)
        if data is not None:
            try:
                return Tables(data)
            except (KeyError, TypeError, ValueError, IndexError):
                pass  # a shape this version does not read: rebuilt below
    data = tables_of(load_parser())
    if path is not None:
        _write(path, data)
    return Tables(data)


def _key() -> str:
    """What the tables depend on: the grammar, Lark's version and how they are read."""
    spec = importlib.util.find_spec("lark")  # found, not imported
    origin = spec.origin if spec is not None else None
    digest = hashlib.sha256(f"{FORMAT}\0".encode())
    sources = (GRAMMAR_PATH, Path(__file__).with_name("reduce.py"), origin)
    for source in sources:  # lark/__init__.py holds its version
        digest.update(Path(source).read_bytes() if source else b"")
        digest.update(b"\0")
    return digest.hexdigest()[:20]


def _path() -> Path | None:
    folder = cache_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        key = _key()
    except OSError:
        return None
    if not os.access(folder, os.W_OK | os.R_OK):
        return None
    return folder / f"tables-{key}.json"


def _read(path: Path) -> dict[str, Any] | None:
    try:
        raw = path.read_bytes()
    except OSError:
        return None
    digest, _, payload = raw.partition(b"\n")
    if hashlib.sha256(payload).hexdigest().encode() != digest:
        return None
    try:
        whole = json.loads(payload)
    except ValueError:
        return None
    if not isinstance(whole, dict) or whole.get("format") != FORMAT:
        return None
    data = whole.get("tables")
    return data if isinstance(data, dict) else None


def _write(path: Path, data: dict[str, Any]) -> None:
    payload = json.dumps({"format": FORMAT, "tables": data}, separators=(",", ":")).encode()
    text = hashlib.sha256(payload).hexdigest().encode() + b"\n" + payload
    try:
        fd, tmp = tempfile.mkstemp(prefix=path.name, dir=path.parent)
    except OSError:
        return  # an unwritable folder: the tables still work
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(text)
        os.replace(tmp, path)
    except OSError:
        Path(tmp).unlink(missing_ok=True)


__all__ = ["FORMAT", "load_tables"]
