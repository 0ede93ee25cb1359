"""`agentc serve`: the LangGraph Agent Server API over the agents and graphs of `.agent`
files, so `langgraph-sdk`, Agent Chat UI and Studio talk to them unchanged.

Modules, in the order a request meets them: `security` (API key, body limit), `app` (the
Starlette app and the route table), `routing` (the `Op` table and request readers),
`routes_meta` / `routes_threads` / `routes_runs` (the endpoints), `engine` (the run queue
behind the narrow `Engine` protocol), `execute` (one run on its graph), `wire` (agentc's
values in the API's JSON shapes), `repo` (threads and runs in the database), `backends`
(the `--db` URL), `assistants` (the served graphs), `openapi` (the document of it all).
"""

from .app import ServeOptions, Server, build

__all__ = ["ServeOptions", "Server", "build"]
