"""`agentc check --explain CODE` prints the code's documentation, as `rustc --explain`
does: the checker's codes from docs/diagnostics.md, the run-time ones from docs/errors.md,
in the checkout and in an installed copy (the docs ship as `agentc/docs/`)."""

from __future__ import annotations

import pytest
from support.installed_kit import clean_env, install

from agentc.cli import main
from agentc.cmd_check import doc_sections
from agentc.dsl.codes import Code


def test_a_diagnostic_code_prints_its_section(capsys):
    assert main(["check", "--explain", "unknown-param"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("### `unknown-param`\n")
    assert "extra_body" in out and "### `unknown-provider`" not in out  # one section


def test_a_run_time_code_prints_its_section(capsys):
    assert main(["check", "--explain", "tool-failed"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("### tool-failed\n") and "## Pauses" not in out


def test_an_unknown_code_is_told_the_nearest_and_exits_2(capsys):
    assert main(["check", "--explain", "unknwn-param"]) == 2
    err = capsys.readouterr().err
    assert "`unknwn-param` is not a diagnostic or run-time error code" in err
    assert "did you mean `unknown-param`?" in err


def test_check_without_files_or_explain_is_a_usage_error(capsys):
    assert main(["check"]) == 2
    assert "--explain CODE" in capsys.readouterr().err


def test_every_diagnostic_code_can_be_explained():
    sections = doc_sections()
    assert not [c.value for c in Code if c.value not in sections]


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    return install(tmp_path_factory.mktemp("explain"))


def test_an_installed_copy_explains_from_its_own_docs(installed, tmp_path):
    done = installed.run(
        "-m", "agentc", "check", "--explain", "unlisted-model", cwd=tmp_path, env=clean_env()
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("### `unlisted-model`") and "profile table" in done.stdout
    where = installed.run(
        "-c",
        "import agentc.cmd_check as c; print(c._DOCS[0].is_dir())",
        cwd=tmp_path,
        env=clean_env(),
    )
    assert where.stdout.strip() == "True", where.stderr  # the installed copy's, not the checkout's
