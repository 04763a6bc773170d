"""Snapshots of a log kept apart from files (memory, PostgreSQL): kept by its recorder, beside its lines.

The same snapshot as a file log's (engine/snapshots/file.py): the same document, the same key of the code that
folds, the same HMAC under the user's key, so a person who can write the database cannot forge one into
an answer. What vouches for the lines it covers differs: a file's bytes are CRC-checked; here the recorder
checks that the first lines still link into a chain ending, at the snapshot's offset, in a line that hashes
as the snapshot says (engine/snapshots/stored_chain.py): the line's hash then commits to every line before it. That
check reads every line before the snapshot, so once it holds, the snapshot records the log's `rewrites`
count (lines changed or removed other than by an append, counted by the store), and while the count stays
put only the snapshot's own line is checked. Any doubt, and the view replays the log in full: a snapshot
never changes an answer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import orjson

from batchlog.engine.fold_version import version_of
from batchlog.engine.scan import Position
from batchlog.engine.snapshots.file import (
    FORMAT,
    SNAPSHOT_EVERY,
    Snapshots,
    _cattrs,
    _clean,
    _state_type,
    current_position,
)

if TYPE_CHECKING:
    from batchlog.engine.log import EventLog, Projection, Replayed


class StoredSnapshots:
    """The snapshot store of a log whose recorder keeps snapshots (`load_snapshot`, `store_snapshot`,
    `chain_through`)."""

    def __init__(self, *, every: int = SNAPSHOT_EVERY, on_note: Any = None) -> None:
        self.every = every
        self.on_note = on_note
        # (address, projection) -> the seq the last snapshot is at, and the log's rewrites count when the lines
        # before it were last known to link (None: unknown)
        self._bases: dict[tuple[str, str], tuple[int, int | None]] = {}

    def replay(self, log: EventLog, projection: Projection, *, at: int | None = None) -> Replayed:
        """The same Replayed a full replay gives, folding only the tail after a valid snapshot."""
        state_type = _state_type(projection)
        if not version_of(projection) or state_type is None:
            return log.fold(projection, projection.initial, Position(), at=at)
        key = Snapshots._key(log, projection, state_type)
        rewrites = log.recorder.rewrites()  # read before any line: a rewrite after it moves the count on
        found = self._load(log, projection, key, state_type, rewrites)
        if found is not None and at is not None and at < found[1].seq:
            found = None  # asked for a time before the snapshot: a full replay
        state, start = found if found is not None else (projection.initial, Position())
        replayed = log.fold(projection, state, start, at=at)
        self._bases[(log.address, projection.name)] = (start.seq, rewrites)
        if at is None and replayed.position.seq - start.seq >= self.every and _clean(replayed):
            self._write(log, projection, key, state_type, replayed.state, replayed.position, rewrites)
        return replayed

    def after_append(self, log: EventLog, projection: Projection, state: Any, replayed: Replayed, payload: bytes,
                     position: Position, line_start: int) -> None:
        """After an append: a fresh snapshot when the fold has gone `every` events past the last one."""
        state_type = _state_type(projection)
        if not version_of(projection) or state_type is None or not _clean(replayed):
            return
        seq, rewrites = self._bases.get((log.address, projection.name), (0, None))
        if position.seq - seq < self.every:
            return
        self._write(log, projection, Snapshots._key(log, projection, state_type), state_type, state, position,
                    rewrites)

    def _load(self, log: EventLog, projection: Projection, key: str, state_type: type,
              rewrites: int | None) -> tuple[Any, Position] | None:
        from batchlog.engine.snapshots.key import snapshot_is_authentic, snapshot_key

        stored = log.recorder.load_snapshot(projection.name)
        if stored is None:
            return None
        tag, newline, body = stored.partition(b"\n")
        secret = snapshot_key()
        if not newline or secret is None or not snapshot_is_authentic(secret, body, tag):
            if self.on_note is not None:
                self.on_note(f"note: the snapshot of {projection.name} in {log.address} is not authentic (edited, "
                             "or written by another user): ignored; the log is replayed in full")
            return None
        found = current_position(body, key)
        if found is None:
            return None
        doc, (position, _, _) = found
        if not self._still_holds(log, doc, position, rewrites):
            return None
        try:
            state = _cattrs().structure(doc.get("state"), state_type)
        except Exception:  # noqa: BLE001 - any decoding failure of a cache means: replay in full
            return None
        if rewrites is not None and doc.get("rewrites") != rewrites:
            doc["rewrites"] = rewrites  # the chain just checked: the next view checks only the snapshot's line
            self._store(log, projection, orjson.dumps(doc))
        return state, position

    @staticmethod
    def _still_holds(log: EventLog, doc: dict, position: Position, rewrites: int | None) -> bool:
        """Whether the log still holds the lines the snapshot covers: its own line, hashing the same, and, unless
        no line was rewritten since the chain before it was last checked, that whole chain."""
        recorder = log.recorder
        if rewrites is not None and doc.get("rewrites") == rewrites:
            return recorder.line_hash_at(position.line) == position.hash
        return recorder.chain_through(position.line) == (position.offset, position.hash)

    def _write(self, log: EventLog, projection: Projection, key: str, state_type: type, state: Any,
               position: Position, rewrites: int | None) -> None:
        """Store a snapshot; only when its state reads back equal (else it could change an answer). `rewrites`:
        the log's count when the lines it covers were known to link (None: unknown, the first view checks)."""
        try:
            data = _cattrs().unstructure(state, state_type)
            body = orjson.dumps({
                "format": FORMAT, "key": key, "projection": projection.name,
                "position": {"line": position.line, "seq": position.seq, "offset": position.offset,
                             "hash": position.hash, "at": position.at},
                "line_start": 0, "prefix_crc": 0, "rewrites": rewrites, "state": data,
            })
            if _cattrs().structure(orjson.loads(body)["state"], state_type) != state:
                return
        except Exception:  # noqa: BLE001 - a state cattrs cannot carry faithfully is simply not cached
            return
        self._store(log, projection, body)
        self._bases[(log.address, projection.name)] = (position.seq, rewrites)

    @staticmethod
    def _store(log: EventLog, projection: Projection, body: bytes) -> None:
        from batchlog.engine.snapshots.key import authenticate_snapshot, snapshot_key

        secret = snapshot_key()
        if secret is not None:  # no key: a snapshot could not be trusted, so none is kept
            log.recorder.store_snapshot(projection.name, authenticate_snapshot(secret, body) + b"\n" + body)
