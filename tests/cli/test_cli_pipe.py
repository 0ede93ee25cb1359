"""A reader that stops early (`agentc ir big.agent | head -1`) ends the command quietly:
no traceback, the shell's exit status for a closed pipe."""

from __future__ import annotations

import subprocess
import sys


def test_a_closed_pipe_is_not_a_traceback(tmp_path):
    # enough nodes that the IR outgrows any pipe buffer: the write must meet the closed pipe
    nodes = "\n".join(f"  node n{i} = python(steps.step)" for i in range(400))
    edges = "\n".join(f"  edge n{i} -> n{i + 1}" for i in range(399))
    (tmp_path / "steps.py").write_text("def step(state):\n    return None\n", encoding="utf-8")
    big = tmp_path / "big.agent"
    big.write_text(
        'agentc 1\nuse "./steps.py" as steps\ngraph big {\n'
        f"{nodes}\n  edge START -> n0\n{edges}\n  edge n399 -> END\n}}\n",
        encoding="utf-8",
    )
    cmd = [sys.executable, "-m", "agentc", "ir", str(big)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.readline()
    proc.stdout.close()  # as `head -1` does after its line
    err = proc.stderr.read().decode()
    code = proc.wait(timeout=120)
    assert first.strip() == b"{"
    assert "Traceback" not in err and "BrokenPipeError" not in err, err
    assert code == 141
