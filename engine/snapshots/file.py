"""A file log's snapshots: a view's folded state cached in files beside the log, so a view costs only its tail.

A snapshot holds the state a projection reached, where it stopped (seq, line,
byte offset, the hash of the last line folded) and the key of the code that
folded it. It is used only when every check holds:

- the file is whole and authentic: its first line is the HMAC-SHA256 of the rest under the user's key,
  kept outside the log's folder (engine/snapshots/key.py), so a person who can write the folder cannot
  forge one into an answer; one that does not verify is ignored, with one note. Each key keeps its
  snapshots in a folder of their own, named by its fingerprint: machines or users sharing the log never
  read (nor overwrite) each other's, so an honest log never raises that note;
- its key matches: the projection's name and `version` (a hash of the code that
  folds, see `code_version`), its state type, the registry's types and versions,
  and this file format (engine/snapshots/document.py);
- the log still holds, at that offset, a line that hashes the same (docs/ARCHITECTURE.md's
  rule), and the bytes before it still have the same SHA-256 (so an edit anywhere
  before it, which would change a full replay's answer, is seen too: nobody can
  steer a SHA-256, where a CRC-32 is kept through any edit by solving for 32 bits);
  the digest is skipped only for the very file a view already checked it on (the
  signature it recorded in the snapshot: inode, size, mtime and ctime, taken when
  the file had settled, see `_settled`);
- the state decodes into the projection's state type.

The log's bytes are read through its recorder (`ReadableAtOffsets`, engine/recorders/protocols.py), at
offsets on one descriptor per check. Any doubt, and the view replays the log in full (then writes a fresh
snapshot): a snapshot never changes an answer. `--at SEQ` before the snapshot is a full replay too. A
process that checked the bytes before a snapshot keeps their digest going (`_Base`), so the next snapshot it
writes hashes only the bytes since.

Files: `<log>.snap/<key fingerprint>/<projection name>.json`, written under a temporary name and
renamed (engine/files.py's writer; read through its opener), so a reader never sees one half-written. A
snapshot is a cache: it is not fsynced, and a file lost or cut short in a crash is simply ignored.
"""

from __future__ import annotations

import re
import time
from hashlib import sha256
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import orjson

from batchlog.engine.chain import line_hash
from batchlog.engine.errors import UnreadableFile
from batchlog.engine.files import read_user_file, write_file
from batchlog.engine.fold_version import version_of
from batchlog.engine.recorders.protocols import ReadAt, ReadableAtOffsets
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
from batchlog.engine.value import frozen

if TYPE_CHECKING:
    from batchlog.engine.log import EventLog, Projection, Replayed

CHUNK_BYTES = 1 << 22
_HEX64 = re.compile("[0-9a-f]{64}")


@frozen
class _Base:
    """Where the last replay of one projection started from (the snapshot's seq), and the SHA-256 of the log's
    first `digested` bytes as this process hashed them: what the next snapshot's digest continues from
    (`digested` 0: nothing hashed yet, the next snapshot hashes the log from its start). `digest` is never
    updated in place: it is copied first."""

    seq: int
    digested: int
    digest: Any  # a hashlib SHA-256 object


def _from_the_start(seq: int = 0) -> _Base:
    return _Base(seq, 0, sha256())


class Snapshots:
    """The snapshot store of `EventLog(..., snapshots=Snapshots())`: one file per log, key and projection."""

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
        state, start, base = found if found is not None else (projection.initial, Position(), _from_the_start())
        replayed = log.fold(projection, state, start, at=at)
        self._bases[(str(log.path), projection.name)] = base
        if at is None and replayed.position.seq - start.seq >= self.every and clean(replayed):
            end = replayed.position.offset
            through = _digest_through_last_line(_file_of(log), base, end)
            if through is not None:
                line_start, before, digest = through
                self._write(log, projection, key, decoded, replayed.state, replayed.position, line_start, before)
                self._bases[(str(log.path), projection.name)] = _Base(replayed.position.seq, end, digest)
        return replayed

    def after_append(self, log: EventLog, projection: Projection, state: Any, replayed: Replayed, payload: bytes,
                     position: Position, line_start: int) -> None:
        """After an append of `payload` (its last line starts at `line_start`, its last event is at
        `position`): a fresh snapshot when the fold has gone `every` events past the last one."""
        decoded = state_type(projection)
        # No base: this object has not replayed the log (it was empty, or its appends kept their own
        # state); the next snapshot then builds on the start of the file.
        base = self._bases.get((str(log.path), projection.name), _from_the_start())
        if not version_of(projection) or decoded is None:
            return
        if position.seq - base.seq < self.every or not clean(replayed):
            return
        digest = _digest_range(_file_of(log), base, replayed.end)
        if digest is None:
            return
        last_line = line_start - replayed.end  # where the last line starts within the payload
        digest.update(payload[:last_line])
        before = digest.hexdigest()
        digest.update(payload[last_line:])
        key = fold_key(log, projection, decoded)
        self._write(log, projection, key, decoded, state, position, line_start, before)
        self._bases[(str(log.path), projection.name)] = _Base(position.seq, position.offset, digest)

    # -- files ----------------------------------------------------------------------------------

    @staticmethod
    def folder(log_path: Path) -> Path:
        """Where every key's snapshots of the log at `log_path` are kept."""
        return log_path.with_name(log_path.name + ".snap")

    @staticmethod
    def key_folder(log_path: Path, key_id: str) -> Path:
        """Where the snapshots kept under the key of fingerprint `key_id` are."""
        return Snapshots.folder(log_path) / key_id

    def path_for(self, log: EventLog, projection: Projection) -> Path | None:
        """The file of the user's snapshot of `projection` (None: the user has no key, so no snapshot)."""
        from batchlog.engine.snapshots.key import key_id

        mine = key_id()
        if mine is None:
            return None
        return self.key_folder(log.path, mine) / (re.sub(r"[^A-Za-z0-9_.-]", "_", projection.name) + ".json")

    def _load(self, log: EventLog, projection: Projection, key: str,
              decoded: type) -> tuple[Any, Position, _Base] | None:
        """The snapshot's state and position, and the digest of the log through it as far as it was read; None
        when any check fails."""
        path = self.path_for(log, projection)
        body = ABSENT if path is None else read_authentic(path)
        if body is None or body is ABSENT:
            if body is None and self.on_note is not None:
                self.on_note(f"note: the snapshot {path} is not authentic (edited, or not written with this "
                             "user's key): ignored; the log is replayed in full")
            return None
        found = current_position(body, key)
        prefix = None if found is None else _prefix(*found)
        if prefix is None:
            return None
        doc, position = found
        began = time.time_ns()
        recorder = _file_of(log)
        signature = recorder.signature()
        unchanged = signature is not None and doc.get("log") == list(signature)
        base = _log_matches(recorder, position, *prefix, prefix_known=unchanged)
        if base is None:
            return None
        try:
            state = from_data(doc.get("state"), decoded)
        except Exception:  # noqa: BLE001 - any decoding failure of a cache means: replay in full
            return None
        if not unchanged and _settled(signature, began) and recorder.signature() == signature:
            doc["log"] = list(signature)  # the bytes just checked: the next view of this same file skips the digest
            self._store(log, projection, orjson.dumps(doc))
        return state, position, base

    def _write(self, log: EventLog, projection: Projection, key: str, decoded: type, state: Any,
               position: Position, line_start: int, prefix_digest: str) -> None:
        """Write a snapshot atomically; only when its state reads back equal (else it could change an answer)."""
        body = document(key, projection, decoded, state, position,
                        {"line_start": line_start, "prefix_sha256": prefix_digest})
        if body is not None:
            self._store(log, projection, body)

    def _store(self, log: EventLog, projection: Projection, body: bytes) -> None:
        """The snapshot file of `body`, authenticated, written aside and renamed into place."""
        from batchlog.engine.snapshots.key import sealed

        kept = sealed(body)
        target = self.path_for(log, projection)
        if kept is None or target is None:
            return  # no key (no user folder to keep it in): a snapshot could not be trusted, so none is written
        folder = target.parent
        try:
            folder.mkdir(parents=True, exist_ok=True)
            write_file(target, kept, durable=False)  # a cache: lost in a crash, it is simply not used
        except OSError:
            return


SNAPSHOT_BYTES_MAX = 1 << 30  # a snapshot holds a folded state; a larger file is not one batchlog wrote


ABSENT: Any = object()  # no snapshot file at all (the usual case before the first: no note)


def read_snapshot_file(path: Path) -> bytes | None:
    """The bytes of a snapshot file, when it is a regular file (never a FIFO or a device) of sane size;
    `ABSENT` when there is none; None when it is not one batchlog wrote."""
    try:
        return read_user_file(path, "snapshot", SNAPSHOT_BYTES_MAX)
    except UnreadableFile as error:
        return ABSENT if error.missing else None


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


def _prefix(doc: dict, position: Position) -> tuple[int, str] | None:
    """Where the snapshot's last line starts, and the SHA-256 the bytes before it had; None when the document
    does not say so sanely."""
    line_start, digest = doc.get("line_start"), doc.get("prefix_sha256")
    if type(line_start) is not int or not 0 <= line_start < position.offset:
        return None
    if type(digest) is not str or not _HEX64.fullmatch(digest):
        return None
    return line_start, digest


def _log_matches(recorder: ReadableAtOffsets, position: Position, line_start: int, prefix_digest: str, *,
                 prefix_known: bool = False) -> _Base | None:
    """The base a snapshot gives (its seq, and the log's digest through its last line), when the log still holds
    that line at its offset (same hash) and the same bytes before it (same SHA-256; `prefix_known`: the file is
    the very one whose bytes a view checked, see `_settled`, and they are not read again, so the base's digest
    starts from nothing); else None. Read at offsets on one descriptor: open, the line, the bytes before it,
    close."""
    try:
        with recorder.reading() as read:
            size = position.offset - line_start
            line = read(line_start, size)
            if len(line) != size or line[-1:] != b"\n" or line_hash(line[:-1]) != position.hash:
                return None
            if prefix_known:
                return _from_the_start(position.seq)
            digest = sha256()
            if not _hash_range(read, 0, line_start, digest) or digest.hexdigest() != prefix_digest:
                return None
    except OSError:
        return None
    digest.update(line)
    return _Base(position.seq, position.offset, digest)


SETTLED_NS = 2_000_000_000  # a file last changed this long before a check cannot change again unseen (below)


def _settled(signature: tuple[int, ...] | None, began: int) -> bool:
    """Whether a file whose bytes were checked after `began` (ns) is recognisable by `signature` alone: it
    last changed well before the check, so a later change, even one in the same size and within the clock's
    coarse tick, gives it a later ctime (no process can set a ctime). A file changed just before the check
    is not (git's racy-clean rule): its bytes are checked again next time."""
    return signature is not None and began - signature[4] > SETTLED_NS


def _digest_range(recorder: ReadableAtOffsets, base: _Base, stop: int) -> Any:
    """The SHA-256 of the log's first `stop` bytes, continuing `base`'s (a new object); None when they cannot all
    be read."""
    digest = base.digest.copy()
    try:
        with recorder.reading() as read:
            return digest if _hash_range(read, base.digested, stop, digest) else None
    except OSError:
        return None


def _digest_through_last_line(recorder: ReadableAtOffsets, base: _Base, end: int) -> tuple[int, str, Any] | None:
    """For a snapshot whose last line ends at byte `end`: where that line starts, the SHA-256 (hex) of the bytes
    before it, and the digest through `end` (a new object), continuing `base`'s; None when they cannot all be
    read."""
    digest = base.digest.copy()
    try:
        with recorder.reading() as read:
            line_start = _line_start(read, end)
            if not _hash_range(read, base.digested, line_start, digest):
                return None
            before = digest.hexdigest()
            if not _hash_range(read, line_start, end, digest):
                return None
    except OSError:
        return None
    return line_start, before, digest


def _hash_range(read: ReadAt, start: int, stop: int, digest: Any) -> bool:
    """Hash bytes [start, stop) of the open log into `digest`, read in chunks at their offsets (no seek); False
    when the log ends before `stop`."""
    if stop < start:
        return False
    while start < stop:
        chunk = read(start, min(CHUNK_BYTES, stop - start))
        if not chunk:
            return False
        digest.update(chunk)
        start += len(chunk)
    return True


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
