"""The agentc side of the graph twin's nodes: the same three functions as lc_graph.py, with
agentc's interrupt and stream writer."""

from __future__ import annotations

from agentc import get_stream_writer, interrupt


def draft(state: dict) -> dict:
    write = get_stream_writer()
    write({"progress": 1, "of": 2})
    write({"progress": 2, "of": 2})
    return {"draft": f"A post about {state['topic']}", "log": ["drafted"]}


def approve(state: dict) -> dict:
    return {"approved": interrupt({"question": "Publish this draft?", "draft": state["draft"]})}


def publish(state: dict) -> dict:
    return {"log": ["published" if state["approved"] else "discarded"]}
