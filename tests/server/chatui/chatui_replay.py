"""Replay Agent Chat UI's request sequence (sequence.json) against a server with httpx.

Each step sends the request the UI would send (path, body, the browser's Origin header),
then checks what the UI reads: the status, some headers, the JSON shape, and for a stream
the SSE events (the first one, the kinds seen, the last `values` payload). A step's result
is a list of problems; an empty list is a pass.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from agentc.testing.fake_provider import FakeProviderServer, FakeReply

SEQUENCE = json.loads((Path(__file__).parent / "sequence.json").read_text())
STEP_NAMES = [s["name"] for s in SEQUENCE["steps"]]
HANG_S = 60.0

KINDS = {"array": list, "object": dict, "string": str}


@dataclass
class Replay:
    url: str
    fake: FakeProviderServer
    saved: dict[str, Any] = field(default_factory=dict)

    def fill(self, value: Any) -> Any:
        if isinstance(value, dict):
            return {k: self.fill(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self.fill(v) for v in value]
        if isinstance(value, str):
            whole = re.fullmatch(r"\{(\w+)\}", value)
            if whole and whole.group(1) in self.saved:
                return self.saved[whole.group(1)]
            return re.sub(
                r"\{(\w+)\}", lambda m: str(self.saved.get(m.group(1), m.group(0))), value
            )
        return value


def parse_sse(body: str) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    current: dict[str, Any] = {}
    for line in body.splitlines():
        if not line:
            if "event" in current or "data" in current:
                events.append(current)
            current = {}
        elif line.startswith(":"):
            continue
        else:
            name, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if name == "data":
                current["data"] = current.get("data", "") + value
            else:
                current[name] = value
    if current:
        events.append(current)
    for e in events:
        try:
            e["data"] = json.loads(e.get("data") or "null")
        except ValueError:
            pass
    return events


def dig(value: Any, path: str) -> Any:
    for part in [p for p in path.split(".") if p]:
        if isinstance(value, list):
            value = value[int(part)]
        elif isinstance(value, dict):
            value = value[part]
        else:
            raise KeyError(part)
    return value


def shape_problems(value: Any, checks: list[list[Any]], replay: Replay, where: str) -> list[str]:
    problems = []
    for path, want in checks:
        try:
            got = dig(value, path)
        except (KeyError, IndexError, ValueError, TypeError):
            problems.append(f"{where}: no {path or 'value'} (the UI reads it)")
            continue
        want = replay.fill(want)
        if want in KINDS:
            if not isinstance(got, KINDS[want]):
                problems.append(f"{where}: {path or 'value'} is {type(got).__name__}, not {want}")
        elif got != want:
            problems.append(f"{where}: {path or 'value'} is {got!r}, not {want!r}")
    return problems


def run_step(replay: Replay, step: dict[str, Any]) -> list[str]:
    if "replies" in step:  # a step without replies leaves a model call under way alone
        replay.fake.reset()
    replay.fake.push(*(FakeReply.from_dict(r) for r in step.get("replies", [])))
    headers = {"origin": SEQUENCE["origin"], **step.get("headers", {})}
    if step.get("sse"):
        headers["accept"] = "text/event-stream"
    body = replay.fill(step["json"]) if "json" in step else None
    path = replay.fill(step["path"])
    try:
        if "hangup_after" in step:
            response, text = _hang_up(step, replay.url + path, body, headers)
        else:
            response = httpx.request(
                step["method"], replay.url + path, json=body, headers=headers, timeout=HANG_S
            )
            text = response.text
    except httpx.HTTPError as e:
        return [f"{step['method']} {path}: {type(e).__name__}: {e}"]
    expect = step["expect"]
    where = f"{step['method']} {path}"
    if response.status_code not in expect["status"]:
        want = expect["status"]
        return [f"{where}: status {response.status_code}, want {want}: {response.text[:300]}"]
    problems = []
    for name, pattern in expect.get("headers", {}).items():
        got = response.headers.get(name)
        if got is None or not re.search(replay.fill(pattern), got):
            problems.append(f"{where}: header {name} is {got!r}, want /{replay.fill(pattern)}/")
    payload: Any = None
    if step.get("sse"):
        payload = parse_sse(text)
        problems += sse_problems(payload, expect, replay, where)
    elif "json" in expect or "save" in step:
        try:
            payload = response.json() if response.content else None
        except ValueError:
            return problems + [f"{where}: the answer is not JSON: {response.text[:200]}"]
        problems += shape_problems(payload, expect.get("json", []), replay, where)
    if not problems:
        for name, path in step.get("save", {}).items():
            value = dig(payload, path) if not step.get("sse") else _sse_value(payload, path)
            if isinstance(value, dict):
                value = {k: v for k, v in value.items() if k not in step.get("save_without", [])}
            replay.saved[name] = value
    return problems


def _hang_up(
    step: dict[str, Any], url: str, body: Any, headers: dict[str, str]
) -> tuple[httpx.Response, str]:
    """The UI's stop button: read the stream's first events, then close the connection."""
    lines: list[str] = []
    with httpx.stream(step["method"], url, json=body, headers=headers, timeout=HANG_S) as r:
        for line in r.iter_lines():
            lines.append(line)
            if len(parse_sse("\n".join(lines) + "\n\n")) > step["hangup_after"]:
                lines.pop()  # the event after the last one wanted has begun: not read
                break
    return r, "\n".join(lines) + "\n"


def _sse_value(events: list[dict[str, Any]], path: str) -> Any:
    kind, _, rest = path.partition(".")
    first = next(e for e in events if e.get("event") == kind)
    return dig(first["data"], rest)


def sse_problems(
    events: list[dict[str, Any]], expect: dict[str, Any], replay: Replay, where: str
) -> list[str]:
    kinds = [e.get("event", "").split("|")[0] for e in events]
    problems = []
    if "first_event" in expect and (not kinds or kinds[0] != expect["first_event"]):
        problems.append(f"{where}: the stream starts with {kinds[:1]}, not {expect['first_event']}")
    missing = [k for k in expect.get("events", []) if k not in kinds]
    if missing:
        problems.append(f"{where}: no {missing} event in the stream (saw {sorted(set(kinds))})")
    errors = [e["data"] for e in events if e.get("event") == "error"]
    if errors:
        problems.append(f"{where}: the stream sent an error: {errors[0]}")
    values = [e["data"] for e, k in zip(events, kinds, strict=True) if k == "values"]
    if "last_values" in expect:
        if not values:
            problems.append(f"{where}: no values event")
        else:
            problems += shape_problems(values[-1], expect["last_values"], replay, where + " values")
    return problems


def replay_all(url: str, fake: FakeProviderServer) -> dict[str, list[str]]:
    replay = Replay(url, fake, {"assistant": SEQUENCE["assistant"]})
    return {step["name"]: run_step(replay, step) for step in SEQUENCE["steps"]}
