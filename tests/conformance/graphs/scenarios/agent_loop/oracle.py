"""The workflows guide's agent (`kit.tool_loop`) with two arithmetic tools and a system prompt."""

PROMPT = "You are a helpful assistant tasked with performing arithmetic on a set of inputs."


def build(kit):
    return kit.tool_loop([kit.steps.add, kit.steps.multiply], system=PROMPT).compile()
