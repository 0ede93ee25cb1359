"""Every middleware the prelude declares has an implementation that imports and builds
with its declared defaults (plus the fewest settings it requires): nothing declared fails
at bind time."""

from __future__ import annotations

import importlib

import pytest
from support.mwkit import write

from agentc.api import load_agent
from agentc.compiler.context import prelude_decls
from agentc.stdlib.middleware.binding import bound_middleware

# The settings a declaration cannot do without (required, or LangChain refuses none set).
NEEDS = {
    "human_review": "interrupt_on: {}",
    "summarization": 'model: "scripted"',
    "model_call_limit": "run: 1",
    "tool_call_limit": "run: 1",
    "model_fallback": 'models: ["scripted"]',
    "pii": 'pii_type: "email"',
    "file_search": 'root_path: "."',
    "budgets": "tokens: 10",
    "auto_mode": 'tools: ["add"], classifier: kit.c',
    "model_router": 'choices: { a: { model: "scripted" } }, instructions: "", classifier: kit.c',
}
CLASSIFIER = "from agentc.stdlib.middleware.decisions import ScriptedClassifier as S\nc = S([])\n"
MIDDLEWARE = sorted(n for n, d in prelude_decls().items() if d.kind == "middleware")


def test_the_prelude_declares_no_unimplemented_middleware():
    assert "provider_tool_search" not in MIDDLEWARE  # agentc has no implementation of it
    assert {"shell_tool", "file_search", "model_refusal"} <= set(MIDDLEWARE)


@pytest.mark.parametrize("name", MIDDLEWARE)
def test_prelude_middleware_impl_imports_and_builds(tmp_path, name):
    decl = prelude_decls()[name]
    impl = getattr(importlib.import_module(decl.impl.module), decl.impl.attr)
    assert callable(impl)
    a = load_agent(
        write(
            tmp_path,
            f"""
    agent a {{
      model "scripted" {{ replies: ["ok"] }}
      middleware {{ {name} {{ {NEEDS.get(name, "")} }} }}
      checkpoint memory
    }}
    """,
            extra_py=CLASSIFIER,
        )
    )
    [bound] = bound_middleware(a.graph, a.env)
    assert type(bound.obj) is impl
