"""The data of a graph scenario and what both sides share: discovering the folders, the
trace, normalisation (messages, models, Sends, interrupts as plain data), the stream cut
into supersteps, errors, and the comparison. See graph_harness.py for the whole picture."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import shutil
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SCENARIOS = HERE / "scenarios"
sys.path.insert(0, str(HERE))


# LangGraph's exception names → the agentc class that reports the same failure.
SAME_FAILURE = {
    "GraphRecursionError": "RecursionLimitError",
    "InvalidUpdateError": "InvalidUpdateError",
    "EmptyInputError": "EmptyInputError",
    "ParentCommand": "InvalidUpdateError",
}


@dataclass(frozen=True)
class Scenario:
    name: str
    dir: Path  # where its files are: its folder, or its folder laid over `files_from`'s
    data: dict[str, Any]

    @property
    def runs(self) -> list[dict[str, Any]]:
        return self.data["runs"]

    @property
    def graph(self) -> str | None:
        return self.data.get("graph")

    @property
    def oracle_kwargs(self) -> dict[str, Any]:
        """Keyword arguments of the oracle's `build(kit, …)` (a variant of a shared graph)."""
        return self.data.get("oracle_kwargs", {})


def discover() -> list[Scenario]:
    data = {
        d.name: json.loads((d / "scenario.json").read_text())
        for d in sorted(SCENARIOS.iterdir())
        if (d / "scenario.json").exists()
    }
    return [Scenario(name, files_of(name, data), data[name]) for name in data]


# ---------------------------------------------------------------- shared graphs

# what a folder shares with the one it names in `files_from` (scenario.json never)
SHARED = ("oracle.py", "graph.agent", "steps.py", "replies")


def layers(name: str, data: dict[str, dict[str, Any]]) -> list[Path]:
    """The folders a scenario's files come from, the one it names first (`files_from`,
    followed on), its own last: a file of a later folder replaces one of an earlier."""
    chain: list[str] = []
    while name not in chain:
        chain.insert(0, name)
        if "files_from" not in data[name]:
            return [SCENARIOS / n for n in chain]
        name = data[name]["files_from"]
        assert name in data, f"files_from names no scenario: {name}"
    raise AssertionError(f"files_from goes round in a circle: {chain}")


def files_of(name: str, data: dict[str, dict[str, Any]]) -> Path:
    """The folder holding a scenario's files: its own, or (with `files_from`) a copy where its
    files are laid over the named folder's, so that `use "./steps.py"` and
    `scripted:replies/…` in graph.agent find this scenario's steps and replies."""
    folders = layers(name, data)
    if len(folders) == 1:
        return folders[0]
    files = {
        rel: path
        for folder in folders
        for path in sorted(folder.rglob("*"))
        if path.is_file() and (rel := path.relative_to(folder)).parts[0] in SHARED
    }
    return _materialise(name, files)


def _materialise(name: str, files: dict[Path, Path]) -> Path:
    """The files copied into a folder named after their content: the same content is the same
    folder (agentc's IR cache keys on the path), made whole before it takes that name (other
    runs of the suite may be reading it at the same time)."""
    h = hashlib.sha1()
    for rel, path in sorted(files.items()):
        h.update(str(rel).encode() + b"\0" + path.read_bytes() + b"\0")
    root = Path(tempfile.gettempdir()) / "agentc-graph-scenarios"
    final = root / f"{name}-{h.hexdigest()[:12]}"
    if final.is_dir():
        return final
    root.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{name}-", dir=root))
    for rel, path in files.items():
        (work / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, work / rel)
    try:
        work.rename(final)
    except OSError:  # another run made it first: its copy is the same
        shutil.rmtree(work, ignore_errors=True)
    return final


@dataclass
class Trace:
    ops: list[dict[str, Any]] = field(default_factory=list)
    calls: dict[str, list[Any]] = field(default_factory=dict)
    stored: list[Any] = field(default_factory=list)
    probe: Any = None  # what steps.py's `probe()` saw (attempts, calls), read after the run
    missing: list[str] = field(default_factory=list)  # public helpers agentc lacks (dualside)


# ---------------------------------------------------------------- normalisation

MESSAGE_TYPES = {"human", "ai", "system", "tool"}


def norm_message(m: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"type": m.type, "content": m.content}
    if getattr(m, "name", None):
        out["name"] = m.name
    if m.type == "ai":
        out["tool_calls"] = [
            [_get(c, "name"), _get(c, "args"), _get(c, "id")] for c in m.tool_calls
        ]
    if m.type == "tool":
        out.update(tool_call_id=m.tool_call_id, status=m.status)
    return out


def _get(obj: Any, key: str) -> Any:
    return obj[key] if isinstance(obj, dict) else getattr(obj, key)


def norm(value: Any) -> Any:
    """A value as plain JSON-like data: messages as dicts, models dumped, Sends and
    interrupts by their content, tuples as lists."""
    kind = type(value).__name__
    if getattr(value, "type", None) in MESSAGE_TYPES and hasattr(value, "content"):
        return norm_message(value)
    if getattr(value, "type", None) == "remove":  # RemoveMessage: only its target counts
        return {"type": "remove", "id": value.id}
    if kind == "Interrupt":
        return {"interrupt": norm(value.value)}
    if kind == "Send":
        return {"send": value.node, "arg": norm(value.arg)}
    if hasattr(value, "model_dump"):
        return norm(value.model_dump())
    if isinstance(value, dict):
        return {str(k): norm(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [norm(v) for v in value]
    return value


def canon(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=str)


class Steps:
    """The stream cut into supersteps at each `values` event."""

    def __init__(self) -> None:
        self.steps: list[dict[str, Any]] = []
        self.cur: dict[str, Any] = self._new()

    @staticmethod
    def _new() -> dict[str, Any]:
        return {"updates": [], "custom": [], "interrupts": []}

    def update(self, node: str, update: Any, meta: Any = None) -> None:
        item: dict[str, Any] = {node: norm(update)}
        if meta:
            item["__metadata__"] = norm(meta)
        self.cur["updates"].append(item)

    def custom(self, payload: Any) -> None:
        self.cur["custom"].append(norm(payload))

    def interrupts(self, values: list[Any]) -> None:
        # one event per pause as it is streamed; within it and within a step, tasks that
        # paused together are in no defined order (LangGraph: the order they finished)
        self.cur["interrupts"].append(sorted((norm(v) for v in values), key=canon))

    def values(self, values: dict[str, Any]) -> None:
        self.cur["values"] = norm(values)
        self._close()

    def _close(self) -> None:
        self.cur["updates"].sort(key=canon)
        self.cur["interrupts"].sort(key=canon)
        self.steps.append(self.cur)
        self.cur = self._new()

    def done(self) -> list[dict[str, Any]]:
        if self.cur["updates"] or self.cur["custom"] or self.cur["interrupts"]:
            self._close()
        return self.steps


def norm_snapshot(snap: Any, step: int, source: str) -> dict[str, Any]:
    return {
        "values": norm(dict(snap.values)),
        "next": sorted(snap.next),
        "step": step,
        "source": source,
    }


def error_of(exc: BaseException, mapped: bool) -> dict[str, Any]:
    name = type(exc).__name__
    if mapped:
        name = SAME_FAILURE.get(name, name)
    mro = [c.__name__ for c in type(exc).__mro__]
    return {"error": name, "mro": mro, "message": str(exc).strip()[:400]}


def same_error(expected: Any, got: Any) -> bool:
    """The same failure: the same (mapped) name, or agentc's error is an instance of it."""
    if not isinstance(expected, dict) or not isinstance(got, dict):
        return expected == got
    return expected["error"] == got["error"] or expected["error"] in got["mro"]


def load_module(path: Path, name: str) -> Any:
    """Import a scenario file under `name` (once)."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def load_steps(path: Path) -> Any:
    """steps.py under the name agentc's `use "./steps.py"` gives it, so both sides share one
    module (if agentc names it otherwise, each side has its copy; `reset_steps` resets both)."""
    if not path.exists():
        return None
    real = os.path.realpath(path)
    return load_module(path, f"agentc_user_{hashlib.sha1(real.encode()).hexdigest()[:12]}")


def reset_steps(path: Path) -> None:
    """Call `reset()` of every loaded copy of a steps.py (ours and agentc's)."""
    real = str(path.resolve())
    for mod in list(sys.modules.values()):
        f = getattr(mod, "__file__", None)
        if f and str(Path(f).resolve()) == real and hasattr(mod, "reset"):
            mod.reset()


def replies(sc: Scenario, name: str) -> list[Any]:
    data = json.loads((sc.dir / "replies" / f"{name}.json").read_text())
    return data if isinstance(data, list) else data["replies"]


def norm_call(messages: list[Any], tools: list[Any], choice: Any) -> dict[str, Any]:
    return {"messages": [norm_message(m) for m in messages], "tools": tools, "tool_choice": choice}


def answers_by_id(pending: Any, pairs: list[list[Any]]) -> dict[str, Any]:
    """`[[interrupt value, answer], …]` → `{interrupt id: answer}` for the pending ones."""
    out = {}
    for i in pending:
        answer = [a for v, a in pairs if canon(norm(v)) == canon(norm(i.value))]
        assert len(answer) == 1, f"no single answer for interrupt {i.value!r}"
        out[i.id] = answer[0]
    return out


def dump_store(store: Any) -> list[Any]:
    if store is None:
        return []
    items = [[list(i.namespace), i.key, norm(i.value)] for i in store.search((), limit=10_000)]
    return sorted(items, key=canon)


# ---------------------------------------------------------------- comparison


def oracle_problems(sc: Scenario, expected: Trace) -> list[str]:
    """LangGraph's side failing where the scenario does not say it fails (`"expect_error":
    NAME` on the op) is a broken scenario, not a pass, even if agentc fails alike."""
    out = []
    for i, (op, rec) in enumerate(zip(sc.runs, expected.ops, strict=True)):
        if rec.get("error") != op.get("expect_error"):
            out.append(
                f"op {i}: the oracle's error is {rec.get('error')} ({rec.get('message')}), "
                f"the scenario expects {op.get('expect_error')}"
            )
    return out


def compare(sc: Scenario, expected: Trace, got: Trace) -> list[str]:
    """Every difference, as short sentences (empty: the traces match)."""
    diffs = oracle_problems(sc, expected)
    diffs += [f"agentc does not export `{m}` (GRAPH_SPEC)" for m in got.missing]
    unordered = set(sc.data.get("unordered_calls", []))
    for i, (e, g) in enumerate(zip(expected.ops, got.ops, strict=True)):
        label = f"op {i} ({e['op']})"
        if not same_error(_err(e), _err(g)):
            diffs.append(f"{label}: error {e.get('error')} vs {g.get('error')}: {g.get('message')}")
        if e.get("steps") != g.get("steps"):
            for view in ("updates", "custom", "interrupts", "final"):
                a, b = stream_view(e.get("steps"), view), stream_view(g.get("steps"), view)
                if a != b:
                    diffs.append(f"{label}: {view} " + first_difference(a, b))
        for key in ("steps", "result", "state", "history"):
            if key in e and e.get(key) != g.get(key):
                diffs.append(f"{label}: {key} " + first_difference(e.get(key), g.get(key)))
    names = set(expected.calls) | set(got.calls)
    for name in sorted(names):
        e_calls, g_calls = expected.calls.get(name, []), got.calls.get(name, [])
        if name in unordered:
            e_calls, g_calls = sorted(e_calls, key=canon), sorted(g_calls, key=canon)
        if e_calls != g_calls:
            diffs.append(f"model {name}: calls " + first_difference(e_calls, g_calls))
    if expected.probe != got.probe:
        diffs.append(f"probe: langgraph {expected.probe} vs agentc {got.probe}")
    if expected.stored != got.stored:
        diffs.append(f"store\n  langgraph: {expected.stored}\n  agentc:    {got.stored}")
    return diffs


def stream_view(steps: list[dict[str, Any]] | None, view: str) -> Any:
    """One view of a streamed op, to say what differs: every update (a multiset), the custom
    events and interrupts in order, or the last values (`final`)."""
    steps = steps or []
    if view == "final":
        return next((s["values"] for s in reversed(steps) if "values" in s), None)
    items = [x for s in steps for x in s[view]]
    return sorted(items, key=canon) if view == "updates" else items


def first_difference(e: Any, g: Any) -> str:
    """Where two lists first differ (the whole values otherwise)."""
    if isinstance(e, list) and isinstance(g, list):
        for i, (a, b) in enumerate(zip(e, g, strict=False)):
            if a != b:
                return f"[{i}] of {len(e)} vs {len(g)}:\n  langgraph: {a}\n  agentc:    {b}"
        return f"lengths {len(e)} vs {len(g)}; extra: {e[len(g) :] or g[len(e) :]}"
    return f"\n  langgraph: {e}\n  agentc:    {g}"


def _err(rec: dict[str, Any]) -> Any:
    return {"error": rec["error"], "mro": rec.get("mro", [])} if "error" in rec else None
