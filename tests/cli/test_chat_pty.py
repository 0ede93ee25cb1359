"""`agentc chat` driven through a real pseudo-terminal, as a person at a terminal uses it:
lines typed (with readline's line editing), answers streamed from a fake provider on
127.0.0.1, a human-review pause answered at the prompt, /state, /undo, /new, Ctrl-C while
an answer streams, Ctrl-C at the prompt, Ctrl-D.

Each wait has a generous hang guard (it turns a hang into a failure); nothing is timed."""

from __future__ import annotations

import os
import pty
import re
import select
import sys
import time
from pathlib import Path

import pytest

from agentc.testing.fake_provider import FakeProviderServer, FakeReply, FakeToolCall

GUARD_S = 30.0  # per wait: a hang fails the test, a slow machine does not
ESCAPES = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[=>]")  # what readline writes to a terminal

TOOLS = '''
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b
'''

REVIEWED = """agentc 1
use "./kit.py" as kit

agent helper {
  model "openai:gpt-4o-mini"
  prompt "Be brief."
  tools [kit.add]
  middleware {
    human_review { interrupt_on: { add: true } }
  }
  checkpoint sqlite("chat.db")
}
"""


class Terminal:
    """`python -m agentc ARGS` on the slave side of a pty (its controlling terminal, so
    Ctrl-C typed here is a SIGINT there); what it prints is read from the master side."""

    def __init__(self, args: list[str], cwd: Path, env: dict[str, str]) -> None:
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: run agentc, never return into pytest
            try:
                os.chdir(cwd)
                os.execvpe(sys.executable, [sys.executable, "-m", "agentc", *args], env)
            finally:
                os._exit(127)
        self.raw = ""
        self.seen = 0  # how much of the output earlier waits consumed

    def text(self) -> str:
        return ESCAPES.sub("", self.raw).replace("\r\n", "\n")

    def expect(self, pattern: str) -> str:
        """Wait for `pattern` in the output not yet consumed; the text up to its end."""
        ends = time.monotonic() + GUARD_S
        regex = re.compile(pattern)
        while True:
            found = regex.search(self.text(), self.seen)
            if found:
                got, self.seen = self.text()[self.seen : found.end()], found.end()
                return got
            left = ends - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no {pattern!r} in:\n{self.text()[self.seen :]}")
            self._read(min(left, 0.5))

    def _read(self, wait: float) -> None:
        ready, _, _ = select.select([self.fd], [], [], wait)
        if not ready:
            return
        try:
            data = os.read(self.fd, 4096)
        except OSError:  # the child closed the terminal: nothing more will come
            data = b""
        if not data:
            time.sleep(0.05)  # a closed terminal is always ready: do not spin
            return
        self.raw += data.decode("utf-8", errors="replace")

    def type(self, line: str) -> None:
        os.write(self.fd, line.encode() + b"\r")

    def key(self, byte: bytes) -> None:
        os.write(self.fd, byte)

    def wait(self, again: bytes | None = None) -> int:
        """The exit code. `again`: a key typed again while the child says nothing (it
        answers a key it saw at once, so silence means the key was missed)."""
        ends = time.monotonic() + GUARD_S
        heard = len(self.raw)
        while time.monotonic() < ends:
            done, status = os.waitpid(self.pid, os.WNOHANG)
            if done:
                self._drain()
                os.close(self.fd)
                return os.waitstatus_to_exitcode(status)
            self._read(2.0)
            if again is None:
                continue
            if len(self.raw) != heard:
                again = None  # it answered the key: no more keys
            else:
                self.key(again)
        os.kill(self.pid, 9)
        raise AssertionError(f"agentc chat did not exit:\n{self.text()}")

    def _drain(self) -> None:
        while select.select([self.fd], [], [], 0)[0]:
            try:
                data = os.read(self.fd, 4096)
            except OSError:
                return
            if not data:
                return
            self.raw += data.decode("utf-8", errors="replace")


@pytest.fixture
def server():
    with FakeProviderServer() as fake:
        yield fake


def _env(server: FakeProviderServer) -> dict[str, str]:
    base = {k: v for k, v in os.environ.items() if not k.endswith(("_API_KEY", "_BASE_URL"))}
    return {
        **base,
        "OPENAI_BASE_URL": server.openai_base_url,
        "OPENAI_API_KEY": "sk-test-CHAT-0123456789abcdef",
        "TERM": "dumb",
    }


def _reviewed(tmp_path: Path) -> Path:
    (tmp_path / "kit.py").write_text(TOOLS, encoding="utf-8")
    path = tmp_path / "helper.agent"
    path.write_text(REVIEWED, encoding="utf-8")
    return path


PROMPT = r"\n> $"


def test_a_conversation_in_a_terminal(tmp_path, server):
    """Two turns (the first paused for review and approved at the prompt), /state, /undo
    (the state goes back one turn), /new, /quit."""
    _reviewed(tmp_path)
    server.push(
        FakeReply(tool_calls=[FakeToolCall(name="add", arguments='{"a": 2, "b": 3}', id="c1")]),
        FakeReply(text="The answer is 5.", chunks=["The ", "answer ", "is ", "5."]),
        FakeReply(text="Eight.", chunks=["Ei", "ght."]),
    )
    term = Terminal(["chat", "helper.agent"], tmp_path, _env(server))
    head = term.expect(PROMPT)
    assert "chat with `helper` (model openai:gpt-4o-mini) · thread " in head
    assert "· saved in chat.db\n" in head  # the file's SQLite keeps the thread
    assert "memory only" not in head

    term.type("what is 2+3?")
    review = term.expect(r"approve\[a\]/edit\[e\]/reject\[r\]/respond\[s\]> $")
    assert 'ai → add({"a": 2, "b": 3})' in review
    assert "review 1/1: add(a=2, b=3)" in review
    term.type("a")
    answer = term.expect(PROMPT)
    assert "tool add: 5" in answer
    assert "ai: The answer is 5.\n" in answer  # streamed, printed once

    term.type("and 4+4?")
    assert "ai: Eight.\n" in term.expect(PROMPT)
    term.type("/state")
    state = term.expect(PROMPT)
    assert "messages: 6 messages" in state
    assert "you: and 4+4?" in state and "ai: Eight." in state
    assert "hitl_edited_tool_calls" not in state and "jump_to" not in state  # private

    term.type("/undo")
    assert 'took back your message "and 4+4?"' in term.expect(PROMPT)
    term.type("/state")
    state = term.expect(PROMPT)
    assert "messages: 4 messages" in state
    assert "ai: The answer is 5." in state and "4+4" not in state

    term.type("/new")
    assert re.search(r"new thread [0-9a-f]{12}", term.expect(PROMPT))
    term.type("/state")
    assert "(the thread is empty)" in term.expect(PROMPT)
    term.type("/quit")
    assert term.wait() == 0
    assert "continue later" not in term.text()  # the new thread has nothing saved yet
    # the model was sent the approved call's result, then the whole conversation
    last = server.requests[-1].body["messages"]
    assert [m["role"] for m in last] == ["system", "user", "assistant", "tool", "assistant", "user"]


def test_ctrl_c_stops_the_streaming_answer_not_the_chat(tmp_path, server):
    """Ctrl-C while the answer streams: the answer stops, the prompt comes back, the
    message stays on the thread; the next message is answered; Ctrl-D leaves with 0."""
    _reviewed(tmp_path)
    words = [f"w{i} " for i in range(1, 40)]
    server.push(
        FakeReply(text="".join(words), chunks=words, chunk_delay_s=0.5),
        FakeReply(text="Hello there.", chunks=["Hello", " there."]),
    )
    term = Terminal(["chat", "helper.agent"], tmp_path, _env(server))
    term.expect(PROMPT)
    term.type("count slowly")
    term.expect(r"ai: w1 w2 ")  # the answer is arriving, word by word
    term.key(b"\x03")
    stopped = term.expect(PROMPT)
    assert "stopped; what was saved stays on the thread" in stopped
    assert "w39" not in term.text()  # the rest of the answer never printed

    term.type("hi")
    assert "ai: Hello there.\n" in term.expect(PROMPT)
    term.type("/state")
    state = term.expect(PROMPT)
    assert "you: count slowly" in state and "you: hi" in state
    term.key(b"\x04")  # Ctrl-D
    assert term.wait() == 0


def test_ctrl_c_at_the_prompt_leaves(tmp_path):
    """At the prompt Ctrl-C ends the chat (130, as a shell reports an interrupted
    command), without a traceback."""
    term = Terminal(["chat", str(_offline(tmp_path))], tmp_path, dict(os.environ, TERM="dumb"))
    head = term.expect(PROMPT)
    assert "kept in memory only: it is gone when the chat ends" in head
    term.key(b"\x03")
    # CPython's `input` under readline misses a SIGINT that lands between drawing the
    # prompt and waiting for a key (the flag is set, the wait is not woken): a person
    # presses Ctrl-C again, and so does the test, until the chat has gone
    assert term.wait(again=b"\x03") == 130
    assert "Traceback" not in term.text()


def test_a_review_rejected_with_a_reason_at_the_prompt(tmp_path):
    """The reject decision asks for its reason inline; the model reads it."""
    term = Terminal(["chat", str(_offline(tmp_path))], tmp_path, dict(os.environ, TERM="dumb"))
    term.expect(PROMPT)
    term.type("add them")
    term.expect(r"respond\[s\]> $")
    term.type("r")
    term.expect(r"reason \(optional\)> $")
    term.type("not now")
    out = term.expect(PROMPT)
    assert "tool add (error):" in out and "not now" in out
    assert "ai: Fine, I will not." in out
    term.type("/quit")
    assert term.wait() == 0


def _offline(tmp_path: Path) -> Path:
    """A scripted agent with a review and `checkpoint memory` (no network, no key)."""
    (tmp_path / "kit.py").write_text(TOOLS, encoding="utf-8")
    path = tmp_path / "offline.agent"
    path.write_text(
        'agentc 1\nuse "./kit.py" as kit\n\nagent offline {\n'
        '  model "scripted" { replies: [\n'
        '    { tool_calls: [{ name: "add", args: { a: 2, b: 3 }, id: "c1" }] },\n'
        '    "Fine, I will not.",\n  ] }\n'
        "  tools [kit.add]\n"
        "  middleware {\n    human_review { interrupt_on: { add: true } }\n  }\n"
        "  checkpoint memory\n}\n",
        encoding="utf-8",
    )
    return path
