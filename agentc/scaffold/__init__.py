"""`agentc new`'s templates: a ready project for an agent, a graph, a supervisor or a
reviewed agent.

Input: a project name (a name the language accepts: it becomes the agent's), a template
and a folder. Output: `plan(...)` → the files to write, with their text; `write(files)`
writes them, never over an existing file (`ScaffoldError` names the first one, and
nothing is written). Each template (package data under `templates/`) holds `NAME.agent`,
`tools.py`, `NAME.test.agent`, `.env.example` (and what else it needs); every `{{name}}`
in a file becomes the project's name. `README.md` gets the project's section: a new file,
or a section added at the end of an existing one.
Invariants: every template checks clean, runs offline (scripted models) and passes its own
tests (tests/scaffold).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

TEMPLATES = {
    "agent": ("an agent with one tool", ' --input "what is 2+3?"'),
    "graph": ("hand-built graph with a loop", ' --input \'{"topic": "cats"}\''),
    "supervisor": (
        "supervisor agent with a specialist agent as its tool",
        ' --input "2+3, doubled?"',
    ),
    "review": ("an agent whose tool waits for a person's review", ' --input "email the team"'),
}
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_RESERVED = {"START", "END", "calculator"}  # `calculator`: the supervisor template's helper


class ScaffoldError(Exception):
    """A project that cannot be written as asked."""


@dataclass(frozen=True, slots=True)
class NewFile:
    path: Path
    text: str
    append: bool = False  # README.md that exists: the section goes at its end


def plan(name: str, template: str, folder: Path) -> list[NewFile]:
    if not _NAME.fullmatch(name) or name in _RESERVED:
        raise ScaffoldError(
            f"`{name}` cannot name an agent: use letters, digits and underscores, starting "
            "with a letter (e.g. `support_bot`)"
        )
    if template not in TEMPLATES:
        raise ScaffoldError(f"no template `{template}`; choose one of: {', '.join(TEMPLATES)}")
    root = resources.files(__name__).joinpath("templates", template)
    files = [
        NewFile(folder / entry.name.replace("NAME", name), _fill(entry.read_text("utf-8"), name))
        for entry in sorted(root.iterdir(), key=lambda e: e.name)
        if entry.is_file()
    ]
    readme = folder / "README.md"
    section = _readme(name, template)
    if readme.exists():
        return files + [NewFile(readme, "\n" + section, append=True)]
    return files + [NewFile(readme, f"# {name}\n\n" + section.split("\n", 2)[2])]


def _fill(text: str, name: str) -> str:
    return text.replace("{{name}}", name)


def _readme(name: str, template: str) -> str:
    kind, run_args = TEMPLATES[template]
    text = resources.files(__name__).joinpath("templates", "README.section.md")
    filled = text.read_text("utf-8").replace("{{kind}}", kind).replace("{{template}}", template)
    return _fill(filled.replace("{{run_args}}", run_args), name)


def write(files: list[NewFile]) -> None:
    taken = [f.path for f in files if f.path.exists() and not f.append]
    if taken:
        raise ScaffoldError(
            f"{taken[0]} already exists; agentc new never overwrites a file (choose another "
            "name or --dir)"
        )
    for f in files:
        f.path.parent.mkdir(parents=True, exist_ok=True)
        if f.append:
            with f.path.open("a", encoding="utf-8") as out:
                out.write(f.text)
        else:
            f.path.write_text(f.text, encoding="utf-8")
