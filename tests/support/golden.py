"""Golden-file comparison for the review tools: AGENTC_UPDATE_GOLDEN=1 (or --update-golden
where the root conftest defines it) rewrites the expected files; reviewers read the diff."""

from __future__ import annotations

import os
from pathlib import Path

GOLDEN = Path(__file__).resolve().parents[1] / "review" / "golden"


def updating(request) -> bool:
    try:
        flag = request.config.getoption("--update-golden")
    except (ValueError, AttributeError):
        flag = False
    return bool(flag) or os.environ.get("AGENTC_UPDATE_GOLDEN") == "1"


def check_golden(request, name: str, actual: str) -> None:
    path = GOLDEN / name
    if updating(request):
        path.write_text(actual, encoding="utf-8")
        return
    assert path.exists(), f"missing golden file {path}: run with AGENTC_UPDATE_GOLDEN=1"
    assert actual == path.read_text(encoding="utf-8"), f"{name} differs from its golden file"
