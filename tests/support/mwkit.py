"""Helpers for middleware tests: write an `.agent` file (and Python beside it), run it."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import Any

from agentc.api import load_agent
from agentc.runtime import Command, RunConfig
from agentc.stdlib.providers.scripted import CREATED

TOOLS = '''
from agentc.middleware import AgentMiddleware, before_model, after_model, wrap_model_call, wrap_tool_call, before_agent, after_agent, dynamic_prompt

def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


def multiply(a: int, b: int) -> int:
    """Multiply two integers."""
    return a * b


def fetch_report(topic: str) -> str:
    """Fetch a long report."""
    return "LONG REPORT " * 50


def echo(text: str) -> str:
    """Echo the text back."""
    return text


FAILS = {"n": 0}


def flaky(x: int) -> int:
    """Fails twice, then answers."""
    FAILS["n"] += 1
    if FAILS["n"] <= 2:
        raise RuntimeError(f"boom {FAILS['n']}")
    return x


def broken(x: int) -> int:
    """Always fails."""
    raise ValueError("bad input")
'''  # noqa: E501 - fixture code, written to a file as is


def call(name: str, args: dict[str, Any], cid: str) -> dict[str, Any]:
    return {"name": name, "args": args, "id": cid}


def reply(content: str = "", *calls: dict[str, Any], usage: dict | None = None) -> dict:
    out: dict[str, Any] = {"content": content, "tool_calls": list(calls)}
    if usage:
        out["usage"] = usage
    return out


def write(tmp: Path, body: str, *, extra_py: str = "", name: str = "t.agent") -> Path:
    (tmp / "kit.py").write_text(TOOLS + textwrap.dedent(extra_py), encoding="utf-8")
    path = tmp / name
    path.write_text('use "./kit.py" as kit\n' + textwrap.dedent(body), encoding="utf-8")
    return path


def replies(*items: Any) -> str:
    return json.dumps(list(items))


def agent(
    tmp: Path,
    *,
    replies_: list[Any],
    middleware: str,
    tools: str = "",
    extra: str = "",
    extra_py: str = "",
) -> Any:
    body = f"""
    agent a {{
      model "scripted" {{ replies: {json.dumps(replies_)} }}
      {f"tools [{tools}]" if tools else ""}
      middleware {{
        {middleware}
      }}
      {extra}
    }}
    """
    return load_agent(write(tmp, body, extra_py=extra_py))


def ask(text: str = "hi") -> dict[str, Any]:
    return {"messages": [{"role": "user", "content": text}]}


def contents(result: dict[str, Any]) -> list[tuple[str, Any]]:
    return [(m.type, m.content) for m in result["messages"]]


def model_calls() -> list[Any]:
    return CREATED[-1].calls


__all__ = [
    "Command",
    "RunConfig",
    "agent",
    "ask",
    "call",
    "contents",
    "model_calls",
    "reply",
    "write",
]
