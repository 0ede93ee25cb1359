"""The pytest plugin: `*.test.agent` files collected, each `test` block one item.

Input: the files pytest walks. Output: an `AgentFile` per `NAME.test.agent` (a file with
errors is one failing item showing them as `agentc check` does), an `AgentTestBlock` item per
`test "…"` block, whose failure text is `agentc test`'s. Registered by the `pytest11`
entry point `agentc` (`-p no:agentc` turns it off), or by `-p agentc.agenttest.pytest_plugin`.
Invariant: importing this module imports only pytest; agentc loads on first collection.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    import agentc.ir as ir
    from agentc.dsl import ast

SUFFIX = ".test.agent"


def pytest_collect_file(parent: pytest.Collector, file_path: Path) -> pytest.Collector | None:
    if file_path.name.endswith(SUFFIX):
        return AgentFile.from_parent(parent, path=file_path)
    return None


class BlockFailed(Exception):
    """A test block's failures, as `agentc test` prints them."""


class AgentFile(pytest.File):
    def collect(self) -> Any:
        from agentc.agenttest.run import base_dir_of, compiled
        from agentc.dsl.report import render_human

        result, module, program = compiled(self.path)
        if result.errors or module is None or program is None:
            text = render_human(result.errors or result.diagnostics, result.sources)
            yield BrokenFile.from_parent(self, name="agentc check", text=text)
            return
        for test in module.tests:
            yield AgentTestBlock.from_parent(
                self,
                name=test.name.value,
                test=test,
                program=program,
                base_dir=base_dir_of(self.path),
                sources=dict(result.sources),
            )


class BrokenFile(pytest.Item):
    def __init__(self, *, text: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.text = text
        self.funcargs: dict[str, Any] = {}  # plugins that wrap test calls look for it

    def runtest(self) -> None:
        raise BlockFailed(self.text)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        return self.text

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, "agentc check"


class AgentTestBlock(pytest.Item):
    def __init__(
        self,
        *,
        test: ast.TestDecl,
        program: ir.Program,
        base_dir: str,
        sources: dict[str, Any],
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.test, self.program, self.base_dir, self.sources = test, program, base_dir, sources
        self.funcargs: dict[str, Any] = {}  # plugins that wrap test calls look for it

    def runtest(self) -> None:
        from agentc.agenttest.report import failure_text
        from agentc.agenttest.run import run_test

        update = bool(self.config.getoption("agentc_update", False))
        result = run_test(self.test, self.program, self.base_dir, update)
        if result.failures:
            raise BlockFailed(
                "\n".join(failure_text(result, f, self.sources) for f in result.failures)
            )

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        if isinstance(excinfo.value, BlockFailed):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, self.test.span.start.line - 1, f"test {self.name!r}"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--agentc-update",
        action="store_true",
        dest="agentc_update",
        help="record the cassettes of *.test.agent tests again (online)",
    )
