"""The studio page's speed in a real headless Chromium (Playwright, Debian's `chromium`).

1. Load: a thread of 1,000 messages (500 questions and answers, made on the server by a
   run that stops before the model) opened by address (`?assistant=…&thread=…`) in a fresh
   page, timed from `goto` to the 1,000th message on screen; `--loads` times, median and
   worst. Target: under 1 s.
2. Streaming: with that thread open, 100 stream events a second for `--seconds` seconds
   go through the page's own SSE reader and event handler (a stream made in the page, so
   what is timed is the page, not the server): every event a token of the reply
   (`messages`), every 10th an `updates` event that lights a node, every 50th a `values`
   event with the whole thread (1,000 messages and one more). Meanwhile Playwright types
   into the message box. Measured: whether the page kept up (events handled a second,
   the longest lag between an event's time and its handling), the frames (intervals
   between animation frames: median, p95, worst), the main thread's long tasks (over
   50 ms: count, longest) and the input delay of each key press (from the key's event
   time to the next frame). Target: responsive, i.e. frames p95 ≤ 50 ms and key presses
   answered within 100 ms (the RAIL budgets).

Run: `python bench/studio_bench.py [--loads 5] [--seconds 5]`. Needs the `serve` extra,
`playwright` (no browser download: `/usr/bin/chromium` is used) and `chromium`.
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "human_review.agent"
CHROMIUM = "/usr/bin/chromium"

STREAM = """async ({seconds, rate}) => {
  const state = await api("GET", `/threads/${ui.thread}/state`);
  const thread = state.values.messages;
  const enc = new TextEncoder();
  const lags = [], frames = [], keys = [];
  let handled = 0, last = performance.now(), running = true;
  const frame = (t) => {
    frames.push(t - last); last = t;
    if (running) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  const key = (e) => {
    const t = e.timeStamp;
    requestAnimationFrame(() => keys.push(performance.now() - t));
  };
  document.getElementById("message").addEventListener("keydown", key);
  const longs = [];
  const obs = new PerformanceObserver((l) => {
    for (const e of l.getEntries()) longs.push(e.duration);
  });
  obs.observe({ entryTypes: ["longtask"] });
  const total = seconds * rate;
  const body = new ReadableStream({ start(ctl) {
    let i = 0;
    const t0 = performance.now();
    const tick = () => {
      const due = Math.floor((performance.now() - t0) * rate / 1000);
      for (; i < Math.min(due, total); i++) {
        let event = "messages";
        let data = [{ content: "tok" + i + " ", id: "live" }, { langgraph_node: "model" }];
        if (i % 50 === 49) {
          event = "values";
          data = { messages: [...thread, { type: "ai", content: "streamed " + i, id: "s" + i }] };
        } else if (i % 10 === 9) {
          event = "updates";
          data = { [i % 20 === 9 ? "model" : "tools"]: {} };
        }
        (Array.isArray(data) ? data[1] : data).__sent = performance.now();
        const text = `event: ${event}\\ndata: ${JSON.stringify(data)}\\n\\n`;
        ctl.enqueue(enc.encode(text));
      }
      if (i >= total) ctl.close(); else setTimeout(tick, 1000 / rate);
    };
    tick();
  } });
  const start = performance.now();
  for await (const ev of sse({ body })) {
    const stamped = Array.isArray(ev.data) ? ev.data[1] : ev.data;
    const sent = stamped.__sent;
    delete stamped.__sent;
    onEvent(ev);
    handled++;
    lags.push(performance.now() - (sent || performance.now()));
  }
  const took = (performance.now() - start) / 1000;
  await new Promise((r) => setTimeout(r, 100));
  running = false;
  obs.disconnect();
  return { handled, took, lags, frames: frames.slice(1), keys, longs };
}"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_studio(workdir: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    argv = [sys.executable, "-m", "agentc", "studio", str(EXAMPLE), "--port", str(port)]
    log = (workdir / "studio.log").open("wb")
    proc = subprocess.Popen([*argv, "--db", "memory://"], cwd=workdir, stdout=log, stderr=log)
    url = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            if httpx.get(url + "/ok", timeout=2).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit(f"agentc studio did not start: see {workdir / 'studio.log'}")


def thousand(url: str) -> str:
    messages = []
    for i in range(500):
        messages.append({"role": "user", "content": f"question {i}", "id": f"h{i}"})
        messages.append({"role": "assistant", "content": f"answer {i} " * 8, "id": f"a{i}"})
    with httpx.Client(base_url=url, timeout=120) as client:
        tid = client.post("/threads", json={"metadata": {"graph_id": "careful"}}).json()
        body = {"assistant_id": "careful", "input": {"messages": messages}}
        client.post(
            f"/threads/{tid['thread_id']}/runs/wait", json={**body, "interrupt_before": ["model"]}
        )
    return str(tid["thread_id"])


def load_once(browser: Any, url: str, tid: str) -> tuple[float, Any]:
    page = browser.new_page(viewport={"width": 1400, "height": 860})
    start = time.perf_counter()
    page.goto(f"{url}/studio/?assistant=careful&thread={tid}")
    page.wait_for_function(
        "document.querySelectorAll('#messages .msg').length >= 1000", timeout=60_000
    )
    return time.perf_counter() - start, page


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def stream(page: Any, seconds: float) -> dict[str, Any]:
    page.wait_for_function("document.getElementById('status').textContent !== 'loading…'")
    page.click("#message")
    handle = page.evaluate_handle(STREAM, {"seconds": seconds, "rate": 100})
    typed = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        page.keyboard.type("x")  # a person typing while the run streams
        typed += 1
        time.sleep(0.1)
    result = page.evaluate("(p) => p", handle)
    result["typed"] = typed
    return result


def report(args: argparse.Namespace, loads: list[float], r: dict[str, Any]) -> None:
    f, k, longs = r["frames"], r["keys"] or [0.0], r["longs"]
    rows = [
        f"studio page, thread of 1,000 messages ({args.loads} fresh loads)",
        f"  load to 1,000th message  median {statistics.median(loads):.3f} s, "
        f"worst {max(loads):.3f} s (target < 1 s)",
        f"streaming 100 events/s for {args.seconds:g} s on that thread (typing meanwhile)",
        f"  events handled           {r['handled']} in {r['took']:.2f} s "
        f"({r['handled'] / r['took']:.0f}/s)",
        f"  event lag                median {statistics.median(r['lags']):.1f} ms, "
        f"worst {max(r['lags']):.1f} ms",
        f"  frame interval           median {statistics.median(f):.1f} ms, "
        f"p95 {pct(f, 0.95):.1f} ms, worst {max(f):.1f} ms (target p95 ≤ 50 ms)",
        f"  long tasks (> 50 ms)     {len(longs)}, longest {max(longs, default=0):.0f} ms",
        f"  key press to next frame  median {statistics.median(k):.1f} ms, "
        f"worst {max(k):.1f} ms over {len(r['keys'])} keys (target ≤ 100 ms)",
    ]
    print("\n".join(rows))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loads", type=int, default=5, help="page loads to time")
    parser.add_argument("--seconds", type=float, default=5.0, help="seconds of streaming")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        proc, url = start_studio(Path(tmp))
        try:
            tid = thousand(url)
            with sync_playwright() as pw:
                flags = ["--no-sandbox"] if os.geteuid() == 0 else []
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=flags)
                loads, page = [], None
                for _ in range(args.loads):
                    took, page = load_once(browser, url, tid)
                    loads.append(took)
                    page.close()
                took, page = load_once(browser, url, tid)
                r = stream(page, args.seconds)
                browser.close()
        finally:
            proc.kill()
    report(args, loads, r)
    return 0


if __name__ == "__main__":
    sys.exit(main())
