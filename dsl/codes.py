"""Every diagnostic code, in one table: its slug, a one-line summary and its severity.

A code is a stable kebab-case slug (`unknown-node`), readable in tests and in
`--format json`; each has a section in docs/diagnostics.md and a case under tests/checks/
(a test enforces both). To add one: add a member here and an entry in `_INFO`, write the
docs section and a check case.
"""

from __future__ import annotations

import enum

from .astclass import Record, record


class Severity(str, enum.Enum):
    ERROR = "error"
    WARNING = "warning"
    NOTE = "note"


class Code(enum.StrEnum):
    # dsl: diagnostics
    SYNTAX = "syntax"
    UNREADABLE = "unreadable-file"
    # dsl: syntax_errors
    UNCLOSED_BLOCK = "unclosed-block"
    UNTERMINATED_STRING = "unterminated-string"
    BAD_LITERAL = "bad-literal"
    # compiler: check
    UNSUPPORTED_VERSION = "unsupported-version"
    DUPLICATE_FIELD = "duplicate-field"
    BAD_REDUCER = "bad-reducer"
    BAD_LIMIT = "bad-limit"
    UNKNOWN_LIMIT = "unknown-limit"
    BAD_CHECKPOINT = "bad-checkpoint"
    INTERRUPT_NO_CHECKPOINT = "interrupt-without-checkpointer"
    UNKNOWN_PARAM = "unknown-param"
    MISSING_PARAM = "missing-param"
    BAD_INTERRUPT = "bad-interrupt"
    # compiler: pyscan
    MODULE_NOT_FOUND = "module-not-found"
    PYTHON_SYNTAX = "python-syntax"
    # compiler: check_graph
    UNKNOWN_NODE = "unknown-node"
    DUPLICATE_NODE = "duplicate-node"
    UNKNOWN_NODE_KIND = "unknown-node-kind"
    BAD_NODE = "bad-node"
    BAD_EDGE = "bad-edge"
    MISSING_OTHERWISE = "missing-otherwise"
    UNKNOWN_FIELD = "unknown-field"
    UNKNOWN_ROUTER = "unknown-router"
    UNKNOWN_ROUTE_LABEL = "unknown-route-label"
    BAD_HOOK_POINT = "bad-hook-point"
    HOOK_BYPASSED = "hook-bypassed"
    NO_ENTRY = "no-entry"
    BAD_TEMPLATE = "bad-template"
    MISSING_INTO = "missing-into"
    # compiler: typecheck
    TYPE_MISMATCH = "type-mismatch"
    # compiler: structure
    UNREACHABLE_NODE = "unreachable-node"
    NO_PATH_TO_END = "no-path-to-end"
    DANGLING_TARGET = "dangling-target"
    # compiler: resolve
    UNKNOWN_NAME = "unknown-name"
    DUPLICATE_NAME = "duplicate-name"
    RESERVED_NAME = "reserved-name"
    UNKNOWN_ATTR = "unknown-attr"
    IMPORT_CYCLE = "import-cycle"
    BAD_USE = "bad-use"
    MCP_URL = "mcp-url"
    # compiler: decls
    BAD_DECLARATION = "bad-declaration"
    # compiler: check_agent
    DUPLICATE_SETTING = "duplicate-setting"
    UNKNOWN_SETTING = "unknown-setting"
    MISSING_MODEL = "missing-model"
    NOT_A_TOOL = "not-a-tool"
    MISSING_DOCSTRING = "missing-docstring"
    DUPLICATE_TOOL = "duplicate-tool"
    UNKNOWN_SCHEMA = "unknown-schema"
    UNKNOWN_STRATEGY = "unknown-strategy"
    UNKNOWN_MIDDLEWARE = "unknown-middleware"
    NOT_A_HOOK = "not-a-hook"
    DUPLICATE_MIDDLEWARE = "duplicate-middleware"
    REVIEW_NO_CHECKPOINT = "review-without-checkpointer"
    UNKNOWN_TOOL = "unknown-tool"
    UNTYPED_TOOL_PARAM = "untyped-tool-param"
    UNSCHEMABLE_PARAM = "unschemable-param"
    BAD_STORE = "bad-store"
    BAD_TRACE = "bad-trace"
    # compiler: types
    UNKNOWN_TYPE = "unknown-type"
    # compiler: models
    UNKNOWN_PROVIDER = "unknown-provider"
    UNKNOWN_MODEL = "unknown-model"
    UNLISTED_MODEL = "unlisted-model"
    SECRET_IN_FILE = "secret-in-file"
    # compiler: used files
    USE_OUTSIDE_PROJECT = "use-outside-project"
    NOT_AGENT_TEXT = "not-agent-text"
    # compiler: testblocks (`agentc test`)
    BAD_TEST = "bad-test"

    @property
    def summary(self) -> str:
        return _INFO[self].summary

    @property
    def severity(self) -> Severity:
        return _INFO[self].severity


@record
class CodeInfo(Record):
    summary: str
    severity: Severity = Severity.ERROR


_INFO: dict[Code, CodeInfo] = {
    Code.SYNTAX: CodeInfo("the text does not follow the grammar of the language"),
    Code.UNREADABLE: CodeInfo("a file could not be read or decoded as UTF-8"),
    Code.UNCLOSED_BLOCK: CodeInfo("a `{`, `[` or `(` is never closed"),
    Code.UNTERMINATED_STRING: CodeInfo("a string has no closing quote"),
    Code.BAD_LITERAL: CodeInfo("a number, duration or string escape is not written correctly"),
    Code.UNSUPPORTED_VERSION: CodeInfo(
        "the `agentc N` line names a language version this compiler does not support"
    ),
    Code.DUPLICATE_FIELD: CodeInfo("a schema field or state channel is declared twice"),
    Code.BAD_REDUCER: CodeInfo("a state channel's reducer is unknown or does not fit its type"),
    Code.BAD_LIMIT: CodeInfo("a limit value is out of range"),
    Code.UNKNOWN_LIMIT: CodeInfo("a `limits` block names an unknown limit"),
    Code.BAD_CHECKPOINT: CodeInfo(
        'a `checkpoint` is not memory, none, sqlite("\u2026") or postgres("\u2026")'
    ),
    Code.INTERRUPT_NO_CHECKPOINT: CodeInfo(
        "an interrupt point in a graph that saves no checkpoints can never resume (D4)",
        Severity.WARNING,
    ),
    Code.UNKNOWN_PARAM: CodeInfo("a configuration key is not a parameter of what it configures"),
    Code.MISSING_PARAM: CodeInfo("a required parameter is not given"),
    Code.BAD_INTERRUPT: CodeInfo("an `interrupt` is neither `before` nor `after`"),
    Code.MODULE_NOT_FOUND: CodeInfo("a `use`d Python module or file cannot be found"),
    Code.PYTHON_SYNTAX: CodeInfo("a `use`d Python file does not parse"),
    Code.UNKNOWN_NODE: CodeInfo(
        "an edge, join, route, hook, interrupt or `goto` names a node the graph does not have"
    ),
    Code.DUPLICATE_NODE: CodeInfo("two nodes of one graph share a name"),
    Code.UNKNOWN_NODE_KIND: CodeInfo(
        "a node is not model(\u2026), tools(\u2026), python(\u2026), agent(\u2026)"
        " or subgraph(\u2026)"
    ),
    Code.BAD_NODE: CodeInfo("a node's arguments do not fit its kind"),
    Code.BAD_EDGE: CodeInfo(
        "an edge leaves END or enters START, `otherwise` has no `when`, a join is malformed, "
        "or a route lists a node or a label twice"
    ),
    Code.MISSING_OTHERWISE: CodeInfo("conditional `when` edges out of a node have no `otherwise`"),
    Code.UNKNOWN_FIELD: CodeInfo(
        "a condition, template, node argument or setting names a state channel (or a schema"
        " field) that is not declared"
    ),
    Code.UNKNOWN_ROUTER: CodeInfo(
        "a `route \u2026 by` names neither a declared router nor a Python function"
    ),
    Code.UNKNOWN_ROUTE_LABEL: CodeInfo("a route case uses a label its router never returns"),
    Code.BAD_HOOK_POINT: CodeInfo("a `hook` names an unknown hook point"),
    Code.HOOK_BYPASSED: CodeInfo("a `Send` or a `Command(goto=\u2026)` would pass a graph hook by"),
    Code.NO_ENTRY: CodeInfo("a graph has no `edge START -> \u2026`"),
    Code.BAD_TEMPLATE: CodeInfo(
        "a model node's prompt template has a malformed `{placeholder}` or a lone brace"
    ),
    Code.MISSING_INTO: CodeInfo("a model node's answer has no channel to go to (`into:`)"),
    Code.TYPE_MISMATCH: CodeInfo("a value does not have the type its parameter or field declares"),
    Code.UNREACHABLE_NODE: CodeInfo(
        "no edge or branch reaches a node from START", Severity.WARNING
    ),
    Code.NO_PATH_TO_END: CodeInfo("no edge or branch leads from a node to END"),
    Code.DANGLING_TARGET: CodeInfo("an edge or branch of the lowered graph points at no node"),
    Code.UNKNOWN_NAME: CodeInfo("a name is not declared in this file, a used file or the prelude"),
    Code.DUPLICATE_NAME: CodeInfo("a top-level name is declared twice"),
    Code.RESERVED_NAME: CodeInfo("a declaration uses a name the language reserves"),
    Code.UNKNOWN_ATTR: CodeInfo("a used module or file has no such top-level name"),
    Code.IMPORT_CYCLE: CodeInfo("`.agent` files use each other in a cycle"),
    Code.BAD_USE: CodeInfo("a `use` target is neither a Python module nor an `.agent` file"),
    Code.MCP_URL: CodeInfo("a `use` target is a URL whose scheme is not http or https (A10)"),
    Code.BAD_DECLARATION: CodeInfo("a middleware, router or template declaration is malformed"),
    Code.DUPLICATE_SETTING: CodeInfo("an agent or graph setting is given twice"),
    Code.UNKNOWN_SETTING: CodeInfo(
        "an agent block names a setting the agent template does not have"
    ),
    Code.MISSING_MODEL: CodeInfo("an agent block has no `model`"),
    Code.NOT_A_TOOL: CodeInfo("a `tools` entry is not a function, an agent or a provider tool map"),
    Code.MISSING_DOCSTRING: CodeInfo(
        "a function tool has no docstring, so the model gets no description (B11)"
    ),
    Code.DUPLICATE_TOOL: CodeInfo("two tools of one agent share a name (A7)"),
    Code.UNKNOWN_SCHEMA: CodeInfo(
        "an `output`, `context` or node `input:` names no schema or Python model"
    ),
    Code.UNKNOWN_STRATEGY: CodeInfo("`output \u2026 via` names an unknown strategy"),
    Code.UNKNOWN_MIDDLEWARE: CodeInfo("a `middleware` entry is neither declared nor a Python hook"),
    Code.NOT_A_HOOK: CodeInfo(
        "a Python middleware entry is not a decorated hook or an AgentMiddleware class"
    ),
    Code.DUPLICATE_MIDDLEWARE: CodeInfo("two middleware of one agent share a name"),
    Code.REVIEW_NO_CHECKPOINT: CodeInfo(
        "human review needs a checkpointer to pause and resume (D9)"
    ),
    Code.UNKNOWN_TOOL: CodeInfo("a setting names a tool the agent does not have"),
    Code.UNTYPED_TOOL_PARAM: CodeInfo(
        "a tool parameter has no type hint, so the model is told nothing about it",
        Severity.WARNING,
    ),
    Code.UNSCHEMABLE_PARAM: CodeInfo(
        "a tool parameter's type is a plain class that no JSON schema can describe",
        Severity.WARNING,
    ),
    Code.BAD_STORE: CodeInfo(
        'a `store` is not memory, none, sqlite("\u2026") or postgres("\u2026")'
    ),
    Code.BAD_TRACE: CodeInfo("a `trace` line names no place to send the run's spans"),
    Code.UNKNOWN_TYPE: CodeInfo("a type name is neither built in nor a declared schema"),
    Code.UNKNOWN_PROVIDER: CodeInfo("a model string's `provider:` prefix is not a known provider"),
    Code.UNKNOWN_MODEL: CodeInfo("no provider can be inferred from a model name (A2)"),
    Code.UNLISTED_MODEL: CodeInfo(
        "a model name is not in the profile table but is one letter away from a name that is",
        Severity.WARNING,
    ),
    Code.SECRET_IN_FILE: CodeInfo(
        "a credential is written in the file instead of named by its variable"
    ),
    Code.USE_OUTSIDE_PROJECT: CodeInfo(
        "a `use`d file resolves, after symbolic links, outside the project root"
    ),
    Code.NOT_AGENT_TEXT: CodeInfo(
        "a `use`d `.agent` file does not start like agent text, so none of it is shown"
    ),
    Code.BAD_TEST: CodeInfo("a `test` block says something `agentc test` cannot run or check"),
}
