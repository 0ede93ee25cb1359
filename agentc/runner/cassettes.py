"""`--record FILE` / `--replay FILE`: the run's models saved to, or served from, cassettes.

Input: the command line and the graph being run. Output: `cassette_source(args, root)` → a
model source for `agentc.stdlib.agent.model_source` (None without either option). The
agent run here uses FILE; another agent it calls as a tool (H1) uses FILE with that agent's
name before the suffix (`run.jsonl` → `run.helper.jsonl`). Invariants: recording wraps the
real model (keys are never written); replaying never builds one (no network, no key).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import agentc.ir as ir
    from agentc.stdlib.agent import ModelSource
    from agentc.stdlib.providers.base import ChatModel


def cassette_path(path: str, graph: str, root: str) -> Path:
    """The cassette of `graph`: FILE itself for the root, `FILE-stem.graph.suffix` else."""
    p = Path(path)
    return p if graph == root else p.with_name(f"{p.stem}.{graph}{p.suffix}")


def cassette_source(args: argparse.Namespace, root: ir.Graph) -> ModelSource | None:
    """The model source `--record` or `--replay` asks for, or None without either."""
    path: str | None = args.record or args.replay
    if path is None:
        return None
    recording = bool(args.record)

    def source(graph: str, spec: ir.ModelSpec, make: Callable[[], ChatModel]) -> ChatModel:
        from agentc.stdlib.providers.cassette import Recording, Replaying

        where = cassette_path(path, graph, root.name)
        return Recording(make(), where) if recording else Replaying(where)

    return source
