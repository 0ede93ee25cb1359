"""The graph block's join, route target list and `output` forms → their AST nodes."""

from __future__ import annotations

from agentc.dsl import ast
from agentc.dsl.parse import parse


def _body(text: str) -> tuple[ast.GraphStmt, ...]:
    result = parse(f"graph g {{\n{text}\n}}\n", "t.agent")
    assert result.diagnostics == (), [d.message for d in result.diagnostics]
    assert result.module is not None
    (graph,) = result.module.items
    assert isinstance(graph, ast.GraphDecl)
    return graph.body


def test_a_list_before_the_arrow_is_a_join():
    (join,) = _body("edge [a, b,] -> c")
    assert isinstance(join, ast.JoinDecl)
    assert [n.text for n in join.sources] == ["a", "b"]
    assert [n.text for n in join.targets] == ["c"]
    assert join.condition is None and not join.otherwise
    assert (join.span.start.col, join.span.end.col) == (1, 18)


def test_a_join_keeps_what_follows_for_the_checker():
    (join,) = _body("edge [a, b] -> [c, d] when ok")
    assert isinstance(join, ast.JoinDecl)
    assert [n.text for n in join.targets] == ["c", "d"]
    assert isinstance(join.condition, ast.Ref)


def test_a_plain_edge_is_still_an_edge():
    (edge,) = _body("edge a -> [b, c]")
    assert isinstance(edge, ast.EdgeDecl) and edge.source.text == "a"


def test_route_with_a_target_list():
    (route,) = _body("route plan by steps.assign [worker, END]")
    assert isinstance(route, ast.RouteDecl)
    assert route.cases == ()
    assert route.targets is not None and [t.text for t in route.targets] == ["worker", "END"]
    (called,) = _body("route plan by r(k: 1) [worker]")
    assert isinstance(called, ast.RouteDecl) and isinstance(called.router, ast.Call)


def test_route_with_cases_has_no_target_list():
    (route,) = _body("route a by tools_condition { tools -> t, end -> END }")
    assert isinstance(route, ast.RouteDecl) and route.targets is None and len(route.cases) == 2


def test_output_context_and_input_in_a_graph():
    out, context, inp = _body("output [joke, feedback]\ncontext Ctx\ninput [topic]")
    assert isinstance(out, ast.OutputStmt) and isinstance(out.schema, ast.ListLit)
    assert isinstance(context, ast.SettingStmt) and context.key.text == "context"
    assert isinstance(inp, ast.SettingStmt) and inp.key.text == "input"


def test_keywords_stay_names_in_node_arguments_and_options():
    (node,) = _body('node w = model("m", input: "x", output: S, into: c) { input: S, goto: [a] }')
    assert isinstance(node, ast.NodeDecl)
    assert [a.name.text for a in node.value.args if a.name] == ["input", "output", "into"]
    assert node.options is not None
    assert [e.key.text for e in node.options.entries] == ["input", "goto"]


def test_a_route_label_may_be_a_string():
    (route,) = _body('route gen by steps.grade { "Rejected + Feedback" -> gen, Accepted -> END }')
    assert isinstance(route, ast.RouteDecl)
    quoted, bare = route.cases
    assert isinstance(quoted.label, ast.StringLit) and quoted.key == "Rejected + Feedback"
    assert isinstance(bare.label, ast.Name) and bare.key == "Accepted"
    assert (quoted.label.span.start.col, quoted.label.span.end.col) == (28, 49)
