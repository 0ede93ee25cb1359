"""A grammar-aware fuzzer for `.agent` files: programs derived from the grammar itself,
and mutations of real files, each put through every command that reads a file.

Input: a seed and a count. Output: the inputs that crashed, hung or broke a promise, each
with what went wrong. Two sources of text, deterministic for a seed:

- derivations: random walks of `grammar/agent.lark`'s rules (the parser's own analysed
  rules, so the fuzzer cannot drift from the grammar), with a depth budget past which the
  shortest expansion is taken, terminals drawn from a vocabulary of the language's real
  words (settings, middlewares, reducers, hook points) so the checker is reached, not only
  the parser;
- mutations: token deletions, duplications, swaps, replacements and inserted derivations
  applied to the repository's own `.agent` files (examples and check cases).

Each input is written to a file and put through `check` (human and JSON), `ir`, `graph`
(mermaid and dot), `explain` (text and JSON) in-process, then, when it compiles, bound as
`agentc.load` does. A promise is broken when a command raises (a traceback would reach the
user), exits with a code other than 0, 1 or 2, prints JSON that does not parse, reports a
span whose byte offsets do not hold the text its character offsets do, or when binding
raises anything but agentc's own run-time errors. Each input has a hang guard: an input
still running after `HANG_S` seconds is a failure (a hang, not a slow case).

Run more than CI does: `python -m tests.fuzz.grammar_fuzz --count 20000 --seed 7`.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import random
import re
import shutil
import signal
import sys
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import FrameType

from lark import Lark
from lark.grammar import NonTerminal, Rule, Terminal
from lark.lexer import PatternStr

REPO = Path(__file__).resolve().parents[2]
HANG_S = 20  # far beyond any real input (milliseconds); only a hang reaches it
MAX_DEPTH = 9

WORDS = (
    # names a file declares and refers to
    "a", "b", "w", "t", "calc", "Answer", "State", "tools", "messages", "value", "log",
    # settings, options and keys the checker knows
    "temperature", "max_tokens", "timeout", "retry", "steps", "step_timeout", "recursion",
    "cache", "ttl", "defer", "goto", "input", "into", "via", "handle_errors", "run", "thread",
    "durability", "api_key_env", "base_url", "headers", "env", "execution", "trigger",
    # built-ins: middlewares, routers, reducers, hook points, node kinds, types
    "model_call_limit", "tool_call_limit", "summarization", "human_in_the_loop",
    "shell_tool", "file_search", "todo_list", "pii", "model_retry", "tools_condition",
    "append", "merge", "add", "replace", "before_model", "after_model", "wrap_model_call",
    "before_agent", "after_agent", "wrap_tool_call", "python", "model", "tools", "subgraph",
    "str", "int", "float", "bool", "list", "dict", "any", "START", "END", "sqlite", "memory",
)  # fmt: skip
STRINGS = (
    '"openai:gpt-4o-mini"', '"scripted"', '"anthropic:claude-sonnet-4-5"', '"./tools.py"',
    '"./missing.agent"', '"http://127.0.0.1:9/mcp"', '"pkg.mod:Thing"', '""', '"a\\nb"',
    '"{x} and {{y}}"', '"x.db"', '"\\u00e9\\t"', '"sk-not-a-key"', '"../outside.agent"',
    '"/etc/passwd"', '"ü ✓ 漢字"', '"\\q"',
)  # fmt: skip
LONG_STRINGS = ('"""\n    Hello {name}.\n  """', '""""""', '"""a "quoted" b"""')
NUMBERS = {
    "INT": ("0", "1", "3", "25", "1000000", "99999999999999999999999"),
    "FLOAT": ("0.5", "1.0", "1e309", "2.5e-3"),
    "DURATION": ("30s", "500ms", "0s", "2m", "99999h", "1.5s"),
    "BAD_NUMBER": ("30x", "1_000", "0x10"),
}
GAPS = (" ", " ", " ", "\n", "\n  ", "\r\n", "  # a comment\n", "\t")
TOKEN = re.compile(
    r'#[^\n]*|"""(?:[^"\\]|\\[\s\S]|"(?!""))*"""|"(?:[^"\\\n]|\\.)*"|\d[\w.]*|[A-Za-z_]\w*|->|==|!=|'
    r"<=|>=|\.\.\.|\S"
)


@dataclass(frozen=True, slots=True)
class Problem:
    seed: str  # how to find the input again: "derive:7:123" or "mutate:7:123:<file>"
    what: str
    text: str


class Grammar:
    """The parser's analysed rules, walked at random."""

    def __init__(self, parser: Lark) -> None:
        self.rules: dict[str, list[Rule]] = {}
        for rule in parser.rules:
            self.rules.setdefault(rule.origin.name, []).append(rule)
        self.literals = {
            t.name: t.pattern.value for t in parser.terminals if isinstance(t.pattern, PatternStr)
        }
        self.keywords = {v for v in self.literals.values() if v.isidentifier()}
        self.height = self._heights()

    def _heights(self) -> dict[str, int]:
        """How deep the shortest derivation of each rule goes (a fixed point)."""
        height: dict[str, int] = {}
        changed = True
        while changed:
            changed = False
            for name, rules in self.rules.items():
                for rule in rules:
                    subs = [
                        height.get(s.name) for s in rule.expansion if isinstance(s, NonTerminal)
                    ]
                    if any(h is None for h in subs):
                        continue
                    h = 1 + max((h for h in subs if h is not None), default=0)
                    if h < height.get(name, 1 << 30):
                        height[name] = h
                        changed = True
        return height

    def derive(self, rng: random.Random, symbol: str = "start") -> list[str]:
        out: list[str] = []
        self._walk(rng, symbol, 0, out)
        return out

    def _walk(self, rng: random.Random, symbol: str, depth: int, out: list[str]) -> None:
        if symbol == "version" and rng.random() < 0.9:  # mostly the one version there is
            out += ["agentc", "1"]
            return
        rules = self.rules[symbol]
        if depth >= MAX_DEPTH:  # past the budget: the shortest way out
            least = min(self._rule_height(r) for r in rules)
            rules = [r for r in rules if self._rule_height(r) == least]
        for part in rng.choice(rules).expansion:
            if isinstance(part, NonTerminal):
                self._walk(rng, part.name, depth + 1, out)
            else:
                out.append(self.terminal(rng, part))

    def _rule_height(self, rule: Rule) -> int:
        subs = [
            self.height.get(s.name, 1 << 30) for s in rule.expansion if isinstance(s, NonTerminal)
        ]
        return max(subs, default=0)

    def terminal(self, rng: random.Random, part: Terminal) -> str:
        if part.name in self.literals:
            return self.literals[part.name]
        if part.name == "NAME":
            return rng.choice(WORDS)
        if part.name == "STRING":
            return rng.choice(STRINGS)
        if part.name == "LONG_STRING":
            return rng.choice(LONG_STRINGS)
        return rng.choice(NUMBERS[part.name])


def join(rng: random.Random, tokens: Sequence[str]) -> str:
    return "".join(token + rng.choice(GAPS) for token in tokens)


def derived(grammar: Grammar, rng: random.Random) -> str:
    return join(rng, grammar.derive(rng))


def mutated(grammar: Grammar, rng: random.Random, text: str) -> str:
    tokens = [t for t in TOKEN.findall(text) if not t.startswith("#")]  # no comments
    gentle = rng.random() < 0.5  # half keep the syntax, to reach the checker and binding
    for _ in range(rng.randint(1, 4)):
        if not tokens:
            break
        i = rng.randrange(len(tokens))
        op = 9 if gentle else rng.randrange(10)
        if op >= 6:  # a word for a word, a string for a string: the syntax survives
            if not gentle or tokens[i] not in grammar.keywords:
                tokens[i] = _same_kind(rng, tokens[i])
        elif op == 0:
            del tokens[i]
        elif op == 1:
            tokens.insert(i, tokens[i])
        elif op == 2 and i + 1 < len(tokens):
            tokens[i], tokens[i + 1] = tokens[i + 1], tokens[i]
        elif op == 3:
            tokens[i] = rng.choice([*grammar.literals.values(), *WORDS, *STRINGS])
        elif op == 4:
            symbol = rng.choice(("agent_stmt", "graph_stmt", "expr", "type", "item", "map"))
            tokens[i:i] = grammar.derive(rng, symbol) if symbol in grammar.rules else []
        else:
            tokens = tokens[:i]
    return join(rng, tokens)


def _same_kind(rng: random.Random, token: str) -> str:
    if token.startswith('"""'):
        return rng.choice(LONG_STRINGS)
    if token.startswith('"'):
        return rng.choice(STRINGS)
    if token[0].isdigit():
        return rng.choice(rng.choice(list(NUMBERS.values())))
    if token[0].isalpha() or token[0] == "_":
        return rng.choice(WORDS)
    return token


def seed_files() -> list[Path]:
    found = [*REPO.glob("examples/**/*.agent"), *REPO.glob("tests/checks/*.agent")]
    return sorted(p for p in found if p.is_file())


def inputs(seed: int, count: int) -> Iterator[tuple[str, str, str]]:
    """`count` inputs for `seed`, half derived from the grammar, half mutated files: each
    (name, text, the folder it lives in, relative to the repository, for its `use`s)."""
    from agentc.grammar import load_parser

    grammar = Grammar(load_parser())
    files = seed_files()
    texts = [p.read_text(encoding="utf-8") for p in files]
    for n in range(count):
        rng = random.Random(f"{seed}:{n}")
        if n % 2 == 0:
            yield f"derive:{seed}:{n}", derived(grammar, rng), "examples"
        else:
            k = rng.randrange(len(texts))
            where = files[k].relative_to(REPO)
            text = mutated(grammar, rng, texts[k])
            yield f"mutate:{seed}:{n}:{where}", text, str(where.parent)


# ---------------------------------------------------------------- putting one input through


class Hang(Exception):
    pass


@contextlib.contextmanager
def hang_guard(seconds: float) -> Iterator[None]:
    def alarm(signum: int, frame: FrameType | None) -> None:
        raise Hang(f"still running after {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


COMMANDS = (
    ("check",),
    ("check", "--format", "json"),
    ("ir",),
    ("graph", "--format", "mermaid"),
    ("graph", "--format", "dot", "-o", "{out}"),
    ("explain",),
    ("explain", "--format", "json"),
)


def exercise(text: str, folder: Path) -> list[str]:
    """What broke for this input (empty: every promise held)."""
    from agentc import cli

    path = folder / "fuzz.agent"
    raw = text.encode("utf-8", errors="surrogatepass")
    path.write_bytes(raw)
    problems: list[str] = []
    for command in COMMANDS:
        argv = [a.replace("{out}", str(folder / "out.dot")) for a in command] + [str(path)]
        out, err = io.StringIO(), io.StringIO()
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                code = cli.main(argv)
        except Hang:
            raise
        except BaseException as e:  # noqa: BLE001 - any escape is the finding
            problems.append(f"`agentc {' '.join(command)}` raised {type(e).__name__}: {e}")
            continue
        if code not in (0, 1, 2):
            problems.append(f"`agentc {' '.join(command)}` exited {code}")
        if "json" in command and (out.getvalue() or command[0] == "check"):
            problems += _json_problems(command, out.getvalue(), raw, text)
    if not problems:
        problems += _bind_problems(path)
    return problems


def _json_problems(command: Sequence[str], out: str, raw: bytes, text: str) -> list[str]:
    try:
        doc = json.loads(out)
    except ValueError as e:
        return [f"`agentc {' '.join(command)}` printed JSON that does not parse: {e}"]
    problems = []
    for d in doc.get("diagnostics", []) if isinstance(doc, dict) else []:
        span = d.get("span") or {}
        if span.get("file") != d.get("file") or not span:
            continue  # a span in another file (a `use`d one)
        start, end = span["start"], span["end"]
        by_bytes = raw[start["byte"] : end["byte"]].decode("utf-8", errors="replace")
        if by_bytes != text[start["offset"] : end["offset"]]:
            problems.append(f"byte offsets of `{d['code']}` do not hold its text")
        if start["line"] != text.count("\n", 0, start["offset"]) + 1:
            problems.append(f"line of `{d['code']}` does not match its offset")
    return problems


def _bind_problems(path: Path) -> list[str]:
    from agentc.api import compile_program, load
    from agentc.runtime.errors import AgentcRuntimeError

    try:
        compile_program(path)
    except Exception:  # noqa: BLE001 - not a program: check already reported it
        return []
    try:
        load(path)
    except AgentcRuntimeError:
        return []  # a clear run-time error with a code: a promise kept
    except Exception as e:  # noqa: BLE001
        return [f"binding raised {type(e).__name__}: {e}"]
    return []


def run(seed: int, count: int, scratch: Path) -> list[Problem]:
    """Fuzz in `scratch`: each input sits in a copy of its seed file's folder, so its
    `use "./tools.py"` finds the module and binding is reached."""
    problems = []
    homes: dict[str, Path] = {}
    for name, text, home in inputs(seed, count):
        if home not in homes:
            homes[home] = scratch / f"home{len(homes)}"
            ignore = shutil.ignore_patterns("__pycache__", "*.db*", "*.agent", "replies")
            shutil.copytree(REPO / home, homes[home], ignore=ignore)
        try:
            with hang_guard(HANG_S):
                found = exercise(text, homes[home])
        except Hang as e:
            found = [f"hang: {e}"]
        problems += [Problem(name, what, text) for what in found]
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=2000)
    parser.add_argument("--save", type=Path, help="write each failing input to this folder")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        problems = run(args.seed, args.count, Path(tmp))
    for p in problems:
        print(f"{p.seed}: {p.what}")
        if args.save:
            args.save.mkdir(parents=True, exist_ok=True)
            (args.save / (p.seed.replace(":", "_").replace("/", "_") + ".agent")).write_text(p.text)
    print(f"{args.count} inputs, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
