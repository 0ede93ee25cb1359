"""D6: `checkpoint sqlite("…", types: [...])` names the types a load may rebuild beyond
agentc's own (LangGraph's `allowed_msgpack_modules`); `types: []` rebuilds none of the
user's. Real files, a real compile, a real SQLite file (or PostgreSQL schema) shared by runs
of two versions of a file (the second one stricter)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from support.pg import DURABLE, durable

from agentc import load_agent
from agentc.compiler.pipeline import compile_source
from agentc.runtime.errors import UnknownStoredTypeError
from agentc.runtime.types import RunConfig

T = RunConfig(thread_id="t")

TICKET_PY = """
from dataclasses import dataclass

from agentc.runtime.serde import register_type


@dataclass
class Ticket:
    title: str
    priority: int


register_type(Ticket)


def open_ticket(state):
    return {"ticket": Ticket("printer", 2)}
"""


@pytest.fixture(params=DURABLE)
def opener(request, tmp_path, monkeypatch) -> str:
    """The `checkpoint` call of the files, open before its options: SQLite's `sqlite("s.db"`
    or PostgreSQL's `postgres(url_env: "AGENTC_TEST_DB"` (a fresh schema)."""
    saved = durable(request.param, request, "s.db")
    monkeypatch.setenv("AGENTC_TEST_DB", saved.target)
    return saved.line[:-1]


def _graph(
    tmp_path: Path, types: str | None, module: str = "./models.py", opener: str = 'sqlite("s.db"'
) -> Path:
    if module.endswith(".py"):
        (tmp_path / "models.py").write_text(TICKET_PY, encoding="utf-8")
    option = "" if types is None else f", types: {types}"
    path = tmp_path / "g.agent"
    path.write_text(
        f'use "{module}" as models\n'
        "graph g {\n"
        "  state { ticket: any = none }\n"
        "  node open = python(models.open_ticket)\n"
        "  edge START -> open\n"
        "  edge open -> END\n"
        f"  checkpoint {opener}{option})\n"
        "}\n",
        encoding="utf-8",
    )
    return path


def _saved_then_loaded(tmp_path: Path, saved_with: str | None, loaded_with: str | None, **kw):
    """Saved by a file with `types: saved_with`, then read by one with `loaded_with`."""
    load_agent(_graph(tmp_path, saved_with, **kw)).invoke({}, T)
    return load_agent(_graph(tmp_path, loaded_with, **kw)).get_state(T).values


def test_a_listed_file_type_is_rebuilt(tmp_path, opener):
    values = _saved_then_loaded(tmp_path, None, "[models.Ticket]", opener=opener)
    assert (type(values["ticket"]).__name__, values["ticket"].priority) == ("Ticket", 2)


def test_strict_mode_refuses_a_user_type_and_names_it_and_the_list(tmp_path, opener):
    with pytest.raises(UnknownStoredTypeError) as caught:
        _saved_then_loaded(tmp_path, None, "[]", opener=opener)
    err = caught.value
    assert err.code == "unknown-stored-type"
    assert err.message == (
        "the checkpoint holds a value of type `models.py:Ticket`, which is not in the "
        "checkpoint's `types` list []"
    )
    assert "alias.Ticket" in (err.help or "")


@pytest.fixture
def importable(tmp_path, monkeypatch):
    """`app_tickets`, an importable module (not a file named by path)."""
    pkg = tmp_path / "pkgs"
    pkg.mkdir()
    (pkg / "app_tickets.py").write_text(TICKET_PY, encoding="utf-8")
    monkeypatch.syspath_prepend(str(pkg))
    yield "app_tickets"
    sys.modules.pop("app_tickets", None)


def test_a_dotted_entry_is_matched_by_name(tmp_path, importable, opener):
    values = _saved_then_loaded(
        tmp_path, None, '["app_tickets:Ticket"]', module=importable, opener=opener
    )
    assert values["ticket"].title == "printer"


def test_a_type_outside_the_list_is_refused(tmp_path, importable, opener):
    with pytest.raises(UnknownStoredTypeError) as caught:
        _saved_then_loaded(
            tmp_path, None, '["app_tickets:Other"]', module=importable, opener=opener
        )
    assert "`app_tickets:Ticket`" in caught.value.message
    assert '["app_tickets:Other"]' in caught.value.message
    assert '"app_tickets:Ticket"' in (caught.value.help or "")


def test_strict_mode_still_rebuilds_messages(tmp_path, opener):
    path = tmp_path / "a.agent"
    path.write_text(
        'agent a {\n  model "scripted" { replies: ["hello"] }\n'
        f"  checkpoint {opener}, types: [])\n}}\n",
        encoding="utf-8",
    )
    load_agent(path).invoke({"messages": [{"role": "user", "content": "hi"}]}, T)
    messages = load_agent(path).get_state(T).values["messages"]
    assert [(m.type, m.content) for m in messages] == [("human", "hi"), ("ai", "hello")]


def test_the_list_is_lowered_into_the_ir(tmp_path):
    path = _graph(tmp_path, '[models.Ticket, "app.models:Invoice"]')
    result = compile_source(path.read_text(), str(path), base_dir=tmp_path)
    assert result.program is not None, [d.message for d in result.diagnostics]
    refs = result.program.graph("g").checkpoint.types
    assert [(r.module, r.attr, r.is_file) for r in refs or ()] == [
        ("./models.py", "Ticket", True),
        ("app.models", "Invoice", False),
    ]


@pytest.mark.parametrize(
    "option, where, text",
    [
        ('types: "app:Ticket"', 36, "`types` must be a list of types"),
        ('types: ["Ticket"]', 37, "a `types` entry names a class"),
        ("types: [models.open_ticket]", 37, "`models.open_ticket` is not a class"),
        ("types: [models.Tiket]", 44, "`models` has no `Tiket`"),
        ("typs: []", 29, "unknown checkpoint option `typs`"),
    ],
)
def test_a_bad_types_option_is_a_located_diagnostic(tmp_path, option, where, text):
    (tmp_path / "models.py").write_text(TICKET_PY, encoding="utf-8")
    source = (
        'use "./models.py" as models\n'
        f"graph g {{\n  node n = python(models.open_ticket)\n  edge START -> n\n"
        f'  edge n -> END\n  checkpoint sqlite("s.db", {option})\n}}\n'
    )
    result = compile_source(source, "g.agent", base_dir=tmp_path)
    got = [(d.span.start.line, d.span.start.col, d.message) for d in result.diagnostics]
    assert len(got) == 1 and got[0][:2] == (6, where) and text in got[0][2], got
