"""The IR cache rebuilds a program without validating it (`ir/trusted.py`), so its entries
must be exactly what this toolchain wrote: a changed byte is a miss, and the rebuilt program
equals the validated one for every program the examples and test files compile to."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import agentc.ir as ir
from agentc import api, ircache
from agentc.compiler.pipeline import compile_file
from agentc.ir.trusted import load_trusted

ROOT = Path(__file__).resolve().parents[2]
AGENT = (
    'agentc 1\nuse "./kit.py" as kit\nagent a {\n  model "scripted" '
    '{ replies: ["hi"] }\n  tools [kit.add]\n}\n'
)
KIT = 'def add(a: int, b: int) -> int:\n    """Add."""\n    return a + b\n'


@pytest.fixture
def cached(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv(api.NO_CACHE_ENV, raising=False)
    (tmp_path / "kit.py").write_text(KIT)
    path = tmp_path / "a.agent"
    path.write_text(AGENT)
    api.compile_cached(path)
    return path


def test_a_changed_byte_in_an_entry_is_a_miss_not_a_different_program(cached: Path) -> None:
    entry = ircache.entry_for(cached)
    assert entry is not None and entry.is_file()
    entry.write_bytes(entry.read_bytes().replace(b'"Add."', b'"Bad."'))
    program = api.compile_cached(cached)  # compiled afresh, not served as changed
    assert program.graphs[0].agent is not None
    assert program.graphs[0].agent.tools[0].description == "Add."


def test_an_entry_in_the_old_one_line_layout_is_a_miss(cached: Path) -> None:
    entry = ircache.entry_for(cached)
    assert entry is not None
    program = compile_file(str(cached)).program
    assert program is not None
    old = {"deps": {}, "program": program.model_dump(mode="json")}
    entry.write_text(json.dumps(old))
    assert ircache.read(entry) is None


def test_a_cached_run_rebuilds_the_program_without_building_its_schemas(cached: Path) -> None:
    # in a fresh process: served from the cache, the IR's models stay unbuilt
    code = (
        "import sys; from agentc import api; import agentc.ir as ir; "
        "p = api.compile_cached(sys.argv[1]); "
        "print(type(p).__name__, ir.Program.__pydantic_complete__)"
    )
    env = {**os.environ, "XDG_CACHE_HOME": os.environ["XDG_CACHE_HOME"]}
    env.pop(api.NO_CACHE_ENV, None)
    done = subprocess.run(
        [sys.executable, "-c", code, str(cached)],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=True,
    )
    assert done.stdout.split() == ["Program", "False"]


def _programs() -> list[Path]:
    found = sorted((ROOT / "examples").rglob("*.agent"))
    found += sorted((ROOT / "tests" / "runtime" / "graphs").rglob("*.agent"))
    return found


@pytest.mark.parametrize("path", _programs(), ids=lambda p: str(p.relative_to(ROOT)))
def test_the_trusted_rebuild_equals_validation(path: Path) -> None:
    program = compile_file(str(path)).program
    if program is None:
        pytest.skip("does not compile on its own (a part of another example)")
    dumped = program.model_dump(mode="json")
    rebuilt = load_trusted(json.loads(json.dumps(dumped)))
    assert rebuilt == ir.Program.model_validate(dumped) == program
    assert rebuilt.model_dump(mode="json") == dumped


# ---------------------------------------------------------------- the toolchain's hashes


def _old(path: Path, text: str) -> None:
    """Write `text` with the mtime an unpacked wheel may carry (tests set `RACY_S` to 0, so
    the file counts as written a while ago)."""
    path.write_text(text)
    os.utime(path, ns=(0, 0))


def test_a_remembered_hash_is_the_files_content_hash(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(ircache, "RACY_S", 0.0)
    f = tmp_path / "a.py"
    _old(f, "x = 1\n")
    memo = ircache.HashMemo(tmp_path / "memo.json")
    first = memo.hash(f)
    memo.save()
    again = ircache.HashMemo(tmp_path / "memo.json")
    assert str(f) in again.known  # remembered across processes
    assert again.hash(f) == first == ircache._file_hash(f)


def test_a_file_rewritten_with_its_old_size_and_mtime_is_hashed_again(
    tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.setattr(ircache, "RACY_S", 0.0)
    f = tmp_path / "a.py"
    _old(f, "x = 1\n")
    memo = ircache.HashMemo(tmp_path / "memo.json")
    before = memo.hash(f)
    memo.save()
    _old(f, "x = 2\n")  # same size, same mtime: only the ctime (and bytes) differ
    after = ircache.HashMemo(tmp_path / "memo.json").hash(f)
    assert after != before and after == ircache._file_hash(f)


def test_a_file_changed_just_now_is_not_remembered(tmp_path: Path) -> None:
    f = tmp_path / "a.py"
    f.write_text("x = 1\n")  # its ctime is now: it may change again within the tick
    memo = ircache.HashMemo(tmp_path / "memo.json")
    assert memo.hash(f) == ircache._file_hash(f)
    assert str(f) not in memo.known


def test_the_stamp_with_remembered_hashes_equals_hashing_every_file(
    tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    ircache.toolchain_stamp.cache_clear()
    try:
        ircache.toolchain_stamp()  # fills the memo
        assert (tmp_path / "cache" / "agentc" / "toolchain-hashes.json").is_file()
        ircache.toolchain_stamp.cache_clear()
        stamp = ircache.toolchain_stamp()  # served from it
    finally:
        ircache.toolchain_stamp.cache_clear()
    direct = [f"agentc {ircache.__version__}"] + [
        f"{name}:{ircache._file_hash(path) or '?'}" for name, path in ircache.toolchain_files()
    ]
    assert stamp.splitlines() == direct
