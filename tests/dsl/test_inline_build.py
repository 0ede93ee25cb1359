"""The one-pass parse (`dsl.reduce`: AST built at each LALR reduction, no `lark.Tree`)
gives exactly the AST, spans and literal diagnostics of the tree path (Lark's tree with
propagated positions, walked by `AstBuilder.transform`), and fails exactly where Lark does.

Compared over every `.agent` file in the repository (examples, goldens, each chunk of the
check files, the fuzz corpus, templates), grammar-derived and mutated fuzz inputs, and
hand-written corners of the rule shapes (optional parts, `?rule` collapses, empty rules).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from lark.exceptions import LarkError

from agentc.dsl import reduce
from agentc.dsl.build import AstBuilder
from agentc.dsl.parse import parse
from agentc.dsl.source import SourceFile
from agentc.dsl.tables import load_tables
from agentc.grammar import load_parser
from tests.fuzz.grammar_fuzz import inputs

REPO = Path(__file__).resolve().parents[2]
SKIP = {".venv", "build", "node_modules", ".git"}


def _texts() -> list[tuple[str, str]]:
    found = []
    for path in sorted(REPO.rglob("*.agent")):
        if SKIP & set(path.relative_to(REPO).parts):
            continue
        text = path.read_text(encoding="utf-8")
        name = str(path.relative_to(REPO))
        found.append((name, text))
        if "\n---\n" in text:
            found += [(f"{name}#{i}", c) for i, c in enumerate(text.split("\n---\n"))]
    return found


CORNERS = [
    "",
    "agentc 1\n",
    "# only a comment\n",
    'use "./t.py"\nuse "./u.py" as u { trust: true }\n',
    'schema S {}\nschema T "doc" { a: int, b: str? = none "why", c: list[int | str] }\n',
    'agent a { }\nagent b "doc" { model ("x") prompt (((("p")))) tools [] }\n',
    'agent a { decide x input y expect z  replay "r" }\n',
    "graph g { state {} node a = python(t.a) { } edge START -> a edge a -> [b, c,] }\n",
    "graph g { edge [a, b] -> c when not (x == 1 or y != 2 and -z < 3) }\n",
    'graph g { route a by r { x -> b, "y" -> c } route a by t.r [b, c] hook before a = h() }\n',
    'middleware m(a: int = 1, b: str "doc", ...) "doc" = "m:f" { k: 1 }\n',
    'x = [1, 2.5, 3s, -4, -2.5e3, true, false, none, "a\\tb", """\n  long\n  """]\n',
    'agent a { limits { steps: 1, budget: 30x } prompt "\\q" }\n',
    'graph g { node a = f(k: v, [1], {a: 1, "b": 2}) }\n',
    'test "t" { agent a model "m" model n "m" { k: 1 } input "x" expect e [1] }\n',
    'agent a { model "m" { t: 1 } output O via tool { s: 1 } interrupt before a, b }\n',
]


def _tree_path(text: str) -> tuple[object, list] | None:
    try:
        tree = load_parser().parse(text)
    except LarkError:
        return None
    builder = AstBuilder(SourceFile("t.agent", text))
    try:
        return builder.transform(tree), builder.diagnostics
    except RecursionError:
        return None


def _inline_path(text: str) -> tuple[object, list] | None:
    builder = AstBuilder(SourceFile("t.agent", text))
    try:
        # the tables as a check reads them: from their JSON cache (dsl/tables.py)
        return reduce.parse_ast(load_tables(), text, builder), builder.diagnostics
    except (reduce.NotParsed, reduce.TooDeep):
        return None


def _agree(text: str) -> None:
    old = _tree_path(text)
    new = _inline_path(text)
    if new is None and old is not None:  # only the tree walk may build a very tall AST
        with pytest.raises(reduce.TooDeep):
            reduce.parse_ast(load_parser(), text, AstBuilder(SourceFile("t.agent", text)))
        return
    assert new == old


@pytest.mark.parametrize("name_text", _texts(), ids=lambda nt: nt[0])
def test_every_repository_file_builds_the_same(name_text: tuple[str, str]) -> None:
    _agree(name_text[1])


@pytest.mark.parametrize("text", CORNERS)
def test_rule_shape_corners_build_the_same(text: str) -> None:
    _agree(text)


def test_fuzzed_inputs_build_the_same() -> None:
    for _name, text, _where in inputs(seed=77, count=400):
        _agree(text)


def test_the_corners_cover_what_they_claim() -> None:
    """Guards the comparison itself: most corners parse, and some carry literal errors."""
    built = [_inline_path(t) for t in CORNERS]
    assert sum(b is not None for b in built) >= len(CORNERS) - 2
    assert any(b is not None and b[1] for b in built)


def test_a_tall_ast_still_goes_to_the_tree_walk() -> None:
    deep = "agentc 1\nagent a { prompt " + "[" * 300 + "1" + "]" * 300 + " }\n"
    with pytest.raises(reduce.TooDeep):
        reduce.parse_ast(load_parser(), deep, AstBuilder(SourceFile("t.agent", deep)))
    result = parse(deep, "t.agent")  # as before: built by the tree walk
    assert result.ok and result.module is not None
    very_deep = "agentc 1\nagent a { prompt " + "[" * 3000 + "1" + "]" * 3000 + " }\n"
    (diagnostic,) = parse(very_deep, "t.agent").diagnostics
    assert "too deeply" in diagnostic.message
