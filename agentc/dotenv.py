"""`.env` files: the environment a run's file expects, loaded before the run.

Input: the `.agent` file's path and the working directory. Output: `load_dotenv(agent_file)`
sets, in `os.environ`, each variable a `.env` beside the `.agent` file or in the working
directory defines, and returns what it loaded (`Loaded`: the file and the variable names —
never their values). As `langgraph.json`'s `env` and `baml-cli --dotenv` do.

The format, read here without a dependency: one `KEY=VALUE` a line; blank lines and lines
starting with `#` are skipped; an `export ` prefix is allowed; a value in single quotes is
taken as written, a value in double quotes reads `\\n`, `\\t`, `\\"` and `\\\\`; an unquoted
value ends at ` #` (a comment) and is stripped. Nothing is expanded: `$HOME` stays `$HOME`,
as no shell runs. Invariants: a variable already in the environment wins (the caller's
shell is the user's latest word), and so does the first file over the second (the one
beside the `.agent` file is the more specific); a line that is not `KEY=VALUE` is skipped.
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path

NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*")
ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\"}


@dataclass(frozen=True, slots=True)
class Loaded:
    """One `.env` file read: where it is, and the names it set (others were set already)."""

    path: Path
    names: tuple[str, ...]
    kept: tuple[str, ...]  # defined in the file but already in the environment: not changed


def candidates(agent_file: str) -> list[Path]:
    """The `.env` beside the `.agent` file, then the working directory's (once each)."""
    found: list[Path] = []
    for folder in (Path(agent_file).resolve().parent, Path.cwd().resolve()):
        path = folder / ".env"
        if path.is_file() and path not in found:
            found.append(path)
    return found


def load_dotenv(agent_file: str) -> list[Loaded]:
    """Set each `.env` variable not in the environment yet; what was loaded, per file."""
    loaded = []
    for path in candidates(agent_file):
        try:
            pairs = parse(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError):
            continue  # an unreadable `.env` is not the run's business; `--verbose` is silent
        names, kept = [], []
        for key, value in pairs.items():
            if key in os.environ:
                kept.append(key)
                continue
            os.environ[key] = value
            names.append(key)
        loaded.append(Loaded(path, tuple(names), tuple(kept)))
    return loaded


def load_and_say(agent_file: str, verbose: bool) -> None:
    """`load_dotenv`, and with `verbose` each file and the names it set on stderr, never a
    value (what `agentc run` and `agentc chat` do before they compile)."""
    for loaded in load_dotenv(agent_file):
        if verbose:
            names = ", ".join(loaded.names) or "nothing new"
            kept = f"; already set, kept: {', '.join(loaded.kept)}" if loaded.kept else ""
            print(f"loaded {loaded.path}: {names}{kept}", file=sys.stderr)


def parse(text: str) -> dict[str, str]:
    """The `KEY=VALUE` pairs of a `.env` text (a later line wins within one file)."""
    pairs: dict[str, str] = {}
    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("export "):
            line = line[len("export ") :].lstrip()
        key, eq, rest = line.partition("=")
        key = key.strip()
        if line.startswith("#") or not eq or not NAME.fullmatch(key):
            continue
        pairs[key] = _value(rest.strip())
    return pairs


def _value(rest: str) -> str:
    if rest[:1] == "'" and "'" in rest[1:]:
        return rest[1 : rest.index("'", 1)]
    if rest[:1] == '"':
        out, i = [], 1
        while i < len(rest) and rest[i] != '"':
            if rest[i] == "\\" and i + 1 < len(rest):
                i += 1
                out.append(ESCAPES.get(rest[i], "\\" + rest[i]))
            else:
                out.append(rest[i])
            i += 1
        return "".join(out)
    comment = re.search(r"\s#", rest)
    return (rest[: comment.start()] if comment else rest).strip()
