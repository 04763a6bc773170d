"""Snapshots of a log kept apart from files (memory, PostgreSQL): kept by its recorder, beside its lines.

The same snapshot as a file log's (engine/snapshots/document.py): the same document, the same key of the code
that folds, the same HMAC under the user's key, so a person who can write the database cannot forge one into
an answer, and the same keeping apart of each key's snapshots (under its fingerprint), so machines sharing
the log never read or overwrite each other's. What vouches for the lines it covers differs: a file's bytes
are hashed; here the recorder (`KeepsSnapshots`, engine/recorders/protocols.py) checks, on every use, that
the first lines still link into a chain ending, at the snapshot's offset, in a line that hashes as the
snapshot says: the line's hash then commits to every line before it. Nothing kept beside the lines decides
whether that check runs, since whoever edits the lines could set it back. Any doubt, and the view replays
the log in full: a snapshot never changes an answer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from batchlog.engine.fold_version import version_of
from batchlog.engine.recorders.protocols import KeepsSnapshots
from batchlog.engine.scan import Position
from batchlog.engine.snapshots.state_codec import from_data
from batchlog.engine.snapshots.document import (
    SNAPSHOT_EVERY,
    clean,
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
        self._bases: dict[tuple[str, str], int] = {}  # (address, projection) -> the seq of the last snapshot

    def replay(self, log: EventLog, projection: Projection, *, at: int | None = None) -> Replayed:
        """The same Replayed a full replay gives, folding only the tail after a valid snapshot."""
        decoded = state_type(projection)
        if not version_of(projection) or decoded is None:
            return log.fold(projection, projection.initial, Position(), at=at)
        key = fold_key(log, projection, decoded)
        found = self._load(log, projection, key, decoded)
        if found is not None and at is not None and at < found[1].seq:
            found = None  # asked for a time before the snapshot: a full replay
        state, start = found if found is not None else (projection.initial, Position())
        replayed = log.fold(projection, state, start, at=at)
        self._bases[(log.address, projection.name)] = start.seq
        if at is None and replayed.position.seq - start.seq >= self.every and clean(replayed):
            self._write(log, projection, key, decoded, replayed.state, replayed.position)
        return replayed

    def after_append(self, log: EventLog, projection: Projection, state: Any, replayed: Replayed, payload: bytes,
                     position: Position, line_start: int) -> None:
        """After an append: a fresh snapshot when the fold has gone `every` events past the last one."""
        decoded = state_type(projection)
        if not version_of(projection) or decoded is None or not clean(replayed):
            return
        if position.seq - self._bases.get((log.address, projection.name), 0) < self.every:
            return
        self._write(log, projection, fold_key(log, projection, decoded), decoded, state, position)

    def _load(self, log: EventLog, projection: Projection, key: str, decoded: type) -> tuple[Any, Position] | None:
        from batchlog.engine.snapshots.key import key_id, opened

        keeper = _keeper_of(log)
        mine = key_id()
        stored = None if mine is None else keeper.load_snapshot(projection.name, mine)
        if stored is None:
            return None
        body = opened(stored)
        if body is None:
            if self.on_note is not None:
                self.on_note(f"note: the snapshot of {projection.name} in {log.address} is not authentic (edited, "
                             "or not written with this user's key): ignored; the log is replayed in full")
            return None
        found = current_position(body, key)
        if found is None:
            return None
        doc, position = found
        if keeper.chain_through(position.line) != (position.offset, position.hash):
            return None
        try:
            state = from_data(doc.get("state"), decoded)
        except Exception:  # noqa: BLE001 - any decoding failure of a cache means: replay in full
            return None
        return state, position

    def _write(self, log: EventLog, projection: Projection, key: str, decoded: type, state: Any,
               position: Position) -> None:
        """Store a snapshot, authenticated under the user's key; only when its state reads back equal (else it
        could change an answer), and only when the user has a key (else it could not be trusted)."""
        from batchlog.engine.snapshots.key import key_id, sealed

        body = document(key, projection, decoded, state, position, {})
        kept = None if body is None else sealed(body)
        mine = key_id()
        if kept is None or mine is None:
            return
        _keeper_of(log).store_snapshot(projection.name, mine, kept)
        self._bases[(log.address, projection.name)] = position.seq


def _keeper_of(log: EventLog) -> KeepsSnapshots:
    """The log's recorder, which keeps its snapshots (engine/address.py's `open_log` gives these snapshots only
    to such a log)."""
    return cast(KeepsSnapshots, log.recorder)
