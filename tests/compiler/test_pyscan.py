"""pyscan reads Python statically: schemas, docstrings, decorators, injected args (E4)."""

from __future__ import annotations

from pathlib import Path

from agentc import ir
from agentc.compiler import pyscan

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
    assert (
        params["note"].schema == {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None}
        or not params["note"].required
    )
    assert params["tags"].schema["anyOf"][0] == {
        "type": "object",
        "additionalProperties": {"type": "integer"},
    }
    assert params["size"].description == "the size"
    assert params["other"].schema == {"default": None} or params["other"].schema == {}
    assert params["xs"].required and not params["size"].required


def test_E4_injected_parameters() -> None:
    params = {p.name: p.injected for p in scan().functions["multiply"].params}
    assert params["state"] == ir.InjectedArg(
        param="state", kind=ir.InjectedKind.STATE, field="messages"
    )
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


MIDDLEWARE_SOURCE = '''
from typing import Annotated, NotRequired
from langchain.agents.middleware import AgentMiddleware, AgentState, PrivateStateAttr, \\
    OmitFromInput, OmitFromOutput, before_model

def log(state, runtime):
    """Log a turn."""

hook = before_model(log)
jumper = before_model(can_jump_to=["end"])(log)
named = before_model(log, name="renamed")
not_a_hook = print(log)

def lookup(query: str) -> str:
    """Look it up."""

class CounterState(AgentState):
    count: NotRequired[Annotated[int, PrivateStateAttr]]
    notes: Annotated[list[str], OmitFromInput]
    draft: NotRequired[Annotated[str, OmitFromOutput]]
    shown: NotRequired[int]

class Counter(AgentMiddleware):
    state_schema = CounterState
    tools = [lookup]

    def __init__(self, start: int, *, step: int = 1):
        super().__init__()

    def before_model(self, state, runtime): ...

class Later(AgentMiddleware):
    def __init__(self, **kw):
        self.tools = [lookup]
'''


def test_decorator_applied_by_call_is_a_hook() -> None:
    mod = pyscan.scan_source(MIDDLEWARE_SOURCE, "m.py")
    hook = mod.functions["hook"]
    assert hook.hook_point is ir.HookPoint.BEFORE_MODEL and hook.name == "log"
    assert mod.functions["jumper"].decorator("before_model").kwarg("can_jump_to") == ["end"]
    assert mod.functions["named"].decorator("before_model").kwarg("name") == "renamed"
    assert "not_a_hook" not in mod.functions and mod.has("not_a_hook")


def test_middleware_class_state_schema_tools_and_constructor() -> None:
    mod = pyscan.scan_source(MIDDLEWARE_SOURCE, "m.py")
    counter = mod.classes["Counter"]
    assert counter.state_schema == "CounterState" and counter.tool_names == ("lookup",)
    assert [(p.name, p.required) for p in counter.init_params] == [("start", True), ("step", False)]
    assert not counter.init_kwargs
    later = mod.classes["Later"]
    assert later.init_kwargs and later.tool_names == ("lookup",)
    fields = {f.name: f for f in mod.classes["CounterState"].fields}
    V = pyscan.Visibility
    assert [fields[n].visibility for n in ("count", "notes", "draft", "shown")] == [
        V.PRIVATE,
        V.OUTPUT_ONLY,
        V.INPUT_ONLY,
        V.PUBLIC,
    ]
    assert fields["count"].schema == {"type": "integer"}


def test_dotted_agentc_module_is_found_without_importing(tmp_path: Path) -> None:
    found = pyscan.locate("agentc.stdlib.middleware.pii", tmp_path)
    assert found is not None and found.name == "pii.py" and found.parent.name == "middleware"
    assert pyscan.locate("agentc.middleware", tmp_path).name == "middleware.py"
    assert pyscan.locate("agentc.stdlib.nothing_here", tmp_path) is None


BINDINGS_SOURCE = """
import os.path, json as codec
from m import f as g, h
from .stars import *
raise SystemExit("never run")
a, (b, [c, *d]) = 1, (2, [3, 4])
e = f2 = 0
e.attr = x[0] = 1
ann: int = 1
only_annotated: int
n += 1
for i, j in []: pass
else: for_else = 1
with open("x") as w1, open("y") as (w2, w3): pass
while False: in_while = 1
if True:
    def in_if(state): ...
    class InIf: ...
try: import t1
except ImportError as exc: t2 = 1
else: t3 = 1
finally: t4 = 1
match a:
    case {"k": m1, **m2}: pass
    case [m3, *m4] if (guard := 1): pass
    case Point(x=m5) | m6: pass
if (walrus := 1): pass
comp = [(in_comp := v) for v in []]
fn = lambda arg: (in_lambda := arg)
@decorate(in_decorator := 1)
def top(x=(in_default := 1)):
    local = 1
    global from_global
class Top:
    class_attr = 1
    def method(self):
        global from_method
del e
"""


def test_every_module_level_binding_form() -> None:
    mod = pyscan.scan_source(BINDINGS_SOURCE, "b.py")
    bound = """os codec g h a b c d e f2 ann n i j for_else w1 w2 w3 in_while in_if InIf t1
        t2 t3 t4 m1 m2 m3 m4 m5 m6 guard walrus comp in_comp fn in_decorator in_default
        top from_global Top from_method""".split()
    assert [name for name in bound if not mod.has(name)] == []
    unbound = "only_annotated attr x exc v arg in_lambda local class_attr method stars".split()
    assert [name for name in unbound if mod.has(name)] == []
    assert "in_if" in mod.functions and "InIf" in mod.classes and "in_if" not in mod.names
    assert mod.star_imports == (".stars",)


def test_scanning_never_runs_the_file(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    source = f"open({str(marker)!r}, 'w').close()\nname = 1\n"
    assert pyscan.scan_source(source, "x.py").has("name") and not marker.exists()
