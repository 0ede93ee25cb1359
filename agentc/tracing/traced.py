"""Tracing a compiled graph: the observer the runtime hands each top-level run to.

Input: a `CompiledGraph` (any graph `agentc.load` or `agentc run` binds), a tracer provider
(None: OpenTelemetry's global one) and whether spans carry contents. Output: `instrument`
sets the graph's `observer` (runtime/observe.py) and returns the graph; each run then adds
the `events` mode (and `debug`, for hook and node spans and checkpoint ids) to what its
caller asked for, tees the sink to a `RunRecorder` (the caller still sees only its own
modes) and runs inside the run's span's context, so spans a tool or node makes with
OpenTelemetry nest under it; the records go to the provider's `ship.Shipper` (or
`ship.Replay` for a tracer that is not the SDK's). Invariants: nothing changes for a graph
that is not instrumented; a nested run is traced by its parent's recorder; a run the
sampler drops records nothing.
"""

from __future__ import annotations

from dataclasses import fields
from operator import attrgetter
from typing import Any

from opentelemetry import context, trace
from opentelemetry.trace import Tracer, TracerProvider

from agentc.runtime.compiled import CompiledGraph
from agentc.runtime.executor import Outcome, RunSpec
from agentc.runtime.observe import RunFn
from agentc.runtime.types import StreamMode
from agentc.version import __version__

from .config import content_wanted
from .content import Redactor
from .facts import ProgramFacts
from .recorder import RunInfo, RunRecorder
from .records import Ids
from .ship import outlet_for
from .templates import Templates

CALLS = frozenset({StreamMode.EVENTS})
# `debug` too where it tells something: hook and node spans, and checkpoint ids
STEPS = frozenset({StreamMode.EVENTS, StreamMode.DEBUG})
SCOPE = "agentc"


class Tracing:
    """The observer of one compiled graph's runs."""

    def __init__(self, compiled: CompiledGraph, tracer: Tracer, content: bool) -> None:
        self.tracer = tracer
        self.ids = Ids(tracer)
        self.outlet = outlet_for(tracer)
        self.program = ProgramFacts(compiled.program)
        facts = self.program.of(compiled.name)
        assert facts is not None, "a compiled graph is a graph of its program"
        self.facts = facts
        self.redactor = Redactor.of(compiled) if content else None
        self.steps = bool(facts.hooks) or not facts.is_agent  # spans of their own
        self.templates = Templates()  # shared by every run of the graph

    async def observe(self, value: Any, spec: RunSpec, run: RunFn) -> Outcome:
        streaming = StreamMode.MESSAGES in spec.modes
        run_id = spec.config.metadata.get("run_id")
        run_id = run_id if isinstance(run_id, str) else None
        info = RunInfo(self.facts, spec.config.thread_id, streaming, self.redactor, run_id)
        recorder = RunRecorder(self.ids, self.program, info, self.templates, self.outlet)
        recorder.start(value)
        if not recorder.recording:  # sampled out: only the context, for the run's own spans
            token = context.attach(recorder.root_context)
            try:
                return await run(spec)
            finally:
                context.detach(token)
        wanted = STEPS if self.steps or spec.checkpointer is not None else CALLS
        watched = _watched(spec, spec.modes | wanted, recorder.tee(spec.sink, spec.modes))
        token = context.attach(recorder.root_context)  # spans the run's code makes nest under it
        try:
            outcome = await run(watched)
        except BaseException as exc:
            recorder.fail(exc)
            raise
        finally:
            context.detach(token)
        recorder.done(outcome.values, outcome.paused)
        return outcome


_FIELDS = tuple(f.name for f in fields(RunSpec))
_GET, _MODES, _SINK = attrgetter(*_FIELDS), _FIELDS.index("modes"), _FIELDS.index("sink")


def _watched(spec: RunSpec, modes: frozenset[StreamMode], sink: Any) -> RunSpec:
    """`replace(spec, modes=…, sink=…)`, in a third less time (once per run)."""
    values = list(_GET(spec))
    values[_MODES], values[_SINK] = modes, sink
    return RunSpec(*values)


def instrument(
    graph: CompiledGraph,
    *,
    tracer_provider: TracerProvider | None = None,
    content: bool | None = None,
) -> CompiledGraph:
    """Trace every run of `graph` (and of the sub-agents and subgraphs it runs) from now on.

    `tracer_provider`: where spans go (None: OpenTelemetry's global provider, as set by
    `opentelemetry.trace.set_tracer_provider` or an auto-instrumentation agent).
    `content`: put messages, prompts, tool arguments and results on the spans (None: as
    `OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT` says; off by default)."""
    provider = tracer_provider or trace.get_tracer_provider()
    tracer = provider.get_tracer(SCOPE, __version__)
    wanted = content_wanted(False) if content is None else content
    graph.observer = Tracing(graph, tracer, wanted)
    return graph


def uninstrument(graph: CompiledGraph) -> None:
    """Stop tracing `graph`'s runs."""
    graph.observer = None
