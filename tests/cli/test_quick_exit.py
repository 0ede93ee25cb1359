"""`agentc run` exits without the cyclic collector's last pass (`gc.freeze`, as `check` does),
and nothing a run saved depends on that pass: a thread saved by one process is continued by
the next."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
AS_COMMAND = (
    "import gc, sys; from agentc.cli import main; sys.argv = ['agentc', *sys.argv[1:]]; "
    "code = main(); print('frozen', gc.get_freeze_count() > 0, file=sys.stderr); "
    "sys.exit(code)"
)


def agentc(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "AGENTC_NO_IR_CACHE": "1"}
    return subprocess.run(
        [sys.executable, "-c", AS_COMMAND, *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )


def test_a_run_from_the_command_line_skips_the_last_collection(tmp_path: Path) -> None:
    shutil.copy(ROOT / "examples" / "calculator.agent", tmp_path)
    shutil.copy(ROOT / "examples" / "tools.py", tmp_path)
    done = agentc(tmp_path, "run", "calculator.agent", "--input", "add 2 and 3")
    assert done.returncode == 0, done.stderr
    assert "The answer is 5." in done.stdout
    assert "frozen True" in done.stderr


def test_a_thread_saved_before_a_quick_exit_is_continued_by_the_next_run(tmp_path: Path) -> None:
    (tmp_path / "echo.agent").write_text(
        'agentc 1\nagent echo {\n  model "scripted" { replies: ["first", "second"] }\n}\n'
    )
    one = agentc(tmp_path, "run", "echo.agent", "--thread", "t1", "--input", "hello")
    assert one.returncode == 0, one.stderr
    two = agentc(tmp_path, "run", "echo.agent", "--thread", "t1", "--input", "again", "--json")
    assert two.returncode == 0, two.stderr
    assert '"hello"' in two.stdout and '"again"' in two.stdout  # the saved turn came back
