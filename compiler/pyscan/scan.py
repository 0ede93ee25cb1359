"""Scan Python text with `ast`: the top-level functions, classes and names of a module.

Input: the text of a Python file and its name. Output: a `PyModule` (model.py) — functions
(name, cleaned docstring, parameters with the JSON Schema of their annotations, async or
not, decorators, hooks applied by a call), classes (pydantic models, dataclasses and
TypedDicts with their fields; AgentMiddleware subclasses with their hook methods,
`__init__` parameters, `state_schema` and `tools`) and every other module-level binding
(bindings.py: tuple targets, `for`/`with`/`import … as`, names bound inside `if`/`try`
blocks, …), plus the modules of `from m import *`.
Invariant: the module is parsed, NEVER imported or executed; a syntax error is raised
as `SyntaxError` for the caller to report.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from typing import Any

import agentc.ir as ir

from .annotations import (
    annotation_names,
    annotation_schema,
    injected_arg,
    last_name,
    literal,
    unparse,
)
from .bindings import bound_names, module_statements, star_imports
from .model import (
    HOOK_DECORATORS,
    MIDDLEWARE_METHODS,
    ClassKind,
    Decorator,
    PyClass,
    PyField,
    PyFunction,
    PyModule,
    PyParam,
    Visibility,
)


def scan_source(text: str, filename: str) -> PyModule:
    """Scan Python text; raises SyntaxError (the caller turns it into a diagnostic)."""
    tree = ast.parse(text, filename=filename)
    functions: dict[str, PyFunction] = {}
    classes: dict[str, PyClass] = {}
    names: set[str] = set()
    stars: list[str] = []
    for stmt in module_statements(tree.body):  # `if`/`try`/… blocks too, in source order
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            functions[stmt.name] = _function(stmt)
        elif isinstance(stmt, ast.ClassDef):
            classes[stmt.name] = _class(stmt)
        else:
            applied = _applied_hook(stmt, functions)
            if applied is not None:
                functions[applied[0]] = applied[1]
        names.update(bound_names(stmt))
        stars.extend(star_imports(stmt))
    names -= functions.keys() | classes.keys()
    return PyModule(filename, functions, classes, frozenset(names), tuple(stars))


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
    point = last_name(deco_call.func)
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


def _function(node: ast.FunctionDef | ast.AsyncFunctionDef) -> PyFunction:
    return PyFunction(
        name=node.name,
        doc=ast.get_docstring(node, clean=True),
        params=tuple(_params(node.args)),
        is_async=isinstance(node, ast.AsyncFunctionDef),
        decorators=tuple(_decorator(d) for d in node.decorator_list),
        line=node.lineno,
        var_keyword=node.args.kwarg is not None,
    )


def _params(args: ast.arguments) -> Iterable[PyParam]:
    positional = args.posonlyargs + args.args
    defaults: list[ast.expr | None] = [None] * (len(positional) - len(args.defaults))
    defaults += list(args.defaults)
    pairs = list(zip(positional, defaults, strict=True))
    pairs += zip(args.kwonlyargs, args.kw_defaults, strict=True)
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
        unparse(ann) if ann is not None else None,
        schema,
        default is None,
        value,
        injected_arg(arg.arg, ann),
        description,
        line=arg.lineno,
        refs=annotation_names(ann) if ann is not None else (),
    )


def _decorator(node: ast.expr) -> Decorator:
    if isinstance(node, ast.Call):
        args = tuple(literal(a) for a in node.args)
        kwargs = tuple((k.arg, literal(k.value)) for k in node.keywords if k.arg)
        return Decorator(last_name(node.func), args, kwargs, called=True)
    return Decorator(last_name(node))


_VISIBILITY_MARKERS = {
    "PrivateStateAttr": Visibility.PRIVATE,
    "OmitFromInput": Visibility.OUTPUT_ONLY,
    "OmitFromOutput": Visibility.INPUT_ONLY,
}


# ---------------------------------------------------------------- classes


def _class(node: ast.ClassDef) -> PyClass:
    kind = _class_kind(node)
    fields = (
        tuple(_class_fields(node))
        if kind in (ClassKind.MODEL, ClassKind.DATACLASS, ClassKind.TYPEDDICT)
        else ()
    )
    doc = ast.get_docstring(node, clean=True)
    init = next(
        (
            s
            for s in node.body
            if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and s.name == "__init__"
        ),
        None,
    )
    if kind is not ClassKind.MIDDLEWARE:  # its own __init__, if any: a model factory's options
        return PyClass(
            node.name,
            kind,
            doc,
            fields,
            (),
            (),
            node.lineno,
            init_params=tuple(_params(init.args)) if init else None,
            init_kwargs=bool(init and init.args.kwarg),
            describable=kind is not ClassKind.OTHER or not _plain(node),
        )
    hooks, jumps = _middleware_hooks(node)
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


_SCHEMA_HOOKS = {"__get_pydantic_core_schema__", "__get_pydantic_json_schema__"}


def _plain(node: ast.ClassDef) -> bool:
    """A class of its own (no base but `object`, no metaclass, no decorator) without a
    pydantic schema hook: pydantic knows nothing to describe it by. A class with a base
    this scan cannot see (an Enum, a NamedTuple, a model of another module) is not plain."""
    if node.keywords or node.decorator_list:
        return False
    if any(last_name(b) != "object" for b in node.bases):
        return False
    return not any(
        isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and s.name in _SCHEMA_HOOKS
        for s in node.body
    )


def _class_attr_name(node: ast.ClassDef, attr: str) -> str | None:
    """`attr = Name` (or `attr: T = Name`) in a class body: the name it is bound to."""
    for stmt in node.body:
        target, value = _assignment(stmt)
        if target == attr and isinstance(value, (ast.Name, ast.Attribute)):
            return last_name(value)
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


def _middleware_tool_names(
    node: ast.ClassDef, init: ast.FunctionDef | ast.AsyncFunctionDef | None
) -> tuple[str, ...]:
    """`tools = [f, g]` in the class body or `self.tools = [f, g]` in `__init__`."""
    candidates = [("tools", s) for s in node.body] + [
        ("self.tools", s) for s in (ast.walk(init) if init else ())
    ]
    for want, stmt in candidates:
        target, value = _assignment(stmt) if isinstance(stmt, ast.stmt) else (None, None)
        if target == want and isinstance(value, (ast.List, ast.Tuple)):
            return tuple(last_name(e) for e in value.elts if last_name(e))
    return ()


def _class_kind(node: ast.ClassDef) -> ClassKind:
    bases = {last_name(b) for b in node.bases}
    if "AgentMiddleware" in bases:
        return ClassKind.MIDDLEWARE
    if "BaseModel" in bases:
        return ClassKind.MODEL
    if bases & {"TypedDict", "AgentState"}:  # AgentState is a TypedDict (a state_schema)
        return ClassKind.TYPEDDICT
    if any(last_name(d) == "dataclass" for d in node.decorator_list):
        return ClassKind.DATACLASS
    return ClassKind.OTHER


def _class_fields(node: ast.ClassDef) -> Iterable[PyField]:
    for stmt in node.body:
        if not (isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)):
            continue
        if last_name(stmt.annotation) == "ClassVar":
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
            unparse(stmt.annotation),
            _visibility(stmt.annotation),
        )


def _visibility(node: ast.expr) -> Visibility:
    """The OmitFromSchema marker inside `NotRequired[Annotated[T, PrivateStateAttr]]`."""
    for sub in ast.walk(node):
        found = (
            _VISIBILITY_MARKERS.get(last_name(sub))
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
    if isinstance(value, ast.Call) and last_name(value.func) == "Field":
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
    if isinstance(value, ast.Call) and last_name(value.func) == "Field":
        for kw in value.keywords:
            if kw.arg == "description" and isinstance(literal(kw.value), str):
                return literal(kw.value)
    return None


def _middleware_hooks(
    node: ast.ClassDef,
) -> tuple[tuple[ir.HookPoint, ...], tuple[tuple[ir.HookPoint, tuple[str, ...]], ...]]:
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
