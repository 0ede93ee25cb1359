"""D5: `interrupt(…, response_schema=X)` publishes X's JSON schema and validates the answer,
for every kind pydantic reads — a `typing_extensions.TypedDict` on Python 3.11 included.
LangGraph is the oracle: a bad answer raises, nothing is saved, the interrupt stays pending
under the same id, and a good answer then resumes."""

from __future__ import annotations

import textwrap
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.types import Command as LGCommand
from langgraph.types import interrupt as lg_interrupt
from pydantic import PydanticUserError, ValidationError
from typing_extensions import TypedDict

from agentc.api import load_agent
from agentc.runtime import Command, MemoryCheckpointer, RunConfig
from agentc.runtime.errors import ResponseSchemaError, ResumeValidationError

SCHEMAS = '''
import dataclasses
from typing import Literal

import typing
from pydantic import BaseModel
from typing_extensions import TypedDict


class Ticket(TypedDict):
    """An approval decision."""

    approve: bool
    reason: str


class PlainTicket(typing.TypedDict):
    approve: bool


@dataclasses.dataclass
class DataTicket:
    approve: bool


class ModelTicket(BaseModel):
    approve: bool
'''

NODES = """
from agentc.runtime import interrupt
from schemas import Ticket, PlainTicket, DataTicket, ModelTicket

KINDS = {"Ticket": Ticket, "PlainTicket": PlainTicket, "DataTicket": DataTicket,
         "ModelTicket": ModelTicket, "Count": int}


def make(kind):
    def ask(state):
        return {"answer": interrupt("ok?", response_schema=KINDS[kind])}
    return ask


ask_Ticket = make("Ticket")
ask_PlainTicket = make("PlainTicket")
ask_DataTicket = make("DataTicket")
ask_ModelTicket = make("ModelTicket")
ask_Count = make("Count")
"""


@pytest.fixture
def schemas(tmp_path, monkeypatch):
    (tmp_path / "schemas.py").write_text(SCHEMAS)
    (tmp_path / "nodes.py").write_text(NODES)
    monkeypatch.syspath_prepend(str(tmp_path))
    import importlib

    import schemas as module  # noqa: PLC0415 - written by this fixture

    return importlib.reload(module)


def ours(tmp_path, kind: str):
    path = tmp_path / f"{kind}.agent"
    path.write_text(
        textwrap.dedent(
            f"""\
            use "./nodes.py" as nodes
            graph g {{
              state {{ answer: any }}
              node ask = python(nodes.ask_{kind})
              edge START -> ask
              edge ask -> END
            }}
            """
        )
    )
    return load_agent(path, checkpointer=MemoryCheckpointer())


def theirs(schema: Any):
    class S(TypedDict, total=False):
        answer: Any

    def ask(state: S) -> S:
        return {"answer": lg_interrupt("ok?", response_schema=schema)}

    builder = StateGraph(S)
    builder.add_node("ask", ask)
    builder.add_edge(START, "ask")
    builder.add_edge("ask", END)
    return builder.compile(checkpointer=InMemorySaver())


T = {"configurable": {"thread_id": "t1"}}  # LangGraph's config
R = RunConfig(thread_id="t1")  # ours


def test_D5_typing_extensions_typeddict_like_langgraph(tmp_path, schemas):
    mine, lg = ours(tmp_path, "Ticket"), theirs(schemas.Ticket)
    ask_mine, ask_lg = mine.invoke({}, R)["__interrupt__"][0], lg.invoke({}, T)["__interrupt__"][0]
    assert isinstance(ask_mine.response_schema, dict)
    assert ask_mine.response_schema == ask_lg.response_schema
    assert ask_mine.response_schema["properties"]["approve"] == {
        "title": "Approve",
        "type": "boolean",
    }
    history_mine = len(list(mine.get_state_history(R)))
    history_lg = len(list(lg.get_state_history(T)))

    bad = {"approve": "maybe", "reason": "?"}
    with pytest.raises(ValidationError):
        lg.invoke(LGCommand(resume=bad), T)
    with pytest.raises(ResumeValidationError, match="Ticket") as caught:
        mine.invoke(Command(resume=bad), R)
    assert caught.value.code == "invalid-resume"

    # Nothing saved, and the same interrupt is still pending in both.
    assert len(list(lg.get_state_history(T))) == history_lg
    assert len(list(mine.get_state_history(R))) == history_mine
    state_mine, state_lg = mine.get_state(R), lg.get_state(T)
    assert tuple(state_mine.next) == tuple(state_lg.next) == ("ask",)
    assert [i.id for i in state_mine.interrupts] == [ask_mine.id]
    assert [i.id for i in state_lg.interrupts] == [ask_lg.id]

    good = {"approve": True, "reason": "fine"}
    assert mine.invoke(Command(resume=good), R)["answer"] == good
    assert lg.invoke(LGCommand(resume=good), T)["answer"] == good


@pytest.mark.parametrize(
    "kind, bad, good",
    [
        ("DataTicket", {"approve": "maybe"}, {"approve": True}),
        ("ModelTicket", {"approve": "maybe"}, {"approve": True}),
        ("Count", "many", 3),
    ],
)
def test_D5_other_schema_kinds_publish_json_and_validate(tmp_path, schemas, kind, bad, good):
    schema = int if kind == "Count" else getattr(schemas, kind)
    mine, lg = ours(tmp_path, kind), theirs(schema)
    published = mine.invoke({}, R)["__interrupt__"][0].response_schema
    assert published == lg.invoke({}, T)["__interrupt__"][0].response_schema
    with pytest.raises(ResumeValidationError):
        mine.invoke(Command(resume=bad), R)
    with pytest.raises(ValidationError):
        lg.invoke(LGCommand(resume=bad), T)
    answer = mine.invoke(Command(resume=good), R)["answer"]
    assert answer == lg.invoke(LGCommand(resume=good), T)["answer"]


def test_D5_typing_typeddict_on_311_is_refused_by_name(tmp_path, schemas):
    """pydantic cannot read a `typing.TypedDict` before 3.12: LangGraph raises pydantic's
    error at the interrupt; ours names the schema and what to use instead."""
    with pytest.raises(PydanticUserError, match="typing_extensions.TypedDict"):
        theirs(schemas.PlainTicket).invoke({}, T)
    with pytest.raises(ResponseSchemaError, match="`PlainTicket`") as caught:
        ours(tmp_path, "PlainTicket").invoke({}, R)
    assert caught.value.code == "bad-response-schema"
    assert "typing_extensions.TypedDict" in str(caught.value)
