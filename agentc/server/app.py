"""The ASGI application: the route table, the guards, the error handlers, the engine.

Input: `ServeOptions` (the files, the database URL, the key, CORS origins, the body
limit). Output: `Server`, holding the Starlette app and what it must close. Invariants:
guards wrap the app from the outside in — CORS (only the given origins; none: no CORS
headers at all), then the body limit, then the API key — so a refusal still carries the
CORS headers a browser needs to read it; the engine's runs are cancelled and the
database closed when the app shuts down.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from agentc.studio import mount as studio_page

from . import routes_crons, routes_meta, routes_runs, routes_studio, routes_threads
from .assistants import Registry
from .backends import DEFAULT_DB, Backends, open_backends
from .crons import CronScheduler
from .engine import Engine, InProcessEngine
from .errors import HANDLERS
from .execute import GraphExecutor
from .openapi import document
from .routing import Context, Op
from .security import ApiKeyGuard, BodyLimit, EncodedSlashes

DEFAULT_MAX_BODY = 10 * 1024 * 1024
# threads for the blocking calls of an API process whose runs are durable: each waiter on a
# run's result holds one while it reads (DBOS's client blocks), so asyncio's few (cores + 4)
# would queue every other call behind a burst of waiters
DURABLE_THREADS = 32
# how long an idle keep-alive connection stays open (uvicorn's `timeout_keep_alive`). HTTP/1.1
# lets a server close an idle connection at any moment, and a request sent on it as it
# closes is lost unanswered ("connection closed"); so the server must wait longer than the
# client: beyond every client's and proxy's own idle limit (httpx, the SDK's client, 5 s —
# uvicorn's default too; Node 4 s; nginx and cloud load balancers 60 s) and beyond how late
# a busy client sends, counting from when it read the response, not from when the server
# sent it (1,000 SDK threads on 2 shared cores sent on connections the server had held idle
# for its 5 s that they had held for 0.1-0.7 s)
KEEP_ALIVE_S = 75


@dataclass(frozen=True, slots=True)
class ServeOptions:
    files: tuple[str, ...]
    db: str = DEFAULT_DB
    api_key: str | None = None
    cors_origins: tuple[str, ...] = ()
    max_body: int = DEFAULT_MAX_BODY
    base_dir: str = "."  # what a relative database path is relative to
    workers: int = 0  # worker processes `agentc serve` starts (cmd_serve); > 0: durable
    durable: bool = False  # runs go to worker processes (`agentc worker`) on PostgreSQL


@dataclass(slots=True)
class Server:
    app: Starlette
    context: Context
    backends: Backends
    ops: list[Op] = field(default_factory=list)


def table(ctx: Context) -> list[Op]:
    ops = [*routes_meta.routes(ctx), *routes_threads.routes(ctx), *routes_runs.routes(ctx),
           *routes_crons.routes(ctx)]  # fmt: skip
    spec = document(ops)  # made once: the table does not change while serving

    async def openapi(request: Request) -> Response:
        return JSONResponse(spec)

    return [*ops, Op("GET", "/openapi.json", openapi, "This document", "meta")]


def build(options: ServeOptions) -> Server:
    backends = open_backends(options.db, options.base_dir)
    try:
        registry = Registry(list(options.files), backends)
    except BaseException:
        backends.close()
        raise
    try:
        engine = _engine(options, registry, backends)
    except BaseException:
        backends.close()
        raise
    ctx = Context(registry, backends.repo, engine, backends.store)
    ops = table(ctx)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        threads = None
        if options.durable or options.workers > 0:
            threads = ThreadPoolExecutor(DURABLE_THREADS, thread_name_prefix="agentc-io")
            asyncio.get_running_loop().set_default_executor(threads)
        crons = CronScheduler(ctx)
        crons.start()
        try:
            yield
        finally:
            await crons.stop()
            await engine.close()
            backends.close()
            if threads is not None:
                threads.shutdown(wait=False)

    app = Starlette(
        routes=[
            *(Route(op.path, op.handler, methods=[op.method]) for op in ops),
            *routes_studio.routes(ctx),
            studio_page(),
        ],
        middleware=_middleware(options),
        exception_handlers=HANDLERS,
        lifespan=lifespan,
    )
    return Server(app, ctx, backends, ops)


def _engine(options: ServeOptions, registry: Registry, backends: Backends) -> Engine:
    if not (options.durable or options.workers > 0):
        # the in-process engine's runs die with its process: what a stopped server left
        # running is over (the durable engine's workers recover them instead)
        backends.repo.abandon_unfinished()
        return InProcessEngine(GraphExecutor(registry, backends.repo))
    from .repo_pg import PostgresRepository  # psycopg is optional: only for postgresql://

    if not isinstance(backends.repo, PostgresRepository):
        raise ValueError("worker processes need a PostgreSQL database: --db postgresql://…")
    try:
        from .durable import DurableEngine  # dbos is optional: only for worker processes
    except ImportError as exc:
        raise ValueError(
            f"worker processes need the dbos package ({exc.name} is missing): "
            "pip install 'agentc[dbos]'"
        ) from None
    return DurableEngine(backends.repo, options.db)


def _middleware(options: ServeOptions) -> list[Middleware]:
    out: list[Middleware] = [Middleware(EncodedSlashes)]  # first: every later one routes
    if options.cors_origins:
        out.append(
            Middleware(
                CORSMiddleware,
                allow_origins=list(options.cors_origins),
                allow_methods=["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"],
                allow_headers=["*"],
                expose_headers=["Content-Location", "Location"],
                allow_credentials=False,
            )
        )
    out.append(Middleware(BodyLimit, max_bytes=options.max_body))
    if options.api_key:
        out.append(Middleware(ApiKeyGuard, key=options.api_key))
    return out
