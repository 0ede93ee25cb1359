"""The server's guards and refusals over real HTTP: the API key, CORS for the given origin
only, the body limit, and a JSON 4xx naming what was wrong for every bad request."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

pytest.importorskip("langgraph_sdk", reason="these tests talk through langgraph-sdk")

from langgraph_sdk import get_sync_client  # noqa: E402
from langgraph_sdk.errors import AuthenticationError  # noqa: E402
from serve_kit import KEY, MAX_BODY, ORIGIN  # noqa: E402

QUESTION = {"messages": [{"role": "user", "content": "hi"}]}


def test_a_key_is_needed_and_checked(guarded: Any) -> None:
    with httpx.Client(base_url=guarded.url, timeout=30) as http:
        refused = http.post("/assistants/search", json={})
        assert refused.status_code == 401
        assert "API key" in refused.json()["detail"] and KEY not in refused.text
        assert http.post("/threads", json={}, headers={"x-api-key": "wrong"}).status_code == 401
        bearer = http.post("/threads", json={}, headers={"Authorization": f"Bearer {KEY}"})
        assert bearer.status_code == 200
        assert http.get("/ok").status_code == 200  # health checks need no key
        assert http.get("/info").status_code == 200
    with pytest.raises(AuthenticationError):
        get_sync_client(url=guarded.url, api_key=None).assistants.search()
    client = get_sync_client(url=guarded.url, api_key=KEY)
    assert [a["graph_id"] for a in client.assistants.search(graph_id="quick")] == ["quick"]
    out = client.runs.wait(None, "quick", input=QUESTION)
    assert out["messages"][-1]["content"] == "ok"


def test_cors_only_for_the_given_origin(guarded: Any) -> None:
    with httpx.Client(base_url=guarded.url, timeout=30) as http:
        pre = http.options(
            "/threads",
            headers={"Origin": ORIGIN, "Access-Control-Request-Method": "POST",
                     "Access-Control-Request-Headers": "x-api-key,content-type"},
        )  # fmt: skip
        assert pre.status_code == 200
        assert pre.headers["access-control-allow-origin"] == ORIGIN
        got = http.get("/ok", headers={"Origin": ORIGIN})
        assert got.headers["access-control-allow-origin"] == ORIGIN
        other = http.get("/ok", headers={"Origin": "http://evil.example"})
        assert "access-control-allow-origin" not in other.headers
        bad = http.options(
            "/threads",
            headers={"Origin": "http://evil.example", "Access-Control-Request-Method": "POST"},
        )
        assert bad.status_code == 400
        refused = http.post("/threads", json={}, headers={"Origin": ORIGIN})
        assert refused.status_code == 401  # a refusal a browser page can read
        assert refused.headers["access-control-allow-origin"] == ORIGIN


def test_no_cors_headers_without_an_origin_option(served: Any) -> None:
    got = httpx.get(served.url + "/ok", headers={"Origin": ORIGIN})
    assert "access-control-allow-origin" not in got.headers


def test_bodies_over_the_limit_are_413(guarded: Any) -> None:
    big = {"metadata": {"blob": "x" * (MAX_BODY + 10)}}
    headers = {"x-api-key": KEY}
    with httpx.Client(base_url=guarded.url, timeout=30, headers=headers) as http:
        res = http.post("/threads", json=big)
        assert res.status_code == 413 and str(MAX_BODY) in res.json()["detail"]

        def chunks() -> Any:  # no Content-Length: counted as it arrives
            for _ in range(MAX_BODY // 100 + 5):
                yield b" " * 100

        chunked = http.post(
            "/threads", content=chunks(), headers={"content-type": "application/json"}
        )
        assert chunked.status_code == 413
        assert http.post("/threads", json={"metadata": {"ok": 1}}).status_code == 200


@pytest.mark.parametrize(
    ("method", "path", "body", "status", "words"),
    [
        ("GET", "/assistants/nope", None, 404, "assistant 'nope' not found"),
        ("POST", "/threads/search", b"{not json", 422, "not valid JSON"),
        ("POST", "/threads/search", b"[1, 2]", 422, "array, not an object"),
        ("POST", "/threads/search", b'{"limit": "many"}', 422, "invalid body.limit"),
        ("GET", "/threads/not-a-uuid", None, 422, "is not a UUID"),
        ("GET", "/threads/0b8bf2a4-6a70-4b36-8b5e-2a3c9f2c0d11", None, 404, "not found"),
        ("POST", "/runs/wait", b'{"assistant_id": "ghost", "input": {}}', 404, "ghost"),
        ("POST", "/runs/wait", b'{"input": {}}', 422, "assistant_id"),
        ("POST", "/runs/wait", b'{"assistant_id": "quick", "command": {"resume": null}}', 422,
         "needs the thread"),
        ("POST", "/runs/stream", b'{"assistant_id": "quick"}', 422, "needs an input"),
        ("POST", "/runs/stream", b'{"assistant_id": "quick", "input": {}, "stream_mode": "debug"}',
         422, "debug"),
        ("POST", "/runs/wait", b'{"assistant_id": "quick", "input": {}, '
         b'"config": {"recursion_limt": 3}}', 422, "recursion_limt"),
        ("GET", "/nowhere", None, 404, "no such endpoint"),
        # an id holding a `/` (sent as %2F) is one id, not two path segments
        ("PATCH", "/threads/%2F", b"{}", 422, "is not a UUID"),
        ("GET", "/threads/a%2fb/state", None, 422, "is not a UUID"),
        ("GET", "/assistants/a%2Fb", None, 404, "not found"),
        ("DELETE", "/ok", None, 405, "not allowed"),
        ("POST", "/assistants", b'{"graph_id": "quick"}', 405, "served files"),
        ("POST", "/runs/cancel", b"{}", 422, "which runs"),
        ("GET", "/assistants/quick/graph?xray=-1", None, 422, "xray"),
    ],
)  # fmt: skip
def test_bad_requests_get_json_4xx(
    served: Any, method: str, path: str, body: bytes | None, status: int, words: str
) -> None:
    res = httpx.request(method, served.url + path, content=body, timeout=30)
    assert res.status_code == status, res.text
    detail = res.json()["detail"]
    assert words in detail or words in res.text
    assert "Traceback" not in res.text


def test_busy_thread_is_409_with_json(served: Any) -> None:
    with httpx.Client(base_url=served.url, timeout=30) as http:
        tid = http.post("/threads", json={}).json()["thread_id"]
        run = http.post(f"/threads/{tid}/runs", json={"assistant_id": "looping", "input": QUESTION})
        rid = run.json()["run_id"]
        again = http.post(
            f"/threads/{tid}/runs",
            json={"assistant_id": "quick", "input": QUESTION, "multitask_strategy": "reject"},
        )
        assert again.status_code == 409 and "busy" in again.json()["detail"]
        exists = http.post("/threads", json={"thread_id": tid})
        assert exists.status_code == 409 and "already exists" in exists.json()["detail"]
        assert http.post(f"/threads/{tid}/runs/{rid}/cancel?wait=true").status_code == 200


def test_openapi_describes_what_is_served(served: Any) -> None:
    doc = httpx.get(served.url + "/openapi.json").json()
    assert doc["openapi"].startswith("3.1")
    paths = doc["paths"]
    assert "post" in paths["/threads/{thread_id}/runs/stream"]
    assert "get" in paths["/threads/{thread_id}/runs/{run_id}/stream"]
    body = paths["/runs/wait"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert body == {"$ref": "#/components/schemas/RunCreate"}
    assert "multitask_strategy" in doc["components"]["schemas"]["RunCreate"]["properties"]
    # every path it lists answers something other than "no such endpoint"
    for path, ops in paths.items():
        concrete = path.replace("{assistant_id}", "quick")
        concrete = concrete.replace("{thread_id}", "0b8bf2a4-6a70-4b36-8b5e-2a3c9f2c0d11")
        concrete = concrete.replace("{run_id}", "0b8bf2a4-6a70-4b36-8b5e-2a3c9f2c0d12")
        concrete = concrete.replace("{checkpoint_id}", "c1")
        for method in ops:
            res = httpx.request(method.upper(), served.url + concrete, timeout=30)
            assert res.status_code < 500, (method, path, res.text)
            assert "no such endpoint" not in res.text, (method, path)


def test_secrets_in_a_run_request_are_not_stored(served: Any) -> None:
    with httpx.Client(base_url=served.url, timeout=30) as http:
        tid = http.post("/threads", json={}).json()["thread_id"]
        body = {
            "assistant_id": "quick",
            "input": QUESTION,
            "config": {"configurable": {"openai_api_key": "sk-live-123", "user": "ann"}},
            "metadata": {"auth_token": "tok-456"},
        }
        run = http.post(f"/threads/{tid}/runs/wait", json=body)
        assert run.status_code == 200
        rid = run.headers["content-location"].rsplit("/", 1)[1]
        shown = http.get(f"/threads/{tid}/runs/{rid}")
        assert "sk-live-123" not in shown.text and "tok-456" not in shown.text
        assert shown.json()["kwargs"]["config"]["configurable"]["user"] == "ann"
