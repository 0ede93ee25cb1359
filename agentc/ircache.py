"""The on-disk cache of lowered IR that `agentc run` reads instead of compiling.

Input: an `.agent` file's path and text; after a compile, its `CompileResult`. Output:
`entry_for(path)` → the cache file for this text under this toolchain (None when the cache
is off or the file unreadable), `read(entry)` → the cached `ir.Program` or None,
`write(entry, result, path)` stores one. Entries are JSON in
`$XDG_CACHE_HOME/agentc/ir/` (never pickle); `AGENTC_NO_IR_CACHE=1` turns the cache off.

The key, and why it is enough:
- the file's resolved path and its text;
- the toolchain stamp: the installed `agentc.version.__version__` and the content hash of
  every file of the packages that turn text into IR — `agentc.grammar`, `agentc.dsl`,
  `agentc.compiler`, `agentc.ir` and `agentc.stdlib` (the prelude, the data tables and the
  stdlib Python the compiler reads for signatures) — found where Python imports them from
  (`importlib.util.find_spec`, nothing imported), so an editable checkout and an installed
  wheel are keyed alike and an upgrade never serves IR lowered by an old compiler (each
  file's hash is remembered under its stat signature, `HashMemo`, so a run reads only the
  files that changed);
- recorded in the entry and checked on every read: the hash of each file the program read
  besides the toolchain (used `.agent` files, `use`d Python files, other `agentc.…` modules
  it names). A program naming Python outside agentc by module name is not cached: its file
  is not known without importing it.

Invariants: a read never raises (a damaged or foreign entry is a miss); a write is atomic
and silent when the cache folder is not writable. Never a secret: a result with any error
diagnostic is not stored (a refused credential is one, `secret-in-file`), nor a program
holding any string shaped like a credential (`secret_shape`, the checker's own table) —
prompts may quote one, and a cache file is one more copy nobody reviews.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import json
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .version import __version__

if TYPE_CHECKING:
    import agentc.ir as ir
    from agentc.compiler.pipeline import CompileResult

NO_CACHE_ENV = "AGENTC_NO_IR_CACHE"
# The packages an IR is built by, and the kinds of file in them the build reads.
TOOLCHAIN = ("agentc.grammar", "agentc.dsl", "agentc.compiler", "agentc.ir", "agentc.stdlib")
SOURCE_SUFFIXES = (".py", ".lark", ".agent", ".json", ".txt")


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "agentc" / "ir"


def entry_for(path: str | Path) -> Path | None:
    """The cache file of `path`'s current text, or None (cache off, file unreadable)."""
    if os.environ.get(NO_CACHE_ENV):
        return None
    try:
        text = Path(path).read_bytes()
    except OSError:
        return None  # the compiler reports the unreadable file
    where = str(Path(path).resolve()).encode()
    return cache_dir() / f"{_digest(toolchain_stamp().encode(), where, text)}.json"


def _digest(*parts: bytes) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(len(part).to_bytes(8, "little"))
        h.update(part)
    return h.hexdigest()[:40]


# ---------------------------------------------------------------- the toolchain stamp


def package_dirs(package: str) -> list[Path]:
    """Where `package` is imported from, without importing it (editable or installed)."""
    spec = importlib.util.find_spec(package)
    if spec is None or spec.submodule_search_locations is None:
        return []
    return [Path(p) for p in spec.submodule_search_locations]


def toolchain_files() -> Iterator[tuple[str, Path]]:
    """(`agentc.compiler/pipeline.py`, its path) for every toolchain source, sorted."""
    for package in TOOLCHAIN:
        for root in package_dirs(package):
            found = []
            for dirpath, dirnames, files in os.walk(root):
                dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
                found += [Path(dirpath, f) for f in files if f.endswith(SOURCE_SUFFIXES)]
            for path in sorted(found):
                yield f"{package}/{path.relative_to(root).as_posix()}", path


@functools.cache
def toolchain_stamp() -> str:
    """`agentc <version>`, then `<package>/<file>:<sha256>` per toolchain source.

    Content hashes, not mtimes: an install may keep the wheel's timestamps, and a rebuilt
    wheel of one version may differ. Hashing the ~160 files takes 8-12 ms, so each hash is
    remembered beside the entries under the file's stat signature (`HashMemo`)."""
    memo = HashMemo(cache_dir().parent / "toolchain-hashes.json")
    lines = [f"agentc {__version__}"]
    for name, path in toolchain_files():
        lines.append(f"{name}:{memo.hash(path) or '?'}")
    memo.save()
    return "\n".join(lines)


RACY_S = 2.0  # a file changed this close to being remembered may change again unseen


class HashMemo:
    """Content hashes remembered by stat signature: size, mtime, ctime and inode, as git's
    index does. An install or an edit replaces the file (a new inode) or rewrites it (a new
    ctime, which no tool can set back), so an unchanged signature means unchanged bytes. A
    file whose ctime is within `RACY_S` of now is hashed but not remembered: it may change
    again within the clock's tick. A memo that cannot be read or written is no memo."""

    def __init__(self, path: Path) -> None:
        self.path, self.changed, self.used = path, False, set[str]()
        try:
            known = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            known = {}
        self.known: dict[str, list[Any]] = known if isinstance(known, dict) else {}

    def hash(self, path: Path) -> str | None:
        try:
            st = path.stat()
        except OSError:
            return None
        signature = [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino]
        key = str(path)
        self.used.add(key)
        seen = self.known.get(key)
        if isinstance(seen, list) and seen[:4] == signature and len(seen) == 5:
            return str(seen[4])
        digest = _file_hash(path)
        if digest is not None and time.time_ns() - st.st_ctime_ns > RACY_S * 1e9:
            self.known[key] = [*signature, digest]
            self.changed = True
        return digest

    def save(self) -> None:
        if not self.changed:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_suffix(f".{os.getpid()}.tmp")
            kept = {k: v for k, v in self.known.items() if k in self.used}  # files still there
            tmp.write_text(json.dumps(kept), encoding="utf-8")
            os.replace(tmp, self.path)
        except OSError:
            pass  # not writable: hash again next time


def _file_hash(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


# ---------------------------------------------------------------- entries


def read(entry: Path) -> ir.Program | None:
    """The cached program, while every file it depends on has its recorded hash.

    An entry is two lines: a header (`deps`, and the sha256 of the second line) and the
    program's JSON. The program is rebuilt without validation (`ir/trusted.py`: validating
    first builds the schema of every IR model it meets, ~25 ms against ~6 ms); that is
    sound because the key covers the IR's own source files and the digest the entry's
    bytes, so a damaged or foreign entry is a miss, never a wrong program."""
    try:
        header_line, _, body = entry.read_bytes().partition(b"\n")
        header = json.loads(header_line)
    except (OSError, ValueError):
        return None
    if not isinstance(header, dict) or header.get("sha256") != hashlib.sha256(body).hexdigest():
        return None
    if any(_file_hash(Path(p)) != h for p, h in header.get("deps", {}).items()):
        return None
    from agentc.ir.trusted import TrustedDataError, load_trusted

    try:
        return load_trusted(json.loads(body))
    except (ValueError, KeyError, TypeError, TrustedDataError):
        return None  # unreadable after all: recompile


def write(entry: Path, result: CompileResult, root: Path) -> None:
    """Store a compiled program with its dependencies; nothing when one cannot be named,
    when the compile reported an error, or when the program holds a credential's shape."""
    program = result.program
    if program is None or any(d.is_error for d in result.diagnostics):
        return
    deps = dependencies(result, root)
    dumped = program.model_dump(mode="json")
    if deps is None or _holds_secret(dumped):
        return
    body = json.dumps(dumped).encode()
    header = json.dumps({"deps": deps, "sha256": hashlib.sha256(body).hexdigest()}).encode()
    try:
        entry.parent.mkdir(parents=True, exist_ok=True)
        tmp = entry.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_bytes(header + b"\n" + body)
        os.replace(tmp, entry)
    except OSError:
        pass  # no writable cache: compile each time


def dependencies(result: CompileResult, root: Path) -> dict[str, str] | None:
    """Every file the IR depends on besides the toolchain → its hash; None when one cannot
    be named (the program is then not cached)."""
    if result.program is None:
        return None
    deps: dict[str, str] = {}
    for name in result.sources:
        if Path(name).is_file():
            deps[str(Path(name).resolve())] = _file_hash(Path(name)) or ""
    base = root.resolve().parent
    for ref in _import_refs(result.program.model_dump(mode="json")):
        if _in_toolchain(ref):
            continue
        where = _ref_file(ref, base)
        if where is None:
            return None
        deps[str(where)] = _file_hash(where) or ""
    return deps


def _in_toolchain(ref: dict[str, Any]) -> bool:
    """A ref to a module of the toolchain packages: the stamp already covers its file."""
    module = str(ref.get("module", ""))
    return not ref.get("is_file") and any(
        module == p or module.startswith(p + ".") for p in TOOLCHAIN
    )


def _ref_file(ref: dict[str, Any], base: Path) -> Path | None:
    """The file an import ref names, or None when it cannot be known without importing."""
    module = str(ref.get("module", ""))
    if ref.get("is_file"):
        where = (base / module).resolve()
        return where if where.is_file() else None
    if not module.startswith("agentc."):
        return None
    from agentc.compiler.paths import agentc_module_file  # how the compiler finds it

    where = agentc_module_file(module.split("."))
    return where.resolve() if where is not None else None


def _holds_secret(value: Any) -> bool:
    """Any string of the dumped program shaped like a credential (`sk-…`, a URL with a
    password, …): the checker refuses them in configuration, but prose may quote one."""
    from agentc.compiler.check.secrets import secret_shape  # loaded by the compile before

    todo = [value]  # a loop, not recursion: a program's values may nest deeply
    while todo:
        item = todo.pop()
        if isinstance(item, str) and secret_shape(item) is not None:
            return True
        if isinstance(item, dict):
            todo += [*item.keys(), *item.values()]
        elif isinstance(item, list):
            todo += item
    return False


def _import_refs(value: Any) -> list[dict[str, Any]]:
    if isinstance(value, dict):
        found = [value] if {"module", "attr"} <= value.keys() else []
        return found + [r for v in value.values() for r in _import_refs(v)]
    if isinstance(value, list):
        return [r for v in value for r in _import_refs(v)]
    return []
