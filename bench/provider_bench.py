"""Streaming overhead of agentc's providers vs the official SDKs, against the fake server.

Measures, for OpenAI chat completions and Anthropic messages, streamed through agentc's
providers and through the official `openai` / `anthropic` SDKs (bench-only installs):
  - first byte → first delta: from the server writing the first byte of the stream body
    (`time.perf_counter` in the server process; CLOCK_MONOTONIC, shared across processes on
    Linux) to the client holding the first text delta;
  - per-token: wall time from the first to the last text delta, divided by the tokens;
and then 100 concurrent streaming calls through one pooled agentc client.

    python bench/provider_bench.py [--runs 30] [--tokens 200]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import time

import httpx

from agentc.stdlib.messages import HumanMessage
from agentc.stdlib.providers import http
from agentc.stdlib.providers.base import ModelRequest
from agentc.stdlib.providers.registry import model_spec, resolve_model

KEY = "sk-bench-0000000000"
CLIENT_KEYS = {("client", "openai"), ("wire", "openai")}  # an httpx client, a lean pool
REQUEST = ModelRequest(messages=(HumanMessage(content="count"),))


def start_server() -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "agentc.testing.fake_provider", "--port", "0"],
        stdout=subprocess.PIPE,
        text=True,
    )
    line = proc.stdout.readline().strip()
    return proc, line.rsplit(" ", 1)[-1]


class Control:
    def __init__(self, url: str) -> None:
        self.http = httpx.Client(base_url=url)

    def push(self, tokens: int, n: int = 1) -> None:
        chunks = [f"tok{i} " for i in range(tokens)]
        self.http.post("/_fake/push", json=[{"chunks": chunks, "text": "".join(chunks)}] * n)

    def last_first_byte(self) -> float:
        return self.http.get("/_fake/requests").json()[-1]["first_byte_at"]

    def reset(self) -> None:
        self.http.post("/_fake/reset", json={})


async def _time_stream(deltas) -> tuple[float, float, int]:
    first = last = 0.0
    count = 0
    async for text in deltas:
        if text:
            last = time.perf_counter()
            first = first or last
            count += 1
    return first, last, count


async def agentc_texts(model):
    async for d in model.stream(REQUEST):
        yield d.text


async def openai_sdk_texts(client):
    stream = await client.chat.completions.create(
        model="gpt-4o-mini",
        messages=[{"role": "user", "content": "count"}],
        stream=True,
        stream_options={"include_usage": True},
    )
    async for chunk in stream:
        yield chunk.choices[0].delta.content if chunk.choices else None


async def anthropic_sdk_texts(client):
    stream = await client.messages.create(
        model="claude-sonnet-4-5",
        max_tokens=1024,
        stream=True,
        messages=[{"role": "user", "content": "count"}],
    )
    async for event in stream:
        if event.type == "content_block_delta" and event.delta.type == "text_delta":
            yield event.delta.text


async def measure(name: str, make_stream, control: Control, runs: int, tokens: int) -> dict:
    firsts, per_token = [], []
    for i in range(runs + 1):
        control.push(tokens)
        first, last, count = await _time_stream(make_stream())
        assert count == tokens, f"{name}: got {count} text deltas, expected {tokens}"
        if i == 0:
            continue  # warm-up: connection set-up
        firsts.append((first - control.last_first_byte()) * 1e6)
        per_token.append((last - first) / (tokens - 1) * 1e6)
    return {
        "name": name,
        "first_us": statistics.median(firsts),
        "first_p90_us": sorted(firsts)[int(0.9 * len(firsts)) - 1],
        "per_token_us": statistics.median(per_token),
    }


async def concurrent(url: str, control: Control, n: int, tokens: int) -> str:
    control.push(tokens, n)
    model = resolve_model(model_spec("openai:gpt-4o-mini", {"base_url": url + "/v1"}))
    started = time.perf_counter()
    results = await asyncio.gather(
        *(_time_stream(agentc_texts(model)) for _ in range(n)), return_exceptions=True
    )
    elapsed = time.perf_counter() - started
    errors = [r for r in results if isinstance(r, BaseException)]
    short = [r for r in results if not isinstance(r, BaseException) and r[2] != tokens]
    clients = {k for k, v in http._pool().items() if k[:2] in CLIENT_KEYS and v is not None}
    return (
        f"{n} concurrent streams x {tokens} tokens: {elapsed:.2f} s, "
        f"{len(errors)} errors, {len(short)} incomplete, {len(clients)} pooled openai client(s)"
        + (f"; first error: {errors[0]!r}" if errors else "")
    )


async def main_async(url: str, runs: int, tokens: int) -> None:
    import anthropic
    import openai

    os.environ["OPENAI_API_KEY"] = os.environ["ANTHROPIC_API_KEY"] = KEY
    control = Control(url)
    ours_o = resolve_model(model_spec("openai:gpt-4o-mini", {"base_url": url + "/v1"}))
    ours_a = resolve_model(model_spec("anthropic:claude-sonnet-4-5", {"base_url": url}))
    sdk_o = openai.AsyncOpenAI(api_key=KEY, base_url=url + "/v1")
    sdk_a = anthropic.AsyncAnthropic(api_key=KEY, base_url=url)
    rows = [
        await measure("agentc openai", lambda: agentc_texts(ours_o), control, runs, tokens),
        await measure("openai SDK", lambda: openai_sdk_texts(sdk_o), control, runs, tokens),
        await measure("agentc anthropic", lambda: agentc_texts(ours_a), control, runs, tokens),
        await measure("anthropic SDK", lambda: anthropic_sdk_texts(sdk_a), control, runs, tokens),
    ]
    print(f"\nstreaming, {runs} runs x {tokens} tokens (median; p90 for first delta)")
    print(f"{'client':<18}{'first byte→first delta':>26}{'p90':>10}{'per token':>12}")
    for r in rows:
        print(
            f"{r['name']:<18}{r['first_us']:>23.0f} µs{r['first_p90_us']:>7.0f} µs"
            f"{r['per_token_us']:>9.1f} µs"
        )
    control.reset()
    print(await concurrent(url, control, 100, 50))
    await http.close_clients()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--tokens", type=int, default=200)
    args = parser.parse_args()
    proc, url = start_server()
    try:
        asyncio.run(main_async(url, args.runs, args.tokens))
    finally:
        proc.terminate()
        proc.wait()


if __name__ == "__main__":
    main()
