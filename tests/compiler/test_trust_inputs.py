"""Hostile inputs that used to end `check`/`graph`/`explain`/`ir` in a traceback (issue 12,
item 14): each is a located diagnostic now, or is read like any other file. A `use` that
resolves outside the project root, or names a file that is not agent text, is refused
without showing a line of that file (item 12)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from agentc.compiler.pipeline import compile_file
from agentc.dsl.parse import parse
from tests.support.cli_kit import agentc

AGENT = 'agent a {{\n  model "scripted" {{ replies: ["done"] }}\n  prompt "p"\n{extra}}}\n'


def where(d) -> tuple[str, int, int]:
    return d.span.file, d.span.start.line, d.span.start.col


@pytest.mark.parametrize(
    "value,what",
    [
        ('-["done"]', "a list"),
        ('-"done"', "a string"),
        ("-true", "a boolean"),
        ("-none", "`none`"),
        ("-{a: 1}", "a map"),
        ("-x", "a name"),
        ("-f(1)", "a call"),
    ],
)
def test_a_minus_before_anything_but_a_number_is_a_located_diagnostic(value, what):
    text = f'agent a {{\n  model "scripted" {{ replies: {value} }}\n  prompt "p"\n}}\n'
    result = parse(text, "t.agent")
    (d,) = result.diagnostics
    assert d.code == "bad-literal"
    assert d.message == f"`-` applies to a number or a duration, not to {what}"
    assert where(d) == ("t.agent", 2, 31)


def test_a_minus_in_an_edge_condition_and_twice_over_is_one_diagnostic():
    (d,) = parse("graph g {\n  edge a -> b when n > --x\n}\n", "t.agent").diagnostics
    assert (d.message, where(d)[1:]) == (
        "`-` applies to a number or a duration, not to a name",
        (2, 25),
    )


def test_negative_numbers_and_durations_still_read():
    text = (
        'agent a {\n  model "scripted" { replies: ["done"], t: -(1), u: - -2, d: -30s }\n'
        '  prompt "p"\n}\n'
    )
    assert parse(text, "t.agent").module is not None


def test_a_used_agent_file_that_is_not_utf8_is_located_in_that_file(tmp_path):
    (tmp_path / "bad.agent").write_bytes(b'agent b {\n  model "scripted"\n  prompt "\xff"\n}\n')
    (tmp_path / "main.agent").write_text('use "./bad.agent"\n' + AGENT.format(extra=""))
    result = compile_file(tmp_path / "main.agent")
    (d,) = result.errors
    assert d.code == "unreadable-file"
    assert d.message == f"`{tmp_path / 'bad.agent'}` is not valid UTF-8"
    assert where(d) == (str(tmp_path / "bad.agent"), 3, 11)


def test_a_used_agent_file_with_a_bom_reads_like_the_root_file(tmp_path):
    (tmp_path / "b.agent").write_bytes(b"\xef\xbb\xbfschema S {\n  x: int\n}\n")
    (tmp_path / "main.agent").write_text('use "./b.agent"\n' + AGENT.format(extra=""))
    assert compile_file(tmp_path / "main.agent").errors == ()


def test_a_use_through_a_symlink_loop_is_located_at_the_use(tmp_path):
    os.symlink("loop2.agent", tmp_path / "loop1.agent")
    os.symlink("loop1.agent", tmp_path / "loop2.agent")
    (tmp_path / "main.agent").write_text('use "./loop1.agent"\n' + AGENT.format(extra=""))
    result = compile_file(tmp_path / "main.agent")
    (d,) = result.errors
    assert (d.code, d.message) == ("unreadable-file", "cannot read `./loop1.agent`")
    assert d.primary.text == "the path is a loop of symbolic links"
    assert where(d) == (str(tmp_path / "main.agent"), 1, 5)


def test_compiling_a_root_file_that_is_a_symlink_loop_is_a_diagnostic(tmp_path):
    os.symlink("loop2.agent", tmp_path / "loop1.agent")
    os.symlink("loop1.agent", tmp_path / "loop2.agent")
    (d,) = compile_file(tmp_path / "loop1.agent").errors
    assert d.code == "unreadable-file" and "too many levels of symbolic links" in d.message


def test_a_python_use_through_a_symlink_loop_is_located_at_the_use(tmp_path):
    os.symlink("l2.py", tmp_path / "l1.py")
    os.symlink("l1.py", tmp_path / "l2.py")
    (tmp_path / "main.agent").write_text('use "./l1.py" as l\n' + AGENT.format(extra=""))
    (d,) = compile_file(tmp_path / "main.agent").errors
    assert (d.code, d.message) == ("module-not-found", "cannot find `./l1.py`")
    assert where(d) == (str(tmp_path / "main.agent"), 1, 5)


def _union_tool(where: Path, terms: int) -> None:
    union = " | ".join(["int", "str"] * (terms // 2))
    (where / "u.py").write_text(f'def f(x: {union}) -> int:\n    """Doc."""\n    return 1\n')


def test_a_python_union_of_a_thousand_members_is_read(tmp_path):
    _union_tool(tmp_path, 1000)
    (tmp_path / "main.agent").write_text(
        'use "./u.py" as u\n' + AGENT.format(extra="  tools [u.f]\n")
    )
    result = compile_file(tmp_path / "main.agent")
    assert result.errors == ()
    assert result.program is not None
    agent = result.program.graphs[0].agent
    assert agent is not None
    (tool,) = agent.tools
    assert tool.parameters["properties"]["x"]["anyOf"][:2] == [
        {"type": "integer"},
        {"type": "string"},
    ]
    assert len(tool.parameters["properties"]["x"]["anyOf"]) == 1000


def test_a_python_default_of_three_thousand_terms_is_a_located_diagnostic(tmp_path):
    default = " + ".join(["1"] * 3000)
    (tmp_path / "d.py").write_text(
        f'def g(x: int = {default}) -> int:\n    """Doc."""\n    return 1\n'
    )
    (tmp_path / "main.agent").write_text(
        'use "./d.py" as d\n' + AGENT.format(extra="  tools [d.g]\n")
    )
    (d,) = compile_file(tmp_path / "main.agent").errors
    assert (d.code, d.message) == (
        "python-syntax",
        "`./d.py` nests an expression too deeply to be read",
    )
    assert where(d)[1:] == (1, 5)


def test_no_command_prints_a_traceback_for_these_files(tmp_path):
    _union_tool(tmp_path, 1000)
    (tmp_path / "d.py").write_text("X = " + " + ".join(["1"] * 3000) + "\n")
    (tmp_path / "bad.agent").write_bytes(b'agent b {\n  prompt "\xff"\n}\n')
    os.symlink("loop2.agent", tmp_path / "loop1.agent")
    os.symlink("loop1.agent", tmp_path / "loop2.agent")
    os.symlink("l2.py", tmp_path / "l1.py")
    os.symlink("l1.py", tmp_path / "l2.py")
    files = {
        "neg.agent": AGENT.format(extra="").replace('["done"]', '-["done"]'),
        "union.agent": 'use "./u.py" as u\n' + AGENT.format(extra="  tools [u.f]\n"),
        "dflt.agent": 'use "./d.py" as d\n' + AGENT.format(extra=""),
        "bad_use.agent": 'use "./bad.agent"\n' + AGENT.format(extra=""),
        "loop.agent": 'use "./loop1.agent"\n' + AGENT.format(extra=""),
        "pyloop.agent": 'use "./l1.py" as l\n' + AGENT.format(extra=""),
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    for command in ("check", "graph", "explain", "ir"):
        for name in files:
            result = agentc(command, name, cwd=tmp_path)
            assert "Traceback" not in result.stderr + result.stdout, (command, name, result.stderr)
            assert result.returncode in (0, 1), (command, name, result.stderr)


# ---------------------------------------------------------------- CRLF files (item 20)


def test_json_byte_offsets_of_crlf_files_are_the_real_byte_offsets(tmp_path):
    """`byte` is where an editor seeks in the file as saved: the `\\r` of each earlier
    line counts (a `use`d file was read with newline translation, one byte short a line)."""
    from agentc.dsl.report import render_json

    used = (
        b'schema S {\r\n  x: int\r\n}\r\n\r\nagent b {\r\n  model "scripted"\r\n'
        b'  prompt "\xc3\xa9"\r\n  tools [z.q]\r\n}\r\n'
    )
    root = (
        b'use "./b.agent"\r\nagent a {\r\n  model "scripted"\r\n  prompt "p"\r\n'
        b"  tools [x.y]\r\n}\r\n"
    )
    (tmp_path / "b.agent").write_bytes(used)
    (tmp_path / "main.agent").write_bytes(root)
    result = compile_file(tmp_path / "main.agent")
    report = render_json(result.diagnostics, result.sources)
    found = {
        Path(d["file"]).name: (d["span"]["start"]["byte"], d["span"]["end"]["byte"])
        for d in report["diagnostics"]
    }
    assert found == {
        "main.agent": (root.index(b"x.y"), root.index(b"x.y") + 3),
        "b.agent": (used.index(b"z.q"), used.index(b"z.q") + 3),
    }


# ---------------------------------------------------------------- used files outside the project

SHADOW = "root:$6$s3cr3tSALT$HASHEDSECRETLINE:19000:0:99999:7:::\n"
MAIN = AGENT.format(extra="")


def _outside(tmp_path: Path) -> Path:
    """A readable file outside the project with a secret line, as `.agent` and `.py`."""
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "shadow").write_text(SHADOW)
    (outside / "tools.py").write_text(
        f'def f() -> int:\n    """{SHADOW.strip()}"""\n    return 1\n'
    )
    (outside / "shared.agent").write_text("schema S {\n  x: int\n}\n")
    return outside


def _project(tmp_path: Path, uses: str) -> Path:
    project = tmp_path / "project"
    project.mkdir(exist_ok=True)
    (project / "main.agent").write_text(uses + MAIN)
    return project / "main.agent"


def _shown(result) -> str:
    from agentc.dsl.report import render_human, render_json

    text = render_human(result.diagnostics, result.sources)
    return text + json.dumps(render_json(result.diagnostics, result.sources))


@pytest.mark.parametrize(
    "use",
    [
        'use "./link.agent"',  # a link to /etc/shadow, say
        'use "./linked.py" as t',  # a link to a Python file elsewhere
        'use "./linked_dir/shared.agent"',  # a link to a folder elsewhere
        'use "{outside}/shared.agent"',  # an absolute path
        'use "{outside}/missing.agent"',  # refused before anyone looks whether it exists
        'use "{outside}/tools.py" as t',
        'use "../elsewhere/shared.agent"',
        'use "../elsewhere/tools.py" as t',
        'use "linked" as t',  # a dotted name found beside the file, linked out
    ],
)
def test_a_use_that_resolves_outside_the_project_is_refused_unread(tmp_path, use):
    outside = _outside(tmp_path)
    main = _project(tmp_path, use.format(outside=outside) + "\n")
    os.symlink(outside / "shadow", main.parent / "link.agent")
    os.symlink(outside / "tools.py", main.parent / "linked.py")
    os.symlink(outside, main.parent / "linked_dir")
    result = compile_file(main)
    (d,) = result.errors
    assert (d.code, where(d)) == ("use-outside-project", (str(main), 1, 5))
    assert "HASHEDSECRET" not in _shown(result) and str(outside / "shadow") not in _shown(result)
    done = agentc("check", "main.agent", cwd=main.parent)
    assert done.returncode == 1 and "HASHEDSECRET" not in done.stdout + done.stderr


def test_the_project_root_is_the_nearest_marked_folder(tmp_path):
    _outside(tmp_path)
    main = _project(
        tmp_path, 'use "../elsewhere/shared.agent" as s\nuse "../elsewhere/tools.py" as t\n'
    )
    assert [d.code for d in compile_file(main).errors] == ["use-outside-project"] * 2
    for marker in ("agentc.toml", "pyproject.toml", ".git"):  # a folder holding both: allowed
        (tmp_path / marker).touch()
        assert compile_file(main).errors == (), marker
        (tmp_path / marker).unlink()
    (tmp_path / ".git").mkdir()  # a real repository's .git is a folder
    assert compile_file(main).errors == ()
    (main.parent / "pyproject.toml").touch()  # the nearest marker wins: the project narrows
    assert [d.code for d in compile_file(main).errors] == ["use-outside-project"] * 2


def test_a_marker_in_the_home_folder_does_not_make_it_a_project(tmp_path, monkeypatch):
    _outside(tmp_path)
    main = _project(tmp_path, 'use "../elsewhere/shared.agent" as s\n')
    (tmp_path / ".git").mkdir()  # a dotfiles repository
    monkeypatch.setenv("HOME", str(tmp_path))
    assert [d.code for d in compile_file(main).errors] == ["use-outside-project"]


def test_installed_modules_and_files_inside_the_project_still_load(tmp_path):
    main = _project(tmp_path, 'use "json" as j\nuse "./sub/in.agent" as i\nuse "./real.py" as r\n')
    (main.parent / "sub").mkdir()
    (main.parent / "sub" / "in.agent").write_text("schema T {\n  y: int\n}\n")
    (main.parent / "real.py").write_text("X = 1\n")
    os.symlink(main.parent / "sub" / "in.agent", main.parent / "alias.agent")  # inside: fine
    (main.parent / "main.agent").write_text('use "./alias.agent" as al\n' + main.read_text())
    assert compile_file(main).errors == ()


def test_a_used_file_that_is_not_agent_text_is_never_quoted(tmp_path):
    main = _project(tmp_path, 'use "./notes.agent" as n\nuse "./binary.agent" as b\n')
    (main.parent / "notes.agent").write_text(SHADOW)
    (main.parent / "binary.agent").write_bytes(b"\xff\xfe" + SHADOW.encode())
    result = compile_file(main)
    assert {(d.code, d.span.file) for d in result.errors} == {
        ("not-agent-text", str(main)),
        ("unreadable-file", str(main.parent / "binary.agent")),
    }
    assert "HASHEDSECRET" not in _shown(result)


def test_a_used_agent_file_with_a_later_mistake_is_still_quoted(tmp_path):
    main = _project(tmp_path, 'use "./b.agent" as b\n')
    (main.parent / "b.agent").write_text("# shared\nschema S {\n  x: int\n}\nagent b {\n  mdl\n}\n")
    result = compile_file(main)
    assert [d.code for d in result.errors] == ["syntax"]
    assert "  mdl" in _shown(result)
