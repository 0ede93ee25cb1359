"""Tree → AST for `test` blocks (`agentc test`): the rules of grammar/agent.lark's test
section, one thin method each.

Input: the built children of a `test_*` rule. Output: `ast.TestDecl` and its statements,
with spans. Shape only, as in dsl/build.py (whose `AstBuilder` takes these methods).
"""

from __future__ import annotations

from typing import Any, TypeAlias

from . import ast
from .source import Span

Children = list[Any]
# Where a rule's text lies: its first and last character offsets (end exclusive), or None
# for a rule that matched no text.
At: TypeAlias = "tuple[int, int] | None"


class TestBlockRules:
    """The `test` block's rules; `AstBuilder` supplies `_span`."""

    def _span(self, at: At) -> Span:
        raise NotImplementedError

    def test_decl(self, at: At, children: Children) -> ast.TestDecl:
        name, *body = children
        return ast.TestDecl(
            name=name, body=tuple(s for s in body if s is not None), span=self._span(at)
        )

    def test_agent(self, at: At, children: Children) -> ast.TestAgent:
        return ast.TestAgent(name=children[0], span=self._span(at))

    def test_model(self, at: At, children: Children) -> ast.TestModel:
        node, spec, options = children
        return ast.TestModel(node=node, spec=spec, options=options, span=self._span(at))

    def test_replay(self, at: At, children: Children) -> ast.TestReplay:
        return ast.TestReplay(path=children[0], span=self._span(at))

    def test_input(self, at: At, children: Children) -> ast.TestInput:
        return ast.TestInput(value=children[0], span=self._span(at))

    def test_decide(self, at: At, children: Children) -> ast.TestDecide:
        return ast.TestDecide(decision=children[0], span=self._span(at))

    def test_expect(self, at: At, children: Children) -> ast.TestExpect:
        subject, value = children
        return ast.TestExpect(subject=subject, value=value, span=self._span(at))
