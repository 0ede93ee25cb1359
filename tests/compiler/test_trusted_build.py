"""The compiler builds its IR unvalidated (`ir.trusted_build`, ir/construct.py): the IR of
every example, golden and check file is, type for type, the IR validation makes from its
dump (models, enums, lists, floats), and each model node, tools node and subgraph config
(`ir.dump_json`) is what `model_dump(mode="json")` gives; a misspelt or missing field is
still an error, and outside the compiler building a model validates."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pydantic
import pytest

from agentc import ir
from agentc.compiler.pipeline import compile_file, compile_source

ROOT = Path(__file__).resolve().parents[2]
CONFIGS = {
    "model": ir.ModelNodeConfig,
    "tools": ir.ToolNodeConfig,
    "agent": ir.SubgraphNodeConfig,
    "subgraph": ir.SubgraphNodeConfig,
}


def _differences(a: Any, b: Any, path: str) -> list[str]:
    if type(a) is not type(b):
        return [f"{path}: {type(a).__name__} {a!r:.60} vs {type(b).__name__} {b!r:.60}"]
    if isinstance(a, pydantic.BaseModel):
        found: list[str] = []
        for name in type(a).model_fields:
            found += _differences(getattr(a, name), getattr(b, name), f"{path}.{name}")
        return found
    if isinstance(a, dict):
        if list(a) != list(b):
            return [f"{path}: keys {list(a)} vs {list(b)}"]
        return [d for k in a for d in _differences(a[k], b[k], f"{path}[{k!r}]")]
    if isinstance(a, list | tuple):
        if len(a) != len(b):
            return [f"{path}: {len(a)} items vs {len(b)}"]
        return [
            d
            for i, (x, y) in enumerate(zip(a, b, strict=True))
            for d in _differences(x, y, f"{path}[{i}]")
        ]
    return [] if a == b else [f"{path}: {a!r} != {b!r}"]


def _programs() -> list[Path]:
    files = [
        *ROOT.glob("examples/**/*.agent"),
        *ROOT.glob("tests/golden/*/input.agent"),
        *ROOT.glob("stdlib/**/*.agent"),
    ]
    return sorted(files)


def test_the_unvalidated_ir_is_the_validated_ir_type_for_type() -> None:
    compiled = 0
    configs = 0
    for path in _programs():
        program = compile_file(path).program
        if program is None:
            continue
        compiled += 1
        validated = ir.Program.model_validate(program.model_dump())
        assert _differences(program, validated, "program") == [], path
        assert program.model_dump_json() == validated.model_dump_json(), path
        for graph in program.graphs:
            for node in graph.nodes:
                model = CONFIGS.get(node.kind.value)
                if model is not None and node.config:
                    again = model.model_validate(node.config).model_dump(mode="json")
                    assert _differences(node.config, again, node.name) == [], path
                    configs += 1
    assert compiled > 50 and configs > 30


def test_an_int_given_for_a_float_becomes_a_float_as_validation_makes_it(
    tmp_path: Path,
) -> None:
    (tmp_path / "tools.py").write_text("def step(state):\n    return {}\n")
    text = (
        'agentc 1\nuse "./tools.py" as tools\ngraph g {\n  state { n: int = 0 }\n'
        "  node a = python(tools.step) { retry: { max_attempts: 3, backoff_factor: 2 } }\n"
        "  edge START -> a\n  edge a -> END\n}\n"
    )
    program = compile_source(text, "g.agent", base_dir=tmp_path).program
    assert program is not None
    retry = program.graphs[0].nodes[0].retry
    assert retry is not None and type(retry.backoff_factor) is float
    assert retry == ir.RetryPolicy.model_validate(retry.model_dump())


def test_a_trusted_build_still_refuses_unknown_and_missing_fields() -> None:
    with ir.trusted_build():
        with pytest.raises(TypeError, match="unexpected keyword argument 'atr'"):
            ir.ImportRef(module="m", atr="f")  # type: ignore[call-arg]
        with pytest.raises(TypeError, match="attr"):
            ir.ImportRef(module="m")  # type: ignore[call-arg]
        a = ir.NodeSpec(
            name="a", kind=ir.NodeKind.PYTHON, impl=ir.ImportRef(module="m", attr="f"), span=None
        )  # type: ignore[arg-type]  # not checked inside: the compiler's own values
        b = ir.NodeSpec(name="b", kind=ir.NodeKind.PYTHON, impl=a.impl, span=None)  # type: ignore[arg-type]
    assert a.config == {} and a.config is not b.config  # a fresh default for each
    assert a.model_fields_set == {"name", "kind", "impl", "span"}


def test_outside_the_compiler_building_a_model_validates() -> None:
    with pytest.raises(pydantic.ValidationError):
        ir.ImportRef(module=3, attr="f")  # type: ignore[arg-type]
    with ir.trusted_build():
        ir.ImportRef(module="m", attr="f")
    with pytest.raises(pydantic.ValidationError):  # the context is over: validated again
        ir.ImportRef(module="m", attr="f", is_file="maybe")  # type: ignore[arg-type]
