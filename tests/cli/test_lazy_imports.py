"""What each command imports: only what its work needs (ARCHITECTURE.md, "Start-up budget").

Each test runs a real `agentc` command line in a fresh process (`main()` as the console
script calls it, caches in the test's own folder) and reads back the modules it imported
and the pydantic schemas it built. These pin import laziness, not time: a new eager import
fails here before it shows up in `bench/startup_bench.py`.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]

# Runs `agentc ARGS…` as the console script does (or, with AS_LIBRARY set, as a caller of
# `main(argv)` does, without the console script's preloading), then reports on stderr.
AS_COMMAND = """
import json, os, sys
from agentc.cli import main
sys.argv = ["agentc", *sys.argv[1:]]
code = main(sys.argv[1:]) if os.environ.get("AS_LIBRARY") else main()
built = []
for name in ("agentc.ir.base", "agentc.ir.agent", "agentc.ir.nodes", "agentc.ir.program",
             "agentc.stdlib.messages"):
    module = sys.modules.get(name)
    for attr, cls in (vars(module) if module else {}).items():
        if getattr(cls, "__module__", None) == name and getattr(cls, "__pydantic_complete__", 0):
            built.append(f"{name}.{attr}")
report = {"code": code, "modules": sorted(sys.modules), "built": built}
print(json.dumps(report), file=sys.stderr)
sys.exit(0)
"""

PLAIN = """agentc 1
use "./steps.py" as steps
graph plain {
  state { n: int = 0 }
  node bump = python(steps.bump)
  edge START -> bump
  edge bump -> END
}
"""
NEVER = ("langchain", "langgraph", "langchain_core")  # the oracle, never agentc's
SMALL = """agentc 1
use "./tools.py" as tools

agent helper "Adds numbers." {
  model "openai:gpt-4o-mini" { temperature: 0 }
  prompt "You are a careful calculator."
  tools [tools.add]
}

graph loop {
  state { messages: messages }
  node write = model("openai:gpt-4o-mini", prompt: "Draft.")
  node act = tools([tools.add])
  edge START -> write
  edge write -> act
  edge act -> END
}
"""


def agentc(cwd: Path, *args: str, **env: str) -> dict[str, Any]:
    environ = {**os.environ, "XDG_CACHE_HOME": str(cwd / "cache"), **env}
    for name in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "AGENTC_NO_IR_CACHE"):
        environ.pop(name, None)
    environ.update(env)
    done = subprocess.run(
        [sys.executable, "-c", AS_COMMAND, *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=environ,
        timeout=120,
        check=False,
    )
    assert done.stderr.strip(), done.stdout
    report = json.loads(done.stderr.strip().splitlines()[-1])
    report["stdout"] = done.stdout
    return report


def loaded(report: dict[str, Any], package: str) -> list[str]:
    return [m for m in report["modules"] if m == package or m.startswith(package + ".")]


def calculator(tmp_path: Path) -> Path:
    shutil.copy(ROOT / "examples" / "calculator.agent", tmp_path)
    shutil.copy(ROOT / "examples" / "tools.py", tmp_path)
    return tmp_path / "calculator.agent"


def test_a_cached_run_loads_neither_the_compiler_nor_lark_nor_networkx(tmp_path: Path) -> None:
    calculator(tmp_path)
    first = agentc(tmp_path, "run", "calculator.agent", "--input", "add")
    assert first["code"] == 0 and "The answer is 5." in first["stdout"]
    assert loaded(first, "agentc.compiler"), "the first run compiles (and fills the cache)"
    warm = agentc(tmp_path, "run", "calculator.agent", "--input", "add")
    assert warm["code"] == 0 and "The answer is 5." in warm["stdout"]
    for package in ("agentc.compiler", "agentc.dsl.parse", "agentc.grammar", "lark", "networkx"):
        assert not loaded(warm, package), package
    # a scripted model speaks no HTTP; a name found only in an error path stays unloaded;
    # pydantic's plugin scan is answered without it (`agentc/runner/plugin_scan.py`)
    for package in ("httpx", "difflib", "importlib.metadata", *NEVER):
        assert not loaded(warm, package), package


def test_a_cached_run_builds_no_ir_schema_and_only_the_message_schemas_it_uses(
    tmp_path: Path,
) -> None:
    calculator(tmp_path)
    agentc(tmp_path, "run", "calculator.agent", "--input", "add")
    warm = agentc(tmp_path, "run", "calculator.agent", "--input", "add")
    assert warm["code"] == 0
    assert not [b for b in warm["built"] if b.startswith("agentc.ir.")], warm["built"]
    built = {b.rsplit(".", 1)[1] for b in warm["built"]}
    assert {"HumanMessage", "AIMessage", "ToolMessage"} <= built
    assert "RemoveMessage" not in built  # no message of it was made (`defer_build`)


def test_a_cached_run_without_messages_builds_no_validator_and_reads_no_metadata(
    tmp_path: Path,
) -> None:
    (tmp_path / "steps.py").write_text("def bump(state):\n    return {'n': state['n'] + 1}\n")
    (tmp_path / "plain.agent").write_text(PLAIN)
    agentc(tmp_path, "run", "plain.agent", "--input", '{"n": 1}')
    warm = agentc(tmp_path, "run", "plain.agent", "--input", '{"n": 1}')
    assert warm["code"] == 0 and "n = 2" in warm["stdout"]
    # pydantic scans installed packages for plugins at its first validator (here answered
    # by agentc, `agentc/runner/plugin_scan.py`); agentc reads entry points only for a model
    # prefix its provider table lacks
    assert not loaded(warm, "importlib.metadata")


def test_what_a_run_preloads_is_what_every_run_imports_anyway(tmp_path: Path) -> None:
    from agentc.cli import PRELOAD

    calculator(tmp_path)
    (tmp_path / "steps.py").write_text("def bump(state):\n    return {'n': state['n'] + 1}\n")
    (tmp_path / "plain.agent").write_text(PLAIN)
    runs = (("calculator.agent", "add"), ("plain.agent", '{"n": 1}'))
    for cached in ("1", "", ""):  # compiled: cold, then filling the IR cache; then warm
        for name, given in runs:
            env = {"AS_LIBRARY": "1", "AGENTC_NO_IR_CACHE": cached}
            report = agentc(tmp_path, "run", name, "--input", given, **env)
            assert report["code"] == 0, report["stdout"]
            missing = [m for m in PRELOAD["run"] if m not in report["modules"]]
            assert not missing, (name, cached, missing)


def test_preloading_builds_no_schema_so_a_dotenv_still_comes_first(tmp_path: Path) -> None:
    # `.env` files are read after the preload: nothing preloaded may read the environment
    # at import, and pydantic reads its own variables when it builds its first validator.
    code = (
        "import sys; from agentc.cli import _preload; _preload('run'); print(sorted(sys.modules));"
        "from agentc.stdlib import messages as m; print(m.HumanMessage.__pydantic_complete__)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, check=True
    )
    modules = done.stdout
    assert "'agentc.runtime'" in modules and "'agentc.stdlib.messages'" in modules
    assert done.stdout.splitlines()[-1] == "False"  # no validator built yet
    assert "'importlib.metadata'" not in modules  # nor pydantic's plugin scan run
    assert "'httpx'" not in modules


def test_a_check_loads_no_runtime_no_stdlib_code_and_no_http(tmp_path: Path) -> None:
    shutil.copy(ROOT / "examples" / "tools.py", tmp_path)
    (tmp_path / "small.agent").write_text(SMALL)
    report = agentc(tmp_path, "check", "small.agent", AGENTC_NO_IR_CACHE="1")
    assert report["code"] == 0, report["stdout"]
    assert "small.agent: ok" in report["stdout"]
    for package in ("agentc.runtime", "agentc.stdlib.messages", "agentc.stdlib.agent", "httpx"):
        assert not loaded(report, package), package
    for package in ("networkx", "asyncio", "sqlite3", *NEVER):
        assert not loaded(report, package), package


def test_a_check_builds_no_ir_schema_and_without_a_syntax_error_imports_no_lark(
    tmp_path: Path,
) -> None:
    shutil.copy(ROOT / "examples" / "tools.py", tmp_path)
    (tmp_path / "small.agent").write_text(SMALL)
    agentc(tmp_path, "check", "small.agent", AGENTC_NO_IR_CACHE="1")  # writes the caches
    report = agentc(tmp_path, "check", "small.agent", AGENTC_NO_IR_CACHE="1")
    assert report["code"] == 0, report["stdout"]
    # the compiler builds its IR unvalidated (ir/construct.py), and dumps node configs itself
    assert report["built"] == []
    assert not loaded(report, "importlib.metadata")  # nor pydantic's plugin scan run
    # the parse tables come from their JSON cache (dsl/tables.py): Lark is not needed
    assert not loaded(report, "lark")
    (tmp_path / "broken.agent").write_text("agentc 1\ngraph g {\n  edge START ->\n}\n")
    broken = agentc(tmp_path, "check", "broken.agent", AGENTC_NO_IR_CACHE="1")
    assert broken["code"] == 1 and "syntax" in broken["stdout"], broken["stdout"]
    assert loaded(broken, "lark")  # a syntax error is Lark's to report


def test_a_check_that_stops_before_lowering_reads_no_package_metadata(tmp_path: Path) -> None:
    (tmp_path / "broken.agent").write_text(
        "agentc 1\ngraph g {\n  state { n: int = 0 }\n  edge START -> nowhere\n}\n"
    )
    report = agentc(tmp_path, "check", "broken.agent", AGENTC_NO_IR_CACHE="1")
    assert report["code"] == 1, report["stdout"]
    assert "unknown-node" in report["stdout"] or "nowhere" in report["stdout"]
    assert not loaded(report, "importlib.metadata")  # read only for an unknown model prefix
