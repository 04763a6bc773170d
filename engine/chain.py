"""The hash chain: each line's `prev` is the SHA-256 of the previous line's bytes."""

from __future__ import annotations

from hashlib import sha256

GENESIS = sha256(b"").hexdigest()
MIN_PREV_LENGTH = 32


def line_hash(line: bytes) -> str:
    """The hash the next line's `prev` must hold: SHA-256 hex of `line` without its newline."""
    return sha256(line).hexdigest()
