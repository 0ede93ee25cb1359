"""The workflows guide's prompt chaining: a gate between the first call and the rest."""


def check_punchline(state):
    """Gate function to check if the joke has a punchline."""
    if "?" in state["joke"] or "!" in state["joke"]:
        return "Pass"
    return "Fail"
