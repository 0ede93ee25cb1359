"""What the studio's browser tests do in the page (Playwright): open it and wait until it
is ready, keep a screenshot, and ask the example agent a question that pauses for review,
recording every graph node the page lights while the run streams (`window.__lit`)."""

from __future__ import annotations

from playwright.sync_api import Page, expect
from studio_kit import Studio, artifacts

# what the page's MutationObserver records: every node name that was lit while a run streamed
WATCH_LIT = """() => {
  window.__lit = [];
  new MutationObserver((changes) => {
    for (const c of changes) {
      if (c.target.classList.contains("active")) window.__lit.push(c.target.dataset.node);
    }
  }).observe(document.getElementById("graph"), {attributes: true, subtree: true,
                                                 attributeFilter: ["class"]});
}"""


def open_studio(page: Page, studio: Studio, query: str = "") -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{studio.url}/studio/{query}")
    expect(page.locator("#status")).to_have_text("ready")
    return errors


def shot(page: Page, name: str) -> None:
    page.screenshot(path=str(artifacts() / f"{name}.png"), full_page=True)


def ask_and_pause(page: Page) -> None:
    page.evaluate(WATCH_LIT)
    page.fill("#message", "what is 2+3?")
    page.click("#send")
    expect(page.locator("#review")).to_be_visible()
    expect(page.locator("#status")).to_have_text("waiting for your review")
