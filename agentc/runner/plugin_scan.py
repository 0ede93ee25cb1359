"""Pydantic's plugin scan, answered without `importlib.metadata` when no plugin exists.

Input: `sys.path`, `sys.meta_path` and a memo in the user cache directory. Output:
`skip_when_none()` returns True when it told pydantic "no plugins" itself.

Why: the first validator pydantic builds in a process imports `importlib.metadata` and reads
every installed distribution's entry points, looking for the `pydantic` group
(`pydantic/plugin/_loader.py: get_plugins`): about a tenth of a cached `agentc run`, to learn
in almost every install that there are none. Here each folder on `sys.path` is listed and
its `*.dist-info`/`*.egg-info` folders' `entry_points.txt` read once, remembered under the
folder's mtime (installing or removing a distribution adds or removes such a folder, which
changes it); when no folder declares the group, pydantic's loader module is given as a
stand-in that finds no plugins, which is what its scan would have found.

Invariants: anything this cannot read the same way `importlib.metadata` would (a zip or
egg file on `sys.path`, a meta-path finder of its own that lists distributions, pydantic's
loader already imported) leaves pydantic to scan as usual; so does any plugin found.
"""

from __future__ import annotations

import json
import os
import stat as stat_
import sys
import time
import types
from pathlib import Path

GROUP = "[pydantic]"  # the entry-point group pydantic's loader reads
LOADER = "pydantic.plugin._loader"
_STDLIB_FINDERS = ("BuiltinImporter", "FrozenImporter", "PathFinder")
KEEP = 32  # memo entries kept for folders not on this run's path (other working dirs)
RACY_NS = 2_000_000_000  # a folder changed this recently may change again within its tick


def skip_when_none(memo_path: Path) -> bool:
    """Install the no-plugins loader when no folder on `sys.path` declares a plugin."""
    if LOADER in sys.modules or not _only_path_finders():
        return False
    memo = _read(memo_path)
    fresh: dict[str, list[int | bool]] = {}
    try:
        found, here = False, os.getcwd()
    except OSError:  # the working folder was removed
        found, here = False, ""
    for entry in dict.fromkeys(sys.path):
        folder = entry or "."
        seen = _declares_plugin(folder, memo)
        if seen is None:
            return False
        found = found or bool(seen[1])
        # the working folder changes with every file saved in it: listed each time instead
        if seen[0] and os.path.abspath(folder) != here:
            fresh[folder] = seen
    if any(memo.get(k) != v for k, v in fresh.items()):
        others = [k for k in memo if k not in fresh][-KEEP:]  # other environments' folders
        _write(memo_path, {**{k: memo[k] for k in others}, **fresh})
    if found:
        return False
    _install_stand_in()
    return True


def _only_path_finders() -> bool:
    """No finder but the standard ones can list distributions (`find_distributions`)."""
    for finder in sys.meta_path:
        name = getattr(finder, "__name__", type(finder).__name__)
        if name not in _STDLIB_FINDERS and hasattr(finder, "find_distributions"):
            return False
    return True


def _declares_plugin(entry: str, memo: dict[str, list[int | bool]]) -> list[int | bool] | None:
    """[mtime, declares] for one `sys.path` entry; None when it is a file (zip, egg)."""
    try:
        stat = os.stat(entry)
    except OSError:
        return [0, False]  # missing: importlib.metadata finds nothing there either
    if not stat_.S_ISDIR(stat.st_mode):
        return None
    known = memo.get(entry)
    if known is not None and known[0] == stat.st_mtime_ns:
        return known
    # as git's racy-index rule: a listing within the folder's mtime tick is not remembered
    mtime = stat.st_mtime_ns if time.time_ns() - stat.st_mtime_ns > RACY_NS else 0
    try:
        names = os.listdir(entry)
    except OSError:
        return None
    for name in names:
        if name.endswith((".dist-info", ".egg-info")) and _has_group(
            os.path.join(entry, name, "entry_points.txt")
        ):
            return [mtime, True]
    return [mtime, False]


def _has_group(path: str) -> bool:
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return any(line.strip() == GROUP for line in handle)
    except OSError:  # no entry points (or not a folder: a one-file egg-info)
        return False


def _install_stand_in() -> None:
    loader = types.ModuleType(LOADER, "agentc's stand-in: no pydantic plugin is installed.")
    plugins: dict[str, object] = {}
    loader.__dict__.update(
        PYDANTIC_ENTRY_POINT_GROUP="pydantic",
        _plugins=plugins,
        _loading_plugins=False,
        get_plugins=plugins.values,
    )
    sys.modules[LOADER] = loader


def _read(path: Path) -> dict[str, list[int | bool]]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {
        k: v
        for k, v in data.items()
        if isinstance(v, list) and len(v) == 2 and isinstance(v[0], int)
    }


def _write(path: Path, memo: dict[str, list[int | bool]]) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(memo), encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        pass  # a read-only cache: scan again next time
