"""The sandbox escape suite (D17): every attack in `sandbox_attacks.ATTACKS` runs in a real
bubblewrap sandbox, as root and as an unprivileged user, and the host must show nothing.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from sandbox_attacks import ATTACKS, Host, escapes

from agentc.stdlib.middleware.sandbox import SANDBOX_UID
from agentc.stdlib.middleware.shell_tool import ShellTool

DRIVER = Path(__file__).with_name("sandbox_driver.py")
TIMEOUT = 20.0  # per command; a hang guard, not a speed bound

pytestmark = pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed")


def run_in_process(host: Host) -> Iterator[str]:
    tool = ShellTool(workspace_root=str(host.workspace), timeout=TIMEOUT)
    return (tool.run(attack.render(host)).text() for attack in ATTACKS)


def run_as(uid: int, host: Host) -> Iterator[str]:
    """All attacks in one driver process as `uid` (its checks then see them together)."""
    job = {
        "workspace": str(host.workspace),
        "timeout": TIMEOUT,
        "commands": [attack.render(host) for attack in ATTACKS],
    }
    done = subprocess.run(
        [sys.executable, str(DRIVER)],
        input=json.dumps(job),
        capture_output=True,
        text=True,
        user=uid,
        group=uid,
        extra_groups=[],
        env={"PATH": os.environ["PATH"], "AGENTC_ESCAPE_SECRET": host.secret},
        cwd="/",
        timeout=60 + TIMEOUT * len(ATTACKS),
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return iter(json.loads(done.stdout))


def assert_no_escape(host: Host, answers: Iterator[str]) -> None:
    # The socket, ptrace and terminal attacks are python3 programs: without python3 in
    # the sandbox they would pass without trying.
    assert Path("/usr/bin/python3").exists(), "the escape suite needs /usr/bin/python3"
    found: dict[str, list[str]] = {}
    for attack in ATTACKS:
        answer = next(answers)
        assert not answer.startswith("Error: command refused"), answer  # it must really run
        if what := escapes(host, attack, answer):
            found[attack.name] = what
        host.clean()
    assert found == {}, f"{len(found)} escape(s) of {len(ATTACKS)} attacks: {found}"


def unprivileged_refusal() -> str | None:
    """Why the suite cannot run as a normal user here, or None."""
    user = SANDBOX_UID if os.geteuid() == 0 else None
    probe = ["bwrap", "--unshare-user", "--uid", "1", "--ro-bind", "/", "/", "true"]
    done = subprocess.run(probe, capture_output=True, text=True, user=user, check=False)
    if done.returncode != 0:
        return (
            "this kernel does not let an unprivileged user create a user namespace "
            f"(bwrap says: {done.stderr.strip()}), so bubblewrap cannot sandbox as a normal "
            "user here; the root run covers every attack"
        )
    if user is None:
        return None
    probe = [sys.executable, "-c", "import agentc.stdlib.middleware.shell_tool"]
    try:  # an interpreter the user may not even execute fails in Popen, not with a code
        done = subprocess.run(
            probe, capture_output=True, text=True, user=user, cwd="/", check=False
        )
        why = done.stderr.strip()[-200:] if done.returncode != 0 else None
    except OSError as e:
        why = str(e)
    if why is not None:
        return (
            f"uid {user} cannot run this checkout's Python ({why}); "
            "put the checkout and its virtual environment where other users can read them"
        )
    return None


@pytest.mark.skipif(os.geteuid() != 0, reason="the root run needs the tests to run as root")
def test_D17_no_escape_as_root(prepared_host):
    host = prepared_host(0)
    assert_no_escape(host, run_in_process(host))


def test_D17_no_escape_as_an_unprivileged_user(prepared_host):
    reason = unprivileged_refusal()
    if reason is not None:
        pytest.skip(reason)
    if os.geteuid() == 0:
        host = prepared_host(SANDBOX_UID)
        answers = run_as(SANDBOX_UID, host)
    else:
        host = prepared_host(os.geteuid())
        answers = run_in_process(host)
    assert_no_escape(host, answers)


@pytest.mark.skipif(os.geteuid() != 0, reason="handing the workspace over happens as root")
def test_D17_handing_the_workspace_over_follows_no_link(prepared_host):
    host = prepared_host(0)
    outside = host.base / "outside.txt"
    outside.write_text("host file\n")
    (host.workspace / "soft").symlink_to(outside)
    os.link(outside, host.workspace / "hard")
    ShellTool(workspace_root=str(host.workspace)).folder()
    assert outside.stat().st_uid == 0  # neither link gave the host file away
    assert (host.workspace / "soft").lstat().st_uid == SANDBOX_UID
    assert host.workspace.stat().st_uid == SANDBOX_UID
