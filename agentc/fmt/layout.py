"""Layouts of the file, its declarations and their statements (`agent.lark`, one method
per rule).

Input: the parse tree of a whole file and its text. Output: one `Doc`. The canonical layout
(the one the examples use): two-space indentation, one statement per line, `{ … }` bodies
of agents, graphs, schemas, state and middleware always broken, an empty line around each
declaration with a body, other empty lines kept (at most one) where the source had them.
"""

from __future__ import annotations

from lark import Token, Tree

from .doc import Doc, group
from .emit import Node, end_of, start_of
from .exprs import ExprLayout, kids

_WITH_BODY = frozenset({"schema_decl", "agent_decl", "graph_decl", "declare_decl", "test_decl"})


def _kind(node: Node) -> str:
    return str(node.data) if isinstance(node, Tree) else node.type


def _blank_around_bodies(prev: Node, item: Node) -> bool:
    return _kind(prev) in _WITH_BODY or _kind(item) in _WITH_BODY


class Layout(ExprLayout):
    def file(self, tree: Tree[Token]) -> list[Doc]:
        return self.statements(kids(tree), len(self.text), _blank_around_bodies)

    def sp(self, node: Node | None) -> list[Doc]:
        """` node` when present."""
        return [] if node is None else [" ", *self.build(node)]

    def kw(self, t: Tree[Token], word: str) -> list[Doc]:
        """The keyword opening `t` (and the space after it)."""
        return [*self.before(start_of(t)), *self.sym(word.rstrip()), " "]

    def op(self, word: str) -> list[Doc]:
        """` word ` between two parts."""
        return [" ", *self.sym(word), " "]

    # ------------------------------------------------------------ top-level declarations

    def r_version(self, t: Tree[Token]) -> list[Doc]:
        return [*self.kw(t, "agentc "), *self.build(t.children[0])]

    def r_use_decl(self, t: Tree[Token]) -> list[Doc]:
        path, alias, options = t.children
        out = [*self.kw(t, "use "), *self.build(path)]
        if alias is not None:
            out += [*self.op("as"), *self.build(alias)]
        return out + self.sp(options)

    def r_schema_decl(self, t: Tree[Token]) -> list[Doc]:
        name, doc, fields = t.children
        head = [*self.kw(t, "schema "), *self.build(name), *self.sp(doc), " "]
        assert isinstance(fields, Tree)
        return self.block(head, kids(fields), end_of(t) - 1)

    def r_field(self, t: Tree[Token]) -> list[Doc]:
        name, type_, default, reducer, doc = t.children
        out = [*self.build(name), *self.sym(":"), " ", *self.build(type_)]
        if default is not None:
            out += [*self.op("="), *self.build(default)]
        if reducer is not None:
            out += [*self.op("reduce"), *self.build(reducer)]
        return out + self.sp(doc)

    def r_param(self, t: Tree[Token]) -> list[Doc]:
        name, type_, default, doc = t.children
        out = [*self.build(name), *self.sym(":"), " ", *self.build(type_)]
        if default is not None:
            out += [*self.op("="), *self.build(default)]
        return out + self.sp(doc)

    def r_variadic(self, t: Tree[Token]) -> list[Doc]:
        return self.word(t, "...")

    def r_declare_decl(self, t: Tree[Token]) -> list[Doc]:
        kind, name, params, doc, impl, attrs = t.children
        out = [*self.build(kind), " ", *self.build(name)]
        if params is not None:
            assert isinstance(params, Tree)
            out += self.bracketed(("(", ")"), kids(params), end_of(params) - 1, pad=False)
        return [*out, *self.sp(doc), *self.op("="), *self.build(impl), *self.sp(attrs)]

    def r_decl_kind(self, t: Tree[Token]) -> list[Doc]:
        return self.build(t.children[0])

    # ------------------------------------------------------------ agent and graph blocks

    def r_agent_decl(self, t: Tree[Token]) -> list[Doc]:
        name, doc, *stmts = t.children
        head = [*self.kw(t, "agent "), *self.build(name), *self.sp(doc), " "]
        return self.block(head, [s for s in stmts if s is not None], end_of(t) - 1)

    def r_graph_decl(self, t: Tree[Token]) -> list[Doc]:
        name, doc, *stmts = t.children
        head = [*self.kw(t, "graph "), *self.build(name), *self.sp(doc), " "]
        return self.block(head, [s for s in stmts if s is not None], end_of(t) - 1)

    def r_model_stmt(self, t: Tree[Token]) -> list[Doc]:
        value, options = t.children
        return [*self.kw(t, "model "), *self.build(value), *self.sp(options)]

    def r_prompt_stmt(self, t: Tree[Token]) -> list[Doc]:
        return [*self.kw(t, "prompt "), *self.build(t.children[0])]

    def r_tools_stmt(self, t: Tree[Token]) -> list[Doc]:
        return [*self.kw(t, "tools "), *self.build(t.children[0])]

    def r_checkpoint_stmt(self, t: Tree[Token]) -> list[Doc]:
        return [*self.kw(t, "checkpoint "), *self.build(t.children[0])]

    def r_limits_stmt(self, t: Tree[Token]) -> list[Doc]:
        return [*self.kw(t, "limits "), *self.build(t.children[0])]

    def r_output_stmt(self, t: Tree[Token]) -> list[Doc]:
        value, via, options = t.children
        out = [*self.kw(t, "output "), *self.build(value)]
        if via is not None:
            out += [*self.op("via"), *self.build(via)]
        return out + self.sp(options)

    def r_setting_stmt(self, t: Tree[Token]) -> list[Doc]:
        key, value = t.children
        assert key is not None and value is not None
        return [*self.build(key), " ", *self.build(value)]

    def r_middleware_stmt(self, t: Tree[Token]) -> list[Doc]:
        return self.block([*self.kw(t, "middleware ")], kids(t), end_of(t) - 1)

    def r_middleware_item(self, t: Tree[Token]) -> list[Doc]:
        ref, options = t.children
        assert ref is not None
        return [*self.build(ref), *self.sp(options)]

    def r_state_stmt(self, t: Tree[Token]) -> list[Doc]:
        fields = t.children[0]
        assert isinstance(fields, Tree)
        return self.block([*self.kw(t, "state ")], kids(fields), end_of(t) - 1)

    def r_interrupt_stmt(self, t: Tree[Token]) -> list[Doc]:
        when, *names = kids(t)
        out = [*self.kw(t, "interrupt "), *self.build(when), " "]
        for i, name in enumerate(names):
            if i:
                out += [*self.sym(","), " "]
            out += self.build(name)
        return out

    # ------------------------------------------------------------ nodes, edges, routes, hooks

    def r_node_decl(self, t: Tree[Token]) -> list[Doc]:
        name, call, options = t.children
        assert name is not None and call is not None
        return [
            *self.kw(t, "node "),
            *self.build(name),
            *self.op("="),
            *self.build(call),
            *self.sp(options),
        ]

    def r_edge_decl(self, t: Tree[Token]) -> list[Doc]:
        source, targets, cond = t.children
        assert source is not None and targets is not None
        return [
            *self.kw(t, "edge "),
            *self.build(source),
            *self.op("->"),
            *self.build(targets),
            *self.sp(cond),
        ]

    r_join_decl = r_edge_decl

    def r_edge_targets(self, t: Tree[Token]) -> list[Doc]:
        names = kids(t)
        if self.text[start_of(t)] != "[":
            return self.build(names[0])
        return self.bracketed(("[", "]"), names, end_of(t) - 1, pad=False)

    r_edge_sources = r_edge_targets

    def r_edge_when(self, t: Tree[Token]) -> list[Doc]:
        return [*self.kw(t, "when "), *self.build(t.children[0])]

    def r_edge_otherwise(self, t: Tree[Token]) -> list[Doc]:
        return self.word(t, "otherwise")

    def r_route_decl(self, t: Tree[Token]) -> list[Doc]:
        source, router, *cases = kids(t)
        head = [
            *self.kw(t, "route "),
            *self.build(source),
            *self.op("by"),
            *self.build(router),
            " ",
        ]
        return [*head, *self.bracketed(("{", "}"), cases, end_of(t) - 1, pad=True)]

    def r_route_list_decl(self, t: Tree[Token]) -> list[Doc]:
        source, router, *targets = kids(t)
        head = [
            *self.kw(t, "route "),
            *self.build(source),
            *self.op("by"),
            *self.build(router),
            " ",
        ]
        return [*head, *self.bracketed(("[", "]"), targets, end_of(t) - 1, pad=False)]

    def r_route_case(self, t: Tree[Token]) -> list[Doc]:
        label, target = kids(t)
        return [*self.build(label), *self.op("->"), *self.build(target)]

    def r_hook_decl(self, t: Tree[Token]) -> list[Doc]:
        point, target, call = t.children
        assert point is not None and call is not None
        return [
            *self.kw(t, "hook "),
            *self.build(point),
            *self.sp(target),
            *self.op("="),
            *self.build(call),
        ]

    # ------------------------------------------------------------ test blocks (`agentc test`)

    def r_test_decl(self, t: Tree[Token]) -> list[Doc]:
        name, *stmts = t.children
        head = [*self.kw(t, "test "), *self.build(name), " "]
        return self.block(head, [s for s in stmts if s is not None], end_of(t) - 1)

    def r_test_agent(self, t: Tree[Token]) -> list[Doc]:
        return [*self.kw(t, "agent "), *self.build(t.children[0])]

    def r_test_model(self, t: Tree[Token]) -> list[Doc]:
        node, value, options = t.children
        head = [*self.kw(t, "model "), *self.build(node), " "] if node else self.kw(t, "model ")
        return [*head, *self.build(value), *self.sp(options)]

    def r_test_replay(self, t: Tree[Token]) -> list[Doc]:
        return [*self.kw(t, "replay "), *self.build(t.children[0])]

    def r_test_input(self, t: Tree[Token]) -> list[Doc]:
        return [*self.kw(t, "input "), *self.build(t.children[0])]

    def r_test_decide(self, t: Tree[Token]) -> list[Doc]:
        return [*self.kw(t, "decide "), *self.build(t.children[0])]

    def r_test_expect(self, t: Tree[Token]) -> list[Doc]:
        subject, value = t.children
        assert subject is not None and value is not None
        return [*self.kw(t, "expect "), *self.build(subject), " ", *self.build(value)]


def layout(tree: Tree[Token], text: str, found: list) -> Doc:
    """The whole file as one document."""
    return group(Layout(text, found).file(tree), force=True)
