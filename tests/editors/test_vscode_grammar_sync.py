"""The editor files cannot drift from the language (these need no node): every keyword of
grammar/*.lark is highlighted by the TextMate grammar, every example has a snapshot, the
`agentc N` first-line pattern is the same in package.json and in the extension's code and
recognises exactly the version line, and the snippets, filled in, pass `agentc check`."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest
from support import ROOT
from vscode_kit import VSCODE

TM = VSCODE / "syntaxes" / "agentc.tmLanguage.json"
# The keyword literals of a Lark grammar: "agent", "when" (not operators such as "->").
LARK_KEYWORD = re.compile(r'"([A-Za-z_]+)"')
# A word alternative in a TextMate regex: `(model|prompt|…)`, `(?:and|or)`, `\bnone\b`.
TM_WORDS = re.compile(r"\((?:\?:)?((?:[A-Za-z_]+\|)*[A-Za-z_]+)\)|\\b([A-Za-z_]+)\\b")


def lark_keywords() -> set[str]:
    words: set[str] = set()
    for path in (ROOT / "grammar").glob("*.lark"):
        text = "\n".join(line.split("//")[0] for line in path.read_text("utf-8").splitlines())
        words |= set(LARK_KEYWORD.findall(text))
    return words


def tm_regexes(node: object) -> list[str]:
    if isinstance(node, dict):
        out = [v for k, v in node.items() if k in ("match", "begin") and isinstance(v, str)]
        for v in node.values():
            out += tm_regexes(v)
        return out
    if isinstance(node, list):
        return [r for item in node for r in tm_regexes(item)]
    return []


def tm_words() -> set[str]:
    words: set[str] = set()
    for regex in tm_regexes(json.loads(TM.read_text("utf-8"))):
        for group, single in TM_WORDS.findall(regex):
            words |= set(group.split("|")) if group else {single}
    return words


def test_the_grammar_has_keywords_to_compare():
    # The scan itself works: a regression here would make the next test pass vacuously.
    assert {"agent", "graph", "edge", "when", "otherwise", "reduce", "via"} <= lark_keywords()


def test_every_lark_keyword_is_highlighted():
    missing = sorted(lark_keywords() - tm_words())
    assert missing == [], f"keywords of grammar/*.lark missing from the TextMate grammar: {missing}"


def snapshot_sources() -> list[str]:
    files = sorted((ROOT / "examples").rglob("*.agent")) + [ROOT / "stdlib" / "prelude.agent"]
    return [str(p.relative_to(ROOT)) for p in files]


def test_every_example_has_a_snapshot_and_no_snapshot_is_stale():
    wanted = {rel.replace("/", "__") + ".snap" for rel in snapshot_sources()}
    have = {p.name for p in (VSCODE / "test" / "snapshots").glob("*.snap")}
    assert sorted(wanted - have) == [], "run `npm run snap:update` in editors/vscode"
    assert sorted(have - wanted) == [], "snapshots of files that are gone"


def first_line_pattern() -> str:
    manifest = json.loads((VSCODE / "package.json").read_text("utf-8"))
    (language,) = manifest["contributes"]["languages"]
    assert language["id"] == "agentc"
    # Not claimed by extension: Salesforce Agent Script files end in `.agent` too.
    assert "extensions" not in language
    return language["firstLine"]


def test_the_first_line_pattern_is_the_same_in_the_code():
    detect = (VSCODE / "src" / "detect.ts").read_text("utf-8")
    assert f"/{first_line_pattern()}/" in detect


@pytest.mark.parametrize(
    ("line", "ours"),
    [
        ("agentc 1", True),
        ("agentc 12   # the language version", True),
        ("\ufeffagentc 1", True),
        ("agentc\t2", True),
        ("agentc", False),
        ("# agentc 1", False),
        ("agentc 1 agent a {}", False),
        ("system:", False),  # Salesforce Agent Script
        ('config:\n  agent_name: "x"', False),
    ],
)
def test_the_first_line_pattern_recognises_the_version_line(line: str, ours: bool):
    # JavaScript's and Python's regexes agree on this subset (no flags, no lookbehind).
    pattern = first_line_pattern().replace("\\uFEFF", "\ufeff")
    assert bool(re.match(pattern, line.split("\n")[0])) is ours


def test_every_example_with_a_version_line_is_recognised():
    pattern = first_line_pattern().replace("\\uFEFF", "\ufeff")
    for rel in snapshot_sources():
        first = (ROOT / rel).read_text("utf-8").split("\n", 1)[0]
        if first.startswith("agentc"):
            assert re.match(pattern, first), rel


# ---------------------------------------------------------------- snippets

PLACEHOLDER = re.compile(r"\$\{(\d+):((?:[^{}\\]|\\.|\{[^{}]*\})*)\}|\$\{(\d+)\}|\$(\d+)")


def expand(body: list[str]) -> str:
    """A snippet as inserted when every placeholder keeps its default (tabs stay tabs)."""
    text = "\n".join(body)
    defaults: dict[str, str] = {}

    def fill(m: re.Match[str]) -> str:
        num, default, bare1, bare2 = m.groups()
        if num is not None:
            value = PLACEHOLDER.sub(fill, default)
            defaults.setdefault(num, value)
            return value
        return defaults.get(bare1 or bare2, "")

    # Twice: a mirror (`$1`) may come before its placeholder's default in the text.
    PLACEHOLDER.sub(fill, text)
    return PLACEHOLDER.sub(fill, text).replace("\\}", "}").replace("\\$", "$")


def snippets() -> dict[str, dict]:
    return json.loads((VSCODE / "snippets" / "agentc.json").read_text("utf-8"))


def check(tmp_path, text: str) -> subprocess.CompletedProcess[str]:
    """`agentc check --format json` of `text`, beside a tools.py the snippets name."""
    (tmp_path / "tools.py").write_text(
        'def add(a: int, b: int) -> int:\n    """Add two numbers."""\n    return a + b\n',
        "utf-8",
    )
    path = tmp_path / "snippets.agent"
    path.write_text(text, "utf-8")
    return subprocess.run(
        [sys.executable, "-m", "agentc", "check", "--format", "json", str(path)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )


def codes(done: subprocess.CompletedProcess[str]) -> list[str]:
    return [d["code"] for d in json.loads(done.stdout)["diagnostics"]]


def indent(text: str, n: int) -> str:
    return "\n".join("\t" * n + line if line else line for line in text.split("\n"))


def test_snippet_prefixes_are_unique():
    prefixes = [s["prefix"] for s in snippets().values()]
    assert len(prefixes) == len(set(prefixes))


AGENT_PARTS = ("limits", "checkpoint")
MIDDLEWARE = ("human_review", "summarization", "model_call_limit", "tool_call_limit")
MIDDLEWARE += ("model_retry", "model_fallback")
GRAPH_PARTS = ("node (model)", "node (python)", "node (tools)", "edge", "edge when / otherwise")
GRAPH_PARTS += ("route",)


def test_the_declaration_snippets_filled_in_pass_agentc_check(tmp_path):
    s = {name: expand(snippet["body"]) for name, snippet in snippets().items()}
    # `$0` (where the cursor ends) leaves an empty tab-indented line in each block.
    agent_end = "".join("\t" + s[name] + "\n" for name in AGENT_PARTS) + "}"
    middleware = indent("\n".join(s[name] for name in MIDDLEWARE), 1)
    text = "\n".join(
        [
            s["version line"],
            s["use"],
            s["schema"],
            s["agent"].replace("\t\n}", agent_end),
            "agent offline {",
            indent(s["scripted model"], 1),
            indent(s["middleware"].replace("\t\n", middleware + "\n"), 1),
            "\ttools [tools.add]",
            "\tcheckpoint memory",
            "}",
            s["graph"],
        ]
    )
    done = check(tmp_path, text)
    assert codes(done) == [], f"{text}\n---\n{done.stdout}{done.stderr}"
    # With the graph statements below, every snippet is checked.
    declared = {"version line", "use", "schema", "agent", "scripted model", "middleware", "graph"}
    covered = declared | set(AGENT_PARTS) | set(MIDDLEWARE) | set(GRAPH_PARTS) | {"state"}
    assert covered == set(snippets())


def test_the_graph_statement_snippets_parse(tmp_path):
    # Their default names stand for the reader's own nodes and channels, so only the
    # mistakes of form count: each must parse as written.
    s = {name: expand(snippet["body"]) for name, snippet in snippets().items()}
    body = "\n".join(indent(s[name], 1) for name in GRAPH_PARTS + ("state",))
    text = f'agentc 1\nuse "./tools.py" as steps\ngraph g {{\n{body}\n}}\n'
    done = check(tmp_path, text)
    syntax = {"syntax", "unclosed-block", "unterminated-string", "bad-literal"}
    assert [c for c in codes(done) if c in syntax] == [], f"{text}\n---\n{done.stdout}"
    assert codes(done), "the defaults name nodes that do not exist: the check must say so"


@pytest.mark.parametrize(
    ("line", "indents"),
    [
        ("agent a {", True),
        ("  state {  # the channels", True),
        ("  tools [", True),
        ('  node write = model("openai:gpt-4o-mini",', True),
        ('      prompt: "Be brief.",', False),
        ('  model "scripted" { replies: ["ok"] }', False),
        ("  edge a -> b", False),
        ("# a comment {", False),
    ],
)
def test_enter_indents_after_an_opened_block_or_call(line: str, indents: bool):
    config = json.loads((VSCODE / "language-configuration.json").read_text("utf-8"))
    rules = config["indentationRules"]
    assert bool(re.match(rules["increaseIndentPattern"], line)) is indents
    assert re.match(rules["decreaseIndentPattern"], "  }")
