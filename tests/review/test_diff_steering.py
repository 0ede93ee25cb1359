"""`agentc explain --diff OLD NEW`: a word diff of every text that steers the model and of
every setting, and `--exit-code` 1 on any change of behaviour (0 on comments and layout).

The SQL agent pair in cases/diff_prompt differs only in its prompt ("DO NOT make any DML"
→ "You MAY make any DML"); the other cases change one thing each in a copy in tmp_path.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from agentc.cli import main

ROOT = Path(__file__).resolve().parents[2]
CASES = Path(__file__).parent / "cases" / "diff_prompt"
OLD = str((CASES / "old.agent").relative_to(ROOT))
NEW = str((CASES / "new.agent").relative_to(ROOT))
LAYOUT = str((CASES / "layout.agent").relative_to(ROOT))


@pytest.fixture(autouse=True)
def _in_repo_root(monkeypatch):
    monkeypatch.chdir(ROOT)


def explain_diff(capsys, old: str, new: str, *more: str) -> tuple[int, str]:
    code = main(["explain", "--diff", old, new, *more])
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return code, out


def changed_copy(
    tmp_path: Path, agent: tuple[str, str] = ("", ""), py: tuple[str, str] = ("", "")
) -> str:
    """OLD's folder copied to tmp_path with one replacement in the .agent file or in sql.py."""
    for name in ("old.agent", "sql.py"):
        shutil.copy(CASES / name, tmp_path / name)
    for name, (was, now) in (("old.agent", agent), ("sql.py", py)):
        if was:
            path = tmp_path / name
            text = path.read_text(encoding="utf-8")
            assert was in text, (name, was)
            path.write_text(text.replace(was, now), encoding="utf-8")
    return str(tmp_path / "old.agent")


def test_a_prompt_change_is_a_word_diff_located_in_both_files_and_exits_1(capsys):
    code, out = explain_diff(capsys, OLD, NEW, "--exit-code")
    assert code == 1
    assert "texts that steer the model (1):" in out
    assert "agent.prompt   system prompt of `sql_agent`   at 13:3 → 13:3" in out
    assert "first change on line 14 of the text" in out
    assert "[-DO NOT-]{+You MAY+} make any DML statements" in out
    assert "settings: no change" in out


def test_without_exit_code_the_same_diff_exits_0(capsys):
    code, out = explain_diff(capsys, OLD, NEW)
    assert code == 0 and "[-DO NOT-]{+You MAY+}" in out


def test_the_real_command_exits_1_on_a_prompt_change():
    done = subprocess.run(
        [sys.executable, "-m", "agentc", "explain", "--diff", OLD, NEW, "--exit-code"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1, done.stderr
    assert "[-DO NOT-]{+You MAY+} make any DML" in done.stdout


def test_json_marks_the_word_diff_as_ops(capsys):
    code, out = explain_diff(capsys, OLD, NEW, "--format", "json", "--exit-code")
    data = json.loads(out)
    assert code == 1 and data["behaviour_changed"] is True
    (text,) = data["texts"]
    assert (text["key"], text["change"], text["old_at"], text["new_at"]) == (
        "agent.prompt",
        "changed",
        "13:3",
        "13:3",
    )
    changes = [op for op in text["ops"] if op["op"] != "equal"]
    assert changes == [{"op": "delete", "text": "DO NOT"}, {"op": "insert", "text": "You MAY"}]
    # the ops rebuild both texts
    assert "".join(op["text"] for op in text["ops"] if op["op"] != "insert") == text["old"]
    assert "".join(op["text"] for op in text["ops"] if op["op"] != "delete") == text["new"]


def test_comments_and_layout_only_exit_0_and_say_no_change(capsys):
    code, out = explain_diff(capsys, OLD, LAYOUT, "--exit-code")
    assert code == 0
    assert "no change" in out and "[-" not in out
    code, out = explain_diff(capsys, OLD, LAYOUT, "--format", "json", "--exit-code")
    assert code == 0 and json.loads(out)["behaviour_changed"] is False


def test_a_tool_docstring_change_in_the_used_python_module_is_caught(capsys, tmp_path):
    changed = changed_copy(
        tmp_path, py=("Only SELECT statements are allowed.", "Any statement is allowed.")
    )
    code, out = explain_diff(capsys, OLD, changed, "--exit-code")
    assert code == 1
    assert "tool.run_query.description" in out and "docstring of `run_query` in ./sql.py" in out
    assert "[-Only SELECT statements are-]{+Any statement is+} allowed." in out


def test_a_schema_field_description_change_is_caught(capsys, tmp_path):
    changed = changed_copy(tmp_path, agent=('"the SQL query that produced it"', '"any query"'))
    code, out = explain_diff(capsys, OLD, changed, "--exit-code")
    assert code == 1
    assert "schema.Answer.field.query.description" in out
    assert "[-the SQL-]{+any+} query[- that produced it-]" in out


def test_a_schema_field_type_change_is_a_setting(capsys, tmp_path):
    changed = changed_copy(tmp_path, agent=('query: str "the SQL', 'query: list[str] "the SQL'))
    code, out = explain_diff(capsys, OLD, changed, "--exit-code")
    assert code == 1
    assert 'schema.Answer.field.query   {"type": "string", "required": true} → ' in out


def test_a_middleware_setting_change_is_caught(capsys, tmp_path):
    changed = changed_copy(tmp_path, agent=("trigger: messages(40)", "trigger: messages(60)"))
    code, out = explain_diff(capsys, OLD, changed, "--exit-code")
    assert code == 1
    assert 'middleware.summarization.trigger   ["messages", 40] → ["messages", 60]' in out


def test_a_middleware_model_and_a_model_option_are_settings(capsys, tmp_path):
    changed = changed_copy(
        tmp_path,
        agent=("{ temperature: 0 }\n  prompt", "{ temperature: 0.7 }\n  prompt"),
    )
    code, out = explain_diff(capsys, OLD, changed, "--exit-code")
    assert code == 1 and "model.options.temperature   0 → 0.7   at 12:3 → 12:3" in out
    changed = changed_copy(tmp_path, agent=('"openai:gpt-4.1-nano"', '"openai:gpt-4o-mini"'))
    code, out = explain_diff(capsys, OLD, changed, "--exit-code")
    assert code == 1
    assert 'middleware.summarization.model   "openai:gpt-4.1-nano" → "openai:gpt-4o-mini"' in out


def test_a_middleware_prompt_added_is_a_text(capsys, tmp_path):
    changed = changed_copy(
        tmp_path,
        agent=("keep: messages(10) }", 'keep: messages(10), summary_prompt: "Keep it short." }'),
    )
    code, out = explain_diff(capsys, OLD, changed, "--exit-code")
    assert code == 1
    assert "middleware.summarization.summary_prompt   added: `summary_prompt` of middleware" in out
    assert "{+Keep it short.+}" in out


SUPERVISOR = """agentc 1

agent researcher "Finds facts." {
  model "openai:gpt-4o-mini"
  prompt "Look things up. PROMPT"
}

agent boss {
  model "openai:gpt-4o-mini"
  prompt "Delegate."
  tools [researcher]
}
"""


def test_a_sub_agent_prompt_is_followed_under_its_name(capsys, tmp_path):
    old, new = tmp_path / "old.agent", tmp_path / "new.agent"
    old.write_text(SUPERVISOR.replace("PROMPT", "Cite sources."), encoding="utf-8")
    new.write_text(SUPERVISOR.replace("PROMPT", "Never cite sources."), encoding="utf-8")
    code, out = explain_diff(capsys, str(old), str(new), "--agent", "boss", "--exit-code")
    assert code == 1
    assert "researcher.agent.prompt   system prompt of `researcher`" in out
    assert "Look things up. [-Cite-]{+Never cite+} sources." in out


def test_the_same_file_is_no_change(capsys):
    code, out = explain_diff(capsys, OLD, OLD, "--exit-code")
    assert code == 0 and "no change" in out


def test_a_difference_no_section_names_still_exits_1_and_says_where(capsys, tmp_path):
    changed = changed_copy(tmp_path, py=("def run_query", "async def run_query"))
    code, out = explain_diff(capsys, OLD, changed, "--exit-code")
    assert code == 1
    assert "other: the compiled agent differs where no section above looks: " in out
    assert "graphs.0.agent.tools.1.is_async" in out
