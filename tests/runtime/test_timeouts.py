"""Every timeout ends the run and the command (F2): a step timeout over a sync tool that
blocks for ever, over a tool that proved cheap and then blocks, and a tool's own timeout
(`@tool(timeout=…)`), which the model is told about as a tool error while the run goes on.

Hangs are the failure here, so each run that could hang runs in a subprocess with a 60 s
guard; the blocked threads die with it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import agentc
from agentc.stdlib.agent.spec import AgentSetupError
from agentc.stdlib.messages import ToolMessage

GUARD_S = 60  # a hang guard, not a speed bound
CUT_AT_300MS = "limits { step_timeout: 300ms }"

PLAIN = '''
import os
import threading
from pathlib import Path

NEVER = threading.Event()
LOG = Path(os.environ.get("TIMEOUTS_LOG", os.devnull))
CALLS = {"flip": 0}


def note(text):
    with LOG.open("a") as f:
        f.write(text + "\\n")


def block(x: int) -> str:
    """Blocks until the process ends."""
    NEVER.wait()
    return "never"


def quick(x: int) -> str:
    """Answers at once."""
    note(f"quick {x}")
    return f"quick {x}"


def flip(x: int) -> str:
    """Cheap three times (it proves cheap), then blocks for ever."""
    CALLS["flip"] += 1
    if CALLS["flip"] > 3:
        NEVER.wait()
    return "ok"
'''

TIMED = '''
import asyncio
import os
import time
from pathlib import Path

from agentc.stdlib.tools import tool

LOG = Path(os.environ.get("TIMEOUTS_LOG", os.devnull))


def note(text):
    with LOG.open("a") as f:
        f.write(text + "\\n")


@tool(timeout=0.3)
def slow(x: int) -> str:
    """A sync tool that outlives its timeout."""
    time.sleep(30)
    note("slow finished")
    return "late"


@tool(timeout=0.3)
async def slow_async(x: int) -> str:
    """An async tool that outlives its timeout: it is cancelled."""
    try:
        await asyncio.sleep(30)
    except asyncio.CancelledError:
        note("slow_async cancelled")
        raise
    return "late"


@tool(timeout=5)
def in_time(x: int) -> str:
    """Answers well within its timeout."""
    return f"in time {x}"
'''


def _call(name: str, n: int = 0) -> str:
    return f'{{ name: "{name}", args: {{ x: {n} }}, id: "c{n}_{name}" }}'


def _agent(
    tmp_path: Path, tools: str, replies: list[str], limits: str = "", module: str = PLAIN
) -> Path:
    (tmp_path / "tools.py").write_text(module)
    path = tmp_path / "a.agent"
    path.write_text(
        textwrap.dedent(
            f"""\
            use "./tools.py" as t
            agent a {{
              model "scripted" {{ replies: [{", ".join(replies)}] }}
              tools [{tools}]
              {limits}
            }}
            """
        )
    )
    return path


def _turn(*calls: str) -> str:
    return f"{{ tool_calls: [{', '.join(calls)}] }}"


def _run_cli(path: Path, *args: str, env: dict[str, str] | None = None, text: str | None = "go"):
    given = ["--input", text] if text is not None else []
    return subprocess.run(
        [sys.executable, "-m", "agentc", "run", str(path), *given, *args],
        capture_output=True,
        text=True,
        timeout=GUARD_S,
        cwd=path.parent,
        env={**os.environ, **(env or {})},
    )


# ---------------------------------------------------------------- a step timeout ends the command


CUT = "did not answer before the step's time limit (`step_timeout`) ran out"


def _invoke_in_subprocess(path: Path, env: dict[str, str] | None = None) -> dict:
    """`invoke` on the sync API in a process of its own; what it answered, as JSON. The
    process must end: a blocked worker is a daemon thread, not joined at exit."""
    script = (
        "import json, agentc\n"
        f"a = agentc.load_agent({str(path)!r})\n"
        "out = a.invoke({'messages': [{'role': 'user', 'content': 'go'}]})\n"
        "tools = [[m.tool_call_id, m.status, m.content] for m in out['messages']\n"
        "         if type(m).__name__ == 'ToolMessage']\n"
        "print(json.dumps({'tools': tools, 'last': out['messages'][-1].content}))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=GUARD_S,
        env={**os.environ, **(env or {})},
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_F2_a_step_timeout_over_a_blocking_tool_ends_agentc_run(tmp_path):
    """The step is cut at its limit and `agentc run` finishes, though the tool's thread
    still blocks (it cannot be killed): the loop's shutdown no longer waits for it, and
    the model is told the call ran out (F2)."""
    path = _agent(tmp_path, "t.block", [_turn(_call("block")), '"done"'], CUT_AT_300MS)
    done = _run_cli(path)
    assert done.returncode == 0, done.stderr
    assert CUT in done.stdout and "done" in done.stdout
    assert "Traceback" not in done.stderr


def test_F2_a_step_timeout_ends_a_sync_invoke_and_its_process(tmp_path):
    path = _agent(tmp_path, "t.block", [_turn(_call("block")), '"done"'], CUT_AT_300MS)
    out = _invoke_in_subprocess(path)
    [(call_id, status, content)] = out["tools"]
    assert (call_id, status) == ("c0_block", "error") and CUT in content
    assert out["last"] == "done"


def test_F2_a_tool_that_proved_cheap_then_blocks_cannot_hold_a_step_timeout(tmp_path):
    """Three cheap calls make a sync tool run on the loop; under a step timeout its bodies
    stay in the pool, so its fourth call, which blocks for ever, is cut at the limit."""
    turns = [_turn(_call("flip", n)) for n in range(4)] + ['"done"']
    out = _invoke_in_subprocess(_agent(tmp_path, "t.flip", turns, "limits { step_timeout: 1s }"))
    assert [t[1] for t in out["tools"]] == ["success"] * 3 + ["error"]
    assert CUT in out["tools"][-1][2] and out["last"] == "done"


def test_F2_finished_calls_of_a_cut_tools_step_keep_their_answers(tmp_path):
    """F2: the quick sibling's answer is kept (it ran once), the blocked call is answered
    as cut, and the run goes on to the model instead of failing."""
    log = tmp_path / "calls.log"
    turns = [_turn(_call("quick", 1), _call("block", 2)), '"done"']
    path = _agent(tmp_path, "t.quick, t.block", turns, "limits { step_timeout: 500ms }")
    out = _invoke_in_subprocess(path, {"TIMEOUTS_LOG": str(log)})
    assert out["tools"][0] == ["c1_quick", "success", "quick 1"]
    assert out["tools"][1][:2] == ["c2_block", "error"] and CUT in out["tools"][1][2]
    assert out["last"] == "done"
    assert log.read_text().splitlines() == ["quick 1"]


def test_F2_one_task_with_many_calls_keeps_the_finished_ones(tmp_path):
    """Without the router's Sends (a graph's `tools` node over the last AI message), one
    task runs every call: a cut keeps its finished calls' answers too."""
    (tmp_path / "tools.py").write_text(PLAIN)
    path = tmp_path / "g.agent"
    path.write_text(
        textwrap.dedent(
            f"""\
            use "./tools.py" as t
            graph g {{
              state {{ messages: messages }}
              node ask = model("scripted", tools: [t.quick, t.block], input: "go",
                               replies: [{_turn(_call("quick", 1), _call("block", 2))}])
              node run = tools([t.quick, t.block])
              edge START -> ask
              edge ask -> run
              edge run -> END
              limits {{ step_timeout: 500ms }}
            }}
            """
        )
    )
    out = _invoke_in_subprocess(path)
    assert out["tools"][0] == ["c1_quick", "success", "quick 1"]
    assert out["tools"][1][:2] == ["c2_block", "error"] and CUT in out["tools"][1][2]


# ---------------------------------------------------------------- a tool's own timeout


def _tool_messages(out: dict) -> list[ToolMessage]:
    return [m for m in out["messages"] if isinstance(m, ToolMessage)]


def test_a_tool_timeout_is_told_to_the_model_and_the_run_goes_on(tmp_path, monkeypatch):
    log = tmp_path / "calls.log"
    monkeypatch.setenv("TIMEOUTS_LOG", str(log))
    turns = [_turn(_call("slow", 1), _call("in_time", 2)), '"done"']
    agent = agentc.load_agent(str(_agent(tmp_path, "t.slow, t.in_time", turns, module=TIMED)))
    out = agent.invoke({"messages": [{"role": "user", "content": "go"}]})
    late, fine = _tool_messages(out)
    assert late.status == "error" and late.tool_call_id == "c1_slow"
    assert "the tool `slow` did not answer within 0.3 s" in late.content
    assert fine.status == "success" and fine.content == "in time 2"
    assert out["messages"][-1].content == "done"


def test_an_async_tool_that_times_out_is_cancelled(tmp_path, monkeypatch):
    log = tmp_path / "calls.log"
    monkeypatch.setenv("TIMEOUTS_LOG", str(log))
    turns = [_turn(_call("slow_async", 1)), '"done"']
    agent = agentc.load_agent(str(_agent(tmp_path, "t.slow_async", turns, module=TIMED)))
    out = agent.invoke({"messages": [{"role": "user", "content": "go"}]})
    (late,) = _tool_messages(out)
    assert late.status == "error" and "did not answer within 0.3 s" in late.content
    assert log.read_text().splitlines() == ["slow_async cancelled"]


def test_a_timed_out_sync_tool_runs_on_in_its_thread_and_its_result_is_dropped(tmp_path):
    """A running thread cannot be killed: the body finishes later, nobody reads its answer;
    `agentc run` exits without waiting for it."""
    log = tmp_path / "calls.log"
    path = _agent(tmp_path, "t.slow", [_turn(_call("slow", 1)), '"done"'], module=TIMED)
    done = _run_cli(path, env={"TIMEOUTS_LOG": str(log)})
    assert done.returncode == 0, done.stderr
    assert "did not answer within 0.3 s" in done.stdout
    assert not log.exists()  # the process ended long before the 30 s body would


@pytest.mark.parametrize("bad", ["0", "-1", "'30s'", "float('nan')", "True"])
def test_a_bad_tool_timeout_is_refused_when_the_agent_is_bound(tmp_path, bad):
    (tmp_path / "tools.py").write_text(
        "from agentc.stdlib.tools import tool\n"
        f"@tool(timeout={bad})\n"
        "def t(x: int) -> str:\n    '''A tool.'''\n    return 'x'\n"
    )
    (tmp_path / "a.agent").write_text(
        'use "./tools.py" as m\nagent a { model "scripted" { replies: ["x"] } tools [m.t] }\n'
    )
    with pytest.raises((AgentSetupError, TypeError)) as err:
        agentc.load_agent(str(tmp_path / "a.agent")).invoke({"messages": []})
    assert "expected a positive number of seconds" in str(err.value)
