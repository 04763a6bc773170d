"""The envelope of one line: encoding an event to bytes and checking a decoded line.

Pure: no files. A line is `{"seq","type","v","at","id","data","prev"}`, in that
order, compact JSON, UTF-8, without its newline.
"""

from __future__ import annotations

from typing import Any

from hashlib import sha256

import orjson

from batchlog.engine.chain import MIN_PREV_LENGTH
from batchlog.engine.value import frozen

FIELDS = ("seq", "type", "v", "at", "id", "data", "prev")
FIELD_SET = frozenset(FIELDS)


@frozen
class Event:
    """One event as read back: the envelope with `data` decoded for the domain."""

    seq: int
    type: str
    v: int
    at: str
    id: str
    data: Any


ID_LENGTH = 32
_ID_KEY = b'"id":"'


def encode_line(seq: int, type_: str, v: int, at: str, data: Any, prev: str) -> bytes:
    """The bytes of one event line, without the newline.

    The event's `id` is the first 32 hex digits of the SHA-256 of the line with
    an empty id: unique (it covers `prev`, so the position in the chain) and a
    checksum of its own line, so `log verify` names the very line that changed.
    """
    blank = orjson.dumps({"seq": seq, "type": type_, "v": v, "at": at, "id": "", "data": data, "prev": prev})
    id_ = sha256(blank).hexdigest()[:ID_LENGTH]
    # The first '"id":"' is the envelope's: keys before it hold no such text
    # (a quote inside a JSON string is always escaped).
    return blank.replace(b'"id":""', _ID_KEY + id_.encode() + b'"', 1)


def id_problem(line: bytes, id_: str) -> str | None:
    """Why a line's id is not the hash of its own content, or None."""
    blank = line.replace(_ID_KEY + id_.encode() + b'"', b'"id":""', 1)
    if blank == line or sha256(blank).hexdigest()[:ID_LENGTH] != id_:
        return "id is not the hash of the line: the line was changed after it was written"
    return None


def _is_int(value: object) -> bool:
    return type(value) is int


def envelope_problem(obj: Any) -> str | None:
    """Why a decoded line is not a valid envelope, or None when it is."""
    if type(obj) is not dict:
        return "the line is not a JSON object"
    if obj.keys() != FIELD_SET:
        missing = [f for f in FIELDS if f not in obj]
        extra = sorted(k for k in obj if k not in FIELD_SET)
        parts = []
        if missing:
            parts.append("missing " + ", ".join(missing))
        if extra:
            parts.append("unknown " + ", ".join(extra))
        return "envelope fields wrong: " + "; ".join(parts)
    if not _is_int(obj["seq"]) or obj["seq"] < 1:
        return "seq is not a whole number from 1"
    if type(obj["type"]) is not str or not obj["type"]:
        return "type is not a non-empty string"
    if not _is_int(obj["v"]) or obj["v"] < 1:
        return "v is not a whole number from 1"
    if type(obj["at"]) is not str or type(obj["id"]) is not str or not obj["id"]:
        return "at or id is not a string"
    if type(obj["data"]) is not dict:
        return "data is not a JSON object"
    prev = obj["prev"]
    if type(prev) is not str or len(prev) < MIN_PREV_LENGTH:
        return f"prev is not a hash of at least {MIN_PREV_LENGTH} hex digits"
    return None
