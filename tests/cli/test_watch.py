"""`agentc check --watch` and `agentc run --watch`: a real `agentc` process watching a temp
copy of an example while the test edits it. Each step waits for the output line that proves
it (the watcher prints `-- watching …` only after it has looked at the files, so an edit
made after that line is always seen); the timeout is a hang guard, not a speed bound."""

from __future__ import annotations

import os
import queue
import shutil
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from agentc.watch import dependencies

ROOT = Path(__file__).resolve().parents[2]
HANG_GUARD_S = 120.0  # only so that a broken watcher fails instead of hanging the suite

SUBTRACT = '''

def subtract(a: int, b: int) -> int:
    """Subtract b from a."""
    return a - b
'''


class Watcher:
    """An `agentc … --watch` process; its stdout and stderr read as one stream of lines."""

    def __init__(self, cwd: Path, *args: str) -> None:
        env = {**os.environ, "AGENTC_NO_IR_CACHE": "1", "NO_COLOR": "1"}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "agentc", *args],
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env=env,
            start_new_session=True,  # its own process group, as a terminal's foreground job
        )
        self.seen: list[str] = []
        self._lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self._lines.put(line.rstrip("\n"))
        self._lines.put(None)

    def until(self, text: str) -> list[str]:
        """The lines printed from here up to and including the first that holds `text`."""
        got: list[str] = []
        while True:
            line = self._lines.get(timeout=HANG_GUARD_S)
            assert line is not None, f"exited before printing {text!r}:\n" + "\n".join(self.seen)
            self.seen.append(line)
            got.append(line)
            if text in line:
                return got

    def interrupt(self, *, whole_group: bool = False) -> int:
        """SIGINT to the watcher (or, as a terminal's Ctrl-C does, to its whole process group,
        children included): the exit code, once every line is read."""
        if whole_group:
            os.killpg(self.proc.pid, signal.SIGINT)
        else:
            self.proc.send_signal(signal.SIGINT)
        while (line := self._lines.get(timeout=HANG_GUARD_S)) is not None:
            self.seen.append(line)
        return self.proc.wait(timeout=HANG_GUARD_S)


def calculator(tmp_path: Path) -> Path:
    for name in ("calculator.agent", "tools.py"):
        shutil.copy(ROOT / "examples" / name, tmp_path)
    return tmp_path / "calculator.agent"


def test_check_runs_again_when_the_file_or_a_used_module_is_saved(tmp_path: Path) -> None:
    agent = calculator(tmp_path)
    w = Watcher(tmp_path, "check", "--watch", "calculator.agent")
    try:
        assert "calculator.agent: ok" in w.until("-- watching 2 files")
        agent.write_text(agent.read_text().replace("tools.add]", "tools.subtract]"))
        again = w.until("-- watching")
        assert again[0].startswith("-- calculator.agent changed: agentc check again")
        assert any("error[unknown-attr]: `tools` has no `subtract`" in line for line in again)
        with (tmp_path / "tools.py").open("a") as tools:
            tools.write(SUBTRACT)
        again = w.until("-- watching")
        assert again[0].startswith("-- tools.py changed: agentc check again")
        assert "calculator.agent: ok" in again
    finally:
        code = w.interrupt()
    assert code == 0
    assert w.seen[-1] == "-- stopped watching"
    assert not any("Traceback" in line for line in w.seen)


def test_a_broken_or_deleted_file_is_reported_and_watched_on(tmp_path: Path) -> None:
    agent = calculator(tmp_path)
    good = agent.read_text()
    w = Watcher(tmp_path, "check", "--watch", "--format", "short", "calculator.agent")
    try:
        w.until("-- watching")
        agent.write_text("agentc 1\nagent {\n")
        again = w.until("-- watching")
        assert any(line.startswith("calculator.agent:2:7: error[syntax]") for line in again)
        agent.unlink()
        assert w.until("waiting")[-1] == "-- calculator.agent is gone; waiting for it to come back"
        agent.write_text(good.replace("careful calculator", "careful, exact calculator"))
        again = w.until("-- watching")
        assert again[0].startswith("-- calculator.agent changed: agentc check again")
        assert not any("error" in line for line in again)  # clean again: short prints nothing
    finally:
        code = w.interrupt()
    assert code == 0
    assert not any("Traceback" in line for line in w.seen)


def test_run_starts_a_fresh_process_so_an_edited_tool_is_imported_anew(tmp_path: Path) -> None:
    calculator(tmp_path)
    tools = tmp_path / "tools.py"
    tools.write_text(tools.read_text().replace("return a + b", "return a + b  # first"))
    w = Watcher(tmp_path, "run", "--watch", "calculator.agent", "--input", "add 2 and 3")
    try:
        assert "tool add: 5" in w.until("-- watching 2 files")
        tools.write_text(tools.read_text().replace("return a + b  # first", "return a + b + 100"))
        again = w.until("-- watching")
        assert again[0].startswith("-- tools.py changed: agentc run again")
        assert "tool add: 105" in again
    finally:
        code = w.interrupt()
    assert code == 0
    assert not any("Traceback" in line for line in w.seen)


SLOW_ADD = '''
import time


def add(a: int, b: int) -> int:
    """Add two integers, slowly."""
    print("add started", flush=True)
    time.sleep(600)
    return a + b
'''


@pytest.mark.parametrize("whole_group", [True, False], ids=["terminal", "watcher-only"])
def test_ctrl_c_in_the_middle_of_a_run_ends_the_watch_with_exit_0(
    tmp_path: Path, whole_group: bool
) -> None:
    calculator(tmp_path)
    (tmp_path / "tools.py").write_text(SLOW_ADD)
    w = Watcher(tmp_path, "run", "--watch", "calculator.agent", "--input", "add 2 and 3")
    w.until("add started")  # the run is inside the tool now
    assert w.interrupt(whole_group=whole_group) == 0
    assert "stopped" in w.seen  # the run said it was stopped, as a run without --watch does
    assert w.seen[-1] == "-- stopped watching"
    assert not any("Traceback" in line for line in w.seen)


def test_the_watched_files_come_from_the_use_resolution(tmp_path: Path) -> None:
    (tmp_path / "shared").mkdir()
    (tmp_path / "shared" / "helpers.py").write_text(
        'def shout(text: str) -> str:\n    """Say it louder."""\n    return text.upper()\n'
    )
    (tmp_path / "shared" / "team.agent").write_text(
        'agentc 1\nuse "./helpers.py" as helpers\n\n'
        'agent helper {\n  model "scripted:replies/helper.json"\n  tools [helpers.shout]\n}\n'
    )
    (tmp_path / "main.agent").write_text(
        'agentc 1\nuse "./shared/team.agent" as team\nuse "./later.py" as later\n\n'
        'agent boss {\n  model "scripted:replies/boss.json"\n  tools [team.helper]\n}\n'
    )
    found = dependencies(tmp_path / "main.agent")
    root = tmp_path.resolve()
    assert {p.relative_to(root).as_posix() for p in found.files} == {
        "main.agent",
        "shared/team.agent",
        "shared/helpers.py",
        "later.py",  # not there yet: watched, so creating it checks again
    }
    assert not found.complete  # `later.py` is missing, so the program did not compile
    (tmp_path / "later.py").write_text("X = 1\n")
    found = dependencies(tmp_path / "main.agent")
    assert found.complete
    assert {p.relative_to(root).as_posix() for p in found.files} >= {
        "replies/boss.json",  # a reply file the compiled program names
        "later.py",
    }


def test_agentc_test_runs_again_when_the_tested_file_or_its_tools_are_saved(
    tmp_path: Path,
) -> None:
    calculator(tmp_path)
    shutil.copy(ROOT / "examples" / "calculator.test.agent", tmp_path)
    tools = tmp_path / "tools.py"
    w = Watcher(tmp_path, "test", "--watch", "calculator.test.agent")
    try:
        first = w.until("-- watching 3 files")  # the test file, the file it tests, tools.py
        assert any(line.endswith("passed in") or " passed in " in line for line in first)
        assert not any(" failed" in line for line in first)
        tools.write_text(tools.read_text().replace("return a + b", "return a + b + 100"))
        again = w.until("-- watching")
        assert again[0].startswith("-- tools.py changed: agentc test again")
        assert any(" failed" in line for line in again)  # the tool's answer is now wrong
    finally:
        code = w.interrupt()
    assert code == 0
    assert not any("Traceback" in line for line in w.seen)
