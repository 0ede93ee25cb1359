"""The studio behind `agentc serve --api-key`: the page's own files load without the key
(code, no data), everything with data — the Agent Server API and `/studio/api/` — asks
for it; in a real headless Chromium the page asks for the key once, keeps it in the tab's
sessionStorage, sends it as a header (never in the address, never in the server's log),
and a refused key is asked for again."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from page_kit import ask_and_pause, shot
from playwright.sync_api import Page, expect
from studio_kit import Studio, start, stop

KEY = "studio-test-key-0123456789"


@pytest.fixture
def keyed(tmp_path: Path) -> Iterator[Studio]:
    proc, info = start(tmp_path, "serve", extra=("--api-key", KEY))
    try:
        yield info
    finally:
        stop(proc)


def test_the_page_loads_without_the_key_and_its_data_needs_it(keyed: Studio) -> None:
    with httpx.Client(base_url=keyed.url, timeout=30) as client:
        for name in ("", "index.html", "studio.js", "panels.js", "studio.css"):
            assert client.get(f"/studio/{name}").status_code == 200, name
        for path in ("/studio/api/tracing", "/studio/api/assistants/careful/decisions"):
            assert client.get(path).status_code == 401, path
            assert client.get(path, headers={"x-api-key": KEY}).status_code == 200, path
        assert client.get("/studio/api/tracing", headers={"x-api-key": "wrong"}).status_code == 401
        assert client.post("/assistants/search", json={}).status_code == 401
        found = client.post("/assistants/search", json={}, headers={"x-api-key": KEY})
        assert found.status_code == 200


def test_the_page_asks_for_the_key_once_and_sends_it_as_a_header(
    keyed: Studio, browser_page: Page
) -> None:
    page = browser_page
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    sent: list[tuple[str, str | None]] = []
    page.on("request", lambda r: sent.append((r.url, r.headers.get("x-api-key"))))
    page.goto(f"{keyed.url}/studio/")
    expect(page.locator("#login")).to_be_visible()
    expect(page.locator("#status")).to_have_text("this server needs its API key")
    page.fill("#login-key", "not-the-key")
    page.click("#login button[type=submit]")
    expect(page.locator("#login-note")).to_have_text("that key was refused")
    page.fill("#login-key", KEY)
    page.click("#login button[type=submit]")
    expect(page.locator("#status")).to_have_text("ready")
    expect(page.locator("#login")).to_be_hidden()
    expect(page.locator("#decisions li[data-topic=reviews]")).to_be_visible()  # /studio/api
    ask_and_pause(page)  # a run streams with the key too
    shot(page, "keyed")
    assert page.evaluate("sessionStorage.getItem('agentc-studio-key')") == KEY
    data = [(url, key) for url, key in sent if "/studio/" not in url or "/studio/api/" in url]
    assert data and all(key == KEY for url, key in data[-5:])
    assert all(KEY not in url for url, _ in sent)  # never in an address
    assert KEY not in keyed.log.read_text(errors="replace")  # nor in the server's log
    assert errors == []
