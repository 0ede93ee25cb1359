"""Where the studio page is served: `agentc studio` says its address, and `agentc serve`
serves the same page at `/studio/` beside the API (plain HTTP, no browser needed)."""

from __future__ import annotations

import httpx
from studio_kit import Studio

PAGE_FILES = ("index.html", "studio.js", "studio.css", "panels.js")


def test_agentc_studio_prints_the_page_address_and_serves_it(studio: Studio) -> None:
    said = studio.log.read_text()
    assert f"studio page: {studio.url}/studio/" in said, said
    page = httpx.get(f"{studio.url}/studio/", timeout=10)
    assert page.status_code == 200
    assert '<script src="studio.js">' in page.text


def test_agentc_serve_serves_the_page_at_studio_with_its_script_and_style(
    served: Studio,
) -> None:
    with httpx.Client(base_url=served.url, timeout=10) as client:
        bare = client.get("/studio")
        assert bare.status_code in (301, 302, 307, 308)
        assert bare.headers["location"].endswith("/studio/")
        kinds = {name: client.get(f"/studio/{name}") for name in PAGE_FILES[1:]}
        assert kinds["studio.js"].headers["content-type"].startswith("text/javascript")
        assert kinds["studio.css"].headers["content-type"].startswith("text/css")
        assert kinds["panels.js"].headers["content-type"].startswith("text/javascript")
        # the API is still there beside it
        assert client.get("/assistants/careful").json()["graph_id"] == "careful"
