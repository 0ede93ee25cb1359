"""Every name a Python module binds at module level, read from its `ast` (never run).

Input: the statements of a parsed module. Output: `module_statements` — every statement
the module body runs, compound ones and the statements nested in their blocks (`if`,
`try`, `for`, `while`, `with`, `match`), never a function's or class's body — and
`bound_names`, the module-level names one statement binds by itself: assignment targets
(`a = b = x`, `a, *b = xs`, `[a, b] = …`), `a += 1`, `a: T = x` (an annotation alone
binds nothing), `for`/`async for` targets, `with … as a`, `import a.b` (`a`),
`import a as b`, `from m import a as b`, `def`/`class` names, `match` capture patterns,
`:=` anywhere the module scope evaluates (comprehensions included, as PEP 572 says), and
`global a` inside a function or class (a function that declares it is there to bind it).
`star_imports` names the modules of `from m import *`, whose names cannot be known
without reading `m`.
Invariant: only reads the tree; an `except … as e` name is not a binding (Python unbinds
it when the handler ends), nor is `del a` an unbinding (the name may be bound again).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator

_BLOCK_FIELDS = ("body", "orelse", "finalbody", "handlers", "cases")


def module_statements(body: Iterable[ast.stmt]) -> Iterator[ast.stmt]:
    """Every statement the module scope runs, in source order, compound ones first."""
    for stmt in body:
        yield stmt
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue  # their bodies run in their own scope
        for name in _BLOCK_FIELDS:
            for child in getattr(stmt, name, ()):
                # `except` handlers and `match` cases hold blocks, not statements
                holder = isinstance(child, (ast.ExceptHandler, ast.match_case))
                yield from module_statements(child.body if holder else [child])


def bound_names(stmt: ast.stmt) -> Iterator[str]:
    """The names `stmt` itself binds in the module scope (not those of nested blocks)."""
    yield from _statement_targets(stmt)
    yield from _walrus_targets(stmt)
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        yield stmt.name
        for sub in ast.walk(stmt):
            if isinstance(sub, ast.Global):
                yield from sub.names


def star_imports(stmt: ast.stmt) -> Iterator[str]:
    if isinstance(stmt, ast.ImportFrom) and any(a.name == "*" for a in stmt.names):
        yield "." * stmt.level + (stmt.module or "")


def _statement_targets(stmt: ast.stmt) -> Iterator[str]:
    if isinstance(stmt, ast.Assign):
        for target in stmt.targets:
            yield from _target_names(target)
    elif isinstance(stmt, ast.AugAssign):
        yield from _target_names(stmt.target)
    elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
        yield from _target_names(stmt.target)
    elif isinstance(stmt, (ast.For, ast.AsyncFor)):
        yield from _target_names(stmt.target)
    elif isinstance(stmt, (ast.With, ast.AsyncWith)):
        for item in stmt.items:
            if item.optional_vars is not None:
                yield from _target_names(item.optional_vars)
    elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
        for alias in stmt.names:
            if alias.name != "*":
                yield alias.asname or alias.name.split(".")[0]
    elif isinstance(stmt, ast.Match):
        for case in stmt.cases:
            yield from _pattern_names(case.pattern)


def _target_names(target: ast.expr) -> Iterator[str]:
    """`a`, `(a, b)`, `[a, *rest]`; `x.attr` and `x[i]` bind no name."""
    if isinstance(target, ast.Name):
        yield target.id
    elif isinstance(target, (ast.Tuple, ast.List)):
        for elt in target.elts:
            yield from _target_names(elt)
    elif isinstance(target, ast.Starred):
        yield from _target_names(target.value)


def _pattern_names(pattern: ast.pattern) -> Iterator[str]:
    for sub in ast.walk(pattern):
        if isinstance(sub, (ast.MatchAs, ast.MatchStar)) and sub.name:
            yield sub.name
        elif isinstance(sub, ast.MatchMapping) and sub.rest:
            yield sub.rest


def _walrus_targets(stmt: ast.stmt) -> Iterator[str]:
    """`(a := …)` in what the module scope evaluates: the statement's own expressions,
    a def's decorators and defaults, a class's bases — not bodies, not inside a lambda."""
    todo: list[ast.AST] = [
        child for child in ast.iter_child_nodes(stmt) if not isinstance(child, ast.stmt)
    ]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.NamedExpr) and isinstance(node.target, ast.Name):
            yield node.target.id
        if isinstance(node, ast.Lambda):
            todo.extend(node.args.defaults + [d for d in node.args.kw_defaults if d])
            continue
        todo.extend(c for c in ast.iter_child_nodes(node) if not isinstance(c, ast.stmt))
