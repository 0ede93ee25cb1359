"""Read a `use`d Python module statically.

Input: a `use` target (a file path relative to the `.agent` file, or a dotted module name)
and the text of the Python file it names. Output: a `PyModule` — top-level functions (name,
cleaned docstring, parameters with JSON Schema of their annotations, async or not,
decorators), classes (pydantic models, dataclasses and TypedDicts with their fields;
`AgentMiddleware` subclasses with their hook methods) and the other top-level names.

Invariant: the module is parsed with `ast` and NEVER imported or executed, so checking an
untrusted `.agent` file (and the Python beside it) runs none of its code. Annotations are
read as written: `int`, `list[str]`, `Optional[X]`, `X | None`, `Literal[...]`,
`Annotated[...]` map to JSON Schema; anything else maps to `{}` (any value).

Module resolution: a dotted name is looked up by walking the `.agent` file's directory and
then `sys.path` for `a/b/c.py` or `a/b/c/__init__.py`. We do not call
`importlib.util.find_spec("a.b.c")` because it imports the parent packages `a` and `a.b` —
running their `__init__.py` — before it can answer. The walk misses modules served by
custom finders (zip imports, namespace packages split over several directories, editable
installs that use an import hook); such a module is reported as not found, which is safe.
"""

from __future__ import annotations

import ast
import enum
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import agentc.ir as ir

HOOK_DECORATORS = {p.value for p in ir.HookPoint}
MIDDLEWARE_METHODS = {p.value: p for p in ir.HookPoint if p is not ir.HookPoint.DYNAMIC_PROMPT}
MIDDLEWARE_METHODS.update({"a" + k: v for k, v in list(MIDDLEWARE_METHODS.items())})


_SCALARS = {"int": "integer", "str": "string", "float": "number", "bool": "boolean"}
_SEQUENCES = {"list", "List", "Sequence", "tuple", "Tuple", "set", "Set", "Iterable"}
_MAPPINGS = {"dict", "Dict", "Mapping", "MutableMapping"}


class ClassKind(str, enum.Enum):
    MODEL = "model"  # pydantic BaseModel
    DATACLASS = "dataclass"
    TYPEDDICT = "typeddict"
    MIDDLEWARE = "middleware"  # an AgentMiddleware subclass
    OTHER = "other"


@dataclass(frozen=True, slots=True)
class Decorator:
    """`@tool`, `@tool("name", return_direct=True)`: the last name part and literal args."""

    name: str
    args: tuple[Any, ...] = ()
    kwargs: tuple[tuple[str, Any], ...] = ()
    called: bool = False

    def kwarg(self, key: str, default: Any = None) -> Any:
        return dict(self.kwargs).get(key, default)


@dataclass(frozen=True, slots=True)
class PyParam:
    name: str
    annotation: str | None
    schema: dict[str, Any]
    required: bool
    default: Any = None
    injected: ir.InjectedArg | None = None
    description: str | None = None


@dataclass(frozen=True, slots=True)
class PyFunction:
    name: str
    doc: str | None
    params: tuple[PyParam, ...]
    is_async: bool
    decorators: tuple[Decorator, ...]
    line: int

    def decorator(self, *names: str) -> Decorator | None:
        return next((d for d in self.decorators if d.name in names), None)

    @property
    def hook_point(self) -> ir.HookPoint | None:
        d = next((d for d in self.decorators if d.name in HOOK_DECORATORS), None)
        return ir.HookPoint(d.name) if d else None


class Visibility(str, enum.Enum):
    """Where a state field shows (LangChain's OmitFromSchema markers on a state_schema)."""

    PUBLIC = "public"  # input and output
    PRIVATE = "private"  # PrivateStateAttr: neither
    OUTPUT_ONLY = "output_only"  # OmitFromInput
    INPUT_ONLY = "input_only"  # OmitFromOutput

    @property
    def input(self) -> bool:
        return self in (Visibility.PUBLIC, Visibility.INPUT_ONLY)

    @property
    def output(self) -> bool:
        return self in (Visibility.PUBLIC, Visibility.OUTPUT_ONLY)


_VISIBILITY_MARKERS = {
    "PrivateStateAttr": Visibility.PRIVATE,
    "OmitFromInput": Visibility.OUTPUT_ONLY,
    "OmitFromOutput": Visibility.INPUT_ONLY,
}


@dataclass(frozen=True, slots=True)
class PyField:
    name: str
    schema: dict[str, Any]
    required: bool
    default: Any = None
    annotation: str | None = None
    visibility: Visibility = Visibility.PUBLIC


@dataclass(frozen=True, slots=True)
class PyClass:
    name: str
    kind: ClassKind
    doc: str | None
    fields: tuple[PyField, ...]
    hooks: tuple[ir.HookPoint, ...]
    jumps: tuple[tuple[ir.HookPoint, tuple[str, ...]], ...]
    line: int
    # AgentMiddleware subclasses only: what the compiler checks and lowers statically.
    init_params: tuple[PyParam, ...] | None = None  # None: no `__init__` of its own
    init_kwargs: bool = False  # `__init__` takes **kwargs: any setting goes
    state_schema: str | None = None  # `state_schema = Name` (a class of this module)
    tool_names: tuple[str, ...] = ()  # `tools = [f, g]` (class body or `self.tools` in __init__)

    def json_schema(self) -> dict[str, Any]:
        return object_schema(self.name, self.doc, self.fields)


@dataclass(frozen=True, slots=True)
class PyModule:
    path: str
    functions: dict[str, PyFunction] = field(default_factory=dict)
    classes: dict[str, PyClass] = field(default_factory=dict)
    names: frozenset[str] = frozenset()  # every other top-level binding

    def has(self, name: str) -> bool:
        return name in self.functions or name in self.classes or name in self.names

    @property
    def all_names(self) -> list[str]:
        return sorted(set(self.functions) | set(self.classes) | set(self.names))


# ---------------------------------------------------------------- locating modules


def is_file_target(target: str) -> bool:
    return target.startswith(("./", "../", "/")) or target.endswith(".py")


def locate(target: str, base_dir: Path) -> Path | None:
    """The file a `use` target names, or None; never imports anything."""
    if is_file_target(target):
        path = (base_dir / target).resolve()
        return path if path.is_file() else None
    parts = target.split(".")
    if not all(p.isidentifier() for p in parts):
        return None
    if parts[0] == "agentc":  # our own package: its folders are mapped by pyproject
        from .paths import agentc_module_file

        return agentc_module_file(parts)
    for root in _search_roots(base_dir):
        base = root.joinpath(*parts)
        for candidate in (base.with_suffix(".py"), base / "__init__.py"):
            if candidate.is_file():
                return candidate
    return None


def _search_roots(base_dir: Path) -> Iterable[Path]:
    yield base_dir
    for entry in sys.path:
        if entry and Path(entry).is_dir():
            yield Path(entry)


# ---------------------------------------------------------------- scanning


def scan_source(text: str, filename: str) -> PyModule:
    """Scan Python text; raises SyntaxError (the caller turns it into a diagnostic)."""
    tree = ast.parse(text, filename=filename)
    functions: dict[str, PyFunction] = {}
    classes: dict[str, PyClass] = {}
    names: set[str] = set()
    for stmt in tree.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            functions[stmt.name] = _function(stmt)
        elif isinstance(stmt, ast.ClassDef):
            classes[stmt.name] = _class(stmt)
        else:
            names.update(_bound_names(stmt))
            applied = _applied_hook(stmt, functions)
            if applied is not None:
                functions[applied[0]] = applied[1]
    return PyModule(filename, functions, classes, frozenset(names))


def _applied_hook(
    stmt: ast.stmt, functions: dict[str, PyFunction]
) -> tuple[str, PyFunction] | None:
    """`hook = before_model(fn)` or `before_model(can_jump_to=[…])(fn)`: a decorator applied
    by a call, read as if `fn` carried it (the hook keeps `fn`'s name, as in LangChain)."""
    if not (
        isinstance(stmt, ast.Assign)
        and len(stmt.targets) == 1
        and isinstance(stmt.targets[0], ast.Name)
        and isinstance(stmt.value, ast.Call)
    ):
        return None
    call = stmt.value
    outer = call.func if isinstance(call.func, ast.Call) else None
    deco_call = outer or call
    point = _last_name(deco_call.func)
    if point not in HOOK_DECORATORS or not call.args or not isinstance(call.args[0], ast.Name):
        return None
    fn = functions.get(call.args[0].id)
    if fn is None:
        return None
    kwargs = tuple((k.arg, literal(k.value)) for k in deco_call.keywords if k.arg)
    deco = Decorator(point, (), kwargs, called=True)
    return stmt.targets[0].id, PyFunction(
        fn.name, fn.doc, fn.params, fn.is_async, (deco, *fn.decorators), stmt.lineno
    )


def _bound_names(stmt: ast.stmt) -> Iterable[str]:
    if isinstance(stmt, ast.Assign):
        for t in stmt.targets:
            if isinstance(t, ast.Name):
                yield t.id
    elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
        yield stmt.target.id
    elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
        for alias in stmt.names:
            yield (alias.asname or alias.name).split(".")[0]


def _function(node: ast.FunctionDef | ast.AsyncFunctionDef) -> PyFunction:
    return PyFunction(
        name=node.name,
        doc=ast.get_docstring(node, clean=True),
        params=tuple(_params(node.args)),
        is_async=isinstance(node, ast.AsyncFunctionDef),
        decorators=tuple(_decorator(d) for d in node.decorator_list),
        line=node.lineno,
    )


def _params(args: ast.arguments) -> Iterable[PyParam]:
    positional = args.posonlyargs + args.args
    defaults: list[ast.expr | None] = [None] * (len(positional) - len(args.defaults))
    defaults += list(args.defaults)
    pairs = list(zip(positional, defaults)) + list(zip(args.kwonlyargs, args.kw_defaults))
    for arg, default in pairs:
        if arg.arg in ("self", "cls"):
            continue
        yield _param(arg, default)


def _param(arg: ast.arg, default: ast.expr | None) -> PyParam:
    ann = arg.annotation
    schema, description = annotation_schema(ann) if ann is not None else ({}, None)
    value = literal(default) if default is not None else None
    if default is not None and value is not None:
        schema = {**schema, "default": value}
    return PyParam(
        arg.arg,
        ast.unparse(ann) if ann is not None else None,
        schema,
        default is None,
        value,
        injected_arg(arg.arg, ann),
        description,
    )


def _decorator(node: ast.expr) -> Decorator:
    if isinstance(node, ast.Call):
        args = tuple(literal(a) for a in node.args)
        kwargs = tuple((k.arg, literal(k.value)) for k in node.keywords if k.arg)
        return Decorator(_last_name(node.func), args, kwargs, called=True)
    return Decorator(_last_name(node))


def _last_name(node: ast.expr) -> str:
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Subscript):
        return _last_name(node.value)
    return ""


def literal(node: ast.expr | None) -> Any:
    """A constant expression's value (None when it is not a plain literal)."""
    if node is None:
        return None
    try:
        return ast.literal_eval(node)  # literals only: never evaluates code
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None


# ---------------------------------------------------------------- classes


def _class(node: ast.ClassDef) -> PyClass:
    kind = _class_kind(node)
    fields = (
        tuple(_class_fields(node))
        if kind in (ClassKind.MODEL, ClassKind.DATACLASS, ClassKind.TYPEDDICT)
        else ()
    )
    doc = ast.get_docstring(node, clean=True)
    if kind is not ClassKind.MIDDLEWARE:
        return PyClass(node.name, kind, doc, fields, (), (), node.lineno)
    hooks, jumps = _middleware_hooks(node)
    init = next(
        (
            s
            for s in node.body
            if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and s.name == "__init__"
        ),
        None,
    )
    return PyClass(
        node.name,
        kind,
        doc,
        fields,
        hooks,
        jumps,
        node.lineno,
        init_params=tuple(_params(init.args)) if init else None,
        init_kwargs=bool(init and init.args.kwarg),
        state_schema=_class_attr_name(node, "state_schema"),
        tool_names=_middleware_tool_names(node, init),
    )


def _class_attr_name(node: ast.ClassDef, attr: str) -> str | None:
    """`attr = Name` (or `attr: T = Name`) in a class body: the name it is bound to."""
    for stmt in node.body:
        target, value = _assignment(stmt)
        if target == attr and isinstance(value, (ast.Name, ast.Attribute)):
            return _last_name(value)
    return None


def _assignment(stmt: ast.stmt) -> tuple[str | None, ast.expr | None]:
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
        target = stmt.targets[0]
    elif isinstance(stmt, ast.AnnAssign):
        target = stmt.target
    else:
        return None, None
    if isinstance(target, ast.Name):
        return target.id, stmt.value
    if (
        isinstance(target, ast.Attribute)
        and isinstance(target.value, ast.Name)
        and target.value.id == "self"
    ):
        return "self." + target.attr, stmt.value
    return None, None


def _middleware_tool_names(node: ast.ClassDef, init: ast.FunctionDef | None) -> tuple[str, ...]:
    """`tools = [f, g]` in the class body or `self.tools = [f, g]` in `__init__`."""
    candidates = [("tools", s) for s in node.body] + [
        ("self.tools", s) for s in (ast.walk(init) if init else ())
    ]
    for want, stmt in candidates:
        target, value = _assignment(stmt) if isinstance(stmt, ast.stmt) else (None, None)
        if target == want and isinstance(value, (ast.List, ast.Tuple)):
            return tuple(_last_name(e) for e in value.elts if _last_name(e))
    return ()


def _class_kind(node: ast.ClassDef) -> ClassKind:
    bases = {_last_name(b) for b in node.bases}
    if "AgentMiddleware" in bases:
        return ClassKind.MIDDLEWARE
    if "BaseModel" in bases:
        return ClassKind.MODEL
    if bases & {"TypedDict", "AgentState"}:  # AgentState is a TypedDict (a state_schema)
        return ClassKind.TYPEDDICT
    if any(_last_name(d) == "dataclass" for d in node.decorator_list):
        return ClassKind.DATACLASS
    return ClassKind.OTHER


def _class_fields(node: ast.ClassDef) -> Iterable[PyField]:
    for stmt in node.body:
        if not (isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)):
            continue
        if _last_name(stmt.annotation) == "ClassVar":
            continue
        schema, description = annotation_schema(stmt.annotation)
        default = _field_default(stmt.value)
        description = _field_description(stmt.value) or description
        if description:
            schema = {**schema, "description": description}
        if default is not _MISSING:
            schema = {**schema, "default": default}
        yield PyField(
            stmt.target.id,
            schema,
            default is _MISSING,
            None if default is _MISSING else default,
            ast.unparse(stmt.annotation),
            _visibility(stmt.annotation),
        )


def _visibility(node: ast.expr) -> Visibility:
    """The OmitFromSchema marker inside `NotRequired[Annotated[T, PrivateStateAttr]]`."""
    for sub in ast.walk(node):
        found = (
            _VISIBILITY_MARKERS.get(_last_name(sub))
            if isinstance(sub, (ast.Name, ast.Attribute))
            else None
        )
        if found is not None:
            return found
    return Visibility.PUBLIC


_MISSING = object()


def _field_default(value: ast.expr | None) -> Any:
    if value is None:
        return _MISSING
    if isinstance(value, ast.Call) and _last_name(value.func) == "Field":
        for kw in value.keywords:
            if kw.arg == "default":
                return literal(kw.value)
        if value.args and not (
            isinstance(value.args[0], ast.Constant) and value.args[0].value is Ellipsis
        ):
            return literal(value.args[0])
        return _MISSING if not any(k.arg == "default_factory" for k in value.keywords) else None
    return literal(value)


def _field_description(value: ast.expr | None) -> str | None:
    if isinstance(value, ast.Call) and _last_name(value.func) == "Field":
        for kw in value.keywords:
            if kw.arg == "description" and isinstance(literal(kw.value), str):
                return literal(kw.value)
    return None


def _middleware_hooks(node: ast.ClassDef):
    hooks: list[ir.HookPoint] = []
    jumps: list[tuple[ir.HookPoint, tuple[str, ...]]] = []
    for stmt in node.body:
        if not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        point = MIDDLEWARE_METHODS.get(stmt.name)
        if point is None:
            continue
        if point not in hooks:
            hooks.append(point)
        for dec in map(_decorator, stmt.decorator_list):
            if dec.name == "hook_config" and dec.kwarg("can_jump_to"):
                jumps.append((point, tuple(dec.kwarg("can_jump_to"))))
    return tuple(hooks), tuple(jumps)


def object_schema(
    title: str | None, doc: str | None, fields: Iterable[PyField | PyParam]
) -> dict[str, Any]:
    fields = list(fields)
    schema: dict[str, Any] = {"type": "object"}
    if title:
        schema["title"] = title
    if doc:
        schema["description"] = doc
    schema["properties"] = {f.name: f.schema for f in fields}
    required = [f.name for f in fields if f.required]
    if required:
        schema["required"] = required
    return schema


# ---------------------------------------------------------------- annotations


def annotation_schema(node: ast.expr) -> tuple[dict[str, Any], str | None]:
    """JSON Schema of an annotation, and a description from `Annotated[T, "doc"]`."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        try:  # a string annotation: "int" or a forward reference
            node = ast.parse(node.value, mode="eval").body
        except SyntaxError:
            return {}, None
    if isinstance(node, ast.Subscript) and _last_name(node.value) == "Annotated":
        items = _subscript_items(node)
        docs = [literal(m) for m in items[1:] if isinstance(literal(m), str)]
        return annotation_schema(items[0])[0], (docs[0] if docs else None)
    return _schema(node), None


def _schema(node: ast.expr) -> dict[str, Any]:
    if isinstance(node, ast.Constant) and node.value is None:
        return {"type": "null"}
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return _union([node.left, node.right])
    name = _last_name(node)
    if isinstance(node, (ast.Name, ast.Attribute)):
        if name in _SCALARS:
            return {"type": _SCALARS[name]}
        if name in _SEQUENCES:
            return {"type": "array"}
        if name in _MAPPINGS:
            return {"type": "object"}
        return {}
    if isinstance(node, ast.Subscript):
        return _generic(name, _subscript_items(node))
    return {}


def _generic(name: str, items: list[ast.expr]) -> dict[str, Any]:
    if name in _SEQUENCES:
        return {"type": "array", "items": _schema(items[0])} if items else {"type": "array"}
    if name in _MAPPINGS:
        value = _schema(items[1]) if len(items) == 2 else {}
        return {"type": "object", "additionalProperties": value} if value else {"type": "object"}
    if name == "Optional":
        return _union([items[0], ast.Constant(None)])
    if name == "Union":
        return _union(items)
    if name == "Literal":
        values = [literal(i) for i in items]
        return {"enum": values}
    if name in ("Annotated", "NotRequired", "Required", "ReadOnly"):
        return _schema(items[0])
    return {}


def _union(members: list[ast.expr]) -> dict[str, Any]:
    flat: list[ast.expr] = []
    for m in members:
        if isinstance(m, ast.BinOp) and isinstance(m.op, ast.BitOr):
            flat.extend([m.left, m.right])
        else:
            flat.append(m)
    schemas = [_schema(m) for m in flat]
    if any(s == {} for s in schemas):
        return {}
    return {"anyOf": schemas}


def _subscript_items(node: ast.Subscript) -> list[ast.expr]:
    sl = node.slice
    return list(sl.elts) if isinstance(sl, ast.Tuple) else [sl]


# ---------------------------------------------------------------- injected arguments (E4)

_INJECTED = {
    "InjectedState": ir.InjectedKind.STATE,
    "InjectedStore": ir.InjectedKind.STORE,
    "InjectedToolCallId": ir.InjectedKind.TOOL_CALL_ID,
    "ToolRuntime": ir.InjectedKind.RUNTIME,
}


def injected_arg(param: str, ann: ast.expr | None) -> ir.InjectedArg | None:
    """E4: a parameter the runtime fills in, hidden from the model's schema."""
    if ann is None:
        return None
    candidates = [ann]
    if isinstance(ann, ast.Subscript) and _last_name(ann.value) == "Annotated":
        candidates = _subscript_items(ann)
    for node in candidates:
        target = node.func if isinstance(node, ast.Call) else node
        kind = _INJECTED.get(_last_name(target))
        if kind is None:
            continue
        fld = None
        if isinstance(node, ast.Call) and node.args and isinstance(literal(node.args[0]), str):
            fld = literal(node.args[0])
        return ir.InjectedArg(param=param, kind=kind, field=fld)
    return None
