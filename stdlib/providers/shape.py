"""Checking that a decoded reply has the shape its wire format promises.

Input: a provider's name and one value out of a decoded reply, with where it sits (`choices[0]
.message.content`) and what the wire format allows there. Output: the value, unchanged, or a
`ProviderReplyError` naming the provider, the place and what was found instead ("`choices` is
a string, expected a list"). Invariants: never raises anything but `ProviderReplyError`;
booleans are not counted as numbers; token counts are whole numbers of at least 0.
"""

from __future__ import annotations

from typing import Any

from .errors import ProviderReplyError

# What a reader of a malformed reply can raise besides ProviderReplyError (pydantic's
# ValidationError is a ValueError); turned into one by `unreadable`.
SHAPE_ERRORS = (AttributeError, TypeError, ValueError, KeyError, IndexError, RecursionError)

_NAMES: dict[type, str] = {
    str: "a string",
    int: "a number",
    float: "a number",
    list: "a list",
    dict: "an object",
    bool: "true or false",
}


def describe(value: Any) -> str:
    """What a JSON value is, in words ("a string", "null" …)."""
    if value is None:
        return "null"
    return _NAMES.get(type(value), type(value).__name__)


def _allowed(kinds: tuple[type, ...]) -> str:
    names = list(dict.fromkeys(_NAMES[k] for k in kinds))
    return " or ".join(names)


def expect(provider: str, value: Any, where: str, *kinds: type, optional: bool = True) -> Any:
    """`value` when it is one of `kinds` (or None, when `optional`); else a ProviderReplyError."""
    if value is None and optional:
        return None
    if isinstance(value, kinds) and not (isinstance(value, bool) and bool not in kinds):
        return value
    raise ProviderReplyError(
        provider, f"`{where}` is {describe(value)}, expected {_allowed(kinds)}"
    )


def tokens(provider: str, usage: dict[str, Any], key: str, where: str) -> int:
    """A token count out of a usage object: absent or null is 0, else a whole number ≥ 0."""
    value = usage.get(key)
    if value is None:
        return 0
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    raise ProviderReplyError(
        provider,
        f"`{where}.{key}` is {describe(value)} ({value!r:.40}), expected a whole number of tokens",
    )


def optional_tokens(provider: str, usage: Any, key: str, where: str) -> int | None:
    """A token count that may be missing (details such as cached tokens)."""
    if not isinstance(usage, dict) or usage.get(key) is None:
        return None
    return tokens(provider, usage, key, where)


def unreadable(provider: str, exc: BaseException) -> ProviderReplyError:
    """The backstop: a reply whose shape broke the reader in a way no check above named."""
    return ProviderReplyError(
        provider, f"the reply does not have the shape of the API ({type(exc).__name__})"
    )
