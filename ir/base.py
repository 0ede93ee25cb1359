"""The IR's building blocks: frozen models, source spans, import references, types,
schemas and state channels."""

import enum
from typing import TYPE_CHECKING, Any

from . import construct
from .construct import TRUSTED, build

IR_VERSION = 1
START = "__start__"
END = "__end__"

JSON = Any  # a JSON value: None, bool, int, float, str, list[JSON], dict[str, JSON]

if TYPE_CHECKING or not construct.RECORDS:
    from pydantic import BaseModel, ConfigDict, Field

    class Frozen(BaseModel):
        model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

        def __init__(self, /, **data: Any) -> None:
            if TRUSTED.get():  # the compiler's own values (ir/construct.py)
                build(self, data)
            else:
                super().__init__(**data)

        # pydantic treats this as its own `__init__`: validation never calls it
        __init__.__pydantic_base_init__ = True  # type: ignore[attr-defined]

else:  # a process that only checks: the same models as plain records, no pydantic
    from .records import Field, Frozen  # noqa: F401 — Field: for the IR modules


class SourceSpan(Frozen):
    """Where an element came from: 1-based line/col (code points), 0-based offsets."""

    file: str
    line: int
    col: int
    end_line: int
    end_col: int
    offset: int
    end_offset: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


class ImportRef(Frozen):
    """A Python object the runtime binds: `module:attr`.

    `module` is a dotted module name (`agentc.stdlib.routing`), or with `is_file` a path
    relative to the directory of the `.agent` file that named it (`./tools.py`).
    """

    module: str
    attr: str
    is_file: bool = False
    span: SourceSpan | None = None

    @property
    def key(self) -> str:
        return f"{self.module}:{self.attr}"


class SourceRef(Frozen):
    file: str
    sha256: str


class ModuleKind(str, enum.Enum):
    PYTHON = "python"
    AGENT = "agent"
    MCP = "mcp"  # an MCP server over streamable HTTP (A10: http/https URLs only)


class ModuleSpec(Frozen):
    """A `use` declaration: a Python module, another `.agent` file or an MCP server URL."""

    alias: str
    target: str
    kind: ModuleKind
    is_file: bool
    span: SourceSpan


# ---------------------------------------------------------------- types and schemas


class TypeSpec(Frozen):
    """A value type: the JSON Schema the runtime validates with, and how it was written."""

    display: str
    json_schema: dict[str, JSON]


class SchemaSpec(Frozen):
    """A structured-output or state schema, declared in the file or named from Python."""

    name: str
    json_schema: dict[str, JSON]
    ref: ImportRef | None = None
    doc: str | None = None
    span: SourceSpan


class ChannelSpec(Frozen):
    """One state channel. `reducer` None means last value wins (one write per step)."""

    name: str
    type: TypeSpec
    reducer: ImportRef | None = None
    default: JSON = None
    has_default: bool = False
    input: bool = True  # accepted from the caller's input (A5)
    output: bool = True  # included in the run's result
    ephemeral: bool = False  # cleared after each step (`jump_to`)
    span: SourceSpan
