"""What every chat model spoken to over HTTP shares: settings, profile, where calls go (A3).

A wire module subclasses `HttpChatModel` with its request `PATH` and `AUTH` style, and its
own `body`, `parse` (a whole reply) and `stream`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any, ClassVar, Self

from ..messages import AIMessage
from .base import MessageDelta, ModelProfile, ModelRequest
from .http import post_json
from .profiles import profile_for
from .settings import AuthStyle, ModelSettings, settings_from_spec
from .shape import SHAPE_ERRORS, unreadable

if TYPE_CHECKING:
    from ...ir import ModelSpec


class HttpChatModel(ABC):
    PATH: ClassVar[str]
    AUTH: ClassVar[AuthStyle]

    def __init__(self, settings: ModelSettings, profile: ModelProfile | None = None) -> None:
        self.provider = settings.provider
        self.name = settings.name
        self.profile = profile or profile_for(settings.provider, settings.name)
        self._settings = settings

    @classmethod
    def from_spec(cls, spec: ModelSpec, base_dir: str = ".") -> Self:
        return cls(settings_from_spec(spec, cls.AUTH))

    def __repr__(self) -> str:  # never the key
        return f"{type(self).__name__}(provider={self.provider!r}, name={self.name!r})"

    @property
    def endpoint_url(self) -> str:
        return self._settings.endpoint.url(self.PATH)

    def describe(self) -> str:
        key = self._settings.api_key_env
        return f"{self.provider}:{self.name} → POST {self.endpoint_url}" + (
            f" (key from ${key})" if key else " (no key)"
        )

    async def generate(self, request: ModelRequest) -> AIMessage:
        body = self.body(request, stream=False)
        data = await post_json(self._settings.endpoint, self.PATH, body)
        try:
            return self.parse(data)
        except SHAPE_ERRORS as exc:  # a shape no check in the wire module named
            raise unreadable(self.provider, exc) from None

    @abstractmethod
    def body(self, request: ModelRequest, stream: bool) -> dict[str, Any]:
        """The JSON body of one call in this wire format."""

    @abstractmethod
    def parse(self, data: dict[str, Any]) -> AIMessage:
        """A whole (non-streamed) reply in this wire format."""

    @abstractmethod
    def stream(self, request: ModelRequest) -> AsyncIterator[MessageDelta]:
        """The reply as deltas, read from this wire's server-sent events."""
