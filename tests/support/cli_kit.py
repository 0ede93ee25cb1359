"""Builders for CLI tests: `.agent` files and tools written into a scratch directory, and
`agentc` run in a child process (for exit codes and stderr as a user sees them)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

TOOLS = '''
import time


def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


def slow_add(a: int, b: int) -> int:
    """Add two integers, slowly."""
    time.sleep(0.3)
    return a + b
'''

ADD = {"tool_calls": [{"name": "add", "args": {"a": 2, "b": 3}, "id": "c1"}]}
KEY = "sk-test-CLI-0123456789abcdefXYZ"


def agent_file(
    where: Path, model: str, tools: str = "kit.add", extra: str = "", name: str = "calc.agent"
) -> Path:
    (where / "kit.py").write_text(TOOLS)
    path = where / name
    path.write_text(
        f'agentc 1\nuse "./kit.py" as kit\n\nagent calc {{\n  {model}\n'
        f'  prompt "You are a careful calculator."\n  tools [{tools}]\n'
        f"{extra}}}\n"
    )
    return path


def scripted(*replies) -> str:
    return f'model "scripted" {{ replies: {json.dumps(list(replies))} }}'


def agentc(
    *args: str, cwd: Path, env: dict[str, str] | None = None, stdin: str = ""
) -> subprocess.CompletedProcess:
    base = {k: v for k, v in os.environ.items() if not k.endswith(("_API_KEY", "_BASE_URL"))}
    return subprocess.run(
        [sys.executable, "-m", "agentc", *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        env={**base, **(env or {})},
        timeout=60,
    )


def one_paragraph(stderr: str) -> bool:
    """A clear error: no traceback, no blank line inside, a few lines at most."""
    text = stderr.strip()
    return (
        bool(text)
        and "Traceback" not in text
        and "\n\n" not in text
        and len(text.splitlines()) <= 3
    )
