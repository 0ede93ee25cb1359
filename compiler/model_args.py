"""The arguments of a graph's `model(…)` node, read once for the checker and the lowering.

Input: the node's `ast.Call` and its graph's `StateView`. Output: `ModelArgs` — the model
string (or a Python factory's reference), each named argument the node itself takes
(`prompt`, `input`, `messages`, `into`, `tools`, `output`, `via`; the first of a repeated
one), the rest as model options — and the two channel decisions both passes must make alike:
the conversation the node reads (`reads`) and the channel its answer goes to (`into`).

The rules (as a LangGraph user writes the node by hand): with `input:` the model gets the
system prompt and that one user message, and the conversation channel is not read; otherwise
it reads the conversation (`messages:`, default the `messages` channel). The answer goes to
`into:`, by default to the conversation channel. Invariant: the AST is only read.
"""

from __future__ import annotations

from ..dsl import ast
from ..dsl.astclass import Record, record
from .channels import CONVERSATION, StateView
from .types import TyKind

NODE_ARGS = ("prompt", "input", "messages", "into", "tools", "output", "via")


@record
class ModelArgs(Record):
    positional: tuple[ast.Expr, ...]
    named: dict[str, ast.Arg]  # NODE_ARGS given (the first of each)
    repeated: tuple[ast.Arg, ...]  # a NODE_ARG or option given again
    options: tuple[ast.Arg, ...]  # every other named argument: options of the model

    @property
    def spec(self) -> ast.StringLit | None:
        first = self.positional[0] if len(self.positional) == 1 else None
        return first if isinstance(first, ast.StringLit) else None

    @property
    def factory(self) -> ast.Ref | None:
        """`model(tools.make_model, …)`: a Python factory in place of the model string."""
        first = self.positional[0] if len(self.positional) == 1 else None
        return first if isinstance(first, ast.Ref) else None

    def option_map(self, span: ast.Span) -> ast.MapLit:
        """The model options as the `{ … }` of `model tools.make_model { … }` (a factory's
        keyword arguments, checked and lowered as the agent form's are)."""
        entries = tuple(
            ast.MapEntry(key=a.name, value=a.value, span=a.span)
            for a in self.options
            if a.name is not None
        )
        return ast.MapLit(entries=entries, span=span)

    def value(self, name: str) -> ast.Expr | None:
        arg = self.named.get(name)
        return arg.value if arg is not None else None

    def channel_arg(self, name: str) -> str | None:
        """A `messages:` / `into:` argument's channel name (None: absent or not a name)."""
        value = self.value(name)
        if isinstance(value, ast.Ref) and len(value.parts) == 1:
            return value.parts[0].text
        return None


def read_model_args(call: ast.Call) -> ModelArgs:
    named: dict[str, ast.Arg] = {}
    options: dict[str, ast.Arg] = {}
    repeated: list[ast.Arg] = []
    for arg in call.args:
        if arg.name is None:
            continue
        table = named if arg.name.text in NODE_ARGS else options
        if arg.name.text in table:
            repeated.append(arg)
        else:
            table[arg.name.text] = arg
    return ModelArgs(
        positional=tuple(a.value for a in call.args if a.name is None),
        named=named,
        repeated=tuple(repeated),
        options=tuple(options.values()),
    )


def conversation(args: ModelArgs, view: StateView) -> str | None:
    """The conversation channel: `messages:`, else the state's `messages` channel."""
    if "messages" in args.named:
        return args.channel_arg("messages")
    ch = view.get(CONVERSATION)
    return CONVERSATION if ch is not None and ch.ty.kind is TyKind.MESSAGES else None


def reads(args: ModelArgs, view: StateView) -> str | None:
    """The conversation the model call is made from; None with `input:` (one message)."""
    return None if "input" in args.named else conversation(args, view)


def into(args: ModelArgs, view: StateView) -> str | None:
    """Where the answer goes: `into:`, else the conversation channel (None: nowhere)."""
    if "into" in args.named:
        return args.channel_arg("into")
    return conversation(args, view)


def word(value: ast.Expr | None) -> str:
    """A bare word or a string (`via: tool`, `via: "tool"`); "" for anything else."""
    if isinstance(value, ast.Ref) and len(value.parts) == 1:
        return value.parts[0].text
    return value.value if isinstance(value, ast.StringLit) else ""
