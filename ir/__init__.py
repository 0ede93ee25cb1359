"""The intermediate representation: the contract between the compiler and the runtime.

Input: nothing (definitions only). The compiler's `lower` builds a `Program`; the runtime
and the review tools read it and never see the AST. Invariants: pydantic, frozen,
`extra="forbid"`, JSON-serialisable and round-trippable (`Program.model_validate_json(
p.model_dump_json()) == p`); no Python callables, only `ImportRef`s that the runtime binds;
every element carries the `SourceSpan` of the text that made it (the prelude's spans point
into `stdlib/prelude.agent`); names are unique within a graph; declaration order is kept.

Lowering conventions (compiler/lower/graph.py): a graph block's `hook before X = python(f)`
is a PYTHON node `f.before_X` (marked `hook=GraphHook(when=before, node="X")`) spliced in
front of X;
`hook after X` a node `f.after_X` between X and its successors; `before_model`/`after_model`
hooks without a node apply to every model node, `before_agent`/`after_agent` sit after START
/ before END; `wrap_model_call`/`wrap_tool_call` hooks are listed in the model/tools nodes'
`config["wrap"]`. A reference to a Python object inside a config is `{"$import":
"module:attr", "is_file": bool}`; durations are seconds; `tokens(n)` is `["tokens", n]`.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the checker sees the real names; at run time `__getattr__` loads them
    from .agent import (
        MCP_ALL_TOOLS,
        AgentSpec,
        HookPoint,
        InjectedArg,
        InjectedKind,
        JumpTarget,
        McpToolRef,
        MiddlewareOrigin,
        MiddlewareSpec,
        ModelSpec,
        OutputSpec,
        OutputStrategy,
        ProviderToolSpec,
        ToolSpec,
    )
    from .base import (
        END,
        IR_VERSION,
        JSON,
        START,
        ChannelSpec,
        Frozen,
        ImportRef,
        ModuleKind,
        ModuleSpec,
        SchemaSpec,
        SourceRef,
        SourceSpan,
        TypeSpec,
    )
    from .construct import dump_json, trusted_build
    from .nodes import (
        AnswerKind,
        ModelNodeConfig,
        SubgraphNodeConfig,
        Template,
        TemplateField,
        ToolNodeConfig,
    )
    from .program import (
        BoolCond,
        Bound,
        BranchCase,
        BranchKind,
        BranchSpec,
        CachePolicy,
        CheckpointKind,
        CheckpointSpec,
        CompareCond,
        Condition,
        EdgeSpec,
        FieldCond,
        Graph,
        GraphHook,
        GraphKind,
        InterruptSpec,
        InterruptWhen,
        JoinSpec,
        Limits,
        LiteralCond,
        NodeKind,
        NodeSpec,
        NotCond,
        PredicateCond,
        Program,
        RetryPolicy,
        StoreKind,
        StoreSpec,
        TraceSpec,
    )

# The models load on the first name asked for, not with the package: a process that only
# checks makes them plain records first (`construct.use_records`), and a submodule such as
# `agentc.ir.construct` imports without them.
_MODULES = ("agentc.ir.base", "agentc.ir.agent", "agentc.ir.nodes", "agentc.ir.program")


def __getattr__(name: str) -> Any:
    if name not in __all__:
        raise AttributeError(f"module 'agentc.ir' has no attribute {name!r}")
    scope = globals()
    for module_name in _MODULES:
        module = importlib.import_module(module_name)
        scope.update((n, getattr(module, n)) for n in __all__ if hasattr(module, n))
    construct = importlib.import_module("agentc.ir.construct")
    scope.update(trusted_build=construct.trusted_build, dump_json=construct.dump_json)
    return scope[name]


__all__ = [
    "AgentSpec",
    "AnswerKind",
    "CachePolicy",
    "JoinSpec",
    "ModelNodeConfig",
    "SubgraphNodeConfig",
    "Template",
    "TemplateField",
    "ToolNodeConfig",
    "BoolCond",
    "Bound",
    "BranchCase",
    "BranchKind",
    "BranchSpec",
    "ChannelSpec",
    "CheckpointKind",
    "CheckpointSpec",
    "CompareCond",
    "Condition",
    "END",
    "EdgeSpec",
    "FieldCond",
    "Frozen",
    "Graph",
    "GraphHook",
    "GraphKind",
    "HookPoint",
    "IR_VERSION",
    "ImportRef",
    "InjectedArg",
    "InjectedKind",
    "InterruptSpec",
    "InterruptWhen",
    "JSON",
    "JumpTarget",
    "Limits",
    "LiteralCond",
    "MCP_ALL_TOOLS",
    "McpToolRef",
    "MiddlewareOrigin",
    "MiddlewareSpec",
    "ModelSpec",
    "ModuleKind",
    "ModuleSpec",
    "NodeKind",
    "NodeSpec",
    "NotCond",
    "OutputSpec",
    "OutputStrategy",
    "PredicateCond",
    "Program",
    "ProviderToolSpec",
    "RetryPolicy",
    "START",
    "SchemaSpec",
    "SourceRef",
    "SourceSpan",
    "StoreKind",
    "StoreSpec",
    "TraceSpec",
    "ToolSpec",
    "TypeSpec",
    "dump_json",
    "trusted_build",
]
