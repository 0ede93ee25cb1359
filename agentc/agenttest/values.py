"""Expected values and how they match what a run did.

Input: an expected value as written in a test (an `ast.Expr`) and the value a run gave.
Output: `mismatch(expected, got)` → None when it matches, else a short reason; `shown`
renders either side as the test would write it. Matching: a string, number, `true`,
`false` or `none` must be equal; a name stands for its text (`[add, multiply]`); a list
matches a list of the same length item by item; a map lists the keys it checks (others
are not looked at); `contains(…)` finds each argument in a string (as text) or in a list
(items in that order, others between allowed); `matches("re")` searches a string;
`at_most(n)` / `at_least(n)` bound a number. A message compares as its text.
Invariant: nothing here runs user code or reads files.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from agentc.compiler.typecheck import to_json
from agentc.dsl import ast


def plain(value: Any) -> Any:
    """A run's value as JSON-like data: messages as their text, models as dicts."""
    text = getattr(value, "text", None)
    if isinstance(text, str) and hasattr(value, "content"):
        return text
    if hasattr(value, "model_dump"):
        return plain(value.model_dump())
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


def shown(value: Any) -> str:
    """A value as JSON (names and messages already plain)."""
    try:
        return json.dumps(plain(value), ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        return repr(value)


def written(expr: ast.Expr) -> str:
    """An expected value as the test wrote it (matchers as calls)."""
    if isinstance(expr, ast.Call):
        args = ", ".join(
            (f"{a.name.text}: " if a.name else "") + written(a.value) for a in expr.args
        )
        return f"{expr.callee.dotted}({args})"
    if isinstance(expr, ast.ListLit):
        return "[" + ", ".join(written(i) for i in expr.items) + "]"
    if isinstance(expr, ast.MapLit):
        return "{ " + ", ".join(f"{e.key.text}: {written(e.value)}" for e in expr.entries) + " }"
    if isinstance(expr, ast.Ref):
        return expr.dotted
    return json.dumps(to_json(expr), ensure_ascii=False)


def mismatch(expected: ast.Expr, got: Any) -> str | None:
    """None when `got` matches `expected`, else why not (short, lower case)."""
    got = plain(got)
    if isinstance(expected, ast.Call):
        return _matcher(expected, got)
    if isinstance(expected, ast.ListLit):
        return _list(expected, got)
    if isinstance(expected, ast.MapLit):
        return _map(expected, got)
    want = expected.dotted if isinstance(expected, ast.Ref) else to_json(expected)
    if want == got and type(want) is type(got) or (_number(want) and want == got):
        return None
    return f"{shown(got)} is not {shown(want)}"


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _list(expected: ast.ListLit, got: Any) -> str | None:
    if not isinstance(got, list):
        return f"{shown(got)} is not a list"
    if len(got) != len(expected.items):
        return f"{len(got)} items, not {len(expected.items)}"
    for i, (want, item) in enumerate(zip(expected.items, got, strict=True)):
        why = mismatch(want, item)
        if why is not None:
            return f"item {i + 1}: {why}"
    return None


def _map(expected: ast.MapLit, got: Any) -> str | None:
    if not isinstance(got, dict):
        return f"{shown(got)} is not a map"
    for e in expected.entries:
        key = e.key.text
        if key not in got:
            return f"`{key}` is missing"
        why = mismatch(e.value, got[key])
        if why is not None:
            return f"`{key}`: {why}"
    return None


def _matcher(call: ast.Call, got: Any) -> str | None:
    name, args = call.callee.dotted, [a.value for a in call.args]
    if name == "contains":
        return _contains(args, got)
    if name == "matches":
        pattern = to_json(args[0]) if args else ""
        if not isinstance(got, str):
            return f"{shown(got)} is not text"
        return None if re.search(str(pattern), got) else f"no match for {shown(pattern)}"
    if name in ("at_most", "at_least"):
        bound = to_json(args[0]) if args else 0
        if not _number(got):
            return f"{shown(got)} is not a number"
        ok = got <= bound if name == "at_most" else got >= bound
        return None if ok else f"{got} is {'more' if name == 'at_most' else 'less'} than {bound}"
    return f"`{name}(…)` is not a matcher"


def _contains(args: list[ast.Expr], got: Any) -> str | None:
    if isinstance(got, str):
        for arg in args:
            part = to_json(arg) if not isinstance(arg, ast.Call) else None
            if part is None:
                if mismatch(arg, got) is not None:
                    return f"the text does not contain {written(arg)}"
            elif str(part) not in got:
                return f"the text does not contain {shown(part)}"
        return None
    if not isinstance(got, list):
        return f"{shown(got)} is neither text nor a list"
    rest = list(got)
    for arg in args:
        while rest and mismatch(arg, rest[0]) is not None:
            rest.pop(0)
        if not rest:
            after = " after the ones before it" if arg is not args[0] else ""
            return f"no item is {written(arg)}{after}"
        rest.pop(0)
    return None
