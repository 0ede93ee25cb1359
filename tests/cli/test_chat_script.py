"""`agentc chat` with stdin that is not a terminal: it reads the script's lines until the
end of input (messages, review answers and slash commands alike), so a chat can be
scripted; each line read is echoed after its prompt. Real child processes, real SQLite."""

from __future__ import annotations

import json
import re
import shutil

from support import ROOT

from tests.support.cli_kit import ADD, agent_file, agentc, scripted


def _chat(*lines: str, cwd, args=("calc.agent",)):
    return agentc("chat", *args, cwd=cwd, stdin="".join(f"{line}\n" for line in lines))


def test_lines_are_messages_until_the_end_of_input(workdir):
    agent_file(workdir, scripted(ADD, "The answer is 5."))
    r = _chat("what is 2+3?", "/state", cwd=workdir)
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "chat with `calc` (model scripted) · thread " in out
    assert "> what is 2+3?\n" in out  # the line read, echoed after its prompt
    assert 'ai → add({"a": 2, "b": 3})  id=c1\ntool add: 5\nai: The answer is 5.\n' in out
    assert "messages: 4 messages\n  you: what is 2+3?\n  ai → add(a=2, b=3)  id=c1\n" in out
    assert "continue later with: agentc chat calc.agent --thread " in out
    assert r.stderr == ""


def test_undo_forks_the_thread_before_the_last_message(workdir):
    """/undo goes back before the user's last message; the next message continues from
    there, and the saved thread (SQLite, `--thread`) holds the new branch."""
    agent_file(workdir, scripted("one", "two", "three"))
    r = _chat("first", "second", "/undo", "/state", "third", "/state", cwd=workdir)
    assert r.returncode == 0, r.stderr
    assert 'took back your message "second" and what followed' in r.stdout
    states = r.stdout.split("> /state\n")[1:]
    assert "messages: 2 messages\n  you: first\n  ai: one\n" in states[0]
    assert (
        "messages: 4 messages\n  you: first\n  ai: one\n  you: third\n  ai: three\n" in (states[1])
    )
    thread = r.stdout.rsplit("--thread ", 1)[1].strip()
    again = _chat("/state", cwd=workdir, args=("calc.agent", "--thread", thread))
    assert again.returncode == 0, again.stderr
    assert "continuing the thread: messages: 4 messages" in again.stdout
    assert "second" not in again.stdout  # the undone turn is not on the saved branch


def test_each_undo_goes_back_one_more_turn(workdir):
    agent_file(workdir, scripted("one", "two"))
    r = _chat("first", "second", "/undo", "/undo", "/state", "/undo", cwd=workdir)
    assert r.returncode == 0, r.stderr
    assert 'took back your message "second"' in r.stdout
    assert 'took back your message "first"' in r.stdout
    assert "> /state\n(the thread is empty)\n" in r.stdout
    assert "nothing to undo: the thread has no message of yours" in r.stdout
    assert "the undo was not used: the saved thread still ends with the turn" in r.stdout


def test_a_review_is_answered_from_the_next_lines(workdir):
    extra = "  middleware {\n    human_review { interrupt_on: { add: true } }\n  }\n"
    agent_file(workdir, scripted(ADD, "Done: 9.") + "\n  checkpoint memory", extra=extra)
    r = _chat("add", "e", json.dumps({"a": 4, "b": 5}), "/state", cwd=workdir)
    assert r.returncode == 0, r.stderr
    assert "this thread is kept in memory only: it is gone when the chat ends" in r.stdout
    assert "review 1/1: add(a=2, b=3)" in r.stdout
    assert '  new arguments as JSON [{"a": 2, "b": 3}]> {"a": 4, "b": 5}\n' in r.stdout
    assert "tool add: " in r.stdout and "ai: Done: 9." in r.stdout
    assert "continue later" not in r.stdout  # nothing is kept to continue


def test_a_review_left_open_is_asked_when_the_thread_continues(workdir):
    """The input ends at a review: the saved thread waits; `--thread` asks it first."""
    extra = "  middleware {\n    human_review { interrupt_on: { add: true } }\n  }\n"
    agent_file(workdir, scripted(ADD, "Done: 5.") + '\n  checkpoint sqlite("chat.db")', extra=extra)
    r = _chat("add", cwd=workdir)
    assert r.returncode == 0, r.stderr
    assert "review 1/1: add(a=2, b=3)" in r.stdout
    assert "the input ended before the review was answered; it stays open" in r.stderr
    thread = r.stdout.rsplit("--thread ", 1)[1].strip()
    # a new process starts the script again: its next reply is the answer after the tool
    agent_file(workdir, scripted("Done: 5.") + '\n  checkpoint sqlite("chat.db")', extra=extra)
    again = _chat("a", cwd=workdir, args=("calc.agent", "--thread", thread))
    assert again.returncode == 0, again.stderr
    assert "the thread waits for an answer to a review:\nreview 1/1: add(a=2, b=3)" in (
        again.stdout
    )
    assert "tool add: 5\nai: Done: 5.\n" in again.stdout


def test_a_graph_block_takes_json_lines(workdir):
    (workdir / "steps.py").write_text(
        "def double(state):\n    return {'n': state['n'] * 2}\n", encoding="utf-8"
    )
    (workdir / "g.agent").write_text(
        'agentc 1\nuse "./steps.py" as steps\ngraph g {\n  state {\n    n: int = 1\n  }\n'
        "  node double = python(steps.double)\n  edge START -> double\n  edge double -> END\n}\n",
        encoding="utf-8",
    )
    r = _chat(
        "hello", '{"n": 21}', "/state", "/model openai:gpt-4o", cwd=workdir, args=("g.agent",)
    )
    assert r.returncode == 0, r.stderr
    assert "`g` has no conversation (no `messages` channel): type its input channels" in r.stderr
    assert "double → n = 42\n" in r.stdout
    assert "> /state\nn = 42\n" in r.stdout
    assert "`g` is a graph block" in r.stderr and "no agent model to switch" in r.stderr


def test_model_switches_for_the_following_turns(workdir):
    (workdir / "more.json").write_text(json.dumps(["from the other model"]), encoding="utf-8")
    agent_file(workdir, scripted("from the file's model"))
    r = _chat("hi", "/model", "/model scripted:more.json", "hi again", "/state", cwd=workdir)
    assert r.returncode == 0, r.stderr
    assert "ai: from the file's model\n" in r.stdout
    assert "the model is scripted; switch with /model NAME" in r.stdout
    assert "the next turns use scripted:more.json" in r.stdout
    assert "ai: from the other model\n" in r.stdout
    assert "messages: 4 messages" in r.stdout  # same thread, both turns


def test_a_failed_turn_is_one_paragraph_and_the_chat_goes_on(workdir):
    agent_file(workdir, scripted("only one"))
    r = _chat("one", "two", "/stat", "/help", cwd=workdir)
    assert r.returncode == 0, r.stderr
    assert "ScriptedRepliesExhausted" in r.stderr and "Traceback" not in r.stderr
    assert "unknown command /stat (did you mean /state?)" in r.stderr
    assert "/undo         take back your last message" in r.stdout


def test_usage_errors_exit_2_before_the_chat(workdir):
    agent_file(workdir, scripted("x"))
    r = agentc("chat", "calc.agent", "--agent", "calx", cwd=workdir)
    assert r.returncode == 2 and "did you mean `calc`?" in r.stderr
    r = agentc("chat", "calc.agent", "--model", "nonsense", cwd=workdir)
    assert r.returncode == 2 and "--model nonsense: cannot tell which provider" in r.stderr
    r = agentc("chat", "missing.agent", cwd=workdir)
    assert r.returncode == 2 and "cannot read the .agent file" in r.stderr


def test_the_documented_session_is_what_the_chat_prints(workdir):
    """docs/chat.md's example session, typed line by line, prints what the page shows."""
    page = (ROOT / "docs" / "chat.md").read_text(encoding="utf-8")
    block = page.split("```text\n", 1)[1].split("```", 1)[0].splitlines()
    command, shown = block[0], block[1:]
    assert command == "$ agentc chat examples/human_review.agent"
    typed = [line[2:] for line in shown if line.startswith("> ")]
    typed.insert(typed.index("/state"), "a")  # the review's answer, typed after its prompt
    shutil.copytree(ROOT / "examples", workdir / "examples")
    r = _chat(*typed, cwd=workdir, args=("examples/human_review.agent",))
    assert r.returncode == 0, r.stderr
    printed = re.sub(r"thread [0-9a-f]{12}", "thread ID", r.stdout)
    want = re.sub(r"thread [0-9a-f]{12}", "thread ID", "\n".join(shown))
    assert [line.rstrip() for line in printed.splitlines()] == want.splitlines()


def test_a_breakpoint_asks_whether_to_go_on(workdir):
    """`interrupt before NODE`: the chat asks; yes goes on, no leaves the turn paused."""
    (workdir / "steps.py").write_text(
        "def draft(state):\n    return {'text': state['topic'] + ': draft'}\n\n"
        "def publish(state):\n    return {'text': state['text'] + ', published'}\n",
        encoding="utf-8",
    )
    (workdir / "g.agent").write_text(
        'agentc 1\nuse "./steps.py" as steps\ngraph g {\n'
        '  state {\n    topic: str = ""\n    text: str = ""\n  }\n'
        "  node draft = python(steps.draft)\n  node publish = python(steps.publish)\n"
        "  edge START -> draft\n  edge draft -> publish\n  edge publish -> END\n"
        "  interrupt before publish\n}\n",
        encoding="utf-8",
    )
    lines = ('{"topic": "cats"}', "y", '{"topic": "dogs"}', "n", "/state")
    r = _chat(*lines, cwd=workdir, args=("g.agent",))
    assert r.returncode == 0, r.stderr
    asked = "paused before `publish` (the file's `interrupt`); go on? [Y/n] "
    assert f"draft → text = cats: draft\n{asked}y\npublish → text = cats: draft, published\n" in (
        r.stdout
    )
    assert f"draft → text = dogs: draft\n{asked}n\nleft paused;" in r.stdout
    assert "> /state\ntopic = dogs\ntext = dogs: draft\n" in r.stdout


def test_a_budget_that_asks_is_answered_inline(workdir):
    spent = {**ADD, "usage": {"input_tokens": 20, "output_tokens": 5}}
    extra = '  middleware {\n    budgets { tokens: 10, exit_behavior: "ask" }\n  }\n'
    agent_file(workdir, scripted(spent, "The answer is 5.") + "\n  checkpoint memory", extra=extra)
    r = _chat("add", "yes", cwd=workdir)
    assert r.returncode == 0, r.stderr
    assert "Budget exceeded: " in r.stdout and "Continue?" in r.stdout
    assert "tool add: 5\npaused: " in r.stdout
    assert r.stdout.endswith("answer> yes\nai: The answer is 5.\n")
