"""`agentc check` from the command line builds the IR as plain records (`ir/records.py`), not
pydantic models: it imports none of pydantic, and every example, check, golden and fuzz file
gives the same diagnostics and, value for value and type for type, the same IR as the
pydantic models do. A record is built as a trusted build fills a model: a misspelt or
missing field is a `TypeError`, an int becomes a float where the field is a float, each
default factory runs again, and the record is frozen."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from agentc.compiler.pipeline import compile_file
from agentc.dsl import report

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted(
    str(p.relative_to(ROOT))
    for folder in ("examples", "tests/checks", "tests/golden", "tests/fuzz/corpus", "stdlib")
    for p in (ROOT / folder).rglob("*.agent")
)

# Compiles the files named on its command line with records, prints what `outcome` gives.
AS_RECORDS = """
import json, sys
import agentc.ir.construct as construct
assert construct.use_records()
from agentc.compiler.pipeline import compile_file
sys.path.insert(0, sys.argv[1])
from test_ir_records import outcome
print(json.dumps({path: outcome(compile_file(path)) for path in sys.argv[2:]}))
assert not [m for m in sys.modules if m.split(".")[0] == "pydantic"], "pydantic imported"
"""


def typed(value: Any) -> Any:
    """The value as JSON with each model's and enum's class named, so types compare too."""
    fields = getattr(type(value), "__pydantic_fields__", None)
    if fields is not None:
        return {"@": type(value).__name__, **{n: typed(getattr(value, n)) for n in fields}}
    if isinstance(value, list | tuple):
        return [type(value).__name__, *(typed(v) for v in value)]
    if isinstance(value, dict):
        return {"@dict": [[typed(k), typed(v)] for k, v in value.items()]}
    if hasattr(value, "value") and type(value).__module__.startswith("agentc.ir"):
        return {"@enum": f"{type(value).__name__}.{value.value}"}
    return [type(value).__name__, value]


def outcome(result: Any) -> dict[str, Any]:
    program = result.program
    return {
        "diagnostics": report.render_human(result.diagnostics, result.sources, color=False),
        "ir": None if program is None else typed(program),
        "dump": None if program is None else program.model_dump(mode="json"),
    }


def _records(code: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_records_give_the_same_ir_and_diagnostics_as_the_pydantic_models() -> None:
    assert len(FILES) > 100
    done = _records(AS_RECORDS, str(Path(__file__).parent), *(str(ROOT / p) for p in FILES))
    assert done.returncode == 0, done.stderr[-2000:]
    as_records = json.loads(done.stdout)
    compiled = 0
    for path in FILES:
        expected = json.loads(json.dumps(outcome(compile_file(ROOT / path))))
        assert as_records[str(ROOT / path)] == expected, path
        compiled += expected["ir"] is not None
    assert compiled > 50


def test_a_check_from_the_command_line_imports_no_pydantic(tmp_path: Path) -> None:
    (tmp_path / "tools.py").write_text((ROOT / "examples" / "tools.py").read_text())
    (tmp_path / "calc.agent").write_text((ROOT / "examples" / "calculator.agent").read_text())
    code = (
        "import sys; from agentc.cli import main; sys.argv = ['agentc', *sys.argv[1:]]\n"
        "code = main()\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'pydantic'))\n"
        "sys.exit(code)"
    )
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache"), "AGENTC_NO_IR_CACHE": "1"}
    done = subprocess.run(
        [sys.executable, "-c", code, "check", "calc.agent"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "calc.agent: ok" in done.stdout
    assert done.stdout.splitlines()[-1] == "[]"


RECORD_RULES = """
import agentc.ir.construct as construct
assert construct.use_records()
import agentc.ir as ir

span = dict(file="f", line=1, col=1, end_line=1, end_col=2, offset=0, end_offset=1)
s = ir.SourceSpan(**span)
assert str(s) == "f:1:1" and s == ir.SourceSpan(**span) and hash(s) == hash(ir.SourceSpan(**span))
for bad in ({**span, "lnie": 2}, {k: v for k, v in span.items() if k != "line"}):
    try:
        ir.SourceSpan(**bad)
    except TypeError:
        pass
    else:
        raise AssertionError(bad)
retry = ir.RetryPolicy(backoff_factor=2)
assert type(retry.backoff_factor) is float and retry.retry_on == []
assert ir.RetryPolicy().retry_on is not ir.RetryPolicy().retry_on  # a fresh list each
try:
    retry.max_attempts = 5
except TypeError:
    pass
else:
    raise AssertionError("a record is frozen")
copy = retry.model_copy(update={"max_attempts": 5})
assert (copy.max_attempts, retry.max_attempts, copy.backoff_factor) == (5, 3, 2.0)
assert copy != retry and copy == retry.model_copy(update={"max_attempts": 5})
ref = ir.ImportRef(module="m", attr="a", span=s)
assert ref.key == "m:a" and ref.model_dump(mode="json")["span"]["line"] == 1
assert list(ir.ImportRef.model_fields) == ["module", "attr", "is_file", "span"]
assert repr(ref).startswith("ImportRef(module='m', attr='a', is_file=False, span=SourceSpan(")
assert not hasattr(ir.ImportRef, "is_file")  # defaults live in the fields, as pydantic has it
print("ok")
"""


def test_a_record_is_built_checked_and_frozen_as_a_trusted_model() -> None:
    done = _records(RECORD_RULES)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "ok"


def test_records_are_refused_once_the_pydantic_models_are_loaded() -> None:
    import agentc.ir as ir
    import agentc.ir.construct as construct

    assert issubclass(ir.Program, __import__("pydantic").BaseModel)
    assert construct.use_records() is False  # this process has the pydantic IR already


@pytest.mark.parametrize("name", ["Program", "dump_json", "trusted_build", "START"])
def test_the_ir_package_gives_its_names_on_first_use(name: str) -> None:
    import agentc.ir as ir

    assert getattr(ir, name) is not None
    missing = "NoSuchName"
    with pytest.raises(AttributeError):
        getattr(ir, missing)
