"""The decision map beside the graph and the trace panel, in a real headless Chromium
against a real `agentc studio` server: the map lists what the file decides (a tool held
for a person's review), and after a run the trace panel shows its spans as a tree — the
run, its model calls and its tool call — with their time and token counts; while a run
runs, the panel shows the spans so far (a tool call still running says so)."""

from __future__ import annotations

import json

import pytest
from page_kit import ask_and_pause, open_studio, shot
from playwright.sync_api import Page, expect
from studio_kit import Studio, start, stop

pytest.importorskip("opentelemetry.sdk", reason="the trace panel needs the otel extra")


def test_the_decision_map_lists_the_files_decisions(studio: Studio, browser_page: Page) -> None:
    page = browser_page
    errors = open_studio(page, studio)
    reviews = page.locator('#decisions li[data-topic="reviews"]')
    expect(reviews).to_contain_text("held for a person's review: `add`")
    expect(reviews).to_contain_text("17:36")  # the line and column that decide it
    expect(page.locator('#decisions li[data-topic="model"]')).to_contain_text("`scripted`")
    page.click("#decisions details.seats summary")
    held = page.locator('#decisions li[data-seat="D9"]')
    expect(held).to_be_visible()
    expect(held.locator(".holder")).to_have_text("human")
    expect(held).to_contain_text("Is this particular call held for someone to look at first?")
    shot(page, "decisions")
    assert errors == []


def test_the_trace_panel_shows_the_runs_model_and_tool_spans_with_tokens(
    counting: Studio, browser_page: Page
) -> None:
    page = browser_page
    errors = open_studio(page, counting)
    page.fill("#message", "what is 2+3?")
    page.click("#send")
    expect(page.locator("#status")).to_have_text("run finished")
    run = page.locator("#trace details.run[open]")
    expect(run).to_have_count(1)  # the run just made, opened
    root = run.locator('details[data-span="invoke_agent counting"]')
    expect(root).to_be_visible()
    expect(root.locator("> summary .span-tokens")).to_have_text("32 in · 7 out tokens")
    chats = root.locator('[data-span="chat scripted"] .span-tokens')
    expect(chats).to_have_text(["12 in · 3 out tokens", "20 in · 4 out tokens"])
    tool = root.locator('[data-span="execute_tool add"]')
    expect(tool).to_have_count(1)
    expect(tool.locator(".span-time")).to_contain_text(" ms")
    shot(page, "trace")
    root.locator("> summary").click()  # the tree folds
    expect(tool).to_be_hidden()
    assert errors == []


def test_a_paused_run_and_its_resume_are_two_runs_in_the_trace_panel(
    studio: Studio, browser_page: Page
) -> None:
    page = browser_page
    errors = open_studio(page, studio)
    ask_and_pause(page)
    paused = page.locator("#trace details.run[open]")
    expect(paused.locator('[data-span="human_review.after_model"]')).to_have_count(1)
    page.click("#send-review")
    expect(page.locator("#status")).to_have_text("run finished")
    expect(page.locator("#trace details.run")).to_have_count(2)
    resumed = page.locator("#trace details.run[open]")
    expect(resumed.locator('[data-span="execute_tool add"]')).to_have_count(1)
    assert errors == []


WAITER = '''
import os
import time


def wait_for(path: str) -> str:
    """Wait until the file exists."""
    while not os.path.exists(path):
        time.sleep(0.02)
    return "there"
'''


def test_the_trace_panel_shows_a_running_runs_spans_live(tmp_path, browser_page: Page) -> None:
    flag = tmp_path / "go"
    (tmp_path / "waiter.py").write_text(WAITER)
    call = {"tool_calls": [{"name": "wait_for", "args": {"path": str(flag)}, "id": "w1"}]}
    replies = json.dumps([call, {"content": "waited"}])
    (tmp_path / "w.agent").write_text(
        'agentc 1\nuse "./waiter.py" as w\n'
        f'agent waiting {{\n  model "scripted" {{ replies: {replies} }}\n'
        "  tools [w.wait_for]\n  checkpoint memory\n}\n"
    )
    proc, info = start(tmp_path, "studio", tmp_path / "w.agent")
    try:
        page = browser_page
        errors = open_studio(page, info)
        page.fill("#message", "wait")
        page.click("#send")
        live = page.locator("#trace details.run.live")
        tool = live.locator('[data-span="execute_tool wait_for"]')
        expect(tool.locator(".span-time")).to_have_text("running")  # while the run runs
        expect(live.locator('[data-span="chat scripted"] .span-time')).to_contain_text(" ms")
        expect(page.locator("#status")).to_have_text("running…")
        shot(page, "trace-live")
        flag.write_text("")
        expect(page.locator("#status")).to_have_text("run finished")
        done = page.locator("#trace details.run[open]")
        expect(done.locator('[data-span="execute_tool wait_for"] .span-time')).to_contain_text(
            " ms"
        )
        assert errors == []
    finally:
        flag.write_text("")
        stop(proc)
