"""The content codings of a response body, decoded as httpx decodes them (gzip, deflate,
zstd when `zstandard` is installed).

Input: a `Content-Encoding` value, then the body's bytes as they arrive. Output: the decoded
bytes. Invariants: codings are undone last first; a coding httpx does not know is passed
over, as httpx passes it over; bytes that do not match their coding are an
`httpx.DecodingError`, as httpx raises.
"""

from __future__ import annotations

import importlib
import importlib.util
import zlib
from typing import Any

import httpx

HAS_ZSTD = importlib.util.find_spec("zstandard") is not None
ACCEPT_ENCODING = "gzip, deflate, zstd" if HAS_ZSTD else "gzip, deflate"  # as httpx sends


class _Zlib:
    def __init__(self, wbits: int, fallback: int | None = None) -> None:
        self._obj = zlib.decompressobj(wbits)
        self._fallback = fallback  # deflate: zlib-wrapped, else raw, as httpx tries
        self._started = False

    def decode(self, data: bytes) -> bytes:
        try:
            out = self._obj.decompress(data)
        except zlib.error as exc:
            if self._fallback is None or self._started:
                raise httpx.DecodingError(str(exc)) from None
            self._obj, self._fallback = zlib.decompressobj(self._fallback), None
            return self.decode(data)
        self._started = self._started or bool(data)
        return out

    def flush(self) -> bytes:
        try:
            return self._obj.flush()
        except zlib.error as exc:
            raise httpx.DecodingError(str(exc)) from None


class _Zstd:
    def __init__(self) -> None:
        # on first use: a zstd body is rare, and the import costs start-up; by name, since
        # zstandard is optional (httpx asks for zstd only when it is installed)
        zstandard: Any = importlib.import_module("zstandard")
        self._zstd: Any = zstandard
        self._obj = zstandard.ZstdDecompressor().decompressobj()
        self._seen = False

    def decode(self, data: bytes) -> bytes:
        self._seen = self._seen or bool(data)
        out: list[bytes] = []
        try:
            out.append(self._obj.decompress(data))
            while self._obj.eof and self._obj.unused_data:  # a further frame
                unused = self._obj.unused_data
                self._obj = self._zstd.ZstdDecompressor().decompressobj()
                out.append(self._obj.decompress(unused))
        except self._zstd.ZstdError as exc:
            raise httpx.DecodingError(str(exc)) from None
        return b"".join(out)

    def flush(self) -> bytes:
        if not self._seen:
            return b""
        if not self._obj.eof:
            raise httpx.DecodingError("Zstandard data is incomplete")
        return b""


class _Chain:
    def __init__(self, decoders: list[Any]) -> None:
        self._decoders = decoders  # the last coding applied is undone first

    def decode(self, data: bytes) -> bytes:
        for d in self._decoders:
            data = d.decode(data)
        return data

    def flush(self) -> bytes:
        data = b""
        for d in self._decoders:
            data = d.decode(data) + d.flush()
        return data


def decoder_for(coding: str | None) -> Any:
    """The decoder for a Content-Encoding; codings httpx does not know are passed over, as
    httpx passes them over."""
    if not coding:
        return None
    made: list[Any] = []
    for name in reversed(coding.lower().split(",")):
        name = name.strip()
        if name == "gzip":
            made.append(_Zlib(zlib.MAX_WBITS | 16))
        elif name == "deflate":
            made.append(_Zlib(zlib.MAX_WBITS, -zlib.MAX_WBITS))
        elif name == "zstd" and HAS_ZSTD:
            made.append(_Zstd())
    if not made:
        return None
    return made[0] if len(made) == 1 else _Chain(made)
