"""pyscan reads Python statically: schemas, docstrings, decorators, injected args (E4)."""

from __future__ import annotations

from pathlib import Path

from agentc.compiler import ir, pyscan

SOURCE = '''
import os
from typing import Annotated, Literal, Optional
from pydantic import BaseModel, Field

raise SystemExit("this file must never run")

def add(a: int, b: int = 2) -> int:
    """
    Add two integers.

    Second paragraph.
    """

@tool("mul", return_direct=True)
async def multiply(xs: list[float], mode: Literal["a", "b"], note: Optional[str] = None,
                   tags: dict[str, int] | None = None,
                   size: Annotated[int, "the size"] = 1,
                   state: Annotated[dict, InjectedState("messages")] = None,
                   store: Annotated[object, InjectedStore()] = None,
                   call_id: Annotated[str, InjectedToolCallId] = "",
                   runtime: ToolRuntime = None, other: Weird = None): ...

@after_model(can_jump_to=["end"])
def guard(state, runtime): ...

class Invoice(BaseModel):
    """An invoice."""
    number: str = Field(description="no.")
    total: float
    lines: list[str] = []

class Mw(AgentMiddleware):
    @hook_config(can_jump_to=["model"])
    def before_model(self, state, runtime): ...
    async def awrap_tool_call(self, request, handler): ...

CONSTANT = 3
'''


def scan() -> pyscan.PyModule:
    return pyscan.scan_source(SOURCE, "mod.py")


def test_B11_docstring_is_dedented_and_stripped() -> None:
    assert scan().functions["add"].doc == "Add two integers.\n\nSecond paragraph."


def test_parameters_to_json_schema() -> None:
    params = {p.name: p for p in scan().functions["multiply"].params}
    assert params["xs"].schema == {"type": "array", "items": {"type": "number"}}
    assert params["mode"].schema == {"enum": ["a", "b"]}
    assert params["note"].schema == {"anyOf": [{"type": "string"}, {"type": "null"}],
                                     "default": None} or not params["note"].required
    assert params["tags"].schema["anyOf"][0] == {"type": "object",
                                                 "additionalProperties": {"type": "integer"}}
    assert params["size"].description == "the size"
    assert params["other"].schema == {"default": None} or params["other"].schema == {}
    assert params["xs"].required and not params["size"].required


def test_E4_injected_parameters() -> None:
    params = {p.name: p.injected for p in scan().functions["multiply"].params}
    assert params["state"] == ir.InjectedArg(param="state", kind=ir.InjectedKind.STATE,
                                             field="messages")
    assert params["store"].kind is ir.InjectedKind.STORE
    assert params["call_id"].kind is ir.InjectedKind.TOOL_CALL_ID
    assert params["runtime"].kind is ir.InjectedKind.RUNTIME
    assert params["xs"] is None


def test_decorators_and_async() -> None:
    fn = scan().functions["multiply"]
    deco = fn.decorator("tool")
    assert fn.is_async and deco.args == ("mul",) and deco.kwarg("return_direct") is True
    guard = scan().functions["guard"]
    assert guard.hook_point is ir.HookPoint.AFTER_MODEL
    assert guard.decorator("after_model").kwarg("can_jump_to") == ["end"]


def test_classes() -> None:
    mod = scan()
    inv = mod.classes["Invoice"]
    assert inv.kind is pyscan.ClassKind.MODEL
    schema = inv.json_schema()
    assert schema["required"] == ["number", "total"]
    assert schema["properties"]["number"] == {"type": "string", "description": "no."}
    mw = mod.classes["Mw"]
    assert mw.kind is pyscan.ClassKind.MIDDLEWARE
    assert mw.hooks == (ir.HookPoint.BEFORE_MODEL, ir.HookPoint.WRAP_TOOL_CALL)
    assert mw.jumps == ((ir.HookPoint.BEFORE_MODEL, ("model",)),)
    assert mod.has("CONSTANT") and mod.has("os")


def test_locate_never_imports(tmp_path: Path) -> None:
    pkg = tmp_path / "evilpkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("raise SystemExit('imported!')\n")
    (pkg / "hooks.py").write_text("def f(): ...\n")
    assert pyscan.locate("evilpkg.hooks", tmp_path) == pkg / "hooks.py"
    assert pyscan.locate("evilpkg.nothing", tmp_path) is None
    assert pyscan.locate("./missing.py", tmp_path) is None
