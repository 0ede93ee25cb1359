"""The workflows guide's agent (`kit.tool_loop`) with one tool, `divide`."""


def build(kit):
    return kit.tool_loop([kit.steps.divide]).compile()
