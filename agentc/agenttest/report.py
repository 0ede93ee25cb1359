"""How test results read: a failure with its caret, the summary line, JUnit XML.

Input: `FileResult`s (agentc/agenttest/run.py). Output: `failure_text` (which test, which
expectation, expected and got, `file:line:col` and the line with a caret, as diagnostics
read), `summary` (`3 passed, 1 failed in 0.4 s`) and `junit_xml`. The same text is what
the pytest plugin shows for a failed item.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence

from agentc.dsl.codes import Code
from agentc.dsl.diagnostics import error
from agentc.dsl.report import render_human
from agentc.dsl.source import SourceFile

from .expect import Failure
from .run import FileResult, TestResult

_HEAD = f"error[{Code.BAD_TEST.value}]: "


def failure_text(test: TestResult, failure: Failure, sources: Mapping[str, SourceFile]) -> str:
    notes = []
    if failure.expected is not None:
        notes.append(f"expected: {failure.expected}")
    if failure.got is not None:
        notes.append(f"     got: {failure.got}")
    if failure.reason is not None and (failure.got is None or "\n" in failure.reason):
        notes.append(failure.reason)
    elif failure.reason is not None:
        notes.append(f"   which: {failure.reason}")
    label = "this failed" if failure.expected is None else "expected here"
    d = error(Code.BAD_TEST, f"test `{test.name}`: {failure.message}", failure.span, label)
    rendered = render_human([d], sources).rstrip("\n").splitlines()
    lines = [ln for ln in rendered if not ln.startswith("error: ")]  # no per-file summary
    lines[0] = "FAILED " + lines[0].removeprefix(_HEAD)
    while lines and not lines[-1].strip():
        lines.pop()
    pad = " " * (next((ln.index("-->") for ln in lines if "-->" in ln), 1) + 1)
    tail = [f"{pad}|"] + [f"{pad}= {n}" for n in notes] if notes else []
    return "\n".join(lines + tail) + "\n"


def file_failures(result: FileResult) -> list[str]:
    """Every failure of a file, in order; a file that does not check, as `agentc check`."""
    if result.diagnostics:
        return [render_human(result.diagnostics, result.sources)]
    out = []
    for t in result.tests:
        out += [failure_text(t, f, result.sources) for f in t.failures]
        if t.failures and t.output:
            out.append(f"output of test `{t.name}`:\n{t.output.rstrip()}\n")
    return out


def counts(results: Sequence[FileResult]) -> tuple[int, int, int]:
    """(passed, failed, files that did not check)."""
    tests = [t for r in results for t in r.tests]
    passed = sum(t.passed for t in tests)
    return passed, len(tests) - passed, sum(bool(r.diagnostics) for r in results)


def summary(results: Sequence[FileResult], seconds: float) -> str:
    passed, failed, broken = counts(results)
    parts = [f"{passed} passed"]
    if failed:
        parts.append(f"{failed} failed")
    if broken:
        parts.append(f"{broken} {'file' if broken == 1 else 'files'} with errors")
    if not passed and not failed and not broken:
        parts = ["no tests"]
    return f"{', '.join(parts)} in {seconds:.1f} s"


def junit_xml(results: Sequence[FileResult], seconds: float) -> str:
    passed, failed, broken = counts(results)
    suites = ET.Element(
        "testsuites",
        tests=str(passed + failed + broken),
        failures=str(failed),
        errors=str(broken),
        time=f"{seconds:.3f}",
    )
    for r in results:
        suite = ET.SubElement(
            suites,
            "testsuite",
            name=str(r.path),
            tests=str(len(r.tests) or int(bool(r.diagnostics))),
            failures=str(sum(not t.passed for t in r.tests)),
            errors=str(int(bool(r.diagnostics))),
            time=f"{sum(t.seconds for t in r.tests):.3f}",
        )
        if r.diagnostics:
            case = ET.SubElement(suite, "testcase", classname=str(r.path), name="agentc check")
            ET.SubElement(case, "error", message="the test file has errors").text = render_human(
                r.diagnostics, r.sources
            )
        for t in r.tests:
            case = ET.SubElement(
                suite, "testcase", classname=str(r.path), name=t.name, time=f"{t.seconds:.3f}"
            )
            for f in t.failures:
                ET.SubElement(case, "failure", message=f.message).text = failure_text(
                    t, f, r.sources
                )
    ET.indent(suites)
    return ET.tostring(suites, encoding="unicode", xml_declaration=True) + "\n"
