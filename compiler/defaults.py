"""What a block gets for a setting it does not write: the one table of defaults.

Input: nothing (constants only). Output: the step limit per kind of block, the checkpointer,
the structured-output strategy and the reducer of `messages` channels, as IR values the
lowering and the agent template use, and that review tools may read to tell a default
from a written setting.

Invariant: no other module of the compiler spells one of these values.
"""

from __future__ import annotations

import agentc.ir as ir

# F1: supersteps a run may take. An agent block gets create_agent's limit (langchain 1.4.10
# factory.py:1899 compiles with `recursion_limit` 9_999); a graph block LangGraph's default.
AGENT_STEPS = 9999
GRAPH_STEPS = 25
STEPS = {ir.GraphKind.AGENT: AGENT_STEPS, ir.GraphKind.GRAPH: GRAPH_STEPS}

CHECKPOINT = ir.CheckpointKind.NONE  # no `checkpoint` line: nothing is saved
OUTPUT_STRATEGY = ir.OutputStrategy.AUTO  # `output X` without `via`

# B3: a `messages` channel without `reduce` adds messages. model_construct: a module-level
# constant must not build the pydantic validator at import (cold start of `agentc check`).
MESSAGES_REDUCER = ir.ImportRef.model_construct(
    module="agentc.stdlib.messages", attr="add_messages", is_file=False, span=None
)


def limits(kind: ir.GraphKind) -> ir.Limits:
    """The limits of a block of `kind` without a `limits` line."""
    return ir.Limits(steps=ir.Bound(value=STEPS[kind]))


def checkpoint() -> ir.CheckpointSpec:
    """The checkpointer of a block without a `checkpoint` line."""
    return ir.CheckpointSpec(kind=CHECKPOINT)
