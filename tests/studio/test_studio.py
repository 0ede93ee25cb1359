"""The studio page in a real headless Chromium against a real `agentc studio` server.

Each test opens `/studio/` on `examples/human_review.agent` (a scripted model that asks to
call `add`, which a person must review, then answers "The answer is 5.") and drives the
page the way a person would: the graph, a message, the live node, the review, the
history, a fork and an edited state. Screenshots are kept in `$AGENTC_ARTIFACTS/studio/`.
"""

from __future__ import annotations

import json
import time

import httpx
import pytest
from page_kit import WATCH_LIT, ask_and_pause, open_studio, shot
from playwright.sync_api import Page, expect
from studio_kit import Studio, artifacts

# 100 `values` events, each the thread so far plus one message, as a run would stream them
STREAM_100 = """async () => {
  const state = await api("GET", `/threads/${ui.thread}/state`);
  const msgs = state.values.messages;
  const start = performance.now();
  for (let i = 0; i < 100; i++) {
    msgs.push({type: "ai", content: "streamed " + i, id: "s" + i});
    showMessages(JSON.parse(JSON.stringify(msgs)));  // each event is a fresh parse
  }
  return (performance.now() - start) / 100;
}"""


def test_the_graph_is_drawn_with_every_node_of_the_assistant(
    studio: Studio, browser_page: Page
) -> None:
    errors = open_studio(browser_page, studio)
    drawn = httpx.get(f"{studio.url}/assistants/careful/graph", timeout=10).json()
    nodes = browser_page.locator("#graph g.node")
    expect(nodes).to_have_count(len(drawn["nodes"]))
    names = sorted(nodes.evaluate_all("gs => gs.map(g => g.dataset.node)"))
    assert names == sorted(n["id"] for n in drawn["nodes"])
    assert "human_review.after_model" in names
    expect(browser_page.locator("#graph path.edge")).to_have_count(len(drawn["edges"]))
    shot(browser_page, "graph")
    assert errors == []


def test_a_message_lights_the_running_node_pauses_for_review_and_approve_finishes(
    studio: Studio, browser_page: Page
) -> None:
    page = browser_page
    errors = open_studio(page, studio)
    ask_and_pause(page)
    assert "model" in page.evaluate("window.__lit"), "the model node was never lit"
    expect(page.locator("#graph g.node[data-node=model]")).to_have_class("node ran")
    review = page.locator("#review")
    for kind in ("approve", "edit", "reject", "respond"):
        expect(review.locator(f"input[type=radio][value={kind}]")).to_have_count(1)
    expect(review).to_contain_text("add")
    shot(page, "review")
    page.evaluate(WATCH_LIT)
    review.locator("input[value=approve]").check()
    page.click("#send-review")
    expect(page.locator("#messages")).to_contain_text("The answer is 5.")
    expect(page.locator("#status")).to_have_text("run finished")
    expect(review).to_be_hidden()
    lit = page.evaluate("window.__lit")
    assert "tools" in lit and "model" in lit, lit
    expect(page.locator("#messages .msg.tool")).to_contain_text("5")
    shot(page, "answered")
    assert errors == []


def test_fork_from_an_earlier_checkpoint_makes_a_new_branch_in_the_history(
    studio: Studio, browser_page: Page
) -> None:
    page = browser_page
    errors = open_studio(page, studio)
    ask_and_pause(page)
    page.locator("#review input[value=approve]").check()
    page.click("#send-review")
    expect(page.locator("#status")).to_have_text("run finished")
    history = page.locator("#history li")
    before = history.count()
    # the checkpoint where the review paused
    paused = history.filter(has=page.locator(".tag.paused"))
    expect(paused).to_have_count(1)
    paused.locator("button.fork").click()
    expect(page.locator("#review")).to_be_visible()  # the fork asks for the review again
    expect(history.filter(has=page.locator(".tag.forked"))).to_have_count(1)
    expect(history.filter(has=page.locator(".tag.other")).first).to_be_visible()
    assert history.count() > before
    # the old branch's answer is no longer on the thread; the new branch waits for review
    expect(page.locator("#messages")).not_to_contain_text("The answer is 5.")
    history.filter(has=page.locator(".tag.forked")).click(position={"x": 8, "y": 8})
    expect(page.locator("#step")).to_contain_text("next: human_review.after_model")
    shot(page, "forked")
    assert errors == []


def test_edit_state_and_continue_runs_from_the_edited_state(
    studio: Studio, browser_page: Page
) -> None:
    page = browser_page
    errors = open_studio(page, studio)
    ask_and_pause(page)
    paused = page.locator("#history li").filter(has=page.locator(".tag.paused"))
    paused.locator("button.edit").click()
    editor = page.locator("#state-editor")
    state = json.loads(editor.input_value())
    call = state["messages"][-1]["tool_calls"][0]
    call["args"] = {"a": 20, "b": 3}
    editor.fill(json.dumps(state, indent=2))
    page.click("#save-state")
    expect(page.locator("#review pre").first).to_contain_text('"a": 20')
    page.locator("#review input[value=approve]").check()
    page.click("#send-review")
    expect(page.locator("#messages .msg.tool")).to_contain_text("23")
    shot(page, "edited")
    assert errors == []


def test_page_load_of_a_thread_of_1000_messages(studio: Studio, browser_page: Page) -> None:
    """Informational: how long the page takes to show a thread of 1,000 messages (made by
    a run that stops before the model, so no reply is spent)."""
    messages = []
    for i in range(500):
        messages.append({"role": "user", "content": f"question {i}", "id": f"h{i}"})
        messages.append({"role": "assistant", "content": f"answer {i} " * 8, "id": f"a{i}"})
    with httpx.Client(base_url=studio.url, timeout=60) as client:
        thread = client.post("/threads", json={"metadata": {"graph_id": "careful"}}).json()
        body = {"assistant_id": "careful", "input": {"messages": messages}}
        tid = thread["thread_id"]
        client.post(f"/threads/{tid}/runs/wait", json={**body, "interrupt_before": ["model"]})
    page = browser_page
    start = time.perf_counter()
    open_studio(page, studio, f"?assistant=careful&thread={tid}")
    expect(page.locator("#messages .msg")).to_have_count(1000)
    took = time.perf_counter() - start
    # and what one streamed `values` event of that thread costs the page (one message more)
    per_update_ms = page.evaluate(STREAM_100)
    said = (
        f"{took:.3f} s to show 1000 messages\n"
        f"{per_update_ms:.2f} ms per streamed values event on that thread (100 events)\n"
    )
    (artifacts() / "load_1000.txt").write_text(said)
    print("\nstudio page load, " + said)
    shot(page, "thread_1000")
    if took <= 0:
        pytest.fail("the clock went backwards")


@pytest.mark.parametrize(
    ("decision", "fill", "tool_says"),
    [
        ("edit", '{"a": 1, "b": 1}', "2"),
        ("reject", "not now", "User rejected the tool call for `add` with reason: not now"),
        ("respond", "it is 7", "it is 7"),
    ],
)
def test_each_review_decision_is_sent_in_the_shape_the_middleware_reads(
    studio: Studio, browser_page: Page, decision: str, fill: str, tool_says: str
) -> None:
    page = browser_page
    errors = open_studio(page, studio)
    ask_and_pause(page)
    review = page.locator("#review")
    review.locator(f"input[value={decision}]").check()
    box = review.locator("textarea.edit-args" if decision == "edit" else "input.note")
    expect(box).to_be_visible()
    box.fill(fill)
    page.click("#send-review")
    expect(page.locator("#messages .msg.tool")).to_contain_text(tool_says)
    expect(page.locator("#messages")).to_contain_text("The answer is 5.")
    expect(page.locator("#status")).to_have_text("run finished")
    shot(page, f"decision_{decision}")
    assert errors == []
