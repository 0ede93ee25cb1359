"""The prelude reads clean; the template's positions follow docs/agent-template.md."""

from __future__ import annotations

from agentc import ir
from agentc.compiler.context import prelude_decls
from agentc.compiler.pipeline import compile_source

BUILTINS = (
    "human_review",
    "summarization",
    "context_editing",
    "model_call_limit",
    "tool_call_limit",
    "model_fallback",
    "model_retry",
    "tool_retry",
    "tool_error",
    "pii",
    "todo_list",
    "llm_tool_selector",
    "tool_emulator",
    "shell_tool",
    "file_search",
    "model_refusal",
    "budgets",
)


def test_prelude_declares_every_builtin_middleware() -> None:
    decls = prelude_decls()
    for name in BUILTINS:
        assert decls[name].kind == "middleware"
        assert decls[name].impl.module.startswith("agentc.stdlib.middleware.")
    assert decls["human_review"].seats == ("D9", "D10", "D11", "D12")
    assert decls["model_call_limit"].jumps == {ir.HookPoint.BEFORE_MODEL: (ir.JumpTarget.END,)}
    assert decls["tools_condition"].labels == ("tools", "end")
    assert decls["agent"].kind == "template"


def test_F1_default_steps() -> None:
    text = (
        'agent a { model "openai:gpt-4o-mini" }\n'
        'graph g {\n state { messages: messages }\n node n = model("openai:gpt-4o-mini")\n'
        " edge START -> n\n edge n -> END\n}\n"
    )
    program = compile_source(text, "x.agent").program
    assert program.graph("a").limits.steps.value == 9999
    assert program.graph("g").limits.steps.value == 25
    assert program.graph("a").checkpoint.kind is ir.CheckpointKind.NONE


def test_middleware_defaults_are_filled() -> None:
    text = (
        'agent a {\n model "openai:gpt-4o-mini"\n middleware { model_call_limit { run: 3 } }\n}\n'
    )
    mw = compile_source(text, "x.agent").program.graph("a").agent.middleware[0]
    assert mw.config == {"thread": None, "run": 3, "exit_behavior": "end"}
    assert [n.name for n in compile_source(text, "x.agent").program.graph("a").nodes] == [
        "model",
        "model_call_limit.before_model",
        "model_call_limit.after_model",
    ]


def test_A1_A2_model_resolution() -> None:
    for spec, provider, name in [
        ("openai:gpt-4o", "openai", "gpt-4o"),
        ("claude-sonnet-4-5", "anthropic", "claude-sonnet-4-5"),
        ("ollama:llama3:8b", "ollama", "llama3:8b"),
    ]:
        text = f'agent a {{ model "{spec}" }}\n'
        m = compile_source(text, "x.agent").program.graph("a").agent.model
        assert (m.provider, m.name) == (provider, name)
