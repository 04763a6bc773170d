"""Snapshots of a log kept apart from files (memory, PostgreSQL): kept by its recorder, beside its lines.

The same snapshot as a file log's (engine/snapshot.py): the same document, the same key of the code that
folds, the same HMAC under the user's key, so a person who can write the database cannot forge one into
an answer. What vouches for the lines it covers differs: a file's bytes are CRC-checked; here the recorder
checks that the first lines still link into a chain ending, at the snapshot's offset, in a line that hashes
as the snapshot says (engine/stored_chain.py): the line's hash then commits to every line before it. Any
doubt, and the view replays the log in full: a snapshot never changes an answer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import orjson

from engine.fold_version import version_of
from engine.scan import Position
from engine.snapshot import FORMAT, SNAPSHOT_EVERY, Snapshots, _cattrs, _clean, _state_type, current_position

if TYPE_CHECKING:
    from engine.log import EventLog, Projection, Replayed


class StoredSnapshots:
    """The snapshot store of a log whose recorder keeps snapshots (`load_snapshot`, `store_snapshot`,
    `chain_through`)."""

    def __init__(self, *, every: int = SNAPSHOT_EVERY, on_note: Any = None) -> None:
        self.every = every
        self.on_note = on_note
        self._bases: dict[tuple[str, str], int] = {}  # (address, projection) -> the seq the last snapshot is at

    def replay(self, log: EventLog, projection: Projection, *, at: int | None = None) -> Replayed:
        """The same Replayed a full replay gives, folding only the tail after a valid snapshot."""
        state_type = _state_type(projection)
        if not version_of(projection) or state_type is None:
            return log.fold(projection, projection.initial, Position(), at=at)
        key = Snapshots._key(log, projection, state_type)
        found = self._load(log, projection, key, state_type)
        if found is not None and at is not None and at < found[1].seq:
            found = None  # asked for a time before the snapshot: a full replay
        state, start = found if found is not None else (projection.initial, Position())
        replayed = log.fold(projection, state, start, at=at)
        self._bases[(log.address, projection.name)] = start.seq
        if at is None and replayed.position.seq - start.seq >= self.every and _clean(replayed):
            self._write(log, projection, key, state_type, replayed.state, replayed.position)
        return replayed

    def after_append(self, log: EventLog, projection: Projection, state: Any, replayed: Replayed, payload: bytes,
                     position: Position, line_start: int) -> None:
        """After an append: a fresh snapshot when the fold has gone `every` events past the last one."""
        state_type = _state_type(projection)
        if not version_of(projection) or state_type is None or not _clean(replayed):
            return
        if position.seq - self._bases.get((log.address, projection.name), 0) < self.every:
            return
        self._write(log, projection, Snapshots._key(log, projection, state_type), state_type, state, position)

    def _load(self, log: EventLog, projection: Projection, key: str,
              state_type: type) -> tuple[Any, Position] | None:
        from engine.snapshot_key import snapshot_is_authentic, snapshot_key

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
        if log.recorder.chain_through(position.line) != (position.offset, position.hash):
            return None
        try:
            state = _cattrs().structure(doc.get("state"), state_type)
        except Exception:  # noqa: BLE001 - any decoding failure of a cache means: replay in full
            return None
        return state, position

    def _write(self, log: EventLog, projection: Projection, key: str, state_type: type, state: Any,
               position: Position) -> None:
        """Store a snapshot; only when its state reads back equal (else it could change an answer)."""
        from engine.snapshot_key import authenticate_snapshot, snapshot_key

        secret = snapshot_key()
        if secret is None:
            return
        try:
            data = _cattrs().unstructure(state, state_type)
            body = orjson.dumps({
                "format": FORMAT, "key": key, "projection": projection.name,
                "position": {"line": position.line, "seq": position.seq, "offset": position.offset,
                             "hash": position.hash, "at": position.at},
                "line_start": 0, "prefix_crc": 0, "state": data,
            })
            if _cattrs().structure(orjson.loads(body)["state"], state_type) != state:
                return
        except Exception:  # noqa: BLE001 - a state cattrs cannot carry faithfully is simply not cached
            return
        log.recorder.store_snapshot(projection.name, authenticate_snapshot(secret, body) + b"\n" + body)
        self._bases[(log.address, projection.name)] = position.seq
