"""PII detectors and redaction strategies (D14, D16): langchain 1.4.10's patterns, fast.

Input: a text. Output: matches `(type, value, start, end)` exactly as LangChain's regexes
find them (email; credit card with the Luhn check, 13–19 digits; IPv4 checked by
`ipaddress`; MAC; URL with a scheme, or bare with a path or `www.`), and the text with a
strategy applied: redact `[REDACTED_EMAIL]`, mask (type-aware, last 4 kept), hash
`<email_hash:8 hex>`, block (raises `PIIDetectionError`).

Speed: on ASCII text each detector first finds the few windows where a match can start —
characters a match is made of, found with `bytes.translate` and `find` — and runs the exact
regex only there (no match can cross a window's edge, and the regex still sees the real
characters around it, so the result equals a whole-text scan). Other text is scanned whole.
"""

from __future__ import annotations

import hashlib
import ipaddress
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any
from urllib.parse import urlparse

from ...runtime.records import dataclass

EMAIL = re.compile(r"\b[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Z|a-z]{2,}\b")
CARD = re.compile(r"\b\d{4}[\s-]?\d{4}[\s-]?\d{4}[\s-]?\d{4}\b")
IPV4 = re.compile(r"\b(?:[0-9]{1,3}\.){3}[0-9]{1,3}\b")
MAC = re.compile(r"\b([0-9A-Fa-f]{2}[:-]){5}[0-9A-Fa-f]{2}\b")
URL_SCHEME = re.compile(r"https?://[^\s<>\"{}|\\^`\[\]]+")
URL_BARE = re.compile(
    r"\b(?:www\.)?[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?"
    r"(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+(?:/[^\s]*)?"
)

ASCII_SPACE = b" \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f"  # what `\s` matches in ASCII text


@dataclass(frozen=True, slots=True)
class PIIMatch:
    type: str
    value: str
    start: int
    end: int

    def __getitem__(self, key: str) -> str | int:  # LangChain's TypedDict shape: match["value"]
        return getattr(self, key)


class PIIDetectionError(Exception):
    def __init__(self, pii_type: str, matches: list[PIIMatch]) -> None:
        self.pii_type, self.matches = pii_type, list(matches)
        super().__init__(f"Detected {len(matches)} instance(s) of {pii_type} in text content")


# ---------------------------------------------------------------- windows (ASCII fast path)


def _table(member: bytes, mark: int) -> bytes:
    return bytes(mark if i in member else ord("x") for i in range(256))


_DIGITS = b"0123456789"
_HEX = b"0123456789abcdefABCDEF"
CARD_TABLE = bytes(
    ord("0") if i in _DIGITS else ord("s") if i in ASCII_SPACE + b"-" else ord("x")
    for i in range(256)
)
IP_TABLE = bytes(
    ord("0") if i in _DIGITS else ord(".") if i == ord(".") else ord("x") for i in range(256)
)
MAC_TABLE = bytes(
    ord("h") if i in _HEX else ord(":") if i in b":-" else ord("x") for i in range(256)
)
SPACE_TABLE = _table(ASCII_SPACE, ord(" "))


def _windows(mapped: bytes, needle: bytes, outside: bytes) -> Iterator[tuple[int, int]]:
    """Maximal runs without `outside` that contain `needle`, left to right."""
    pos, n = mapped.find(needle), len(mapped)
    while pos != -1:
        start = mapped.rfind(outside, 0, pos) + 1
        end = mapped.find(outside, pos)
        end = n if end == -1 else end
        yield start, end
        pos = mapped.find(needle, end)


def _scan(
    pattern: re.Pattern[str], text: str, windows: Iterator[tuple[int, int]]
) -> Iterator[re.Match[str]]:
    n = len(text)
    for start, end in windows:
        # endpos one past the window: `\b` sees the real next character, which the pattern
        # cannot consume (it is outside the pattern's alphabet)
        yield from pattern.finditer(text, start, min(n, end + 1))


def _space_windows(text: str, needles: tuple[str, ...]) -> Iterator[tuple[int, int]]:
    """Whitespace-delimited tokens containing any needle (str positions; ASCII text)."""
    raw = text.encode("ascii")
    spaces = raw.translate(SPACE_TABLE)
    starts: set[int] = set()
    for needle in needles:
        pos = raw.find(needle.encode())
        while pos != -1:
            starts.add(spaces.rfind(b" ", 0, pos) + 1)
            end = spaces.find(b" ", pos)
            if end == -1:
                break
            pos = raw.find(needle.encode(), end)
    for start in sorted(starts):
        end = spaces.find(b" ", start)
        yield start, len(spaces) if end == -1 else end


# ---------------------------------------------------------------- detectors


def _matches(kind: str, found: Iterator[re.Match[str]]) -> list[PIIMatch]:
    return [PIIMatch(kind, m.group(), m.start(), m.end()) for m in found]


def detect_email(text: str) -> list[PIIMatch]:
    if "@" not in text:
        return []
    found = (
        _scan(EMAIL, text, _space_windows(text, ("@",))) if text.isascii() else EMAIL.finditer(text)
    )
    return _matches("email", found)


def luhn(number: str) -> bool:
    digits = [int(d) for d in number if d.isdigit()]
    if not 13 <= len(digits) <= 19:
        return False
    total = 0
    for i, d in enumerate(reversed(digits)):
        if i % 2 == 1:
            d = d * 2 - 9 if d * 2 > 9 else d * 2
        total += d
    return total % 10 == 0


def detect_credit_card(text: str) -> list[PIIMatch]:
    if text.isascii():
        found = _scan(
            CARD, text, _windows(text.encode("ascii").translate(CARD_TABLE), b"0000", b"x")
        )
    else:
        found = CARD.finditer(text)
    return [m for m in _matches("credit_card", found) if luhn(m.value)]


def detect_ip(text: str) -> list[PIIMatch]:
    if "." not in text:
        return []
    if text.isascii():
        found = _scan(IPV4, text, _windows(text.encode("ascii").translate(IP_TABLE), b"0.0", b"x"))
    else:
        found = IPV4.finditer(text)
    out = []
    for m in _matches("ip", found):
        try:
            ipaddress.ip_address(m.value)
        except ValueError:
            continue
        out.append(m)
    return out


def detect_mac_address(text: str) -> list[PIIMatch]:
    if ":" not in text and "-" not in text:
        return []
    if text.isascii():
        found = _scan(
            MAC, text, _windows(text.encode("ascii").translate(MAC_TABLE), b"hh:hh", b"x")
        )
    else:
        found = MAC.finditer(text)
    return _matches("mac_address", found)


def detect_url(text: str) -> list[PIIMatch]:
    schemed = [
        m
        for m in _matches("url", URL_SCHEME.finditer(text))
        if (p := urlparse(m.value)).scheme in ("http", "https") and p.netloc
    ]
    if "/" not in text and "www." not in text:
        return schemed
    # a bare match must hold a "/" or start with "www.", and never crosses whitespace, so
    # only tokens with one of them can hold one
    found = (
        _scan(URL_BARE, text, _space_windows(text, ("/", "www.")))
        if text.isascii()
        else URL_BARE.finditer(text)
    )
    out = list(schemed)
    for m in found:
        start, end, url = m.start(), m.end(), m.group()
        if any(s.start <= start < s.end or s.start < end <= s.end for s in schemed):
            continue
        if "/" in url or url.startswith("www."):
            netloc = urlparse(f"http://{url}").netloc
            if netloc and "." in netloc:
                out.append(PIIMatch("url", url, start, end))
    return out


Detector = Callable[[str], list[PIIMatch]]
# What `detector` may be: a regular expression, or a function text → matches, each a map
# with `start`, `end` and `value` (or `text`), optionally `type`.
DetectorSpec = str | Callable[[str], Iterable[Mapping[str, Any]]]

BUILTIN: dict[str, Detector] = {
    "email": detect_email,
    "credit_card": detect_credit_card,
    "ip": detect_ip,
    "mac_address": detect_mac_address,
    "url": detect_url,
}


def resolve_detector(pii_type: str, detector: DetectorSpec | None) -> Detector:
    """A built-in detector, a regular expression, or a function returning matches."""
    if detector is None:
        if pii_type not in BUILTIN:
            raise ValueError(
                f"Unknown PII type: {pii_type}. Must be one of {list(BUILTIN)} "
                "or provide a custom detector."
            )
        return BUILTIN[pii_type]
    if isinstance(detector, str):
        try:
            pattern = re.compile(detector)
        except re.error as exc:
            raise ValueError(f"the `detector` regex for {pii_type!r} is invalid: {exc}") from None
        return lambda text: _matches(pii_type, pattern.finditer(text))

    def custom(text: str) -> list[PIIMatch]:
        return [
            PIIMatch(
                m.get("type", pii_type), m.get("value", m.get("text", "")), m["start"], m["end"]
            )
            for m in detector(text)
        ]

    return custom


# ---------------------------------------------------------------- strategies


def _mask(m: PIIMatch) -> str:
    v = m.value
    if m.type == "email":
        local, at, domain = v.partition("@")
        if not at:
            return "****"
        parts = domain.split(".")
        return f"{local}@****.{parts[-1]}" if len(parts) > 1 else f"{local}@****"
    if m.type == "credit_card":
        digits = "".join(c for c in v if c.isdigit())
        sep = "-" if "-" in v else " " if " " in v else ""
        return f"****{sep}****{sep}****{sep}{digits[-4:]}" if sep else f"************{digits[-4:]}"
    if m.type == "ip":
        octets = v.split(".")
        return f"*.*.*.{octets[-1]}" if len(octets) == 4 else "****"
    if m.type == "mac_address":
        sep = ":" if ":" in v else "-"
        return sep.join(["**"] * 5) + f"{sep}{v[-2:]}"
    if m.type == "url":
        return "[MASKED_URL]"
    return f"****{v[-4:]}" if len(v) > 4 else "****"


REPLACE: dict[str, Callable[[PIIMatch], str]] = {
    "redact": lambda m: f"[REDACTED_{m.type.upper()}]",
    "mask": _mask,
    "hash": lambda m: f"<{m.type}_hash:{hashlib.sha256(m.value.encode()).hexdigest()[:8]}>",
}


def apply_strategy(text: str, matches: list[PIIMatch], strategy: str) -> str:
    if not matches:
        return text
    if strategy == "block":
        raise PIIDetectionError(matches[0].type, matches)
    replace = REPLACE.get(strategy)
    if replace is None:
        raise ValueError(f"Unknown redaction strategy: {strategy}")
    parts, at = [], 0
    for m in sorted(matches, key=lambda m: m.start):
        if m.start < at:  # overlapping custom matches: the earlier one wins
            continue
        parts += [text[at : m.start], replace(m)]
        at = m.end
    parts.append(text[at:])
    return "".join(parts)
