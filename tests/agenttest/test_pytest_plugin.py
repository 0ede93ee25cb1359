"""The pytest plugin: `*.test.agent` files collected, each test block an item, a failure
shown as `agentc test` shows it. Run in a child pytest, as a user would run it (the
installed `pytest11` entry point loads the plugin; nothing names it)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from support import EXAMPLES


def _pytest(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",  # the plugin loads by its pytest11 entry point, as for any user
            "-p",
            "no:cacheprovider",
            "-o",
            "addopts=",
            "--rootdir",
            str(folder),
            str(folder),
            *args,
        ],
        capture_output=True,
        text=True,
        cwd=folder,
        check=False,
    )


def test_each_test_block_is_an_item_with_the_same_failure_text(tmp_path: Path) -> None:
    shutil.copy(EXAMPLES / "calculator.agent", tmp_path)
    shutil.copy(EXAMPLES / "tools.py", tmp_path)
    shutil.copy(EXAMPLES / "calculator.test.agent", tmp_path)
    (tmp_path / "wrong.agent").write_text((EXAMPLES / "calculator.agent").read_text())
    (tmp_path / "wrong.test.agent").write_text(
        'agentc 1\ntest "wrong answer" {\n  input "2+3?"\n  expect answer contains("6")\n}\n'
    )
    done = _pytest(tmp_path, "-q")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "1 failed, 2 passed" in done.stdout
    assert "FAILED test `wrong answer`: expected answer" in done.stdout
    assert "wrong.test.agent:4:17" in done.stdout
    assert "wrong.test.agent::wrong answer" in done.stdout


def test_a_test_file_with_errors_is_one_failing_item(tmp_path: Path) -> None:
    shutil.copy(EXAMPLES / "calculator.agent", tmp_path)
    shutil.copy(EXAMPLES / "tools.py", tmp_path)
    (tmp_path / "calculator.test.agent").write_text(
        'agentc 1\ntest "t" {\n  input "hi"\n  expect rout [model]\n}\n'
    )
    done = _pytest(tmp_path, "-q")
    assert done.returncode == 1
    assert "error[bad-test]: `expect rout` is not something a test can check" in done.stdout
