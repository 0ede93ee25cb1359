"""Tools whose arguments a JSON schema can or cannot describe (read statically, never imported)."""

import enum
from dataclasses import dataclass
from typing import Annotated

from langchain.tools import InjectedToolCallId
from pydantic import BaseModel


class Point:
    def __init__(self, x: float, y: float) -> None:
        self.x, self.y = x, y


class Colour(enum.Enum):
    RED = "red"


@dataclass
class Box:
    w: int


class Spot(BaseModel):
    x: float


class Wrapped:
    @classmethod
    def __get_pydantic_core_schema__(cls, source, handler):
        return handler(str)


def add(a, b):
    """Add two numbers."""
    return a + b


def scale(factor: float, by):
    """Scale by a factor."""
    return factor * by


def dist(p: Point) -> float:
    """Distance from the origin."""
    return 0.0


def dists(ps: list[Point] | None = None) -> float:
    """Distances."""
    return 0.0


def fine(c: Colour, b: Box, s: Spot, w: Wrapped, call: Annotated[str, InjectedToolCallId]) -> str:
    """Every argument has a schema; the call id is injected."""
    return ""
