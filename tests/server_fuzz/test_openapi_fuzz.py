"""Property-based fuzzing of `agentc serve` against its own `/openapi.json` (schemathesis).

Every operation of the document gets generated requests — `positive` ones that follow
its schemas, `negative` ones that break them (a wrong type, a missing field) — half of
them naming the real thread and a real assistant, so they reach past "not found" into
state, history and runs — and every answer must: not be a 5xx (`not_a_server_error`:
bad input is a 4xx that names what was wrong, never a crash), have a status the document
lists for that operation, have the content type it lists, and match the schema it lists
for that status.

In negative mode only operations with a body or a query are fuzzed (a path parameter is
a plain string: nothing breaks it), and each must send its cases: an operation of which
no case could be drawn fails rather than passing untested.

The budget is fixed and the draws derandomized, so CI sends the same requests each run:
`EXAMPLES` per operation and mode here, `FULL` in the `slow`-marked test (`pytest -m
slow`, or AGENTC_FULL_PROPERTY=1). Every operation is fuzzed even after one fails; the
failure lists each failing operation with schemathesis's account of it (the check, the
answer, and a curl line that repeats it).
"""

from __future__ import annotations

import pytest

pytest.importorskip(
    "schemathesis", reason="the API fuzzer needs schemathesis (pip install schemathesis==4.15.2)"
)

import httpx
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from schemathesis import APIOperation, BaseSchema, Case
from schemathesis.checks import not_a_server_error
from schemathesis.core.result import Err
from schemathesis.generation import GenerationMode
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)
from serve_kit import Served

EXAMPLES = 10
FULL = 150
REQUEST_TIMEOUT_S = 30.0  # hang guard: an answer slower than this is a failure, not a wait
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]
MODES = [GenerationMode.POSITIVE, GenerationMode.NEGATIVE]
# Requests to a real server are slow next to Hypothesis's in-process draws, and most
# generated bodies are large: neither is a problem here.
SLOW_IS_FINE = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much,
                HealthCheck.large_base_example]  # fmt: skip
# Assistants whose runs end at once (no naps, no 400-step loop), so a generated run that
# happens to name a real one finishes well inside the hang guard.
QUICK_ASSISTANTS = ("calculator", "quick", "memo", "post")


def _with_real_ids(case: Case, thread_id: str, assistant: str, use: bool) -> Case:
    """Half the cases name a real thread and a real assistant where the operation takes
    one, so the fuzzer reaches past the 404 of an unknown id into state, history and runs."""
    if not use:
        return case
    if isinstance(case.path_parameters, dict) and "thread_id" in case.path_parameters:
        case.path_parameters["thread_id"] = thread_id
    if isinstance(case.path_parameters, dict) and "assistant_id" in case.path_parameters:
        case.path_parameters["assistant_id"] = assistant
    if isinstance(case.body, dict) and "assistant_id" in case.body:
        case.body["assistant_id"] = assistant
    return case


def _operations(api: BaseSchema) -> list[APIOperation]:
    ops = []
    for result in api.get_all_operations():
        if isinstance(result, Err):
            pytest.fail(f"schemathesis cannot read an operation of the document: {result.err()}")
        ops.append(result.ok())
    return ops


def _path_names(operation: APIOperation) -> list[str]:
    return list(operation.path_parameters.schema["properties"])


def breakable(operation: APIOperation) -> bool:
    """Whether a negative case exists: a body, or a query parameter, to break. A path
    parameter is a plain string, which any value satisfies, so it cannot be broken."""
    query = operation.query.schema["properties"] if operation.query else {}
    return bool(operation.body) or bool(query)


# Any text a URL path segment can carry (quoted on the way out), including none of the ids
# the server knows: an unknown id must be a 404, whatever its characters.
SEGMENT = st.text(st.characters(exclude_categories=("Cs",)), min_size=1, max_size=40)


def _path_values(operation: APIOperation, thread_id: str) -> st.SearchStrategy[dict[str, str]]:
    real = {"thread_id": st.just(thread_id), "assistant_id": st.sampled_from(QUICK_ASSISTANTS)}
    names = _path_names(operation)
    return st.fixed_dictionaries({n: (real[n] | SEGMENT) if n in real else SEGMENT for n in names})


def _cases(operation: APIOperation, mode: GenerationMode, thread_id: str) -> st.SearchStrategy:
    if mode is GenerationMode.NEGATIVE and _path_names(operation):
        # schemathesis 4.15 rejects every negative case of an operation whose path has a
        # plain string parameter (it tries to break the path first and cannot), so the
        # path's values are drawn here and only the body and query are broken.
        return _path_values(operation, thread_id).flatmap(
            lambda path: operation.as_strategy(generation_mode=mode, path_parameters=path)
        )
    return st.builds(
        _with_real_ids,
        operation.as_strategy(generation_mode=mode),
        st.just(thread_id),
        st.sampled_from(QUICK_ASSISTANTS),
        st.booleans(),
    )


def _fuzz_one(
    operation: APIOperation, mode: GenerationMode, examples: int, thread_id: str
) -> str | None:
    """Fuzz one operation; None when every answer passed, else schemathesis's account."""
    sent = 0

    @settings(
        max_examples=examples,
        derandomize=True,
        database=None,
        deadline=None,
        phases=[Phase.explicit, Phase.generate, Phase.shrink],
        suppress_health_check=SLOW_IS_FINE,
    )
    @given(case=_cases(operation, mode, thread_id))
    def check(case: Case) -> None:
        nonlocal sent
        sent += 1
        case.call_and_validate(checks=CHECKS, timeout=REQUEST_TIMEOUT_S)

    try:
        check()
    except Unsatisfiable:
        return f"{operation.label} ({mode.value}): no case could be drawn, nothing was sent"
    except (Exception, BaseExceptionGroup) as exc:  # kept: every other operation still runs
        return f"{operation.label} ({mode.value}):\n{exc}"
    if sent == 0:
        return f"{operation.label} ({mode.value}): nothing was sent"
    return None


def _fuzz_all(api: BaseSchema, mode: GenerationMode, examples: int, thread_id: str) -> None:
    ops = _operations(api)
    if mode is GenerationMode.NEGATIVE:  # an operation with nothing to break has no such case
        ops = [op for op in ops if breakable(op)]
    failures = [f for op in ops if (f := _fuzz_one(op, mode, examples, thread_id))]
    assert not failures, f"{len(failures)} operation(s) failed:\n\n" + "\n\n".join(failures)


@pytest.mark.parametrize("mode", MODES, ids=[m.value for m in MODES])
def test_every_operation_answers_as_documented(
    api_schema: BaseSchema, mode: GenerationMode, real_thread: str
) -> None:
    _fuzz_all(api_schema, mode, EXAMPLES, real_thread)


@pytest.mark.slow
@pytest.mark.parametrize("mode", MODES, ids=[m.value for m in MODES])
def test_every_operation_answers_as_documented_at_length(
    api_schema: BaseSchema, mode: GenerationMode, real_thread: str
) -> None:
    _fuzz_all(api_schema, mode, FULL, real_thread)


def test_the_document_covers_every_route(api_schema: BaseSchema) -> None:
    """The fuzzer saw the whole API: an empty or truncated document would pass vacuously."""
    labels = {op.label for op in _operations(api_schema)}
    assert len(labels) >= 40, sorted(labels)
    assert "POST /threads/{thread_id}/runs/wait" in labels
    # ... and negative cases reach every operation with a body or a query to break
    broken = {op.label for op in _operations(api_schema) if breakable(op)}
    assert len(broken) >= 25, sorted(broken)
    assert "PATCH /threads/{thread_id}" in broken


# A run that really starts, through each operation that starts one: random bodies reach a
# 200 here only by luck, and a run's answer (JSON, or the events of a stream) is where the
# document has the most to describe.
RUN = {"assistant_id": "quick", "input": {"messages": [{"role": "user", "content": "hi"}]}}
RUN_OPERATIONS = [
    "POST /runs/wait",
    "POST /runs/stream",
    "POST /threads/{thread_id}/runs/wait",
    "POST /threads/{thread_id}/runs/stream",
    "POST /threads/{thread_id}/runs",
]


@pytest.mark.parametrize("label", RUN_OPERATIONS)
def test_a_real_run_answers_as_documented(
    api_schema: BaseSchema, fuzzed: Served, label: str
) -> None:
    operation = api_schema.find_operation_by_label(label)
    assert operation is not None, f"the document lacks {label}"
    # a thread of its own: the fuzzing may have deleted or filled the shared one
    thread = httpx.post(fuzzed.url + "/threads", json={}, timeout=30).json()["thread_id"]
    path = {"thread_id": thread} if "{thread_id}" in label else None
    case = operation.Case(path_parameters=path, body=dict(RUN), media_type="application/json")
    response = case.call_and_validate(checks=CHECKS, timeout=REQUEST_TIMEOUT_S)
    assert response.status_code == 200, response.text
