"""The long-term store as tools and middleware see it (E4, I1): `InjectedStore` and
`ToolRuntime.store` get the run's store (never the checkpointer); a tool that declares
`InjectedStore` in a run without one fails the run; middleware read and write it through
`runtime.store`; the agent loop itself never touches it; an agent used as a tool shares its
parent's store."""

from __future__ import annotations

import json

import pytest

from agentc.api import load_agent
from agentc.runtime import InMemoryStore, RunConfig, StoreRequiredError

KIT = '''
from typing import Annotated, Any

from agentc.stdlib.middleware.base import AgentMiddleware
from agentc.stdlib.tools import InjectedStore, ToolRuntime


def remember(user: str, fact: str, store: Annotated[Any, InjectedStore]) -> str:
    """Remember a fact about a user."""
    store.put(("memories", user), fact, {"fact": fact})
    return "saved"


def recall(user: str, store: Annotated[Any, InjectedStore]) -> str:
    """Recall what is known about a user."""
    return ", ".join(i.value["fact"] for i in store.search(("memories", user)))


def which_store(runtime: ToolRuntime) -> str:
    """Say whether this run has a long-term store."""
    return "none" if runtime.store is None else type(runtime.store).__name__


def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


class CountTurns(AgentMiddleware):
    """Counts model calls per user in the long-term store."""

    def before_model(self, state, runtime):
        item = runtime.store.get(("turns",), "count")
        n = item.value["n"] if item else 0
        runtime.store.put(("turns",), "count", {"n": n + 1})
        return None
'''


def write(tmp_path, body: str, *, extra: str = "") -> str:
    (tmp_path / "kit.py").write_text(KIT)
    path = tmp_path / "mem.agent"
    path.write_text(f'agentc 1\nuse "./kit.py" as kit\n{extra}\nagent a {{\n{body}\n}}\n')
    return str(path)


def scripted(*replies) -> str:
    return f'  model "scripted" {{ replies: {json.dumps(list(replies))} }}'


def call(name: str, args: dict, id: str = "c1") -> dict:
    return {"tool_calls": [{"name": name, "args": args, "id": id}]}


def ask(text: str = "hi") -> dict:
    return {"messages": [{"role": "user", "content": text}]}


def tool_answers(result) -> list[str]:
    return [m.content for m in result["messages"] if m.type == "tool"]


def test_E4_store_injected_store_is_the_long_term_store(tmp_path):
    path = write(
        tmp_path,
        scripted(
            call("remember", {"user": "ann", "fact": "likes tea"}),
            "ok",
            call("recall", {"user": "ann"}),
            "done",
        )
        + "\n  tools [kit.remember, kit.recall]\n  store memory\n  checkpoint memory",
    )
    agent = load_agent(path)
    agent.invoke(ask(), RunConfig(thread_id="one"))
    # I1: the item outlives the conversation: a new thread reads it back
    second = agent.invoke(ask("what do I like?"), RunConfig(thread_id="two"))
    assert tool_answers(second) == ["likes tea"]
    item = agent.store.get(("memories", "ann"), "likes tea")
    assert item.value == {"fact": "likes tea"}
    assert agent.checkpointer is not agent.store  # separate from the checkpoint store


def test_E4_store_declared_but_none_configured_fails_the_run(tmp_path):
    path = write(
        tmp_path,
        scripted(call("remember", {"user": "ann", "fact": "x"}), "never")
        + "\n  tools [kit.remember]",
    )
    with pytest.raises(StoreRequiredError) as err:
        load_agent(path).invoke(ask())
    assert "tool `remember`" in err.value.message and "`store`" in err.value.message
    assert "store memory" in err.value.help
    assert isinstance(err.value, ValueError)  # LangGraph raises ValueError here


def test_E4_store_checkpointer_is_never_given_as_the_store(tmp_path):
    path = write(
        tmp_path,
        scripted(call("remember", {"user": "ann", "fact": "x"}), "never")
        + "\n  tools [kit.remember]\n  checkpoint memory",
    )
    with pytest.raises(StoreRequiredError):
        load_agent(path).invoke(ask(), RunConfig(thread_id="t"))


def test_E4_store_tool_runtime_store_is_the_store_or_none(tmp_path):
    replies = (call("which_store", {}), "ok")
    with_store = write(tmp_path, scripted(*replies) + "\n  tools [kit.which_store]\n  store memory")
    assert tool_answers(load_agent(with_store).invoke(ask())) == ["InMemoryStore"]
    without = write(tmp_path, scripted(*replies) + "\n  tools [kit.which_store]")
    assert tool_answers(load_agent(without).invoke(ask())) == ["none"]  # no error (E4)


def test_E4_store_model_cannot_forge_the_store(tmp_path):
    forged = {"user": "ann", "fact": "tea", "store": "not a store"}
    path = write(
        tmp_path,
        scripted(call("remember", forged), "ok") + "\n  tools [kit.remember]\n  store memory",
    )
    agent = load_agent(path)
    assert tool_answers(agent.invoke(ask())) == ["saved"]
    assert agent.store.get(("memories", "ann"), "tea") is not None


def test_E4_store_given_by_the_caller_replaces_the_files(tmp_path):
    mine = InMemoryStore()
    mine.put(("memories", "bob"), "k", {"fact": "likes jazz"})
    path = write(
        tmp_path, scripted(call("recall", {"user": "bob"}), "ok") + "\n  tools [kit.recall]"
    )
    assert tool_answers(load_agent(path, store=mine).invoke(ask())) == ["likes jazz"]


def test_I1_middleware_reads_and_writes_runtime_store(tmp_path):
    path = write(
        tmp_path,
        scripted(call("add", {"a": 1, "b": 2}), "3")
        + "\n  tools [kit.add]\n  middleware { kit.CountTurns }\n  store memory",
    )
    agent = load_agent(path)
    agent.invoke(ask())
    assert agent.store.get(("turns",), "count").value == {"n": 2}  # two model calls


def test_I1_agent_loop_never_writes_the_store(tmp_path):
    path = write(
        tmp_path,
        scripted(call("add", {"a": 1, "b": 2}), "3")
        + "\n  tools [kit.add]\n  store memory\n  checkpoint memory",
    )
    agent = load_agent(path)
    agent.invoke(ask(), RunConfig(thread_id="t"))
    assert agent.store.list_namespaces() == []
    assert agent.store.search(()) == []


def test_I1_sqlite_store_outlives_the_process_objects(tmp_path):
    body = '\n  tools [kit.remember, kit.recall]\n  store sqlite("data/memory.db")'
    path = write(tmp_path, scripted(call("remember", {"user": "ann", "fact": "tea"}), "ok") + body)
    first = load_agent(path)
    first.invoke(ask())
    first.store.close()
    assert (tmp_path / "data" / "memory.db").is_file()  # relative to the .agent file
    path = write(tmp_path, scripted(call("recall", {"user": "ann"}), "ok") + body)
    assert tool_answers(load_agent(path).invoke(ask())) == ["tea"]


def test_I1_agent_tool_shares_the_parents_store(tmp_path):
    (tmp_path / "kit.py").write_text(KIT)
    child = scripted(call("remember", {"user": "ann", "fact": "tea"}), "noted")
    parent = scripted(call("helper", {"request": "note it"}, "d1"), "done")
    path = tmp_path / "two.agent"
    path.write_text(
        f'agentc 1\nuse "./kit.py" as kit\n\n'
        f'agent helper "Takes notes." {{\n{child}\n  tools [kit.remember]\n}}\n\n'
        f"agent boss {{\n{parent}\n  tools [helper]\n  store memory\n}}\n"
    )
    boss = load_agent(str(path), "boss")
    result = boss.invoke(ask())
    assert tool_answers(result) == ["noted"]
    assert boss.store.get(("memories", "ann"), "tea").value == {"fact": "tea"}


# ---------------------------------------------------------------- agentc run


def test_I1_cli_run_uses_the_files_store_and_none_by_default(tmp_path, monkeypatch, capsys):
    from agentc.cli import main

    monkeypatch.chdir(tmp_path)
    remember = call("remember", {"user": "ann", "fact": "tea"})
    path = write(
        tmp_path, scripted(remember, "ok") + '\n  tools [kit.remember]\n  store sqlite("memory.db")'
    )
    assert main(["run", path, "--input", "remember tea"]) == 0
    recall = write(
        tmp_path,
        scripted(call("recall", {"user": "ann"}), "ok")
        + '\n  tools [kit.recall]\n  store sqlite("memory.db")',
    )
    capsys.readouterr()
    assert main(["run", recall, "--input", "what?", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [m["content"] for m in data["messages"] if m["type"] == "tool"] == ["tea"]
    assert (tmp_path / "memory.db").is_file()
    again = write(tmp_path, scripted(remember, "never") + "\n  tools [kit.remember]")
    assert main(["run", again, "--input", "x"]) == 1  # the CLI's default: no store (E4)
    err = capsys.readouterr().err
    assert "store-required" in err and "Traceback" not in err
