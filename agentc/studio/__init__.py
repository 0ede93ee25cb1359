"""The studio page: a static web page that watches and steers runs of `agentc serve`.

Input: nothing at run time but the files under `static/` (one HTML, two JS, one CSS
file, no build step, no network). Output: `mount()`, a Starlette `Mount` that serves them
at `/studio/`. Invariants: the page talks only to the Agent Server API the same server
(or any other deployment, by `?api=URL`) answers, and to `agentc serve`'s own
`/studio/api/` routes for the decision map and the traces (`server/routes_studio.py`), so
nothing here reads a database or a graph; the files hold no data, only code.
"""

from __future__ import annotations

from pathlib import Path

from starlette.routing import Mount
from starlette.staticfiles import StaticFiles

STATIC = Path(__file__).resolve().parent / "static"
PATH = "/studio"


def mount() -> Mount:
    """The page at `/studio/` (a bare `/studio` is redirected there, so the page's
    relative links to its script and style resolve inside the mount)."""
    return Mount(PATH, app=StaticFiles(directory=STATIC, html=True), name="studio")
