"""What the lab needs of a request_state codec: the SDK's contract, checkable at run time, and a description.

The SDK declares the codec as `mcp.server.request_state.RequestStateCodec`, a `Protocol`: `seal(bytes) -> str`
and `unseal(str) -> bytes`, where `unseal(seal(p)) == p` and `unseal` raises `InvalidRequestState` for any
token it did not mint unmodified (the reason in the exception is logged, never sent). `Codec` is that contract
again, marked `runtime_checkable` so that `codec=` given by a person is checked with one clear line instead
of failing inside the boundary on the first call.

`DescribedCodec` adds what the keyless inspector shows about a codec's tokens -- the lab's example codecs
(`example_codecs.py`) implement it; any other codec is still accepted and is shown by its class name.
"""

from __future__ import annotations

from typing import Protocol, TypeGuard, runtime_checkable

__all__ = ["Codec", "DescribedCodec", "codec_label", "is_codec"]


@runtime_checkable
class Codec(Protocol):
    """The SDK's `RequestStateCodec`: authenticated crypto over the request-state envelope.

    - `seal(payload)` returns an opaque, URL-safe token protecting `payload`;
    - `unseal(token)` reverses it, and raises `InvalidRequestState(reason)` for a malformed, unauthentic or
      unknown-key token (the SDK's reasons: "malformed", "unknown key", "seal");
    - tokens never name their algorithm: a format prefix, bound under the authentication tag, versions them;
    - both are synchronous and compare in constant time.
    """

    def seal(self, payload: bytes) -> str: ...

    def unseal(self, token: str) -> bytes: ...


@runtime_checkable
class DescribedCodec(Codec, Protocol):
    """A codec that also says what its tokens are, for the inspector's lines.

    - `prefix`: the text every token it seals begins with (how the inspector tells its tokens from others);
    - `label`: its name in a sentence ("lab HMAC-SHA256 sign-only");
    - `can_open`: one line on what a holder of a token can read without the key (sign-only: everything).
    """

    @property
    def prefix(self) -> str: ...

    @property
    def label(self) -> str: ...

    @property
    def can_open(self) -> str: ...


def codec_label(codec: Codec) -> str:
    """How a line names `codec`: its own label, or its class name for a codec that describes nothing."""
    return codec.label if isinstance(codec, DescribedCodec) else type(codec).__name__


def is_codec(value: object) -> TypeGuard[Codec]:
    """`value` has a callable `seal` and `unseal` (a runtime Protocol check alone sees only that they exist)."""
    return isinstance(value, Codec) and callable(value.seal) and callable(value.unseal)
