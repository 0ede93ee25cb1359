"""Layouts of expressions and types: one method per grammar rule (`agent.lark`).

Input: expression and type subtrees. Output: `Doc` parts in the canonical spelling: one
space around binary operators, `:` and `=`, none inside `[ ]` and `( )`, one inside `{ }`.
The grammar drops parentheses from the tree, so they are put back where the tree needs
them (precedence), and kept where the source wrote them around an operator's operand.
Invariant: the text printed parses back to the same tree.
"""

from __future__ import annotations

from lark import Token, Tree

from .comments import next_char, prev_char
from .doc import Doc
from .emit import Emitter, Node, end_of, start_of

# Binding strength of each operator form; a child weaker than its seat is parenthesised.
_PREC = {"or_op": 1, "and_op": 2, "not_op": 3, "compare": 4, "neg": 5}
_ATOM = 6
_TYPE_PREC = {"union_type": 1, "optional_type": 2}
_TYPE_ATOM = 3


def _data(node: Node) -> str:
    return str(node.data) if isinstance(node, Tree) else node.type


def kids(tree: Tree[Token]) -> list[Node]:
    """A tree's children without the placeholders of absent optional parts."""
    return [c for c in tree.children if c is not None]


class ExprLayout(Emitter):
    def build(self, node: Node) -> list[Doc]:
        if isinstance(node, Token):
            return self.tok(node)
        method = getattr(self, "r_" + str(node.data), None)
        if method is None:  # every rule has a method; a token-only tree prints its tokens
            return [p for c in kids(node) for p in self.build(c)]
        parts: list[Doc] = method(node)
        self.last = max(self.last, end_of(node))
        return parts

    # ------------------------------------------------------------ names and literals

    def r_name(self, t: Tree[Token]) -> list[Doc]:
        return self.build(t.children[0])

    def r_ref(self, t: Tree[Token]) -> list[Doc]:
        out: list[Doc] = []
        for i, name in enumerate(kids(t)):
            if i:
                out += self.sym(".")
            out += self.build(name)
        return out

    def leaf(self, t: Tree[Token]) -> list[Doc]:
        return self.build(t.children[0])

    r_string = r_long_string = r_int_lit = r_float_lit = r_duration = r_bad_number = leaf

    def word(self, t: Tree[Token], text: str) -> list[Doc]:
        return [*self.before(start_of(t)), text, *self.after(end_of(t))]

    def r_true_lit(self, t: Tree[Token]) -> list[Doc]:
        return self.word(t, "true")

    def r_false_lit(self, t: Tree[Token]) -> list[Doc]:
        return self.word(t, "false")

    def r_none_lit(self, t: Tree[Token]) -> list[Doc]:
        return self.word(t, "none")

    # ------------------------------------------------------------ collections and calls

    def r_list(self, t: Tree[Token]) -> list[Doc]:
        return self.bracketed(("[", "]"), kids(t), end_of(t) - 1, pad=False)

    def r_map(self, t: Tree[Token]) -> list[Doc]:
        return self.bracketed(("{", "}"), kids(t), end_of(t) - 1, pad=True)

    def r_map_entry(self, t: Tree[Token]) -> list[Doc]:
        key, value = kids(t)
        return [*self.build(key), *self.sym(":"), " ", *self.build(value)]

    def r_kwarg(self, t: Tree[Token]) -> list[Doc]:
        return self.r_map_entry(t)

    def r_call(self, t: Tree[Token]) -> list[Doc]:
        callee, *args = kids(t)
        return [*self.build(callee), *self.bracketed(("(", ")"), args, end_of(t) - 1, pad=False)]

    # ------------------------------------------------------------ operators

    def operand(self, child: Node, seat: int) -> list[Doc]:
        """`child` in a seat that needs binding strength `seat`: parenthesised when weaker,
        or when the source wrote parentheses around it."""
        strength = _PREC.get(_data(child), _ATOM)
        written = (
            prev_char(self.text, start_of(child)) == "("
            and next_char(self.text, end_of(child)) == ")"
        )
        if strength < seat or written:
            return [*self.sym("("), *self.build(child), *self.sym(")")]
        return self.build(child)

    def binary(self, t: Tree[Token], word: str, prec: int) -> list[Doc]:
        left, right = kids(t)
        out = self.operand(left, prec)
        return [*out, " ", *self.sym(word), " ", *self.operand(right, prec + 1)]

    def r_or_op(self, t: Tree[Token]) -> list[Doc]:
        return self.binary(t, "or", 1)

    def r_and_op(self, t: Tree[Token]) -> list[Doc]:
        return self.binary(t, "and", 2)

    def r_not_op(self, t: Tree[Token]) -> list[Doc]:
        return [*self.before(start_of(t)), *self.sym("not"), " ", *self.operand(kids(t)[0], 3)]

    def r_neg(self, t: Tree[Token]) -> list[Doc]:
        return [*self.before(start_of(t)), *self.sym("-"), *self.operand(kids(t)[0], 5)]

    def r_compare(self, t: Tree[Token]) -> list[Doc]:
        left, op, right = kids(t)
        out = self.operand(left, 4)
        return [*out, " ", *self.build(op), " ", *self.operand(right, 5)]

    # ------------------------------------------------------------ types

    def type_operand(self, child: Node, seat: int) -> list[Doc]:
        if _TYPE_PREC.get(_data(child), _TYPE_ATOM) < seat:
            return [*self.sym("("), *self.build(child), *self.sym(")")]
        return self.build(child)

    def r_union_type(self, t: Tree[Token]) -> list[Doc]:
        out: list[Doc] = []
        for i, option in enumerate(kids(t)):
            if i:
                out += [" ", *self.sym("|"), " "]
            out += self.type_operand(option, 2)
        return out

    def r_optional_type(self, t: Tree[Token]) -> list[Doc]:
        return [*self.type_operand(kids(t)[0], 3), *self.sym("?")]

    def r_named_type(self, t: Tree[Token]) -> list[Doc]:
        return self.build(kids(t)[0])

    def r_generic_type(self, t: Tree[Token]) -> list[Doc]:
        name, *args = kids(t)
        return [*self.build(name), *self.bracketed(("[", "]"), args, end_of(t) - 1, pad=False)]

    def r_none_type(self, t: Tree[Token]) -> list[Doc]:
        return self.word(t, "none")

    def r_true_type(self, t: Tree[Token]) -> list[Doc]:
        return self.word(t, "true")

    r_literal_true_type = r_true_type

    def r_literal_false_type(self, t: Tree[Token]) -> list[Doc]:
        return self.word(t, "false")

    r_literal_type = r_literal_int_type = leaf
