"""Credentials written in a file (`secret-in-file`): every spelling below is refused at the
value, never printed by any command, never cached; what only talks about credentials is
accepted. The spellings and the innocent values are data: add a row to add a case."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agentc.compiler.pipeline import compile_file, compile_source
from tests.support.cli_kit import agentc

AGENT = 'agent a {{\n  model "scripted" {{ replies: ["done"] }}\n  prompt "p"\n{extra}}}\n'


MODEL = 'agent a {{\n  model "openai:gpt-4o-mini" {{ {0} }}\n  prompt "p"\n}}\n'
SHELL = (
    'agent a {{\n  model "openai:gpt-4o-mini"\n  middleware {{\n    shell_tool {{ {0} }}\n'
    "  }}\n}}\n"
)
NODE = (
    'graph g {{\n  state {{ messages: messages }}\n  node m = model("openai:gpt-4o-mini", {0})\n'
    "  edge START -> m\n  edge m -> END\n}}\n"
)
USE = 'use "{0}" as t\nagent a {{\n  model "openai:gpt-4o-mini"\n}}\n'
SAVE = 'agent a {{\n  model "openai:gpt-4o-mini"\n  checkpoint {0}\n}}\n'
DECLARE = 'middleware m({0}) = "tools:M"\nagent a {{\n  model "openai:gpt-4o-mini"\n}}\n'

# (where, what is written there, the credential in it): each must be refused at the credential.
SECRETS = [
    (MODEL, 'api_key: "sk-proj-Q1w2E3r4T5y6U7i8O9p0AsDf"', "sk-proj-Q1w2E3r4T5y6U7i8O9p0AsDf"),
    (MODEL, 'headers: { "X-Goog-Api-Key": "g00g-v4lue-11aa" }', "g00g-v4lue-11aa"),
    (MODEL, 'headers: { Cookie: "sessionid=c00k1e-v4lue-9f8e" }', "c00k1e-v4lue-9f8e"),
    (MODEL, 'headers: { api_key: "hdr-v4lue-3b2a" }', "hdr-v4lue-3b2a"),
    (MODEL, 'key: "k3y-v4lue-771a"', "k3y-v4lue-771a"),
    (MODEL, 'auth: "4uth-v4lue-19ab"', "4uth-v4lue-19ab"),
    (MODEL, 'bearer: "b34rer-v4lue-aa01"', "b34rer-v4lue-aa01"),
    (MODEL, 'api_keys: ["l1st-k3y-0001", "l1st-k3y-0002"]', "l1st-k3y-0001"),
    (MODEL, 'base_url: "https://alice:p4ss-in-url@llm.example.com/v1"', "p4ss-in-url"),
    (MODEL, 'base_url: "https://llm.example.com/v1?api_key=qu3ry-k3y-55"', "qu3ry-k3y-55"),
    (MODEL, 'base_url: "https://llm.example.com/v1#access_token=fr4g-t0k-77"', "fr4g-t0k-77"),
    (MODEL, 'base_url: "https://t0ken-as-user@llm.example.com/v1"', "t0ken-as-user"),
    (MODEL, 'headers: { Authorization: "Bearer b34rer-t0ken-7788" }', "b34rer-t0ken-7788"),
    (MODEL, 'headers: { "X-Api-Key": "x-4pi-k3y-3344" }', "x-4pi-k3y-3344"),
    (MODEL, 'headers: { "X-Proxy": "Basic YWxpY2U6czNjcjN0" }', "YWxpY2U6czNjcjN0"),
    (MODEL, 'headers: { "X-Custom": "ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8" }', "ghp_A1b2C3d4"),
    (
        MODEL,
        'headers: { "X-Trace": "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyIn0.c2ln" }',
        "eyJhbGciOiJ",
    ),
    (MODEL, 'headers: { "X-Other": "sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWx" }', "sk-ant-api03"),
    (MODEL, 'token: "t0ken-v4lue-8899"', "t0ken-v4lue-8899"),
    (MODEL, 'session: "s3ss10n-v4lue-12"', "s3ss10n-v4lue-12"),
    (MODEL, 'client_secret: "cl13nt-s3cr3t-34"', "cl13nt-s3cr3t-34"),
    (SHELL, 'env: { OPENAI_API_KEY: "sk-env-AbCdEfGhIjKlMnOpQrStUv" }', "sk-env-AbCdEfGh"),
    (SHELL, 'env: { PGPASSWORD: "pgp4ss-env-56" }', "pgp4ss-env-56"),
    (SHELL, 'env: { CLOUD_ID: "AKIAIOSFODNN7EXAMPLE" }', "AKIAIOSFODNN7EXAMPLE"),
    (SHELL, 'env: { GH: "github_pat_11ABCDEFG0123456789_abcdefghijklmnop" }', "github_pat_11"),
    (SHELL, 'startup_commands: ["export S=xoxb-1234567890-abcdefghij"]', "xoxb-1234567890"),
    (NODE, 'password: "hunter2-n0de"', "hunter2-n0de"),
    (USE, "https://mcp.example.com/mcp?token=mcp-t0ken-1122", "mcp-t0ken-1122"),
    (USE, "https://bob:mcp-p4ss-3344@mcp.example.com/mcp", "mcp-p4ss-3344"),
    (SAVE, 'postgres("postgres://app:pg-p4ss-5566@db:5432/app")', "pg-p4ss-5566"),
    (DECLARE, 'token: str = "d3cl-t0ken-9900"', "d3cl-t0ken-9900"),
]

# Written where credentials are refused, and not one: no `secret-in-file`.
INNOCENT = [
    (MODEL, 'max_tokens: 200, temperature: 0, token_budget: 4000, api_key_env: "TEAM_KEY"'),
    (MODEL, 'api_key: none, key_env: "K", session_id: "s-1", thread_tokens: 9'),
    (MODEL, 'api_key: ""'),
    (MODEL, 'base_url: "https://api.openai.com/v1?model=tokens&page=2"'),
    (MODEL, 'headers: { "X-Request-Source": "agentc", Accept: "application/json" }'),
    (MODEL, 'headers: { "X-Note": "Bearer" }, tag: "Basic usage", m: "task-decomposer-v2-2024"'),
    (SHELL, 'env: { PATH: "/usr/bin:/bin", LANG: "en_US.UTF-8", TOKENIZERS_PARALLELISM: "no" }'),
    (SHELL, 'tool_description: "Runs commands; never echo a Bearer abcdefghijkl token"'),
    (NODE, 'prompt: "Explain api keys such as sk-proj-Q1w2E3r4T5y6U7i8O9p0AsDf"'),
    (USE, "http://127.0.0.1:9000/mcp"),
    (SAVE, 'sqlite(".agentc/state.db")'),
    (DECLARE, 'max_tokens: int = 200, token_env: str = "MY_TOKEN", tip: str = "Bearer"'),
    (
        'schema S {{\n  key: str = "value"\n  token: str = "abc"\n}}\n{0}',
        'agent a { model "gpt-4o" }',
    ),
    (
        '{0}\nagent a {{\n  model "scripted" {{ replies: ["sk-proj-Q1w2E3r4T5y6U7i8O9p0AsDf"] }}\n'
        '  description "reads api keys and tokens"\n  prompt "p"\n}}\n',
        "",
    ),
]


def _secrets(result):
    return [d for d in result.diagnostics if d.code == "secret-in-file"]


@pytest.mark.parametrize("template,written,secret", SECRETS, ids=[s[1][:28] for s in SECRETS])
def test_a_credential_is_refused_at_the_value_and_never_shown(template, written, secret):
    from agentc.dsl.report import render_human, render_json, render_short

    text = template.format(written)
    result = compile_source(text, "t.agent", base_dir=Path.cwd())
    (d,) = _secrets(result)
    at = text.index(secret)
    assert d.span.start.offset <= at < d.span.end.offset, (d.span, d.message)
    assert d.span.start.line == text[:at].count("\n") + 1
    assert result.program is None
    shown = render_human(result.diagnostics, result.sources) + render_short(result.diagnostics)
    shown += json.dumps(render_json(result.diagnostics, result.sources))
    assert secret not in shown and "*" * 6 in shown


@pytest.mark.parametrize("template,written", INNOCENT, ids=[i[1][:28] for i in INNOCENT])
def test_what_only_talks_about_credentials_is_accepted(template, written):
    result = compile_source(template.format(written), "t.agent", base_dir=Path.cwd())
    assert _secrets(result) == []


def test_names_and_shapes_tables():
    from agentc.compiler.check.secrets import credential_name, secret_shape

    for name in ("api_key", "X-Goog-Api-Key", "apiKey", "APIKEY", "Set-Cookie", "KEY_2"):
        assert credential_name(name), name
    for name in ("max_tokens", "token_budget", "api_key_env", "keep", "session_id", "tokens"):
        assert not credential_name(name), name
    assert secret_shape("Basic dXNlcjpwYXNz") == "HTTP basic credentials"  # user:pass
    assert secret_shape("Basic dXNlcnBhc3M=") is None  # no colon: not a credential
    assert secret_shape("postgres://app@db/app") is None  # a user name alone, not over http
    assert secret_shape("http://[::1/mcp") is None  # malformed: nothing to call


def _all_secrets_file(where: Path) -> Path:
    """Every refused spelling in one file (one block each), for the commands to run on."""
    uses = [written for t, written, _ in SECRETS if t is USE]
    blocks = [
        t.format(written).replace("agent a", f"agent a{i}").replace("graph g", f"graph g{i}")
        for i, (t, written, _) in enumerate(SECRETS)
        if t is not USE
    ]
    text = "".join(f'use "{u}" as t{i}\n' for i, u in enumerate(uses)) + "\n".join(blocks)
    (where / "leaky.agent").write_text(text)
    return where / "leaky.agent"


def test_no_command_prints_or_caches_a_refused_credential(tmp_path):
    _all_secrets_file(tmp_path)
    cache = tmp_path / "cache"
    env = {"XDG_CACHE_HOME": str(cache)}
    out = ""
    for args in (
        ("check", "leaky.agent"),
        ("check", "--format", "json", "leaky.agent"),
        ("ir", "leaky.agent"),
        ("graph", "leaky.agent"),
        ("explain", "leaky.agent"),
        ("run", "--agent", "a0", "--input", "hi", "leaky.agent"),
    ):
        done = agentc(*args, cwd=tmp_path, env=env)
        assert done.returncode == 1, (args, done.stderr)
        out += done.stdout + done.stderr
    assert out.count("error[secret-in-file]") >= len(SECRETS)
    for _, _, secret in SECRETS:
        assert secret not in out, secret
        for f in cache.rglob("*") if cache.exists() else ():
            assert not f.is_file() or secret.encode() not in f.read_bytes(), (f, secret)


def test_the_ir_cache_never_stores_a_program_with_an_error_or_a_credentials_shape(tmp_path):
    from agentc import ircache
    from agentc.compiler.pipeline import CompileResult
    from agentc.dsl.codes import Code
    from agentc.dsl.diagnostics import error

    clean = tmp_path / "ok.agent"
    clean.write_text(AGENT.format(extra=""))
    quoting = tmp_path / "quotes.agent"  # prose may quote a key: allowed, but never cached
    quoting.write_text(AGENT.format(extra="").replace('"p"', '"sk-proj-Q1w2E3r4T5y6U7i8O9p0AsDf"'))
    compiled = compile_file(clean)
    assert compiled.program is not None and compile_file(quoting).program is not None
    where = compiled.sources[str(clean)].span(0, 1)
    slipped = CompileResult(  # as if a check had reported and lowering had still run
        compiled.program, (error(Code.SECRET_IN_FILE, "m", where),), compiled.sources
    )
    ircache.write(tmp_path / "slipped.json", slipped, clean)
    ircache.write(tmp_path / "quoting.json", compile_file(quoting), quoting)
    ircache.write(tmp_path / "clean.json", compiled, clean)
    assert sorted(p.name for p in tmp_path.glob("*.json")) == ["clean.json"]


def test_the_diagnostics_doc_lists_every_credential_word():
    from agentc.compiler.check.secrets import NAME_SUFFIXES, NAME_WORDS

    doc = (Path(__file__).resolve().parents[2] / "docs" / "diagnostics.md").read_text()
    policy = doc[doc.index("## Policy: credentials") : doc.index("## Policy: used files")]
    words = {w.removesuffix("s") for w in NAME_WORDS} | set(NAME_SUFFIXES)
    assert [w for w in sorted(words) if f"`{w}" not in policy] == []


def test_a_credential_in_a_used_file_is_refused_there_and_never_shown(tmp_path):
    from agentc.dsl.report import render_human

    (tmp_path / "shared.agent").write_text(MODEL.format('token: "us3d-t0ken-4455"'))
    (tmp_path / "main.agent").write_text('use "./shared.agent" as s\n' + AGENT.format(extra=""))
    result = compile_file(tmp_path / "main.agent")
    (d,) = _secrets(result)
    assert (d.span.file, d.span.start.line) == (str(tmp_path / "shared.agent"), 2)
    assert "us3d-t0ken-4455" not in render_human(result.diagnostics, result.sources)
