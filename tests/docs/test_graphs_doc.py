"""docs/graphs.md stays true: its links resolve, its quickstart is the example file, its
error message is what `agentc check` prints, and its Python snippets run."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap

from support import ROOT

from agentc.api import load_agent
from agentc.cli import main
from agentc.runtime import Command, RunConfig

DOC = ROOT / "docs" / "graphs.md"
TEXT = DOC.read_text(encoding="utf-8")


def _blocks(lang: str = "") -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", TEXT, flags=re.S)


def test_every_relative_link_resolves():
    links = re.findall(r"\]\((\.\./[^)#]+|[a-z-]+\.md)", TEXT)
    assert links, "the page links its examples"
    missing = [link for link in links if not (DOC.parent / link).exists()]
    assert missing == []


def test_the_quickstart_block_is_the_example_file():
    block = next(b for b in _blocks() if "graph calculator" in b)
    example = (ROOT / "examples" / "graphs" / "quickstart.agent").read_text(encoding="utf-8")
    assert block.strip() in example


def test_the_placeholder_error_is_what_check_prints(tmp_path, capsys):
    shown = next(b for b in _blocks() if b.startswith("error[unknown-field]"))
    source_line = re.search(r"^6 \| (.*)$", shown, flags=re.M)
    assert source_line is not None
    path = tmp_path / "joke.agent"
    path.write_text(
        "agentc 1\n\n"
        "graph joke {\n"
        '  state { topic: str = "", joke: str = "" }\n\n'
        f"{source_line.group(1)}\n"
        "  edge START -> write\n"
        "  edge write -> END\n"
        "}\n",
        encoding="utf-8",
    )
    assert main(["check", str(path)]) == 1
    err = capsys.readouterr().out
    got = err.replace(str(path), "joke.agent").split("\n\nerror: ")[0]
    assert got.strip() == shown.strip()


def test_the_time_travel_snippet_runs():
    snippet = next(b for b in _blocks("python") if "get_state_history" in b)
    done = subprocess.run(
        [sys.executable, "-c", snippet], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    steps = [line.split()[0] for line in done.stdout.splitlines()]
    assert len(steps) >= 3 and steps == sorted(steps, key=int, reverse=True)


def test_the_python_node_snippet_runs_in_a_graph(tmp_path):
    snippet = next(b for b in _blocks("python") if "def review" in b)
    (tmp_path / "steps.py").write_text(
        snippet
        + textwrap.dedent(
            """

            def publish(state):
                return {"published": True}
            """
        ),
        encoding="utf-8",
    )
    (tmp_path / "review.agent").write_text(
        textwrap.dedent(
            """\
            agentc 1
            use "./steps.py" as steps
            schema Who { user_id: str }
            graph review_flow {
              context Who
              state { draft: str = "", published: bool = false }
              node review = python(steps.review) { goto: [review, publish] }
              node publish = python(steps.publish)
              edge START -> review
              edge publish -> END
              checkpoint memory
              store memory
            }
            """
        ),
        encoding="utf-8",
    )
    graph = load_agent(tmp_path / "review.agent")
    config = RunConfig(thread_id="doc", context={"user_id": "u1"})
    paused = graph.invoke({"draft": "Cats nap."}, config)
    assert [i.value for i in paused["__interrupt__"]] == [{"draft": "Cats nap."}]
    done = graph.invoke(Command(resume="ship it"), config)
    assert done["published"] is True
    item = graph.store.get(("reviews", "u1"), "last")
    assert item is not None and item.value == {"answer": "ship it"}


def test_the_listing_snippet_finds_the_threads_a_run_saved(tmp_path):
    (snippet,) = [b for b in _blocks("python") if "CheckpointQuery" in b]
    example = ROOT / "examples" / "graphs" / "prompt_chaining.agent"
    run = (
        "import agentc\nfrom agentc import RunConfig\n"
        "from agentc.runtime import SqliteCheckpointer\n"
        "saver = SqliteCheckpointer('.agentc/state.db')\n"
        f"g = agentc.load_agent({str(example)!r}, checkpointer=saver)\n"
        "g.invoke({'topic': 'cats'}, RunConfig(thread_id='t1'))\n"
        "saver.close()\n"
    )
    (tmp_path / ".agentc").mkdir()
    check = snippet + "\nassert threads == {'t1'}, threads\nassert latest[0].thread_id == 't1'\n"
    for code in (run, check):
        done = subprocess.run(
            [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120
        )
        assert done.returncode == 0, done.stderr
