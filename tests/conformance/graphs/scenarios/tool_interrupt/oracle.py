"""The workflows guide's agent (`kit.tool_loop`) whose tool interrupts; checkpointed."""


def build(kit):
    return kit.tool_loop([kit.steps.book_hotel]).compile(checkpointer=kit.checkpointer)
