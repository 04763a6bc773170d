"""Snapshots of a log kept apart from files (memory, PostgreSQL): kept by its recorder, beside its lines.

The same snapshot as a file log's (engine/snapshots/document.py): the same document, the same key of the code
that folds, the same HMAC under the user's key, so a person who can write the database cannot forge one into
an answer. What vouches for the lines it covers differs: a file's bytes are CRC-checked; here the recorder
(`KeepsSnapshots`, engine/recorders/protocols.py) checks that the first lines still link into a chain ending,
at the snapshot's offset, in a line that hashes as the snapshot says: the line's hash then commits to every
line before it. That check reads every line before the snapshot, so once it holds, the snapshot records the
log's `rewrites` count (lines changed or removed other than by an append, counted by the store), and while
the count stays put only the snapshot's own line is checked. Any doubt, and the view replays the log in
full: a snapshot never changes an answer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

import orjson

from batchlog.engine.fold_version import version_of
from batchlog.engine.recorders.protocols import KeepsSnapshots
from batchlog.engine.scan import Position
from batchlog.engine.snapshots.document import (
    SNAPSHOT_EVERY,
    clean,
    converter,
    current_position,
    document,
    fold_key,
    state_type,
)

if TYPE_CHECKING:
    from batchlog.engine.log import EventLog, Projection, Replayed


class StoredSnapshots:
    """The snapshot store of a log whose recorder keeps its snapshots (`KeepsSnapshots`)."""

    def __init__(self, *, every: int = SNAPSHOT_EVERY, on_note: Any = None) -> None:
        self.every = every
        self.on_note = on_note
        # (address, projection) -> the seq the last snapshot is at, and the log's rewrites count when the lines
        # before it were last known to link (None: unknown)
        self._bases: dict[tuple[str, str], tuple[int, int | None]] = {}

    def replay(self, log: EventLog, projection: Projection, *, at: int | None = None) -> Replayed:
        """The same Replayed a full replay gives, folding only the tail after a valid snapshot."""
        decoded = state_type(projection)
        if not version_of(projection) or decoded is None:
            return log.fold(projection, projection.initial, Position(), at=at)
        key = fold_key(log, projection, decoded)
        rewrites = _keeper_of(log).rewrites()  # read before any line: a rewrite after it moves the count on
        found = self._load(log, projection, key, decoded, rewrites)
        if found is not None and at is not None and at < found[1].seq:
            found = None  # asked for a time before the snapshot: a full replay
        state, start = found if found is not None else (projection.initial, Position())
        replayed = log.fold(projection, state, start, at=at)
        self._bases[(log.address, projection.name)] = (start.seq, rewrites)
        if at is None and replayed.position.seq - start.seq >= self.every and clean(replayed):
            self._write(log, projection, key, decoded, replayed.state, replayed.position, rewrites)
        return replayed

    def after_append(self, log: EventLog, projection: Projection, state: Any, replayed: Replayed, payload: bytes,
                     position: Position, line_start: int) -> None:
        """After an append: a fresh snapshot when the fold has gone `every` events past the last one."""
        decoded = state_type(projection)
        if not version_of(projection) or decoded is None or not clean(replayed):
            return
        seq, rewrites = self._bases.get((log.address, projection.name), (0, None))
        if position.seq - seq < self.every:
            return
        self._write(log, projection, fold_key(log, projection, decoded), decoded, state, position, rewrites)

    def _load(self, log: EventLog, projection: Projection, key: str, decoded: type,
              rewrites: int | None) -> tuple[Any, Position] | None:
        from batchlog.engine.snapshots.key import opened

        keeper = _keeper_of(log)
        stored = keeper.load_snapshot(projection.name)
        if stored is None:
            return None
        body = opened(stored)
        if body is None:
            if self.on_note is not None:
                self.on_note(f"note: the snapshot of {projection.name} in {log.address} is not authentic (edited, "
                             "or written by another user): ignored; the log is replayed in full")
            return None
        found = current_position(body, key)
        if found is None:
            return None
        doc, (position, _, _) = found
        if not _still_holds(keeper, doc, position, rewrites):
            return None
        try:
            state = converter().structure(doc.get("state"), decoded)
        except Exception:  # noqa: BLE001 - any decoding failure of a cache means: replay in full
            return None
        if rewrites is not None and doc.get("rewrites") != rewrites:
            doc["rewrites"] = rewrites  # the chain just checked: the next view checks only the snapshot's line
            _store(keeper, projection, orjson.dumps(doc))
        return state, position

    def _write(self, log: EventLog, projection: Projection, key: str, decoded: type, state: Any,
               position: Position, rewrites: int | None) -> None:
        """Store a snapshot; only when its state reads back equal (else it could change an answer). `rewrites`:
        the log's count when the lines it covers were known to link (None: unknown, the first view checks)."""
        body = document(key, projection, decoded, state, position,
                        {"line_start": 0, "prefix_crc": 0, "rewrites": rewrites})
        if body is None:
            return
        _store(_keeper_of(log), projection, body)
        self._bases[(log.address, projection.name)] = (position.seq, rewrites)


def _keeper_of(log: EventLog) -> KeepsSnapshots:
    """The log's recorder, which keeps its snapshots (engine/address.py's `open_log` gives these snapshots only
    to such a log)."""
    return cast(KeepsSnapshots, log.recorder)


def _still_holds(keeper: KeepsSnapshots, doc: dict, position: Position, rewrites: int | None) -> bool:
    """Whether the log still holds the lines the snapshot covers: its own line, hashing the same, and, unless
    no line was rewritten since the chain before it was last checked, that whole chain."""
    if rewrites is not None and doc.get("rewrites") == rewrites:
        return keeper.line_hash_at(position.line) == position.hash
    return keeper.chain_through(position.line) == (position.offset, position.hash)


def _store(keeper: KeepsSnapshots, projection: Projection, body: bytes) -> None:
    from batchlog.engine.snapshots.key import sealed

    kept = sealed(body)
    if kept is not None:  # no key: a snapshot could not be trusted, so none is kept
        keeper.store_snapshot(projection.name, kept)
