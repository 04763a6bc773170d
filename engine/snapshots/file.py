"""A file log's snapshots: a view's folded state cached in files beside the log, so a view costs only its tail.

A snapshot holds the state a projection reached, where it stopped (seq, line,
byte offset, the hash of the last line folded) and the key of the code that
folded it. It is used only when every check holds:

- the file is whole and authentic: its first line is the HMAC-SHA256 of the rest under the user's key,
  kept outside the log's folder (engine/snapshots/key.py), so a person who can write the folder cannot
  forge one into an answer; one that does not verify is ignored, with one note;
- its key matches: the projection's name and `version` (a hash of the code that
  folds, see `code_version`), its state type, the registry's types and versions,
  and this file format (engine/snapshots/document.py);
- the log still holds, at that offset, a line that hashes the same (docs/ARCHITECTURE.md's
  rule), and the bytes before it still have the same CRC-32 (so an edit anywhere
  before it, which would change a full replay's answer, is seen too); the CRC is
  skipped only for the very file a view already checked it on (the signature it
  recorded in the snapshot: inode, size, mtime and ctime, taken when the file had
  settled, see `_settled`);
- the state decodes into the projection's state type.

The log's bytes are read through its recorder (`ReadableAtOffsets`, engine/recorders/protocols.py), at
offsets on one descriptor per check. Any doubt, and the view replays the log in full (then writes a fresh
snapshot): a snapshot never changes an answer. `--at SEQ` before the snapshot is a full replay too.

Files: `<log>.snap/<projection name>.json`, written under a temporary name and
renamed, so a reader never sees one half-written. A snapshot is a cache: it is
not fsynced, and a file lost or cut short in a crash is simply ignored. What
reads and writes snapshot files (zlib, cattrs, tempfile) is imported only when a
file is there to read or one is to be written: a view of a short log without a
snapshot pays for none of it.
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import attrs
import orjson

from batchlog.engine.chain import line_hash
from batchlog.engine.files import BINARY
from batchlog.engine.fold_version import version_of
from batchlog.engine.recorders.protocols import ReadAt, ReadableAtOffsets
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

CHUNK_BYTES = 1 << 22


@attrs.frozen
class _Base:
    """Where the last replay of one projection started from: what the next snapshot builds on."""

    seq: int
    offset: int
    crc: int


class Snapshots:
    """The snapshot store of `EventLog(..., snapshots=Snapshots())`: one file per log and projection."""

    def __init__(self, *, every: int = SNAPSHOT_EVERY, on_note: Any = None) -> None:
        self.every = every
        self.on_note = on_note  # where the note of a snapshot that does not verify goes
        self._bases: dict[tuple[str, str], _Base] = {}

    # -- the seam EventLog calls --------------------------------------------------------------

    def replay(self, log: EventLog, projection: Projection, *, at: int | None = None) -> Replayed:
        """The same Replayed a full replay gives, folding only the tail after a valid snapshot."""
        decoded = state_type(projection)
        if not version_of(projection) or decoded is None:
            return log.fold(projection, projection.initial, Position(), at=at)
        key = fold_key(log, projection, decoded)
        found = self._load(log, projection, key, decoded)
        if found is not None and at is not None and at < found[1].seq:
            found = None  # asked for a time before the snapshot: a full replay
        state, start, crc = found if found is not None else (projection.initial, Position(), 0)
        replayed = log.fold(projection, state, start, at=at)
        self._bases[(str(log.path), projection.name)] = _Base(start.seq, start.offset, crc)
        if at is None and replayed.position.seq - start.seq >= self.every and clean(replayed):
            end = replayed.position.offset
            found_crc = _crc_through_last_line(_file_of(log), start.offset, end, crc)
            if found_crc is not None:
                line_start, before, through = found_crc
                self._write(log, projection, key, decoded, replayed.state, replayed.position, line_start, before)
                self._bases[(str(log.path), projection.name)] = _Base(replayed.position.seq, end, through)
        return replayed

    def after_append(self, log: EventLog, projection: Projection, state: Any, replayed: Replayed, payload: bytes,
                     position: Position, line_start: int) -> None:
        """After an append of `payload` (its last line starts at `line_start`, its last event is at
        `position`): a fresh snapshot when the fold has gone `every` events past the last one."""
        decoded = state_type(projection)
        # No base: this object has not replayed the log (it was empty, or its appends kept their own
        # state); the next snapshot then builds on the start of the file.
        base = self._bases.get((str(log.path), projection.name), _Base(0, 0, 0))
        if not version_of(projection) or decoded is None:
            return
        if position.seq - base.seq < self.every or not clean(replayed):
            return
        import zlib
        crc = _crc_range(_file_of(log), base.offset, replayed.end, base.crc)
        if crc is None:
            return
        last_line = line_start - replayed.end  # where the last line starts within the payload
        before = zlib.crc32(payload[:last_line], crc)
        key = fold_key(log, projection, decoded)
        self._write(log, projection, key, decoded, state, position, line_start, before)
        self._bases[(str(log.path), projection.name)] = _Base(position.seq, position.offset,
                                                              zlib.crc32(payload[last_line:], before))

    # -- files ----------------------------------------------------------------------------------

    @staticmethod
    def folder(log_path: Path) -> Path:
        return log_path.with_name(log_path.name + ".snap")

    def path_for(self, log: EventLog, projection: Projection) -> Path:
        return self.folder(log.path) / (re.sub(r"[^A-Za-z0-9_.-]", "_", projection.name) + ".json")

    def _load(self, log: EventLog, projection: Projection, key: str,
              decoded: type) -> tuple[Any, Position, int] | None:
        """The snapshot's state, position and the CRC-32 of the log through it, or None when any check fails."""
        path = self.path_for(log, projection)
        body = read_authentic(path)
        if body is None or body is ABSENT:
            if body is None and self.on_note is not None:
                self.on_note(f"note: the snapshot {path} is not authentic (edited, or written by another user): "
                             "ignored; the log is replayed in full")
            return None
        found = current_position(body, key)
        if found is None:
            return None
        doc, (position, line_start, crc) = found
        began = time.time_ns()
        recorder = _file_of(log)
        signature = recorder.signature()
        unchanged = signature is not None and doc.get("log") == list(signature)
        through = _log_matches(recorder, position, line_start, crc, prefix_known=unchanged)
        if through is None:
            return None
        try:
            state = converter().structure(doc.get("state"), decoded)
        except Exception:  # noqa: BLE001 - any decoding failure of a cache means: replay in full
            return None
        if not unchanged and _settled(signature, began) and recorder.signature() == signature:
            doc["log"] = list(signature)  # the bytes just checked: the next view of this same file skips the CRC
            self._store(log, projection, orjson.dumps(doc))
        return state, position, through

    def _write(self, log: EventLog, projection: Projection, key: str, decoded: type, state: Any,
               position: Position, line_start: int, crc: int) -> None:
        """Write a snapshot atomically; only when its state reads back equal (else it could change an answer)."""
        body = document(key, projection, decoded, state, position, {"line_start": line_start, "prefix_crc": crc})
        if body is not None:
            self._store(log, projection, body)

    def _store(self, log: EventLog, projection: Projection, body: bytes) -> None:
        """The snapshot file of `body`, authenticated, written aside and renamed into place."""
        from batchlog.engine.snapshots.key import sealed

        kept = sealed(body)
        if kept is None:
            return  # no key (no user folder to keep it in): a snapshot could not be trusted, so none is written
        folder = self.folder(log.path)
        target = self.path_for(log, projection)
        try:
            folder.mkdir(exist_ok=True)
            import tempfile  # only when a snapshot is written: it is slow to import

            fd, temp = tempfile.mkstemp(prefix=f".{target.stem}.", suffix=".tmp", dir=folder)
        except OSError:
            return
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(kept)
            os.replace(temp, target)
        except OSError:
            try:
                os.unlink(temp)
            except OSError:
                pass


SNAPSHOT_BYTES_MAX = 1 << 30  # a snapshot holds a folded state; a larger file is not one batchlog wrote


ABSENT: Any = object()  # no snapshot file at all (the usual case before the first: no note)


def read_snapshot_file(path: Path) -> bytes | None:
    """The bytes of a snapshot file, when it is a regular file (never a FIFO or a device) of sane size;
    `ABSENT` when there is none; None when it is not one batchlog wrote."""
    import stat

    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | BINARY)
    except FileNotFoundError:
        return ABSENT
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > SNAPSHOT_BYTES_MAX:
            return None
        pieces, left = [], info.st_size
        while left > 0:  # one read, as a rule: the size is known
            piece = os.read(fd, left)
            if not piece:
                break
            pieces.append(piece)
            left -= len(piece)
        return b"".join(pieces)
    except OSError:
        return None
    finally:
        os.close(fd)


def read_authentic(path: Path) -> bytes | None:
    """The body of the snapshot file at `path` when its tag verifies under the user's key; `ABSENT` when there
    is no such file; else None."""
    from batchlog.engine.snapshots.key import opened

    found = read_snapshot_file(path)
    if found is ABSENT or found is None:
        return found
    return opened(found)


def _file_of(log: EventLog) -> ReadableAtOffsets:
    """The log's recorder, read at offsets: these snapshots are a file log's (engine/address.py's `open_log`
    gives them to a log whose recorder keeps no snapshots itself, which is a file)."""
    return cast(ReadableAtOffsets, log.recorder)


def _log_matches(recorder: ReadableAtOffsets, position: Position, line_start: int, crc: int, *,
                 prefix_known: bool = False) -> int | None:
    """The CRC-32 of the log through the snapshot's last line, when the log still holds that line at its
    offset (same hash) and the same bytes before it (same CRC; `prefix_known`: the file is the very one whose
    bytes a view checked, see `_settled`, and they are not read again); else None. Read at offsets on one
    descriptor: open, the line, the bytes before it, close."""
    try:
        with recorder.reading() as read:
            size = position.offset - line_start
            line = read(line_start, size)
            if len(line) != size or line[-1:] != b"\n" or line_hash(line[:-1]) != position.hash:
                return None
            if not prefix_known and _crc_fd(read, 0, line_start, 0) != crc:
                return None
    except OSError:
        return None
    import zlib

    return zlib.crc32(line, crc)


SETTLED_NS = 2_000_000_000  # a file last changed this long before a check cannot change again unseen (below)


def _settled(signature: tuple[int, ...] | None, began: int) -> bool:
    """Whether a file whose bytes were checked after `began` (ns) is recognisable by `signature` alone: it
    last changed well before the check, so a later change, even one in the same size and within the clock's
    coarse tick, gives it a later ctime (no process can set a ctime). A file changed just before the check
    is not (git's racy-clean rule): its bytes are checked again next time."""
    return signature is not None and began - signature[4] > SETTLED_NS


def _crc_range(recorder: ReadableAtOffsets, start: int, stop: int, crc: int) -> int | None:
    """CRC-32 of bytes [start, stop) of the log, continuing `crc`; None when they cannot all be read."""
    try:
        with recorder.reading() as read:
            return _crc_fd(read, start, stop, crc)
    except OSError:
        return None


def _crc_through_last_line(recorder: ReadableAtOffsets, start: int, end: int, crc: int
                           ) -> tuple[int, int, int] | None:
    """For a snapshot whose last line ends at byte `end`: where that line starts, the CRC-32 of the bytes
    [start, line start) continuing `crc`, and of the bytes through `end`; None when they cannot all be read."""
    try:
        with recorder.reading() as read:
            line_start = _line_start(read, end)
            before = _crc_fd(read, start, line_start, crc)
            through = None if before is None else _crc_fd(read, line_start, end, before)
    except OSError:
        return None
    return None if through is None else (line_start, before, through)


def _crc_fd(read: ReadAt, start: int, stop: int, crc: int) -> int | None:
    """CRC-32 of bytes [start, stop) of the open log, continuing `crc`, read in chunks at their offsets (no
    seek); None when the log ends before `stop`."""
    import zlib  # with cattrs and tempfile, imported only when a snapshot is read or written

    if stop < start:
        return None
    while start < stop:
        chunk = read(start, min(CHUNK_BYTES, stop - start))
        if not chunk:
            return None
        crc = zlib.crc32(chunk, crc)
        start += len(chunk)
    return crc


def _line_start(read: ReadAt, end: int) -> int:
    """Where the line that ends at byte `end` (just past its newline) begins."""
    window = 4096
    while True:
        begin = max(0, end - 1 - window)
        cut = read(begin, end - 1 - begin).rfind(b"\n")
        if cut >= 0:
            return begin + cut + 1
        if begin == 0:
            return 0
        window *= 4
