"""Checks of a graph's `model(…)` node: the model string, its named arguments, the prompt
templates and the channels it reads and writes.

Input: `Ctx`, the node's call, its graph's `StateView` and, for a node with the option
`input: Schema` (fed by `Send`), that schema's fields. Output: diagnostics — the model
(A1/A2; or a Python factory against its parameters, as `model tools.make { … }` is),
`bad-template` and `unknown-field` at the offending placeholder, `unknown-field` for `messages:`
/ `into:` channels the state lacks, `missing-into` where the answer has nowhere to go,
`type-mismatch` for an `into` channel that cannot hold the answer (a reply's text into an
`int`, a structured answer into `messages`), `unknown-strategy` and `bad-node` for `via`,
tools (function tools, agents, provider maps; MCP servers are not supported in model nodes
yet) and model options (a misspelt argument; secrets: secrets.py). Invariant: the AST is
only read.
"""

from __future__ import annotations

from collections.abc import Iterator

import agentc.ir as ir

from ...dsl import ast
from ...dsl.codes import Code
from ...dsl.diagnostics import Diagnostic, Label, error
from ...dsl.suggest import distance
from ..channels import CONVERSATION, StateView, answer_kind, declared_fields
from ..context import Ctx
from ..model_args import NODE_ARGS, ModelArgs, conversation, into, read_model_args
from ..model_args import word as strategy_word
from ..models import check_factory, check_model_name, resolve_model
from ..prompts import Placeholder, parse_template
from ..suggest import did_you_mean
from ..typecheck import describe, is_literal
from ..types import Ty, TyKind
from .common import check_schema_ref
from .model_options import call_options, check_model_options
from .tools import ToolName, check_duplicate_tools, check_tool

STRATEGIES = tuple(s.value for s in ir.OutputStrategy)
Payload = dict[str, Ty]  # the fields of a node's `input: Schema`


def check_model_node(
    ctx: Ctx, call: ast.Call, view: StateView, payload: Payload | None
) -> Iterator[Diagnostic]:
    args = read_model_args(call)
    yield from _check_spec(ctx, call, args)
    for again in args.repeated:
        assert again.name is not None
        yield error(
            Code.BAD_NODE,
            f"`{again.name.text}` is given twice",
            again.name.span,
            "given again here",
            help="keep one",
        )
    for name in ("prompt", "input"):
        value = args.value(name)
        if value is not None:
            yield from check_template(ctx, name, value, view, payload)
    yield from _check_conversation(args, view, call.span)
    yield from _check_output(ctx, args)
    yield from _check_into(ctx, call, args, view)
    yield from _check_tools(ctx, args)
    yield from _check_options(args)


def _check_spec(ctx: Ctx, call: ast.Call, args: ModelArgs) -> Iterator[Diagnostic]:
    spec = args.spec
    if args.factory is not None:  # the options are the factory's keyword arguments
        yield from check_factory(ctx.unit, args.factory, args.option_map(call.span))
        return
    if spec is None:
        yield error(
            Code.BAD_NODE,
            "`model(…)` takes one model string",
            call.span,
            'expected model("provider:name", prompt: "…")',
            help="or name a model factory of a used Python module: `model(tools.make_model, …)`",
        )
        return
    found = resolve_model(spec.value, spec.span)
    if isinstance(found, Diagnostic):
        yield found
        return
    typo = check_model_name(*found, spec.span)
    if typo is not None:
        yield typo
    # a misspelt node argument (`promt`) is `_check_options`' to report, not the provider's
    rest = [a for a in args.options if a.name and not _near_node_arg(a.name.text)]
    yield from check_model_options(found[0], call_options(rest))


# ---------------------------------------------------------------- templates


def check_template(
    ctx: Ctx, what: str, value: ast.Expr, view: StateView, payload: Payload | None
) -> Iterator[Diagnostic]:
    if not isinstance(value, ast.StringLit):
        yield error(
            Code.TYPE_MISMATCH,
            f"expected a string, found {describe(value)}",
            value.span,
            f"`{what}:` is a text with `{{channel}}` placeholders",
        )
        return
    template = parse_template(value, ctx.unit.source)
    yield from template.problems
    for p in template.placeholders:
        yield from _check_placeholder(ctx, p, view, payload)


def _check_placeholder(
    ctx: Ctx, p: Placeholder, view: StateView, payload: Payload | None
) -> Iterator[Diagnostic]:
    name = p.field.name
    if payload is not None:
        known: dict[str, Ty] = payload
        where, help_ = "the node's `input` schema has no field", "it reads what a Send carries"
    else:
        known = {n: c.ty for n, c in view.channels.items()}
        where, help_ = "the state has no channel", "a placeholder names a state channel"
    ty = known.get(name)
    if ty is None:
        yield error(
            Code.UNKNOWN_FIELD,
            f"{where} `{name}`",
            p.part_spans[0],
            "unknown placeholder",
            notes=(help_,),
            help=did_you_mean(name, known) or "declare it, or use `{{` for a literal brace",
        )
        return
    fields = declared_fields(ctx.unit, ty) if p.field.path else None
    if fields is not None and p.field.path[0] not in fields:
        key = p.field.path[0]
        yield error(
            Code.UNKNOWN_FIELD,
            f"`{name}` has no field `{key}`",
            p.part_spans[1],
            f"not a field of `{ty.display()}`",
            help=did_you_mean(key, fields),
        )


# ---------------------------------------------------------------- channels


def _unknown_channel(ref: ast.Expr, view: StateView, what: str) -> Iterator[Diagnostic]:
    if not (isinstance(ref, ast.Ref) and len(ref.parts) == 1):
        yield error(
            Code.TYPE_MISMATCH,
            f"expected a channel name, found {describe(ref)}",
            ref.span,
            f"`{what}:` names a state channel",
        )
        return
    name = ref.parts[0].text
    if name not in view:
        yield error(
            Code.UNKNOWN_FIELD,
            f"the state has no channel `{name}`",
            ref.span,
            "unknown channel",
            help=did_you_mean(name, view.channels) or f"add `{name}: …` to the graph's state",
        )


def _check_conversation(args: ModelArgs, view: StateView, where: ast.Span) -> Iterator[Diagnostic]:
    given = args.named.get("messages")
    if given is not None:
        yield from _unknown_channel(given.value, view, "messages")
        ch = view.get(args.channel_arg("messages") or "")
        if ch is not None and ch.ty.kind is not TyKind.MESSAGES:
            yield _holds(ch.ty, given.value.span, "`messages:` is a conversation", "messages")
        if "input" in args.named:
            yield error(
                Code.BAD_NODE,
                "`messages:` is not read when `input:` is given",
                given.span,
                "the model gets the prompt and the `input:` message only",
                help="drop `messages:` (and use `into:` for where the answer goes)",
            )
    elif "input" not in args.named and conversation(args, view) is None:
        other = view.get(CONVERSATION)
        yield error(
            Code.UNKNOWN_FIELD if other is None else Code.TYPE_MISMATCH,
            "the state has no `messages` channel for the model to read"
            if other is None
            else f"`messages` is a `{other.ty.display()}` channel, not a conversation",
            _first_arg_span(args, where),
            "this node reads the conversation",
            help='add `messages: messages` to the state, or give `input: "…"` '
            "(one user message from a template)",
        )


def _first_arg_span(args: ModelArgs, call: ast.Span) -> ast.Span:
    """Where to point at a model node: its model string, its prompt, else the call."""
    if args.positional:
        return args.positional[0].span
    given = args.named.get("prompt")
    return given.span if given is not None else call


def _holds(ty: Ty, span: ast.Span, label: str, want: str) -> Diagnostic:
    return error(
        Code.TYPE_MISMATCH,
        f"a `{ty.display()}` channel is not `{want}`",
        span,
        label,
        help=f"name a `{want}` channel",
    )


def _check_into(ctx: Ctx, call: ast.Call, args: ModelArgs, view: StateView) -> Iterator[Diagnostic]:
    given = args.named.get("into")
    output = _output_name(args)
    if given is not None:
        problems = list(_unknown_channel(given.value, view, "into"))
        yield from problems
        if problems:
            return
    target = into(args, view)
    if target is None and given is None and output is None and "input" not in args.named:
        return  # no conversation to read or add to: _check_conversation said so
    if target is None or (given is None and output is not None):
        why = (
            "a structured answer (`output:`) needs a channel of its own"
            if output is not None
            else "the state has no `messages` channel to add the reply to"
        )
        yield error(
            Code.MISSING_INTO,
            "this model node's answer goes nowhere",
            call.callee.span,
            why,
            help="add `into: <channel>` naming the state channel that takes the answer",
        )
        return
    ch = view.get(target)
    if ch is None:
        return  # the conversation channel: reported by _check_conversation
    kind = answer_kind(ch, output)
    at = given.value.span if given is not None else call.callee.span
    if not isinstance(kind, ir.AnswerKind):  # (an AnswerKind is a str too)
        secondary = (Label(ch.decl.type.span, "declared here"),) if ch.decl else ()
        yield error(
            Code.TYPE_MISMATCH,
            f"`{target}` cannot take this model's answer",
            at,
            f"`{target}` {kind}",
            secondary=secondary,
            help="change the channel's type, or write the answer to another channel",
        )
    elif kind is ir.AnswerKind.TEXT and "tools" in args.named:
        yield error(
            Code.TYPE_MISMATCH,
            f"a model with tools answers with tool calls; `{target}` keeps only text",
            at,
            "the tool calls would be lost",
            help="write the answer to a `messages` channel, and run the calls with `tools(…)`",
        )


def _output_name(args: ModelArgs) -> str | None:
    value = args.value("output")
    return value.dotted if isinstance(value, ast.Ref) else None


def _check_output(ctx: Ctx, args: ModelArgs) -> Iterator[Diagnostic]:
    output = args.value("output")
    if output is not None:
        yield from check_schema_ref(ctx, output)
    via = args.named.get("via")
    if via is None:
        return
    word = strategy_word(via.value)
    if output is None:
        yield error(
            Code.BAD_NODE,
            "`via` without `output`",
            via.span,
            "there is no structured answer to parse",
            help="add `output: Schema`, or drop `via`",
        )
    if word not in STRATEGIES:
        yield error(
            Code.UNKNOWN_STRATEGY,
            f"unknown output strategy `{word or describe(via.value)}`",
            via.value.span,
            "expected tool, provider or auto",
            help=did_you_mean(word, STRATEGIES) if word else None,
        )


# ---------------------------------------------------------------- tools and options


def _check_tools(ctx: Ctx, args: ModelArgs) -> Iterator[Diagnostic]:
    value = args.value("tools")
    if value is None:
        return
    if not isinstance(value, ast.ListLit):
        yield error(
            Code.TYPE_MISMATCH,
            f"expected a list of tools, found {describe(value)}",
            value.span,
            "expected [tools.a, tools.b]",
        )
        return
    names: list[ToolName] = []
    for item in value.items:
        if isinstance(item, ast.Ref) and item.parts[0].text in ctx.unit.mcp:
            yield error(
                Code.NOT_A_TOOL,
                "MCP tools are not supported in graph model nodes yet",
                item.span,
                "an MCP server's tools",
                help="use an `agent` block with these tools, and `agent(…)` as the node",
            )
            continue
        yield from check_tool(ctx, item, names)
    yield from check_duplicate_tools(names)


def _near_node_arg(key: str) -> str | None:
    """A node argument one or two edits from `key` (`promt`: `prompt`)."""
    near = [n for n in NODE_ARGS if distance(key, n) <= (1 if len(key) <= 4 else 2)]
    return near[0] if near else None


def _check_options(args: ModelArgs) -> Iterator[Diagnostic]:
    for arg in args.options:
        assert arg.name is not None
        key = arg.name.text
        near = _near_node_arg(key)
        if near:
            yield error(
                Code.UNKNOWN_PARAM,
                f"`model(…)` has no argument `{key}`",
                arg.name.span,
                "unknown argument",
                help=f"did you mean `{near}`?",
            )
        elif not is_literal(arg.value):
            yield error(
                Code.TYPE_MISMATCH,
                f"model option `{key}` must be a literal value, found {describe(arg.value)}",
                arg.value.span,
                "expected a number, string, boolean, list or map",
            )
