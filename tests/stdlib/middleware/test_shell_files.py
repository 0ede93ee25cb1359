"""shell_tool (D17, D18), file_search (D20, D21) and model_refusal (G1), on `.agent` files."""

from __future__ import annotations

import os
import shutil

import pytest
from support.mwkit import agent, ask, call, reply

from agentc.stdlib.middleware.model_refusal import ModelRefusalError
from agentc.stdlib.middleware.shell_tool import (
    Confined,
    SandboxTools,
    ShellSetupError,
    sandbox_argv,
)


def tool_answer(a) -> str:
    """Run the agent (its script makes one tool call); the tool's answer text."""
    result = a.invoke(ask())
    [answer] = [m for m in result["messages"] if m.type == "tool"]
    return answer.content


def shell_agent(tmp_path, command: str, settings: str = ""):
    return agent(
        tmp_path,
        replies_=[reply("", call("shell", {"command": command}, "c1")), "done"],
        middleware=f"shell_tool {{ {settings} }}",
    )


# ---------------------------------------------------------------- shell_tool


def test_D17_default_shell_is_not_an_unconfined_host_shell(tmp_path):
    target = tmp_path / "escaped.txt"
    a = shell_agent(tmp_path, f"touch {target}")
    answer = tool_answer(a)
    assert not target.exists()  # the host's files are out of reach
    if shutil.which("bwrap") is None:
        assert answer.startswith("Error: command refused: no sandbox is available")
        assert 'execution: \\"host\\"' in answer or 'execution: "host"' in answer


@pytest.mark.parametrize("as_root", [True, False])
def test_D17_sandbox_command_line_confines_network_files_and_env(tmp_path, as_root):
    tools = SandboxTools("/usr/bin/bwrap", "/usr/bin/prlimit", "/usr/bin/setpriv")
    job = Confined(tmp_path, ["/bin/bash"], "ls", {"K": "v"})
    argv = sandbox_argv(tools, job, as_root=as_root)
    unshared = {"--unshare-net", "--unshare-pid"} <= set(argv) or "--unshare-all" in argv
    assert unshared and {"--clearenv", "--die-with-parent", "--new-session"} <= set(argv)
    assert argv[argv.index("--cap-drop") + 1] == "ALL"  # no capability survives
    writable = [argv[i + 1] for i, a in enumerate(argv) if a == "--bind"]
    assert writable == [str(tmp_path)]  # only the workspace is writable
    assert ["--setenv", "K", "v"] == argv[argv.index("K") - 1 : argv.index("K") + 2]
    assert argv[-3:] == ["/bin/bash", "-c", "ls"]
    # never the host's root: setpriv as root, a 65534 user namespace otherwise
    assert ("--reuid=65534" in argv) is as_root and ("--disable-userns" in argv) is not as_root


@pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed")
def test_D17_sandbox_runs_in_the_workspace_only(tmp_path):
    a = shell_agent(
        tmp_path, f"echo hi > note.txt; touch {tmp_path}/escaped.txt; pwd", 'workspace_root: "ws"'
    )
    answer = tool_answer(a)
    assert (tmp_path / "ws" / "note.txt").read_text() == "hi\n"
    assert not (tmp_path / "escaped.txt").exists() and "/workspace" in answer


def test_D17_host_execution_only_when_the_file_says_so(tmp_path):
    a = shell_agent(tmp_path, "echo hi > note.txt; pwd", 'execution: "host", workspace_root: "ws"')
    answer = tool_answer(a)
    assert answer.strip() == str((tmp_path / "ws").resolve())
    assert (tmp_path / "ws" / "note.txt").read_text() == "hi\n"


def test_D18_shell_sees_no_host_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("AGENTC_TEST_SECRET", "s3cret")
    a = shell_agent(tmp_path, 'echo "[$AGENTC_TEST_SECRET]"', 'execution: "host"')
    assert tool_answer(a).strip() == "[]"


def test_D18_given_env_is_used_alone(tmp_path, monkeypatch):
    monkeypatch.setenv("AGENTC_TEST_SECRET", "s3cret")
    a = shell_agent(
        tmp_path,
        'echo "[$AGENTC_TEST_SECRET][$GREETING]"',
        'execution: "host", env: { GREETING: "hello" }',
    )
    assert tool_answer(a).strip() == "[][hello]"


def test_D17_exit_code_and_timeout_are_reported(tmp_path):
    a = shell_agent(tmp_path, "echo out; exit 3", 'execution: "host"')
    assert tool_answer(a) == "out\n\n[exit code 3]"
    slow = shell_agent(tmp_path, "sleep 5", 'execution: "host", timeout: 200ms')
    assert "timed out after 0.2 s" in tool_answer(slow)


def test_D17_failing_startup_command_stops_the_run(tmp_path):
    a = shell_agent(tmp_path, "true", 'execution: "host", startup_commands: ["exit 4"]')
    with pytest.raises(ShellSetupError, match="startup command `exit 4` failed"):
        a.invoke(ask())


# ---------------------------------------------------------------- file_search


@pytest.fixture
def tree(tmp_path):
    root = tmp_path / "root"
    (root / "sub").mkdir(parents=True)
    (root / "a.py").write_text("needle = 1\nother\n")
    (root / "sub" / "b.py").write_text("x\nneedle()\nneedle again\n")
    (root / ".env").write_text("needle=SECRET\n")
    (root / "big.txt").write_text("needle\n" + "x" * 2_000_000)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.py").write_text("needle outside\n")
    os.symlink(outside, root / "link")
    return tmp_path


def search(tmp, name: str, args: dict, settings: str = 'root_path: "root"') -> str:
    a = agent(
        tmp,
        replies_=[reply("", call(name, args, "c1")), "done"],
        middleware=f"file_search {{ {settings} }}",
    )
    return tool_answer(a)


def test_D20_path_outside_the_root_is_refused_not_an_empty_result(tree):
    answer = search(tree, "grep_search", {"pattern": "needle", "path": "/../outside"})
    assert answer.startswith("Error: path `/../outside` is refused")
    answer = search(tree, "glob_search", {"pattern": "../outside/*.py"})
    assert answer.startswith("Error: pattern `../outside/*.py` is refused")
    assert search(tree, "glob_search", {"pattern": "*.py", "path": "~"}).startswith("Error:")


def test_D20_a_link_leading_outside_is_left_out_and_said(tree):
    answer = search(tree, "glob_search", {"pattern": "link/*.py"})
    assert answer.startswith("No files found")
    assert "1 match(es) outside the searchable folder were refused" in answer


def test_D21_content_search_skips_hidden_and_large_files(tree):
    answer = search(
        tree,
        "grep_search",
        {"pattern": "needle", "output_mode": "content"},
        'root_path: "root", max_file_size_mb: 1',
    )
    assert answer.splitlines() == [
        "/a.py:1:needle = 1",
        "/sub/b.py:2:needle()",
        "/sub/b.py:3:needle again",
    ]


def test_D21_hidden_files_only_when_the_file_says_so(tree):
    answer = search(
        tree,
        "grep_search",
        {"pattern": "needle", "output_mode": "count"},
        'root_path: "root", include_hidden: true',
    )
    assert "/.env:1" in answer.splitlines() and "/big.txt:1" in answer.splitlines()


def test_D20_glob_and_grep_answer_with_virtual_paths(tree):
    assert search(tree, "glob_search", {"pattern": "**/*.py"}).splitlines().count("/sub/b.py") == 1
    assert search(
        tree, "grep_search", {"pattern": "needle", "include": "*.{py,txt}"}
    ).splitlines() == ["/a.py", "/big.txt", "/sub/b.py"]
    assert search(tree, "grep_search", {"pattern": "("}).startswith("Invalid regex pattern")


# ---------------------------------------------------------------- model_refusal


def test_G1_model_refusal_turns_a_refusal_into_an_error(tmp_path):
    refused = {"content": [{"type": "refusal", "refusal": "I can't help with that."}]}
    a = agent(tmp_path, replies_=[refused], middleware="model_refusal")
    with pytest.raises(ModelRefusalError, match="I can't help with that."):
        a.invoke(ask())
    plain = agent(tmp_path, replies_=["fine"], middleware="model_refusal")
    assert plain.invoke(ask())["messages"][-1].content == "fine"
