"""The word diff under `agentc explain --diff`: words and whitespace runs, difflib's matching,
changes apart only by a space joined, long unchanged stretches shortened in text output."""

from __future__ import annotations

import pytest

from agentc.review.steering import steering_texts
from agentc.review.textdiff import OpKind, inline, word_diff

PAIRS = [
    ("DO NOT make any DML", "You MAY make any DML"),
    ("a b c", "a x c"),
    ("", "all new"),
    ("all gone", ""),
    ("two  spaces", "two spaces"),
    ("line one\nline two", "line one\nline 2\nline three"),
]


@pytest.mark.parametrize(("old", "new"), PAIRS)
def test_the_ops_rebuild_both_texts(old, new):
    ops = word_diff(old, new)
    assert "".join(op.text for op in ops if op.kind is not OpKind.INSERT) == old
    assert "".join(op.text for op in ops if op.kind is not OpKind.DELETE) == new


def test_changed_words_apart_by_a_space_read_as_one_change():
    assert inline(word_diff(*PAIRS[0])) == "[-DO NOT-]{+You MAY+} make any DML"
    assert inline(word_diff("a b c", "a x c")) == "a [-b-]{+x+} c"


def test_a_changed_space_is_a_change():
    assert inline(word_diff("two  spaces", "two spaces")) == "two[-  -]{+ +}spaces"


def test_long_unchanged_stretches_are_shortened_around_the_change():
    words = " ".join(f"w{i}" for i in range(100))
    shown = inline(word_diff(words + " old " + words, words + " new " + words))
    assert "[-old-]{+new+}" in shown and shown.count("…") == 2 and "w50" not in shown
    assert "w50" in inline(word_diff(words + " old", words + " new"), shorten=False)


def test_texts_of_a_graph_block_model_node_are_keyed_by_node():
    from agentc.compiler.pipeline import compile_source

    text = """agentc 1
graph g {
  state { topic: str, out: str }
  node write = model("openai:gpt-4o-mini", prompt: "Write about {topic}.", input: "Go", into: out)
  edge START -> write
  edge write -> END
}
"""
    result = compile_source(text, "g.agent")
    assert result.program is not None, [d.message for d in result.diagnostics]
    texts = {t.key: t.text for t in steering_texts(result.program.graph("g"), result.program)}
    assert texts == {"node.write.prompt": "Write about {topic}.", "node.write.input": "Go"}
