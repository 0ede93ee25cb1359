"""The workflows guide's parallelization: three model calls at once, then an aggregator."""


def aggregator(state):
    """Combine the joke, story and poem into a single output."""
    combined = f"Here's a story, joke, and poem about {state['topic']}!\n\n"
    combined += f"STORY:\n{state['story']}\n\n"
    combined += f"JOKE:\n{state['joke']}\n\n"
    combined += f"POEM:\n{state['poem']}"
    return {"combined_output": combined}
