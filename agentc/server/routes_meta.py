"""Endpoints that run nothing: server info and health, assistants, the long-term store.

Input: requests. Output: the JSON LangGraph's server answers with (`Assistant`,
`GraphSchema`, `Item`, `{"items": …}`, `{"namespaces": …}`). Invariants: the store
endpoints call the same `Store` the graphs' tools use, so what a tool saved is read here.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from agentc.version import __version__

from .errors import ApiError
from .models import AssistantSearch, StoreDelete, StoreNamespaces, StorePut, StoreSearch
from .repo import contains
from .routing import Context, Op, no_content, ok, read_body

FIXED = (401, 405, 413)
# The LangGraph version whose server API `agentc serve` follows (the differential test's
# reference); clients read it from `/info` to pick features.
LANGGRAPH_API_LEVEL = "1.2.24"  # what the refused assistant writes answer


def routes(ctx: Context) -> list[Op]:
    async def info(request: Request) -> Response:
        # LangGraph's `/info` shape; a flag is false where agentc lacks the feature (no
        # LangSmith). `langgraph_py_version` names the API version it follows.
        flags = {
            "assistants": True,
            "crons": True,
            "langsmith": False,
            "langsmith_tracing_replicas": False,
            "langsmith_tracing_session_on_runs": False,
        }
        host = {"kind": "agentc", "project_id": None, "revision_id": None}
        return ok(
            {
                "version": __version__,
                "langgraph_py_version": LANGGRAPH_API_LEVEL,
                "flags": flags,
                "host": host,
            }
        )

    async def health(request: Request) -> Response:
        return ok({"ok": True})

    async def search_assistants(request: Request) -> Response:
        q = await read_body(request, AssistantSearch, optional=True)
        found = [
            a.json()
            for a in ctx.registry.all()
            if (q.graph_id is None or a.graph_id == q.graph_id)
            and (q.name is None or q.name.lower() in a.graph_id.lower())
            and contains(a.json()["metadata"], q.metadata or {})
        ]
        key = q.sort_by or "created_at"
        found.sort(key=lambda a: (a[key], a["graph_id"]), reverse=q.sort_order == "desc")
        return ok(found[q.offset : q.offset + q.limit])

    async def count_assistants(request: Request) -> Response:
        q = await read_body(request, AssistantSearch, optional=True)
        return ok(sum(1 for a in ctx.registry.all() if q.graph_id in (None, a.graph_id)))

    async def get_assistant(request: Request) -> Response:
        return ok(ctx.registry.find(request.path_params["assistant_id"]).json())

    async def assistant_graph(request: Request) -> Response:
        a = ctx.registry.find(request.path_params["assistant_id"])
        return ok(ctx.registry.drawing(a, _xray(request.query_params.get("xray"))))

    async def assistant_schemas(request: Request) -> Response:
        a = ctx.registry.find(request.path_params["assistant_id"])
        return ok(ctx.registry.schemas(a))

    async def assistant_subgraphs(request: Request) -> Response:
        ctx.registry.find(request.path_params["assistant_id"])
        return ok({})

    async def put_item(request: Request) -> Response:
        body = await read_body(request, StorePut)
        ctx.store.put(tuple(body.namespace), body.key, body.value)
        return no_content()

    async def get_item(request: Request) -> Response:
        key = request.query_params.get("key")
        raw_ns = request.query_params.get("namespace", "")
        if not key:
            raise ApiError(422, "query parameter `key` is missing", expected="key=ITEM_KEY")
        namespace = tuple(raw_ns.split(".")) if raw_ns else ()
        item = ctx.store.get(namespace, key)
        if item is None:
            raise ApiError(404, f"no item {key!r} under namespace {list(namespace)}")
        return ok(item.dict())

    async def delete_item(request: Request) -> Response:
        body = await read_body(request, StoreDelete)
        ctx.store.delete(tuple(body.namespace), body.key)
        return no_content()

    async def search_items(request: Request) -> Response:
        q = await read_body(request, StoreSearch, optional=True)
        if q.query is not None:
            raise ApiError(
                422,
                "this store has no semantic index, so a `query` cannot rank items",
                expected="namespace_prefix and filter, without query",
            )
        items = ctx.store.search(
            tuple(q.namespace_prefix), filter=q.filter, limit=q.limit, offset=q.offset
        )
        return ok({"items": [{**i.dict(), "score": None} for i in items]})

    async def list_namespaces(request: Request) -> Response:
        q = await read_body(request, StoreNamespaces, optional=True)
        found = ctx.store.list_namespaces(
            prefix=tuple(q.prefix) if q.prefix else None,
            suffix=tuple(q.suffix) if q.suffix else None,
            max_depth=q.max_depth,
            limit=q.limit,
            offset=q.offset,
        )
        return ok({"namespaces": [list(ns) for ns in found]})

    async def fixed(request: Request) -> Response:
        raise ApiError(
            405,
            "assistants are the agents and graphs of the served files; they cannot be "
            "created, changed or deleted over HTTP",
            expected="an agent or graph added to (or changed in) a served .agent file",
        )

    a = "/assistants/{assistant_id}"
    return [
        Op("GET", "/info", info, "Server information", "meta"),
        Op("GET", "/ok", health, "Health check", "meta"),
        Op("POST", "/assistants/search", search_assistants, "Search assistants", "assistants",
           AssistantSearch),
        Op("POST", "/assistants/count", count_assistants, "Count assistants", "assistants",
           AssistantSearch),
        Op("GET", a, get_assistant, "Get an assistant", "assistants"),
        Op("POST", "/assistants", fixed, "Assistants come from the files (refused)",
           "assistants", refusals=FIXED),
        Op("PATCH", a, fixed, "Assistants come from the files (refused)", "assistants",
           refusals=FIXED),
        Op("DELETE", a, fixed, "Assistants come from the files (refused)", "assistants",
           refusals=FIXED),
        Op("GET", f"{a}/graph", assistant_graph, "Get an assistant's graph", "assistants",
           query=("xray",)),
        Op("GET", f"{a}/schemas", assistant_schemas, "Get an assistant's schemas", "assistants"),
        Op("GET", f"{a}/subgraphs", assistant_subgraphs, "Get an assistant's subgraphs",
           "assistants"),
        Op("PUT", "/store/items", put_item, "Store an item", "store", StorePut, ""),
        Op("GET", "/store/items", get_item, "Get an item", "store", query=("namespace", "key")),
        Op("DELETE", "/store/items", delete_item, "Delete an item", "store", StoreDelete, ""),
        Op("POST", "/store/items/search", search_items, "Search items", "store", StoreSearch),
        Op("POST", "/store/namespaces", list_namespaces, "List namespaces", "store",
           StoreNamespaces),
    ]  # fmt: skip


def _xray(raw: str | None) -> bool | int:
    if raw is None or raw in ("false", "False"):
        return False
    if raw in ("true", "True"):
        return True
    try:
        depth = int(raw)
    except ValueError:
        depth = 0
    if depth <= 0:
        raise ApiError(422, f"xray={raw!r} is not valid", expected="true, false or a depth >= 1")
    return depth
