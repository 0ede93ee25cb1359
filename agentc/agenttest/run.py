"""Running one test file's `test` blocks.

Input: a test file's path (`NAME.test.agent`, or any `.agent` file with `test` blocks) and
`update` (re-record cassettes). Output: `run_file(path)` → a `FileResult`: the file's
diagnostics when it does not check clean (nothing runs then), else one `TestResult` per
block, in file order. Each test runs its statements in order: setup (`agent`, `model`,
`replay`), then turns (`input`), answers to pauses (`decide`, consecutive ones answer one
pause together) and expectations (`expect`, every one checked; a failed one does not stop
the test, a run that fails does).
Invariants: offline — a model that is not scripted is refused unless the test replays a
cassette for it (or `--update` records one); a test's state lives in memory only.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import agentc.ir as ir
from agentc.compiler.lower.common import model_from
from agentc.compiler.pipeline import CompileResult, compile_file
from agentc.compiler.testblocks import tested_path
from agentc.dsl import ast
from agentc.dsl.diagnostics import Diagnostic
from agentc.dsl.parse import parse_file
from agentc.dsl.source import SourceFile, Span
from agentc.stdlib.agent import ModelSource
from agentc.stdlib.providers.base import ChatModel

from .decide import DecisionError, resume_value
from .expect import Failure, check
from .session import Session, fresh_modules


class OfflineError(Exception):
    """A test would reach a real model."""


@dataclass(frozen=True, slots=True)
class TestResult:
    __test__ = False  # not a pytest test class

    name: str
    span: Span
    failures: tuple[Failure, ...]
    seconds: float
    output: str = ""  # what the run printed (the user's tools and hooks), shown on failure

    @property
    def passed(self) -> bool:
        return not self.failures


@dataclass(frozen=True)
class FileResult:
    path: Path
    tests: tuple[TestResult, ...] = ()
    diagnostics: tuple[Diagnostic, ...] = ()  # errors that stopped the file (nothing ran)
    sources: dict[str, SourceFile] = field(default_factory=dict)


def compiled(path: Path) -> tuple[CompileResult, ast.Module | None, ir.Program | None]:
    """The test file's check result, its AST and the program its tests run."""
    result = compile_file(path)
    module = parse_file(path).module
    target = tested_path(path)
    if target is None or result.errors:
        return result, module, result.program
    return result, module, compile_file(target).program


def run_file(
    path: Path, update: bool = False, select: Callable[[str], bool] | None = None
) -> FileResult:
    result, module, program = compiled(path)
    sources = dict(result.sources)
    if result.errors or module is None or program is None:
        return FileResult(path, diagnostics=result.errors or result.diagnostics, sources=sources)
    tests = [t for t in module.tests if select is None or select(t.name.value)]
    base_dir = base_dir_of(path)
    return FileResult(
        path, tuple(run_test(t, program, base_dir, update) for t in tests), sources=sources
    )


def base_dir_of(path: Path) -> str:
    """The folder of the tested file: where its `use`s, `scripted:` files and cassettes are."""
    return str((tested_path(path) or path).resolve().parent)


def run_test(test: ast.TestDecl, program: ir.Program, base_dir: str, update: bool) -> TestResult:
    start = time.perf_counter()
    printed = io.StringIO()
    with fresh_modules(), contextlib.redirect_stdout(printed):
        failures = asyncio.run(_run(test, program, base_dir, update))
    seconds = time.perf_counter() - start
    return TestResult(test.name.value, test.name.span, tuple(failures), seconds, printed.getvalue())


def chosen_graph(test: ast.TestDecl, program: ir.Program, path: str) -> ir.Graph:
    from agentc.api import pick_graph

    agent = next((s for s in test.body if isinstance(s, ast.TestAgent)), None)
    return pick_graph(program, agent.name.text if agent else None, path)


async def _run(
    test: ast.TestDecl, program: ir.Program, base_dir: str, update: bool
) -> list[Failure]:
    from agentc.api import LoadError
    from agentc.runner.errors import describe_error
    from agentc.runner.session import close_provider_clients

    failures: list[Failure] = []
    try:
        graph = chosen_graph(test, program, program.source.file)
        session = Session(program, graph, base_dir, _source(test, graph, base_dir, update))
        await _statements(test, program, session, failures)
    except _Stop as stop:
        failures.append(stop.failure)
    except LoadError as exc:
        failures.append(Failure(test.name.span, str(exc)))
    except Exception as exc:  # the run failed: its paragraph, as `agentc run` prints it
        failures.append(Failure(test.name.span, "the run failed", reason=describe_error(exc)))
    finally:
        await close_provider_clients()
    return failures


class _Stop(Exception):
    def __init__(self, failure: Failure) -> None:
        self.failure = failure


async def _statements(
    test: ast.TestDecl, program: ir.Program, session: Session, failures: list[Failure]
) -> None:
    body = list(test.body)
    i = 0
    while i < len(body):
        stmt = body[i]
        if isinstance(stmt, ast.TestInput):
            await _guarded(stmt.span, session.send(_input(program, session, stmt)))
        elif isinstance(stmt, ast.TestDecide):
            group = [stmt]
            while i + 1 < len(body) and isinstance(body[i + 1], ast.TestDecide):
                i += 1
                group.append(body[i])  # type: ignore[arg-type]  # checked just above
            await _decide(session, group)
        elif isinstance(stmt, ast.TestExpect):
            failure = check(stmt, session.turn)
            if failure is not None:
                failures.append(failure)
        i += 1


async def _guarded(span: Span, run: Any) -> None:
    from agentc.runner.errors import describe_error

    try:
        await run
    except OfflineError as exc:
        raise _Stop(Failure(span, "the test would call a real model", reason=str(exc))) from None
    except Exception as exc:
        raise _Stop(Failure(span, "the run failed", reason=describe_error(exc))) from None


def _input(program: ir.Program, session: Session, stmt: ast.TestInput) -> Any:
    from agentc.compiler.typecheck import to_json
    from agentc.runner.errors import UsageError
    from agentc.runner.given import input_value

    if session.pending:
        raise _Stop(Failure(stmt.span, "the run is paused: answer it with `decide` first"))
    value = to_json(stmt.value)
    text, channels = (value, None) if isinstance(value, str) else (None, value)
    try:
        return input_value(program, session.graph, text, channels, {}, resuming=False)
    except UsageError as exc:
        raise _Stop(Failure(stmt.value.span, "the input does not fit", reason=str(exc))) from None


async def _decide(session: Session, group: list[ast.TestDecide]) -> None:
    if not session.pending:
        raise _Stop(Failure(group[0].span, "nothing to decide: the run is not paused"))
    try:
        answer = resume_value(session.pending, [d.decision for d in group])
    except DecisionError as exc:
        raise _Stop(Failure(group[0].span, str(exc))) from None
    await _guarded(group[0].span, session.resume(answer))


def _source(test: ast.TestDecl, graph: ir.Graph, base_dir: str, update: bool) -> ModelSource:
    """Where the run's models come from: the test's `model`, its cassette, or the file's
    own scripted models; never a real provider unless recording (`--update`)."""
    from agentc.runner.cassettes import cassette_path
    from agentc.stdlib.models import resolve_model
    from agentc.stdlib.providers.cassette import Recording, Replaying

    replay = next((s for s in test.body if isinstance(s, ast.TestReplay)), None)
    overrides = {
        graph.name if s.node is None else f"{graph.name}.{s.node.text}": model_from(
            s.spec, s.options, s.span
        )
        for s in test.body
        if isinstance(s, ast.TestModel)
    }
    made: dict[str, ChatModel] = {}  # the graph's model: one for all its model nodes

    def source(name: str, spec: ir.ModelSpec, make: Callable[[], ChatModel]) -> ChatModel:
        key = name if name in overrides else None  # the agent's, or `graph.node`'s own
        if key is None and name.startswith(f"{graph.name}.") and graph.name in overrides:
            key = graph.name  # a model node of the graph, which says one model for all
        if key is not None:
            if key not in made:
                made[key] = resolve_model(overrides[key], base_dir)
            return made[key]
        if replay is not None:
            where = Path(base_dir) / cassette_path(replay.path.value, name, graph.name)
            return Recording(make(), where) if update else Replaying(where)
        if spec.provider != "scripted":
            raise OfflineError(
                f'`{name}` uses `{spec.spec}`; give the test `model "scripted" {{ replies: '
                '[…] }}`, or `replay "FILE.jsonl"` (record it with `agentc test --update`)'
            )
        return make()

    return source
