"""Model factories for the check cases of `models.agent` (read statically, never run)."""

from __future__ import annotations


def make_model(name: str, temperature: float = 0.0):
    """A factory with one required and one optional option."""
    raise NotImplementedError


def make_any(**options):
    """A factory that takes any option."""
    raise NotImplementedError


class ChatThing:
    def __init__(self, size: int) -> None:
        self.size = size


LIMIT = 3
