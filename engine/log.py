"""The event log: lock-free replay, and the one way to append.

`EventLog.append` runs replay, decide and write under one lock, so a decision
is always taken on the state it is appended to; there is no other way to write.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from stat import S_ISDIR
from typing import Any

import attrs

from engine import clock, own_types
from engine.chain import line_hash
from engine.crash_hook import crash_mid_write, crash_point
from engine.durable import (
    BINARY,
    cut_unfinished_command,
    fsync_folder,
    marker_path,
    put_back,
    remove_quietly,
    unfinished_command_start,
    write_marker,
)
from engine.envelope import Event, encode_line
from engine.errors import LogDamaged, NewerVersion, NotALog, WriteFailed
from engine.lock import exclusive
from engine.registry import Registry
from engine.scan import Position, Problem, Scan

Evolve = Callable[[Any, Event], Any]
Decide = Callable[[Any], Iterable[Any]]


@attrs.frozen
class Projection:
    """A fold the engine runs: an initial state and `evolve(state, event) -> state`.

    `version` keys its snapshots: a hash of the code that folds, from
    `engine.snapshot.code_version(...)` ("" means never snapshotted);
    `state_type` is the class snapshots decode the state into (default: the
    initial state's class, when it is an attrs class). `folds`: the event types
    `evolve` needs (None: every type); a replay then parses only their lines
    (the others are still read, hashed and linked), and `evolve` sees no other.
    """

    name: str
    initial: Any
    evolve: Evolve
    version: str = ""
    state_type: type | None = None
    folds: frozenset[str] | None = None


@attrs.frozen
class Replayed:
    """A folded state and what the replay met on the way."""

    state: Any
    position: Position
    bad: int
    newer: tuple[Problem, ...]
    torn: int
    end: int


@attrs.frozen
class Appended:
    """What an append wrote (nothing when the decision was a no-op) and the state after."""

    events: tuple[Event, ...]
    state: Any
    before: Any


@attrs.frozen
class _Tail:
    """Where this object's last append left the log: the file as it stood (`stat`), where its last
    line starts, and the state folded through it."""

    projection: Projection
    stat: tuple[int, ...]
    last_line_start: int
    replayed: Replayed


def _signature(stat: os.stat_result) -> tuple[int, ...]:
    """What changes when a file's bytes do: any write moves mtime and ctime, any replacement the inode."""
    return stat.st_dev, stat.st_ino, stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns


def readable_log(path: Path) -> bool:
    """Whether a log is at `path` yet (False: none); NotALog when the path cannot be one (a folder, unreadable)."""
    try:
        mode = os.stat(path).st_mode
    except (FileNotFoundError, NotADirectoryError):
        return False
    except OSError as exc:
        raise NotALog(f"{path} cannot be read: {exc.strerror or exc}", path=str(path)) from None
    if S_ISDIR(mode):
        raise NotALog(f"{path} is a folder, not a log file: name the events.jsonl inside it", path=str(path))
    if not os.access(path, os.R_OK):
        raise NotALog(f"{path} cannot be read: check its permissions", path=str(path))
    return True


def _read_at(fd: int, offset: int, size: int) -> bytes:
    """`size` bytes from `offset` of an open file, without moving its position (pread; lseek + read on Windows)."""
    if hasattr(os, "pread"):
        return os.pread(fd, size, offset)
    os.lseek(fd, offset, os.SEEK_SET)
    return os.read(fd, size)


def _position_after(replayed: Replayed, events: Sequence[Event], payload: bytes) -> tuple[Position, int]:
    """Where the log stands once `payload` (the lines of `events`) is written after `replayed.end`: the
    position of its last event, and the offset where that event's line starts."""
    last_line_start = payload.rfind(b"\n", 0, len(payload) - 1) + 1
    position = Position(replayed.position.line + len(events), events[-1].seq, replayed.end + len(payload),
                        line_hash(payload[last_line_start:-1]), events[-1].at)
    return position, replayed.end + last_line_start


class EventLog:
    """One append-only JSONL log file.

    An object keeps the state its last append reached: its next append reads none of the log when
    the file is still exactly as that append left it (same inode, size, mtime and ctime, and the
    last line hashes the same), and replays it otherwise, as any other reader would.
    """

    def __init__(
        self,
        path: str | os.PathLike,
        registry: Registry,
        *,
        on_wait: Callable[[str], None] | None = None,
        snapshots: Any = None,
    ) -> None:
        self.path = Path(path)
        self.registry = registry
        self.on_wait = on_wait
        self.snapshots = snapshots
        self._tail: _Tail | None = None
        self._pending_path = marker_path(self.path)
        self._held: int | None = None  # during an append: the log's descriptor, open read-write

    def exists(self) -> bool:
        return self.path.is_file()

    def scan(self, *, at: int | None = None, start: Position = Position(), describe: bool = False,
             check_ids: bool = False, decode: bool = True) -> Scan:
        """A lock-free checked reader of the log (iterate it for the events)."""
        return Scan(self.path, self.registry, start=start, at=at, describe=describe, check_ids=check_ids,
                    decode=decode)

    def replay(self, projection: Projection, *, at: int | None = None) -> Replayed:
        """The state after every trusted event (up to and including seq `at`)."""
        try:
            if self._held is None and not readable_log(self.path):
                return Replayed(projection.initial, Position(), 0, (), 0, 0)
            if self.snapshots is not None:
                return self.snapshots.replay(self, projection, at=at)
            return self.fold(projection, projection.initial, Position(), at=at)
        except OSError as exc:
            raise NotALog(f"{self.path} cannot be read: {exc.strerror or exc}", path=str(self.path)) from None

    def fold(self, projection: Projection, state: Any, start: Position, *, at: int | None = None) -> Replayed:
        """Fold the events after `start` onto `state`."""
        # Under an append's lock an unfinished command has just been cut away: there is none to stop at.
        limit = None if self._held is not None else self._unfinished_command_start()
        scan = Scan(self.path, self.registry, start=start, at=at, limit=limit, only=projection.folds, fd=self._held)
        evolve = projection.evolve
        engine_types = own_types.NAMES
        for event in scan:
            if event.type not in engine_types:  # `log.*` events are the engine's, not the domain's
                state = evolve(state, event)
        return Replayed(state, scan.position, scan.bad, tuple(scan.newer), scan.torn, scan.end)

    def append(self, projection: Projection, decide: Decide) -> Appended:
        """Under the lock: replay, `decide(state)`, write its events in one write, fsync.

        `decide` returns the domain events to append (none: a no-op) or raises to
        refuse, and then nothing is written.
        """
        try:
            return self._append_under_lock(projection, decide)
        except NotALog:
            # The path cannot be a log (a folder, a symlink loop, unreadable): no command can append to
            # it, so the lock file just made for it goes too, and nothing is left written.
            remove_quietly(Path(f"{self.path}.lock"))
            raise
        except WriteFailed:
            if self.path.parent.is_dir():
                raise
        # No folder yet (the lock file could not be made): make it, then append as usual.
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise WriteFailed(f"cannot create the folder {self.path.parent}: {exc.strerror or exc}",
                              path=str(self.path)) from None
        return self._append_under_lock(projection, decide)

    def _append_under_lock(self, projection: Projection, decide: Decide) -> Appended:
        with exclusive(self.path, self.on_wait):
            # Opened under the lock, so that it is the file the lock guards (salvage replaces it under the lock).
            held = self._open_existing()
            if held is None:
                readable_log(self.path)  # why the path cannot be a log, if it cannot (a folder, unreadable)
            try:
                self._held = held
                return self._append_locked(projection, decide)
            finally:
                self._held = None
                if held is not None:
                    os.close(held)

    def _open_existing(self) -> int | None:
        """The log opened read-write for an append, when it is there and can be: one descriptor for the
        replay's reads (pread), the tail check and the write. None: the path taken for a new log, or any
        doubt (a folder, no permission), which says what is wrong as before."""
        try:
            return os.open(self.path, os.O_RDWR | os.O_APPEND | BINARY)
        except OSError:
            return None

    def _append_locked(self, projection: Projection, decide: Decide) -> Appended:
        self._cut_unfinished_command()
        replayed = self._unchanged_since_append(projection) or self.replay(projection)
        self._refuse_untrusted(replayed)
        new = list(decide(replayed.state))
        if not new:
            return Appended((), replayed.state, replayed.state)
        events, payload = self._encode(new, replayed.position)
        self._tail = None
        stat = self._write(payload, replayed.end, replayed.torn)
        state = replayed.state
        for event in events:
            state = projection.evolve(state, event)
        position, line_start = _position_after(replayed, events, payload)
        if self.snapshots is not None:
            self.snapshots.after_append(self, projection, state, replayed, payload, position, line_start)
        # Kept, so that this object's next append need not replay.
        self._tail = _Tail(projection, stat, line_start, Replayed(state, position, 0, (), 0, position.offset))
        return Appended(tuple(events), state, replayed.state)

    def _unchanged_since_append(self, projection: Projection) -> Replayed | None:
        """Under the lock: the state this object's last append left, when the file is still exactly as
        that append left it (same inode, size, mtime and ctime, and its last line hashes the same);
        None: replay (through the snapshots, when on)."""
        tail = self._tail
        if tail is None or tail.projection is not projection:
            return None
        try:
            fd = self._held if self._held is not None else os.open(self.path, os.O_RDONLY | BINARY)
            try:
                if _signature(os.fstat(fd)) != tail.stat:
                    return None
                last_line = _read_at(fd, tail.last_line_start, tail.replayed.end - tail.last_line_start)
            finally:
                if fd != self._held:
                    os.close(fd)
        except OSError:
            return None
        if last_line[-1:] != b"\n" or line_hash(last_line[:-1]) != tail.replayed.position.hash:
            return None
        return tail.replayed

    def _refuse_untrusted(self, replayed: Replayed) -> None:
        if replayed.newer:
            first = replayed.newer[0]
            raise NewerVersion(
                f"{self.path} holds events newer than this batchlog ({first.message}): it is read, never "
                "appended to; upgrade batchlog",
                path=str(self.path), line=first.line,
            )
        if replayed.bad:
            raise LogDamaged(
                f"{self.path} has {replayed.bad} damaged line(s) before its end: run `batchlog log verify "
                f"{self.path}` to see them, then `batchlog log salvage {self.path}`",
                path=str(self.path), bad=replayed.bad,
            )

    def _encode(self, new: Sequence[Any], position: Position) -> tuple[list[Event], bytes]:
        at = clock.now()
        prev = position.hash
        events, lines = [], []
        for offset, domain in enumerate(new, start=1):
            type_, v, data = self.registry.encode(domain)
            seq = position.seq + offset
            line = encode_line(seq, type_, v, at, data, prev)
            id_ = line[line.index(b'"id":"') + 6 : line.index(b'"id":"') + 38].decode()
            events.append(Event(seq, type_, v, at, id_, domain))
            lines.append(line)
            prev = line_hash(line)
        return events, b"".join(line + b"\n" for line in lines)

    def _unfinished_command_start(self) -> int | None:
        """Where a command being written (or killed part way) starts; readers stop there."""
        return unfinished_command_start(self.path, self._pending_path)

    def _cut_unfinished_command(self) -> None:
        """Under the lock: cut away the lines of a command whose append died mid-write."""
        cut_unfinished_command(self.path, self._pending_path)

    def _write(self, payload: bytes, end: int, torn: int) -> tuple[int, ...]:
        """Write `payload` after byte `end` in one write and fsync; on failure, put the file back.

        Returns the file's signature just after the write (see `_signature`)."""
        held = self._held
        created = held is None and not self.path.exists()
        several = payload.count(b"\n") > 1
        if several:
            write_marker(self._pending_path, end, len(payload))
        try:
            fd = held if held is not None else os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_APPEND | BINARY, 0o644)
        except OSError as exc:
            raise WriteFailed(f"cannot open {self.path} for writing: {exc.strerror or exc}: nothing was recorded; "
                              "make the folder writable or free space, then run the command again",
                              path=str(self.path), errno=exc.errno) from None
        try:
            if torn:
                os.ftruncate(fd, end)  # the unacknowledged torn tail goes; the lock is held
            crash_point("append.before_write")
            crash_mid_write(fd, payload)
            written = os.write(fd, payload)
            while written < len(payload):  # a short write: the next write goes on, or says why (EFBIG, ENOSPC)
                more = os.write(fd, payload[written:])
                if not more:
                    raise OSError(28, "No space left on device (short write)")
                written += more
            crash_point("append.after_write")
            os.fsync(fd)
            crash_point("append.after_fsync")
            if created:
                fsync_folder(self.path.parent)
            stat = _signature(os.fstat(fd))
        except OSError as exc:
            put_back(fd, end)
            if created:
                remove_quietly(self.path)
            raise WriteFailed(
                f"cannot append to {self.path}: {exc.strerror or exc}: nothing was recorded; free space or "
                "fix the disk, then run the command again",
                path=str(self.path), errno=exc.errno,
            ) from None
        finally:
            if fd != held:
                os.close(fd)
        if several:
            remove_quietly(self._pending_path)
        return stat
