"""Python hooks for the middleware examples, as in LangChain's docs: a counting class, a
decorated `before_model` hook and a dynamic prompt. Only the import line differs from the
LangChain originals."""

from agentc.middleware import AgentMiddleware, before_model, dynamic_prompt


class CountingMiddleware(AgentMiddleware):
    """Counts model calls (before_model) and replies (after_model) on one object."""

    def __init__(self):
        super().__init__()
        self.calls = 0
        self.replies = 0

    def before_model(self, state, runtime):
        self.calls += 1
        return None

    def after_model(self, state, runtime):
        self.replies += 1
        return None


@before_model
def log_turn(state, runtime):
    print("[middleware] messages so far:", len(state["messages"]))
    return None


@dynamic_prompt
def prompt_for(request) -> str:
    return f"You are answering turn {len(request.messages)}."
