"""Middleware benchmarks (issue 6): hook overhead vs create_agent, and PII throughput.

1. Hook overhead: one agent with 5 no-op `before_model` hooks and one without, same
   scripted one-reply workload, in agentc and in LangChain's create_agent (GenericFakeChat
   model). Reported: the added time per invoke, per hook, and agentc's added cost as a
   fraction of create_agent's (target <= 0.10).
2. PII: each built-in detector (and all five together, strategy redact) over a 1 MB
   tool-result text with scattered PII; MB/s on one core (target >= 50).

Run: python bench/middleware_bench.py [--runs N]
"""

from __future__ import annotations

import argparse
import random
import string
import sys
import tempfile
import textwrap
import time
from pathlib import Path

HOOKS_PY = "from agentc.middleware import before_model\n" + "".join(
    f"\n@before_model\ndef hook{i}(state, runtime):\n    return None\n" for i in range(5)
)


def agentc_agents(tmp: Path):
    from agentc.api import load_agent

    (tmp / "hooks.py").write_text(HOOKS_PY)
    hooks = "\n".join(f"    hooks.hook{i}" for i in range(5))
    base = (
        'use "./hooks.py" as hooks\nagent a {{\n  model "scripted" {{ replies: ["ok"], '
        "cycle: true }}\n{mw}\n  checkpoint none\n}}\n"
    )
    (tmp / "plain.agent").write_text(base.format(mw=""))
    (tmp / "hooks.agent").write_text(base.format(mw=f"  middleware {{\n{hooks}\n  }}"))
    return load_agent(tmp / "plain.agent"), load_agent(tmp / "hooks.agent")


def lc_agents():
    from langchain.agents import create_agent
    from langchain.agents.middleware import before_model
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
    from langchain_core.messages import AIMessage

    def model():
        return GenericFakeChatModel(messages=iter([AIMessage("ok")] * 10**6))

    def noop(state, runtime):
        return None

    hooks = [before_model(noop, name=f"hook{i}") for i in range(5)]
    return create_agent(model=model(), tools=[]), create_agent(
        model=model(), tools=[], middleware=hooks
    )


def per_invoke(agent, runs: int) -> float:
    msg = {"messages": [{"role": "user", "content": "hi"}]}
    for _ in range(20):
        agent.invoke(msg)
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for _ in range(runs):
            agent.invoke(msg)
        best = min(best, (time.perf_counter() - start) / runs)
    return best


def hook_overhead(runs: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        plain, hooked = agentc_agents(Path(tmp))
        a0, a5 = per_invoke(plain, runs), per_invoke(hooked, runs)
    print(
        f"agentc:       plain {a0 * 1e6:8.1f} us/invoke, 5 hooks {a5 * 1e6:8.1f} us/invoke, "
        f"added {(a5 - a0) / 5 * 1e6:7.1f} us/hook"
    )
    try:
        l_plain, l_hooked = lc_agents()
    except ImportError as exc:
        print(f"create_agent: skipped ({exc})")
        return
    l0, l5 = per_invoke(l_plain, runs), per_invoke(l_hooked, runs)
    print(
        f"create_agent: plain {l0 * 1e6:8.1f} us/invoke, 5 hooks {l5 * 1e6:8.1f} us/invoke, "
        f"added {(l5 - l0) / 5 * 1e6:7.1f} us/hook"
    )
    print(f"added cost ratio agentc/create_agent: {(a5 - a0) / (l5 - l0):.3f} (target <= 0.10)")


def pii_text(size: int = 1_000_000) -> str:
    rng = random.Random(7)
    words = ["".join(rng.choices(string.ascii_lowercase, k=rng.randint(2, 9))) for _ in range(3000)]
    specials = [
        "john.doe@example.com",
        "4111 1111 1111 1111",
        "192.168.1.23",
        "https://example.com/a/b?x=1",
        "00:1A:2B:3C:4D:5E",
        "www.example.org/page",
        '{"id": 12345, "path": "/var/log/app.log"}',
    ]
    parts, n = [], 0
    while n < size:
        w = rng.choice(specials) if rng.random() < 0.01 else rng.choice(words)
        if rng.random() < 0.05:
            w += rng.choice(".,:;")
        parts.append(w)
        n += len(w) + 1
    return " ".join(parts)[:size]


def pii_throughput() -> None:
    from agentc.stdlib.middleware.pii import PII

    text = pii_text()
    mb = len(text.encode()) / 1e6
    total = 0.0
    for kind in ("email", "credit_card", "ip", "mac_address", "url"):
        mw = PII(kind)
        best = min(_timed(lambda mw=mw: mw.scrub(text)) for _ in range(5))
        total += best
        print(f"pii {kind:12s} {mb / best:8.0f} MB/s")
    print(f"pii all five  {mb / total:8.0f} MB/s (one core, 1 MB tool result; target >= 50 each)")


def _timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=textwrap.dedent(__doc__ or ""))
    parser.add_argument("--runs", type=int, default=300)
    args = parser.parse_args(argv)
    hook_overhead(args.runs)
    pii_throughput()
    return 0


if __name__ == "__main__":
    sys.exit(main())
