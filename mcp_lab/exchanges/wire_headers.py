"""Reading an HTTP exchange's headers as they crossed the wire: raw pairs, and the two facts a record needs.

Spec context: on 2026-07-28 Streamable HTTP every request carries `Mcp-Method` (so gateways route without
parsing JSON); an exchange's record names it, and the `Content-Type`s say how to read the bodies. Every
request and response of every leg is read here, so both readings are written for that: a dozen headers
each, most of them neither.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

from mcp_lab.exchanges.record import RawHeader

if TYPE_CHECKING:
    import httpx2

__all__ = ["header_facts", "wire_headers"]

_FACT_NAMES = frozenset({b"mcp-method", b"content-type"})
"""The two names `header_facts` reads (10 and 12 bytes long: a name's length says which it is)."""

_NAME, _LOWERED, _VALUE = operator.itemgetter(0), operator.itemgetter(1), operator.itemgetter(2)


def header_facts(headers: Sequence[tuple[str, str]] | Sequence[RawHeader]) -> tuple[str | None, str]:
    """The first `Mcp-Method` (None: absent) and `Content-Type` ("") among text or raw headers, in one pass:
    only a name of either's length is lower-cased."""
    if headers and isinstance(headers[0][0], str):
        text = cast("Sequence[tuple[str, str]]", headers)
        method = next((v for k, v in text if k.lower() == "mcp-method"), None)
        return method, next((v for k, v in text if k.lower() == "content-type"), "")
    found: dict[int, bytes] = {}
    for key, value in cast("Sequence[RawHeader]", headers):
        size = len(key)
        if (size == 10 or size == 12) and size not in found and key.lower() in _FACT_NAMES:
            found[size] = value
    method_raw, kind_raw = found.get(10), found.get(12)
    return (None if method_raw is None else method_raw.decode("latin-1")), (kind_raw or b"").decode("latin-1")


def wire_headers(headers: httpx2.Headers) -> tuple[tuple[RawHeader, ...], tuple[str | None, str]]:
    """A request's or a response's headers as httpx2 holds them, as raw pairs (names as spelled on the wire, in
    order) and their `header_facts`.

    httpx2 keeps each header as (name, lowered name, value): the pairs and the facts are taken from those
    in C, with no Python loop over the headers (`Headers.raw` is one, and `header_facts` another). Headers
    held any other way are read the general way."""
    try:
        triples = headers._list
        lowered = list(map(_LOWERED, triples))
        raw: tuple[RawHeader, ...] = tuple(zip(map(_NAME, triples), map(_VALUE, triples), strict=True))
    except (AttributeError, TypeError, IndexError, KeyError):
        raw = tuple(headers.raw)
        return raw, header_facts(raw)
    method = _VALUE(triples[lowered.index(b"mcp-method")]).decode("latin-1") if b"mcp-method" in lowered else None
    kind = _VALUE(triples[lowered.index(b"content-type")]).decode("latin-1") if b"content-type" in lowered else ""
    return raw, (method, kind)
