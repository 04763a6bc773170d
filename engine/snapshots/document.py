"""The snapshot document, the same whatever keeps it: a projection's folded state, where the fold stopped
and the key of the code that folded it, as JSON; whether a document is current for the code reading it.

Kept and checked by the file store (engine/snapshots/file.py) and the stored one (engine/snapshots/stored.py),
compared with a replay by `log verify --snapshots` (engine/snapshots/check.py). No pickle: the state goes
through engine/snapshots/state_codec.py, as JSON data read back into the declared types, so a snapshot holds
data and can never run code.
"""

from __future__ import annotations

import re
from hashlib import sha256
from typing import TYPE_CHECKING, Any

import attrs
import orjson

from batchlog.engine.fold_version import SNAPSHOT_FORMAT, version_of
from batchlog.engine.scan import Position
from batchlog.engine.snapshots.state_codec import from_data, to_data

if TYPE_CHECKING:
    from batchlog.engine.log import EventLog, Projection, Replayed

# 2: authenticated with the user's key (HMAC) instead of a plain SHA-256; 3: a file's bytes before the snapshot's
# line vouched for by SHA-256 (CRC-32 can be steered), a stored log's chain checked on every use, each key's
# snapshots kept apart
FORMAT = SNAPSHOT_FORMAT
SNAPSHOT_EVERY = 200  # write a snapshot once a fold has gone this many events past the last one (bounds a view's tail)
_HEX64 = "[0-9a-f]{64}"  # a SHA-256 in hex: a line hash, a prefix digest (re.fullmatch compiles it once)

def state_type(projection: Projection) -> type | None:
    """The class a projection's snapshots decode its state into (None: it is never snapshotted)."""
    declared = getattr(projection, "state_type", None)
    if declared is not None:
        return declared
    initial = type(projection.initial)
    return initial if attrs.has(initial) else None


def clean(replayed: Replayed) -> bool:
    """Whether a snapshot may be taken of a replay: it met no damage and nothing newer, and folded something."""
    return replayed.bad == 0 and not replayed.newer and replayed.position.seq > 0


def fold_key(log: EventLog, projection: Projection, state_type: type) -> str:
    """The key a snapshot is kept under: this format, the projection's name and `version` (a hash of the code
    that folds), its state type, and the registry's types and versions; any change orphans old snapshots."""
    types = sorted((t.name, t.version, len(t.upcasters)) for t in log.registry.by_name.values())
    return sha256(orjson.dumps([FORMAT, projection.name, version_of(projection),
                                f"{state_type.__module__}.{state_type.__qualname__}", types])).hexdigest()


def document(key: str, projection: Projection, state_type: type, state: Any, position: Position,
             vouchers: dict[str, Any]) -> bytes | None:
    """The snapshot of `state` at `position`, with what vouches for the lines it covers (`vouchers`: for a
    file, where its last line starts and the SHA-256 of the bytes before it; a stored log needs none, its
    recorder checks the chain); None when the state does not read back equal (a type the codec does not
    carry faithfully), since such a snapshot could change an answer."""
    try:
        data = to_data(state)
        body = orjson.dumps({
            "format": FORMAT, "key": key, "projection": projection.name,
            "position": {"line": position.line, "seq": position.seq, "offset": position.offset,
                         "hash": position.hash, "at": position.at},
            **vouchers, "state": data,
        })
        if from_data(orjson.loads(body)["state"], state_type) != state:
            return None
    except Exception:  # noqa: BLE001 - a state the codec cannot carry faithfully is simply not cached
        return None
    return body


def current_position(body: bytes, key: str) -> tuple[dict, Position] | None:
    """The snapshot document in `body` and the position it stands at, when it is one this code wrote for this
    projection; None when it is stale: written by another format or other code (its key differs), or not a
    snapshot at all. Whether the log still holds what it covers is the store's check (the bytes' SHA-256 for
    a file, the chain for a stored log)."""
    try:
        doc = orjson.loads(body)
    except orjson.JSONDecodeError:
        return None
    if type(doc) is not dict or doc.get("format") != FORMAT or doc.get("key") != key:
        return None
    found = _position(doc.get("position"))
    return None if found is None else (doc, found)


def _position(raw: Any) -> Position | None:
    if type(raw) is not dict:
        return None
    line, seq, offset, digest, at = (raw.get(k) for k in ("line", "seq", "offset", "hash", "at"))
    if not all(type(v) is int and v > 0 for v in (line, seq, offset)):
        return None
    if type(digest) is not str or not re.fullmatch(_HEX64, digest) or type(at) is not str:
        return None
    return Position(line, seq, offset, digest, at)
