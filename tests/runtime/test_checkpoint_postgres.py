"""What only the PostgreSQL checkpointer and store have (the conformance suites run them
beside memory and SQLite): schema migrations from an older layout, the connection string
never shown with its password, a database that does not answer as one clear error naming
host and port, a failed save that stops saving, thread claims scoped to their schema, and a
`.agent` file that names its database by an environment variable, checked and run by the
CLI. Against the throw-away cluster of `support.pg`; nothing is mocked."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from support.cli_kit import agentc, one_paragraph
from support.graphs import agent_graph
from support.pg import free_port, sql

from agentc.runtime import CheckpointQuery, CheckpointWriteError, RunConfig, SqliteCheckpointer
from agentc.runtime.checkpoint import CheckpointSource, PostgresCheckpointer
from agentc.runtime.checkpoint.pgurl import database_url, redact
from agentc.runtime.errors import DatabaseSchemaError, DatabaseUnreachableError, DatabaseUrlError
from agentc.runtime.store import PostgresStore

T = RunConfig(thread_id="t")
HANG_GUARD = 60  # seconds: a hang becomes a failure, never a speed bound

# The first layout agentc wrote, as a v1 agentc left it (typed here, not imported: the
# test pins what older databases hold).
V1 = """
CREATE TABLE agentc_schema_versions (version integer PRIMARY KEY,
  applied_at timestamptz NOT NULL DEFAULT now());
INSERT INTO agentc_schema_versions (version) VALUES (1);
CREATE TABLE agentc_checkpoints (
  seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  thread_id text NOT NULL, ns text NOT NULL, id text NOT NULL, parent_id text,
  data text NOT NULL, UNIQUE (thread_id, ns, id));
CREATE INDEX agentc_checkpoints_thread ON agentc_checkpoints (thread_id, ns, seq);
CREATE TABLE agentc_writes (
  seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  thread_id text NOT NULL, ns text NOT NULL, checkpoint_id text NOT NULL,
  task_id text NOT NULL, kind text NOT NULL, data text NOT NULL);
CREATE INDEX agentc_writes_checkpoint ON agentc_writes (thread_id, ns, checkpoint_id, seq);
CREATE TABLE agentc_store_items (
  seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  ns text COLLATE "C" NOT NULL, key text NOT NULL, value text NOT NULL,
  created_at double precision NOT NULL, updated_at double precision NOT NULL,
  UNIQUE (ns, key));
"""


def _chat(checkpointer):
    return agent_graph("checkpoint", "chat", checkpointer=checkpointer)


def _v1_database(pg_url: str, tmp_path: Path) -> list[tuple]:
    """A v1 database holding a finished conversation on thread `t` (its rows made by a run
    on SQLite, the same row format) and one store item; returns the checkpoint rows."""
    import psycopg

    lite = SqliteCheckpointer(str(tmp_path / "old.db"))
    _chat(lite).invoke({"messages": ["hi"], "rounds": 2}, T)
    lite.close()
    rows = sql(
        str(tmp_path / "old.db"), "SELECT thread_id, ns, id, parent_id, data FROM checkpoints"
    )
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute(V1)
        with conn.cursor() as cur:
            cur.executemany(
                "INSERT INTO agentc_checkpoints (thread_id, ns, id, parent_id, data) "
                "VALUES (%s,%s,%s,%s,%s)",
                rows,
            )
        conn.execute(
            "INSERT INTO agentc_store_items (ns, key, value, created_at, updated_at) "
            "VALUES ('users.ann', 'prefs', '{\"tea\": true}', 1, 1)"
        )
    return rows


# ---------------------------------------------------------------- migrations


def test_a_v1_database_is_migrated_and_its_rows_stay_readable(pg_url, tmp_path):
    old = _v1_database(pg_url, tmp_path)
    before = json.loads(old[-1][4])  # the newest checkpoint, as v1 saved it
    store = PostgresCheckpointer(pg_url)
    try:
        versions = [r[0] for r in sql(pg_url, "SELECT version FROM agentc_schema_versions")]
        assert sorted(versions) == [1, 2]
        # v2's columns were filled from the old rows: search filters in the database
        filled = sql(pg_url, "SELECT count(*) FROM checkpoints WHERE step IS NULL")
        assert filled == [(0,)]
        g = _chat(store)
        assert g.get_state(T).values["n"] == 2 and len(g.get_state_history(T)) == len(old)
        found = store.search(CheckpointQuery(thread_id="t", step=before["step"]))
        assert [f.checkpoint.id for f in found] == [before["id"]]
        inputs = store.search(CheckpointQuery(source=CheckpointSource.INPUT))
        assert len(inputs) == 1 and inputs[0].checkpoint.step == -1
        out = g.invoke({"messages": ["more"], "n": 0, "rounds": 1}, T)  # the thread goes on
        assert [m.text for m in out["messages"]][:1] == ["hi"] and "more" in [
            m.text for m in out["messages"]
        ]
    finally:
        store.close()
    memory = PostgresStore(pg_url)  # the store's v1 rows too
    assert memory.get(("users", "ann"), "prefs").value == {"tea": True}
    memory.close()


def test_opening_a_migrated_database_again_changes_nothing(pg_url):
    PostgresCheckpointer(pg_url).close()
    PostgresStore(pg_url).close()
    assert sql(pg_url, "SELECT version FROM agentc_schema_versions ORDER BY version") == [
        (1,),
        (2,),
    ]


def test_two_processes_opening_a_new_database_at_once_migrate_it_once(pg_url, tmp_path):
    code = textwrap.dedent(f"""
        from agentc.runtime.checkpoint import PostgresCheckpointer
        PostgresCheckpointer({pg_url!r}).close()
        print("ok")
    """)
    procs = [
        subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
        for _ in range(4)
    ]
    assert [p.communicate(timeout=HANG_GUARD)[0].strip() for p in procs] == ["ok"] * 4
    assert sql(pg_url, "SELECT count(*) FROM agentc_schema_versions") == [(2,)]


def test_a_newer_schema_is_refused(pg_url):
    PostgresCheckpointer(pg_url).close()
    sql(pg_url, "INSERT INTO agentc_schema_versions (version) VALUES (99)")
    with pytest.raises(DatabaseSchemaError) as info:
        PostgresCheckpointer(pg_url)
    assert info.value.code == "database-too-new"
    assert "schema version 99, newer than this agentc reads (up to 2)" in info.value.message


# ---------------------------------------------------------------- connection strings


@pytest.mark.parametrize(
    "url,shown",
    [
        ("postgresql://app:s3cr%40t@db:5432/app", "postgresql://app:***@db:5432/app"),
        ("postgresql://app@db/app", "postgresql://app@db/app"),
        (
            "postgres://db/app?password=s3cret&sslmode=require",
            "postgres://db/app?password=***&sslmode=require",
        ),
        ("host=db password=s3cret dbname=app", "host=db password=*** dbname=app"),
        ("host=db password='s3 cret' dbname=app", "host=db password=*** dbname=app"),
    ],
)
def test_the_password_is_never_shown(url, shown):
    assert redact(url) == shown


def test_a_database_that_does_not_answer_is_one_clear_error():
    port = free_port()  # nothing listens there
    url = f"postgresql://app:hunter2-pw@127.0.0.1:{port}/app"
    with pytest.raises(DatabaseUnreachableError) as info:
        PostgresCheckpointer(url)
    err = info.value
    text = str(err)
    assert err.code == "database-unreachable" and "hunter2-pw" not in text
    shown = f"postgresql://app:***@127.0.0.1:{port}/app"
    assert text.startswith(
        "error[database-unreachable]: could not reach the PostgreSQL database at "
        f"127.0.0.1:{port} ({shown}): "
    )
    assert "Connection refused" in text and "listen_addresses" in (err.help or "")
    with pytest.raises(DatabaseUnreachableError):
        PostgresStore(url)


def test_a_wrong_password_and_a_missing_database_say_what_to_check(pg_cluster):
    wrong = pg_cluster.url().replace(pg_cluster.password, "not-the-password")
    with pytest.raises(DatabaseUnreachableError) as info:
        PostgresCheckpointer(wrong)
    assert "password authentication failed" in str(info.value)
    assert "not-the-password" not in str(info.value) and "PGPASSWORD" in (info.value.help or "")
    missing = pg_cluster.url("no_such_db")
    with pytest.raises(DatabaseUnreachableError) as info:
        PostgresCheckpointer(missing)
    assert 'database "no_such_db" does not exist' in str(info.value)
    assert pg_cluster.password not in str(info.value) and "createdb" in (info.value.help or "")


def test_a_connection_string_from_an_unset_variable_or_unreadable_is_clear(monkeypatch):
    monkeypatch.delenv("AGENTC_NO_SUCH_DB", raising=False)
    with pytest.raises(DatabaseUrlError, match="`AGENTC_NO_SUCH_DB`.* is not set"):
        database_url(None, "AGENTC_NO_SUCH_DB")
    monkeypatch.setenv("AGENTC_NO_SUCH_DB", "postgresql://x@h/db")
    assert database_url(None, "AGENTC_NO_SUCH_DB") == "postgresql://x@h/db"
    with pytest.raises(DatabaseUrlError, match="is not a PostgreSQL connection string"):
        PostgresCheckpointer("nonsense")


# ---------------------------------------------------------------- saving and claims


def test_a_failed_save_stops_saving_and_the_thread_resumes(pg_url):
    """The server refuses the 5th checkpoint as a full disk would (a trigger raising
    PostgreSQL's own `disk_full`), then takes every later one: saving must stop at the
    failure, so the saved chain never has a gap and the thread resumes."""
    store = PostgresCheckpointer(pg_url)
    sql(
        pg_url,
        "CREATE SEQUENCE puts; CREATE FUNCTION full_once() RETURNS trigger AS $$ BEGIN "
        "IF nextval('puts') = 5 THEN RAISE EXCEPTION 'could not extend file: No space left "
        "on device' USING ERRCODE = 'disk_full'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql; "
        "CREATE TRIGGER full_once BEFORE INSERT ON checkpoints FOR EACH ROW "
        "EXECUTE FUNCTION full_once()",
    )
    g = _chat(store)
    with pytest.raises(CheckpointWriteError) as info:
        g.invoke({"messages": ["hi"], "rounds": 10}, T)  # async: the API's default
    text = str(info.value)
    assert "No space left on device" in text and "thread `t`" in text and "***" in text
    rows = sql(pg_url, "SELECT id, parent_id FROM checkpoints")
    ids = {r[0] for r in rows}
    assert len(rows) == 4 and all(p is None or p in ids for _, p in rows)
    assert g.invoke(None, T)["n"] == 10  # resumed from the last good checkpoint
    store.close()


def test_claims_are_scoped_to_the_schema_of_the_tables(pg_cluster):
    one, two = (
        PostgresCheckpointer(pg_cluster.fresh_url()),
        PostgresCheckpointer(pg_cluster.fresh_url()),
    )
    a, b = one.claim("T"), two.claim("T")  # the same thread id of two setups: both free
    a.release(), b.release()
    one.close(), two.close()


# ---------------------------------------------------------------- a file, checked and run

AGENT = """agentc 1
agent chat {
  model "scripted" { replies: ["one"] }
  checkpoint postgres(url_env: "DATABASE_URL")
  store postgres(url_env: "DATABASE_URL")
}
"""


def test_a_file_naming_its_database_by_a_variable_checks_and_runs(pg_url, tmp_path):
    (tmp_path / "chat.agent").write_text(AGENT)
    checked = agentc("check", "chat.agent", cwd=tmp_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    env = {"DATABASE_URL": pg_url}
    first = agentc("run", "chat.agent", "--input", "hi", "--thread", "T", cwd=tmp_path, env=env)
    assert first.returncode == 0, first.stderr
    again = agentc("run", "chat.agent", "--input", "and?", "--thread", "T", cwd=tmp_path, env=env)
    assert again.returncode == 0, again.stderr
    state = _chat_state(pg_url)
    # the second process continued the thread (its scripted model starts its replies over)
    assert [m.content for m in state.values["messages"]] == ["hi", "one", "and?", "one"]
    unset = agentc("run", "chat.agent", "--input", "hi", cwd=tmp_path, env={"DATABASE_URL": ""})
    assert unset.returncode == 1 and one_paragraph(unset.stderr), unset.stderr
    assert "error[bad-database-url]" in unset.stderr and "`DATABASE_URL`" in unset.stderr
    down = {"DATABASE_URL": f"postgresql://app:pw-5566@127.0.0.1:{free_port()}/app"}
    gone = agentc("run", "chat.agent", "--input", "hi", cwd=tmp_path, env=down)
    assert gone.returncode == 1 and one_paragraph(gone.stderr), gone.stderr
    assert "error[database-unreachable]" in gone.stderr and "pw-5566" not in gone.stderr


def _chat_state(pg_url: str):
    """Thread `T` of the file, read back by another process's view of the database."""
    from agentc.compiler.pipeline import compile_source
    from agentc.runtime import compile

    program = compile_source(AGENT, "chat.agent").program
    assert program is not None
    saver = PostgresCheckpointer(pg_url)
    try:
        return compile(program, "chat", checkpointer=saver).get_state(RunConfig(thread_id="T"))
    finally:
        saver.close()


def test_without_psycopg_a_postgres_file_is_one_clear_error(tmp_path):
    """psycopg is optional: agentc loads and checks without it, and a run that needs it
    says how to install it. (An import of psycopg made to fail, in a child process.)"""
    (tmp_path / "chat.agent").write_text(AGENT)
    code = textwrap.dedent("""
        import sys
        sys.modules["psycopg"] = None  # as if not installed: `import psycopg` fails
        from agentc.api import load_agent
        try:
            load_agent("chat.agent")
        except Exception as e:
            print(e)
        print("psycopg_pool" in sys.modules)
    """)
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=HANG_GUARD,
        env={**os.environ, "DATABASE_URL": "postgresql://app@127.0.0.1/app"},
    )
    assert done.returncode == 0, done.stderr
    first, second = done.stdout.splitlines()
    assert first.startswith("error[postgres-driver-missing]: the PostgreSQL checkpointer needs")
    assert "pip install 'agentc[postgres]'" in first and second == "False"
