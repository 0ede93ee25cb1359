"""Every run-time error code a user can meet (the runtime's, the stdlib's, a model
provider's or an MCP server's) has its own section in docs/errors.md."""

from __future__ import annotations

import importlib
import pkgutil
import re
from pathlib import Path

from agentc.runtime.errors import AgentcRuntimeError
from agentc.stdlib.providers.errors import ProviderError

DOC = Path(__file__).resolve().parents[2] / "docs" / "errors.md"


def _all_codes() -> dict[str, str]:
    """code → the class that raises it, over every module of the runtime and stdlib."""
    for package in ("agentc.runtime", "agentc.stdlib"):
        root = importlib.import_module(package)
        for info in pkgutil.walk_packages(root.__path__, f"{package}."):
            importlib.import_module(info.name)
    codes: dict[str, str] = {}
    todo: list[type[Exception]] = [AgentcRuntimeError, ProviderError]
    while todo:
        cls = todo.pop()
        codes.setdefault(cls.code, f"{cls.__module__}.{cls.__qualname__}")
        todo += cls.__subclasses__()
    return codes


def test_every_runtime_error_code_has_a_section() -> None:
    sections = set(re.findall(r"^### ([a-z0-9-]+)$", DOC.read_text(encoding="utf-8"), re.M))
    codes = _all_codes()
    missing = {code: cls for code, cls in codes.items() if code not in sections}
    assert not missing, f"add a `### code` section to docs/errors.md for: {missing}"
    stale = sections - set(codes)
    assert not stale, f"docs/errors.md documents codes nothing raises: {sorted(stale)}"


def test_codes_are_stable_slugs() -> None:
    for code in _all_codes():
        assert re.fullmatch(r"[a-z]+(-[a-z]+)*", code), code
