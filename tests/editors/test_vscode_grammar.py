"""The TextMate grammar, run by vscode-textmate itself (the engine VS Code uses): a snapshot
of the scopes of every example and of the prelude, and the hand-written cases that pin
each construct (test/cases/*.agent). After a deliberate change to the grammar or an
example: `npm run snap:update` in editors/vscode, then read the diff of test/snapshots/."""

from __future__ import annotations

from vscode_kit import Npm


def test_snapshots_of_every_example_and_the_cases_hold(npm: Npm):
    done = npm("run", "--silent", "test:grammar")
    assert done.returncode == 0, f"{done.stdout}\n{done.stderr}"
    # Each file was compared, not silently regenerated.
    assert "Generating snapshot" not in done.stdout + done.stderr
