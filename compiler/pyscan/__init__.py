"""Read a `use`d Python module statically.

Input: a `use` target (a file path relative to the `.agent` file, or a dotted module name)
and the text of the Python file it names. Output: a `PyModule` — top-level functions (name,
cleaned docstring, parameters with JSON Schema of their annotations, async or not,
decorators), classes (pydantic models, dataclasses and TypedDicts with their fields;
`AgentMiddleware` subclasses with their hook methods) and every other name bound at module
level, in any form Python has (bindings.py).

Invariant: the module is parsed with `ast` and NEVER imported or executed, so checking an
untrusted `.agent` file (and the Python beside it) runs none of its code.

Modules: locate.py (where a target's file is, without importing), scan.py (functions,
classes, names), bindings.py (module-level binding forms), annotations.py (annotation →
JSON Schema, injected arguments, literals), model.py (the `PyModule` data). This package
re-exports what the compiler uses.
"""

from __future__ import annotations

from .annotations import annotation_schema, injected_arg, literal
from .locate import is_file_target, locate
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
    object_schema,
)
from .scan import scan_source

__all__ = [
    "HOOK_DECORATORS",
    "MIDDLEWARE_METHODS",
    "ClassKind",
    "Decorator",
    "PyClass",
    "PyField",
    "PyFunction",
    "PyModule",
    "PyParam",
    "Visibility",
    "annotation_schema",
    "injected_arg",
    "is_file_target",
    "literal",
    "locate",
    "object_schema",
    "scan_source",
]
