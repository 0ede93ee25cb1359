"""An installed agentc (not the editable checkout): the IR cache is keyed on the copy that runs.

The stamp of the IR cache must name the installed compiler's files, and a change to one of
them, to the stdlib's data or to the version must lead to a fresh compile instead of IR
lowered by the old copy. A probe run in the installed copy's venv reports its stamp, the
cache entries, and whether the compiler was imported (it is not when the IR is served from
the cache). Building and installing take a few seconds, once for the module.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from support.installed_kit import Installed, as_json, clean_env, install

from agentc.version import __version__

PROBE = """
import importlib.util, json, sys
from agentc import api, ircache
import agentc

program = api.compile_cached(sys.argv[1])
print(json.dumps({
    "agentc": agentc.__file__,
    "compiler": importlib.util.find_spec("agentc.compiler.pipeline").origin,
    "compiled": "agentc.compiler.pipeline" in sys.modules,
    "graphs": [g.name for g in program.graphs],
    "stamp": ircache.toolchain_stamp().splitlines(),
    "entries": sorted(p.name for p in ircache.cache_dir().glob("*.json")),
}))
"""
AGENT = 'agentc 1\nagent hello {\n  model "scripted" { replies: ["hi"] }\n}\n'


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Installed:
    return install(tmp_path_factory.mktemp("installed"))


@pytest.fixture
def scratch(tmp_path) -> tuple[Path, dict[str, str]]:
    (tmp_path / "probe.py").write_text(PROBE)
    (tmp_path / "hello.agent").write_text(AGENT)
    return tmp_path, {**clean_env(), "XDG_CACHE_HOME": str(tmp_path / "cache")}


def probe(installed: Installed, where: Path, env: dict[str, str]) -> dict:
    return as_json(installed.run("probe.py", "hello.agent", cwd=where, env=env))


def test_the_stamp_names_the_installed_compiler_and_a_change_to_it_recompiles(installed, scratch):
    where, env = scratch
    first = probe(installed, where, env)
    assert Path(first["agentc"]).is_relative_to(installed.site)  # not the checkout
    assert first["compiled"] and first["graphs"] == ["hello"] and len(first["entries"]) == 1
    stamp = first["stamp"]
    assert stamp[0] == f"agentc {__version__}"
    for part in ("compiler/pipeline.py", "dsl/parse.py", "grammar/agent.lark", "ir/program.py"):
        assert any(line.startswith(f"agentc.{part}:") for line in stamp), part
    assert any(line.startswith("agentc.stdlib/prelude.agent:") for line in stamp)
    assert any(line.startswith("agentc.stdlib/data/seats.json:") for line in stamp)

    again = probe(installed, where, env)
    assert not again["compiled"] and again["entries"] == first["entries"]  # served

    compiler = Path(first["compiler"])
    original = compiler.read_text(encoding="utf-8")
    try:
        compiler.write_text(original + "\n# a newer compiler\n", encoding="utf-8")
        changed = probe(installed, where, env)
    finally:
        compiler.write_text(original, encoding="utf-8")
    assert changed["compiled"] and changed["stamp"] != stamp
    assert len(changed["entries"]) == 2  # a new key: the old entry is not served


def test_a_new_version_or_new_stdlib_data_recompiles(installed, scratch):
    where, env = scratch
    first = probe(installed, where, env)
    version = installed.site / "agentc" / "version.py"
    data = installed.site / "agentc" / "stdlib" / "data" / "providers.json"
    originals = {p: p.read_text(encoding="utf-8") for p in (version, data)}
    try:
        version.write_text(originals[version].replace(__version__, f"{__version__}.post1"))
        bumped = probe(installed, where, env)
        data.write_text(originals[data] + "\n", encoding="utf-8")
        new_data = probe(installed, where, env)
    finally:
        for path, text in originals.items():
            path.write_text(text, encoding="utf-8")
    assert bumped["compiled"] and bumped["stamp"][0] == f"agentc {__version__}.post1"
    assert bumped["stamp"][1:] == first["stamp"][1:] and len(bumped["entries"]) == 2
    assert new_data["compiled"] and new_data["stamp"] != bumped["stamp"]
    assert len(new_data["entries"]) == 3


def test_explain_reads_the_seat_table_of_the_installed_copy(installed, scratch):
    where, env = scratch
    done = installed.run("-m", "agentc", "explain", "hello.agent", cwd=where, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("decision map of agent `hello`")
