"""Tree → AST for `test` blocks (`agentc test`): the rules of grammar/agent.lark's test
section, one thin method each.

Input: the built children of a `test_*` rule. Output: `ast.TestDecl` and its statements,
with spans. Shape only, as in dsl/build.py (whose `AstBuilder` takes these methods).
"""

from __future__ import annotations

from typing import Any

from lark.tree import Meta

from . import ast
from .source import Span

Children = list[Any]


class TestBlockRules:
    """The `test` block's rules; `AstBuilder` supplies `_span`."""

    def _span(self, meta: Meta) -> Span:
        raise NotImplementedError

    def test_decl(self, meta: Meta, children: Children) -> ast.TestDecl:
        name, *body = children
        return ast.TestDecl(
            name=name, body=tuple(s for s in body if s is not None), span=self._span(meta)
        )

    def test_agent(self, meta: Meta, children: Children) -> ast.TestAgent:
        return ast.TestAgent(name=children[0], span=self._span(meta))

    def test_model(self, meta: Meta, children: Children) -> ast.TestModel:
        node, spec, options = children
        return ast.TestModel(node=node, spec=spec, options=options, span=self._span(meta))

    def test_replay(self, meta: Meta, children: Children) -> ast.TestReplay:
        return ast.TestReplay(path=children[0], span=self._span(meta))

    def test_input(self, meta: Meta, children: Children) -> ast.TestInput:
        return ast.TestInput(value=children[0], span=self._span(meta))

    def test_decide(self, meta: Meta, children: Children) -> ast.TestDecide:
        return ast.TestDecide(decision=children[0], span=self._span(meta))

    def test_expect(self, meta: Meta, children: Children) -> ast.TestExpect:
        subject, value = children
        return ast.TestExpect(subject=subject, value=value, span=self._span(meta))
