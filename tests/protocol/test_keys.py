"""Key rings show key ids only; the ids match what the SDK writes into tokens."""

from __future__ import annotations

import pickle

import pytest

from mcp_lab import KeyRing, LabError, key_id


def test_key_ids_match_the_sdk_notes() -> None:
    assert key_id(b"O" * 32) == "61fd740c"
    assert key_id(b"N" * 32) == "a053f2e4"


def test_repr_shows_ids_not_keys() -> None:
    ring = KeyRing([b"N" * 32, b"O" * 32])
    assert repr(ring) == "KeyRing([a053f2e4, 61fd740c], given)"
    assert "NNNN" not in repr(ring) and "OOOO" not in str(ring)
    with pytest.raises(TypeError):
        pickle.dumps(ring)


def test_fresh_rings_are_lab_generated_and_rotate() -> None:
    ring = KeyRing.fresh()
    assert ring.generated and len(ring) == 1
    rotated = ring.rotated(b"x" * 32)
    assert rotated.ids[1] == ring.ids[0] and rotated.ids[0] == key_id(b"x" * 32)


def test_short_keys_are_refused() -> None:
    with pytest.raises(LabError, match="each key must be 32 to 1024 bytes"):
        KeyRing([b"short"])
    with pytest.raises(LabError):
        KeyRing.coerce(42)
