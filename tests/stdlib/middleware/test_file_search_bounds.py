"""file_search under hostile input (issue 12, items 9 and 15): bounded work, and every bad
pattern or path an answer to the model, never an exception that ends the run.

Searches that could hang on the unfixed code run in a child process; its generous timeout
is only a hang guard (its expiry is the failure), never a bound on speed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest
from support.mwkit import agent, ask, call, reply

from agentc.stdlib.middleware.file_search import FileSearch

HANG_GUARD = 180  # seconds


def search(tmp, name: str, args: dict, settings: str = 'root_path: "root"') -> str:
    """One tool call through a real `.agent` run; the run must finish and give the answer."""
    a = agent(
        tmp,
        replies_=[reply("", call(name, args, "c1")), "done"],
        middleware=f"file_search {{ {settings} }}",
    )
    result = a.invoke(ask())
    assert result["messages"][-1].content == "done"  # the run went on after the tool
    [answer] = [m for m in result["messages"] if m.type == "tool"]
    return answer.content


def guarded(root, tool: str, args: dict, **settings) -> str:
    """The tool's answer, computed in a child process that must end within HANG_GUARD."""
    code = textwrap.dedent(
        """
        import json, sys
        from agentc.stdlib.middleware.file_search import FileSearch
        root, tool, args, settings = json.loads(sys.argv[1])
        print(json.dumps(getattr(FileSearch(root_path=root, **settings), tool)(**args)))
        """
    )
    payload = json.dumps([str(root), tool, args, settings])
    try:
        done = subprocess.run(
            [sys.executable, "-c", code, payload],
            capture_output=True,
            text=True,
            timeout=HANG_GUARD,
            check=False,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"{tool}({args}) did not return within the {HANG_GUARD} s hang guard")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


# ---------------------------------------------------------------- item 9: bounded work


@pytest.mark.parametrize(
    "pattern", ["(a+)+$", "(a|a)*$", "(\\w*)*x", "(a?a?a?)+$", "(x+x+)+y", ".*.*.*x"]
)
def test_bounds_catastrophic_regex_is_refused_not_run(tmp_path, pattern):
    (tmp_path / "f.txt").write_text("a" * 400 + "b\n")
    answer = guarded(tmp_path, "grep_search", {"pattern": pattern})
    assert answer.startswith(f"Error: pattern `{pattern}` is refused")
    assert "exponential time" in answer


def test_bounds_ordinary_regexes_still_search(tmp_path):
    (tmp_path / "f.py").write_text("x = 1\ndef foo(a, b):\nclass Bar:\n")
    fs = FileSearch(root_path=str(tmp_path))
    assert fs.grep_search(r"^(def|class) \w+", output_mode="count") == "/f.py:2"
    assert fs.grep_search(r".*foo.*", output_mode="content") == "/f.py:2:def foo(a, b):"
    assert fs.grep_search(r"\w+ = \d", output_mode="content") == "/f.py:1:x = 1"
    assert fs.grep_search(r"foo.*b.*", output_mode="count") == "/f.py:1"
    assert fs.grep_search(r"(ab{2})+|Bar", output_mode="count") == "/f.py:1"
    assert fs.grep_search("needle", path="/missing") == "No matches found"


def test_bounds_repeated_double_star_on_a_deep_tree_returns(tmp_path):
    deep = tmp_path.joinpath(*["d"] * 60)
    deep.mkdir(parents=True)
    (deep / "end.txt").write_text("x\n")
    answer = guarded(tmp_path, "glob_search", {"pattern": "**/**/**/**/**/**/**/**/*.txt"})
    assert answer == "/" + "d/" * 60 + "end.txt"


def test_bounds_a_search_cut_by_the_entry_budget_says_so(tmp_path):
    for i in range(200):
        (tmp_path / f"f{i:03}.txt").write_text("needle\n")
    fs = FileSearch(root_path=str(tmp_path), max_entries=50)
    for answer in (fs.glob_search("**/*.txt"), fs.grep_search("needle")):
        lines = answer.splitlines()
        assert len(lines) == 51
        assert lines[-1] == (
            "(search stopped after 50 files and folders: the results are incomplete;"
            " narrow the pattern)"
        )


def test_bounds_a_search_cut_by_the_result_budget_says_so(tmp_path):
    (tmp_path / "f.txt").write_text("needle\n" * 100)
    fs = FileSearch(root_path=str(tmp_path), max_results=5)
    lines = fs.grep_search("needle", output_mode="content").splitlines()
    assert lines[:5] == [f"/f.txt:{n}:needle" for n in range(1, 6)]
    assert lines[5].startswith("(search stopped after 5 results")


def test_bounds_a_search_cut_by_its_deadline_says_so(tmp_path):
    (tmp_path / "f.txt").write_text("needle\n")
    fs = FileSearch(root_path=str(tmp_path), time_limit=1e-9)
    for answer in (fs.glob_search("*"), fs.grep_search("needle")):
        assert answer.endswith(
            "(search stopped after 1e-09 s: the results are incomplete; narrow the pattern)"
        )


def test_bounds_one_file_gets_at_most_its_share_of_time(tmp_path):
    (tmp_path / "a.txt").write_text("needle\n" * 1000)
    (tmp_path / "b.txt").write_text("needle\n")
    fs = FileSearch(root_path=str(tmp_path), file_time_limit=0)
    answer = fs.grep_search("needle", output_mode="count").splitlines()
    assert "(2 file(s) searched only for 0 s)" in answer


# ---------------------------------------------------------------- item 15: tell, not abort


@pytest.fixture
def root(tmp_path):
    r = tmp_path / "root"
    (r / "sub").mkdir(parents=True)
    (r / "sub" / "a.txt").write_text("needle\n")
    return r


def test_bad_input_a_symlink_loop_under_the_root_is_skipped(root):
    os.symlink(root / "self", root / "self")
    os.symlink(root / "l2", root / "l1")
    os.symlink(root / "l1", root / "l2")
    os.symlink(root, root / "sub" / "up")
    for tool, args in (
        ("grep_search", {"pattern": "needle"}),
        ("glob_search", {"pattern": "**/*"}),
    ):
        answer = search(root.parent, tool, args)
        assert answer.splitlines()[0] == "/sub/a.txt"
        assert "(3 unreadable link(s) or file(s) skipped)" in answer


def test_bad_input_a_1200_deep_tree_is_searched(root):
    deep = root
    try:
        for _ in range(1200):  # Path.mkdir(parents=True) recurses too deep for this
            deep = deep / "d"
            deep.mkdir()
        (deep / "deep.txt").write_text("needle\n")
        want = "/" + "d/" * 1200 + "deep.txt"
        assert want in search(root.parent, "grep_search", {"pattern": "needle"}).splitlines()
        assert search(root.parent, "glob_search", {"pattern": "**/deep.txt"}) == want
    finally:  # bottom up: pytest's recursive clean-up cannot remove a tree this deep
        (deep / "deep.txt").unlink(missing_ok=True)
        while deep != root:
            if deep.exists():
                deep.rmdir()
            deep = deep.parent


@pytest.mark.parametrize(
    ("tool", "args", "said"),
    [
        ("glob_search", {"pattern": "*.txt", "path": "/sub\x00x"}, "the path contains a NUL"),
        ("grep_search", {"pattern": "needle", "path": "/sub\x00"}, "the path contains a NUL"),
        ("glob_search", {"pattern": "*\x00.txt"}, "the pattern contains a NUL"),
        ("grep_search", {"pattern": "ne\x00edle"}, "the pattern contains a NUL"),
        ("grep_search", {"pattern": "x", "include": "*\x00"}, "the include contains a NUL"),
        ("glob_search", {"pattern": ""}, "the pattern is empty"),
        ("grep_search", {"pattern": ""}, "the pattern is empty"),
        ("glob_search", {"pattern": "*", "path": "/" + "a" * 10_000}, "the path is 10001"),
        ("grep_search", {"pattern": "x", "path": "/" + "a/" * 5_000}, "the path is 10001"),
        ("glob_search", {"pattern": "a" * 10_000}, "the pattern is 10000"),
    ],
)
def test_bad_input_is_an_error_answer(root, tool, args, said):
    assert search(root.parent, tool, args).startswith(f"Error: {said}")


def test_bad_input_a_path_just_too_long_for_the_system_is_an_error_answer(root):
    path = "/" + "b" * 300
    answer = search(root.parent, "glob_search", {"pattern": "*", "path": path})
    assert answer == f"Error: path `{path[:200]}…` cannot be searched: File name too long"


def test_bad_input_hidden_folders_stay_hidden_through_links(root):
    (root / ".secret").mkdir()
    (root / ".secret" / "key.txt").write_text("needle SECRET\n")
    os.symlink(root / ".secret", root / "alias")
    os.symlink(root / ".secret" / "key.txt", root / "key.txt")
    os.symlink(root / ".secret", root / "sub" / "deeper")
    assert search(root.parent, "grep_search", {"pattern": "SECRET"}) == "No matches found"
    for pattern in ("alias/*", "**/*.txt", "*", "sub/deeper/*"):
        assert "key" not in search(root.parent, "glob_search", {"pattern": pattern})
    for path in ("/alias", "/.secret", "/sub/deeper"):
        answer = search(root.parent, "grep_search", {"pattern": "SECRET", "path": path})
        assert answer == f"Error: path `{path}` is refused: it leads to a hidden folder"
    shown = search(
        root.parent, "grep_search", {"pattern": "SECRET"}, 'root_path: "root", include_hidden: true'
    )
    assert "/.secret/key.txt" in shown.splitlines() and "/key.txt" in shown.splitlines()


def test_bad_input_a_link_never_leaves_the_root(root, tmp_path):
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "o.txt").write_text("needle outside\n")
    os.symlink(tmp_path / "out" / "o.txt", root / "o.txt")
    os.symlink(tmp_path / "out", root / "outdir")
    answer = search(root.parent, "grep_search", {"pattern": "outside"})
    assert answer.startswith("No matches found")
    assert "(1 match(es) outside the searchable folder were refused and left out)" in answer
    answer = search(root.parent, "glob_search", {"pattern": "outdir/*"})
    assert answer.startswith("No files found")
    assert "(1 match(es) outside the searchable folder were refused and left out)" in answer
