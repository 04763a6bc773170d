"""Projection snapshots: a view's folded state cached beside the log, so a view costs only its tail.

A snapshot holds the state a projection reached, where it stopped (seq, line,
byte offset, the hash of the last line folded) and the key of the code that
folded it. It is used only when every check holds:

- the file is whole and authentic: its first line is the HMAC-SHA256 of the rest under the user's key,
  kept outside the log's folder (engine/snapshots/key.py), so a person who can write the folder cannot
  forge one into an answer; one that does not verify is ignored, with one note;
- its key matches: the projection's name and `version` (a hash of the code that
  folds, see `code_version`), its state type, the registry's types and versions,
  and this file format;
- the log still holds, at that offset, a line that hashes the same (DESIGN.md's
  rule), and the bytes before it still have the same CRC-32 (so an edit anywhere
  before it, which would change a full replay's answer, is seen too); the CRC is
  skipped only for the very file a view already checked it on (the signature it
  recorded in the snapshot: inode, size, mtime and ctime, taken when the file had
  settled, see `_settled`);
- the state decodes into the projection's state type.

Any doubt, and the view replays the log in full (then writes a fresh
snapshot): a snapshot never changes an answer. `--at SEQ` before the snapshot
is a full replay too.

Files: `<log>.snap/<projection name>.json`, written under a temporary name and
renamed, so a reader never sees one half-written. A snapshot is a cache: it is
not fsynced, and a file lost or cut short in a crash is simply ignored. No
pickle: the state goes through cattrs into the declared types, so a snapshot
file holds data and can never run code. What reads and writes snapshot files
(zlib, cattrs, tempfile) is imported only when a file is there to read or one is
to be written: a view of a short log without a snapshot pays for none of it.
"""

from __future__ import annotations

import os
import re
import sys
import time
from hashlib import sha256
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

import attrs
import orjson

from batchlog.engine.chain import line_hash
from batchlog.engine.recorders.pending import BINARY
from batchlog.engine.fold_version import SNAPSHOT_FORMAT, code_version, version_of  # noqa: F401 - code_version: re-exported
from batchlog.engine.lines import read_at
from batchlog.engine.scan import Position

if TYPE_CHECKING:
    from batchlog.engine.log import EventLog, Projection, Replayed

FORMAT = SNAPSHOT_FORMAT  # 2: authenticated with the user's key (HMAC) instead of a plain SHA-256
SNAPSHOT_EVERY = 200  # write a snapshot once a fold has gone this many events past the last one (bounds a view's tail)
CHUNK_BYTES = 1 << 22
_HEX64 = "[0-9a-f]{64}"  # a line hash (re.fullmatch compiles it once, when a snapshot is read)


_converter = None


def _cattrs():
    """The converter (cattrs is imported only when a snapshot is read or written)."""
    global _converter
    if _converter is None:
        from cattrs.preconf.orjson import make_converter

        _converter = make_converter()
    return _converter


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
        state_type = _state_type(projection)
        if not version_of(projection) or state_type is None:
            return log.fold(projection, projection.initial, Position(), at=at)
        key = self._key(log, projection, state_type)
        found = self._load(log, projection, key, state_type)
        if found is not None and at is not None and at < found[1].seq:
            found = None  # asked for a time before the snapshot: a full replay
        state, start, crc = found if found is not None else (projection.initial, Position(), 0)
        replayed = log.fold(projection, state, start, at=at)
        self._bases[(str(log.path), projection.name)] = _Base(start.seq, start.offset, crc)
        if at is None and replayed.position.seq - start.seq >= self.every and _clean(replayed):
            end = replayed.position.offset
            line_start = _line_start(log.path, end)
            before = None if line_start is None else _crc_file(log.path, start.offset, line_start, crc)
            through = None if before is None else _crc_file(log.path, line_start, end, before)
            if through is not None:
                self._write(log, projection, key, state_type, replayed.state, replayed.position, line_start,
                            before)
                self._bases[(str(log.path), projection.name)] = _Base(replayed.position.seq, end, through)
        return replayed

    def after_append(self, log: EventLog, projection: Projection, state: Any, replayed: Replayed, payload: bytes,
                     position: Position, line_start: int) -> None:
        """After an append of `payload` (its last line starts at `line_start`, its last event is at
        `position`): a fresh snapshot when the fold has gone `every` events past the last one."""
        state_type = _state_type(projection)
        # No base: this object has not replayed the log (it was empty, or its appends kept their own
        # state); the next snapshot then builds on the start of the file.
        base = self._bases.get((str(log.path), projection.name), _Base(0, 0, 0))
        if not version_of(projection) or state_type is None:
            return
        if position.seq - base.seq < self.every or not _clean(replayed):
            return
        import zlib
        crc = _crc_file(log.path, base.offset, replayed.end, base.crc)
        if crc is None:
            return
        last_line = line_start - replayed.end  # where the last line starts within the payload
        before = zlib.crc32(payload[:last_line], crc)
        key = self._key(log, projection, state_type)
        self._write(log, projection, key, state_type, state, position, line_start, before)
        self._bases[(str(log.path), projection.name)] = _Base(position.seq, position.offset,
                                                              zlib.crc32(payload[last_line:], before))

    # -- files ----------------------------------------------------------------------------------

    @staticmethod
    def folder(log_path: Path) -> Path:
        return log_path.with_name(log_path.name + ".snap")

    def path_for(self, log: EventLog, projection: Projection) -> Path:
        return self.folder(log.path) / (re.sub(r"[^A-Za-z0-9_.-]", "_", projection.name) + ".json")

    @staticmethod
    def _key(log: EventLog, projection: Projection, state_type: type) -> str:
        types = sorted((t.name, t.version, len(t.upcasters)) for t in log.registry.by_name.values())
        return sha256(orjson.dumps([FORMAT, projection.name, version_of(projection),
                                    f"{state_type.__module__}.{state_type.__qualname__}", types])).hexdigest()

    def _load(self, log: EventLog, projection: Projection, key: str,
              state_type: type) -> tuple[Any, Position, int] | None:
        """The snapshot's state, position and the CRC-32 of the log through it, or None when any check fails."""
        path = self.path_for(log, projection)
        body = read_authentic(path)
        if body is None or body is _ABSENT:
            if body is None and self.on_note is not None:
                self.on_note(f"note: the snapshot {path} is not authentic (edited, or written by another user): "
                             "ignored; the log is replayed in full")
            return None
        found = current_position(body, key)
        if found is None:
            return None
        doc, (position, line_start, crc) = found
        began = time.time_ns()
        signature = _file_signature(log.path)
        unchanged = signature is not None and doc.get("log") == list(signature)
        through = _log_matches(log.path, position, line_start, crc, prefix_known=unchanged)
        if through is None:
            return None
        try:
            state = _cattrs().structure(doc.get("state"), state_type)
        except Exception:  # noqa: BLE001 - any decoding failure of a cache means: replay in full
            return None
        if not unchanged and _settled(signature, began) and _file_signature(log.path) == signature:
            doc["log"] = list(signature)  # the bytes just checked: the next view of this same file skips the CRC
            self._store(log, projection, orjson.dumps(doc))
        return state, position, through

    def _write(self, log: EventLog, projection: Projection, key: str, state_type: type, state: Any,
               position: Position, line_start: int, crc: int) -> None:
        """Write a snapshot atomically; only when its state reads back equal (else it could change an answer)."""
        try:
            data = _cattrs().unstructure(state, state_type)
            body = orjson.dumps({
                "format": FORMAT, "key": key, "projection": projection.name,
                "position": {"line": position.line, "seq": position.seq, "offset": position.offset,
                             "hash": position.hash, "at": position.at},
                "line_start": line_start, "prefix_crc": crc, "state": data,
            })
            if _cattrs().structure(orjson.loads(body)["state"], state_type) != state:
                return
        except Exception:  # noqa: BLE001 - a state cattrs cannot carry faithfully is simply not cached
            return
        self._store(log, projection, body)

    def _store(self, log: EventLog, projection: Projection, body: bytes) -> None:
        """The snapshot file of `body`, authenticated, written aside and renamed into place."""
        from batchlog.engine.snapshots.key import authenticate_snapshot, snapshot_key

        secret = snapshot_key()
        if secret is None:
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
                fh.write(authenticate_snapshot(secret, body) + b"\n" + body)
            os.replace(temp, target)
        except OSError:
            try:
                os.unlink(temp)
            except OSError:
                pass


SNAPSHOT_BYTES_MAX = 1 << 30  # a snapshot holds a folded state; a larger file is not one batchlog wrote


_ABSENT: Any = object()  # no snapshot file at all (the usual case before the first: no note)


def read_snapshot_file(path: Path) -> tuple[bytes, bytes] | bytes | None:
    """(tag, body) of a snapshot file, when it is a regular file (never a FIFO or a device) of sane size;
    `_ABSENT` when there is none; None when it is not one batchlog wrote."""
    import stat

    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except FileNotFoundError:
        return _ABSENT
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
        raw = b"".join(pieces)
    except OSError:
        return None
    finally:
        os.close(fd)
    tag, newline, body = raw.partition(b"\n")
    return (tag, body) if newline else None


def read_authentic(path: Path) -> bytes | None:
    """The body of the snapshot file at `path` when its tag verifies under the user's key; `_ABSENT` when there
    is no such file; else None."""
    from batchlog.engine.snapshots.key import snapshot_is_authentic, snapshot_key

    found = read_snapshot_file(path)
    if found is _ABSENT:
        return _ABSENT
    secret = snapshot_key() if found is not None else None
    if found is None or secret is None or not snapshot_is_authentic(secret, found[1], found[0]):
        return None
    return found[1]


def current_position(body: bytes, key: str) -> tuple[dict, tuple[Position, int, int]] | None:
    """The snapshot document in `body` and where it stands (position, line start, prefix CRC), when it is one
    this code wrote for this projection; None when it is stale: written by another format or other code
    (its key differs), or not a snapshot at all. Whether the log still holds what it covers is the store's
    check (`_log_matches` for a file, the chain for a stored log)."""
    try:
        doc = orjson.loads(body)
    except orjson.JSONDecodeError:
        return None
    if type(doc) is not dict or doc.get("format") != FORMAT or doc.get("key") != key:
        return None
    found = _position(doc)
    return None if found is None else (doc, found)


def _state_type(projection: Projection) -> type | None:
    declared = getattr(projection, "state_type", None)
    if declared is not None:
        return declared
    initial = type(projection.initial)
    return initial if attrs.has(initial) else None


def _clean(replayed: Replayed) -> bool:
    return replayed.bad == 0 and not replayed.newer and replayed.position.seq > 0


def _position(doc: dict) -> tuple[Position, int, int] | None:
    raw = doc.get("position")
    line_start, crc = doc.get("line_start"), doc.get("prefix_crc")
    if type(raw) is not dict or type(line_start) is not int or type(crc) is not int:
        return None
    line, seq, offset, digest, at = (raw.get(k) for k in ("line", "seq", "offset", "hash", "at"))
    if not all(type(v) is int and v > 0 for v in (line, seq, offset)) or not 0 <= line_start < offset:
        return None
    if type(digest) is not str or not re.fullmatch(_HEX64, digest) or type(at) is not str:
        return None
    return Position(line, seq, offset, digest, at), line_start, crc


def _log_matches(path: Path, position: Position, line_start: int, crc: int, *, prefix_known: bool = False
                 ) -> int | None:
    """The CRC-32 of the log through the snapshot's last line, when the log still holds that line at its
    offset (same hash) and the same bytes before it (same CRC; `prefix_known`: the file is the very one whose
    bytes a view checked, see `_settled`, and they are not read again); else None. Read at offsets on one
    descriptor: open, the line, the bytes before it, close."""
    try:
        fd = os.open(path, os.O_RDONLY | BINARY)
    except OSError:
        return None
    try:
        size = position.offset - line_start
        line = read_at(fd, line_start, size)
        if len(line) != size or line[-1:] != b"\n" or line_hash(line[:-1]) != position.hash:
            return None
        if not prefix_known and _crc_fd(fd, 0, line_start, 0) != crc:
            return None
    except OSError:
        return None
    finally:
        os.close(fd)
    import zlib

    return zlib.crc32(line, crc)


SETTLED_NS = 2_000_000_000  # a file last changed this long before a check cannot change again unseen (below)


def _file_signature(path: Path) -> tuple[int, ...] | None:
    """What any change of a file's bytes moves: its inode, size, mtime and ctime (None: it cannot be read)."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns


def _settled(signature: tuple[int, ...] | None, began: int) -> bool:
    """Whether a file whose bytes were checked after `began` (ns) is recognisable by `signature` alone: it
    last changed well before the check, so a later change, even one in the same size and within the clock's
    coarse tick, gives it a later ctime (no process can set a ctime). A file changed just before the check
    is not (git's racy-clean rule): its bytes are checked again next time."""
    return signature is not None and began - signature[4] > SETTLED_NS


def _crc_file(path: Path, start: int, stop: int, crc: int) -> int | None:
    """CRC-32 of bytes [start, stop) of `path`, continuing `crc`; None when they cannot all be read."""
    try:
        fd = os.open(path, os.O_RDONLY | BINARY)
    except OSError:
        return None
    try:
        return _crc_fd(fd, start, stop, crc)
    except OSError:
        return None
    finally:
        os.close(fd)


def _crc_fd(fd: int, start: int, stop: int, crc: int) -> int | None:
    """CRC-32 of bytes [start, stop) of the open file `fd`, continuing `crc`, read in chunks at their offsets
    (no seek); None when the file ends before `stop`."""
    import zlib  # with cattrs and tempfile, imported only when a snapshot is read or written

    if stop < start:
        return None
    while start < stop:
        chunk = read_at(fd, start, min(CHUNK_BYTES, stop - start))
        if not chunk:
            return None
        crc = zlib.crc32(chunk, crc)
        start += len(chunk)
    return crc


def _line_start(path: Path, end: int) -> int | None:
    """Where the line that ends at byte `end` (just past its newline) begins."""
    window = 4096
    try:
        with open(path, "rb") as fh:
            while True:
                begin = max(0, end - 1 - window)
                fh.seek(begin)
                chunk = fh.read(end - 1 - begin)
                cut = chunk.rfind(b"\n")
                if cut >= 0:
                    return begin + cut + 1
                if begin == 0:
                    return 0
                window *= 4
    except OSError:
        return None


def open_log(path: str | os.PathLike, registry: Any, *, on_wait: Any = None, on_note: Any = None) -> EventLog:
    """The log at `path` with snapshots on (batchlog.engine.address.open_log, which takes any log address)."""
    from batchlog.engine.address import open_log as open_address

    return open_address(path if isinstance(path, os.PathLike) else Path(path), registry, on_wait=on_wait,
                        on_note=on_note)
