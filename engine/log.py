"""The event log: lock-free replay, and the one way to append.

`EventLog.append` runs replay, decide and write under one lock, so a decision
is always taken on the state it is appended to; there is no other way to write.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from stat import S_ISDIR, S_ISREG
from typing import Any

import attrs

from engine import clock, own_types
from engine.chain import line_hash
from engine.crash_hook import crash_mid_write, crash_point
from engine.durable import (
    BINARY,
    Marker,
    check_marker_belongs,
    cut_unfinished_command,
    fsync_folder,
    marker_path,
    put_back,
    remove_quietly,
    write_marker,
)
from engine.envelope import Event, encode_line
from engine.errors import CannotEncode, LogDamaged, NewerVersion, NotALog, WriteFailed
from engine.lock import NoFolder, exclusive
from engine.registry import Registry
from engine.scan import Position, Problem, Scan
from engine.trust import refuse_damaged, unacknowledged_note

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
    `evolve_all(state, events)`, when given, folds a run of events at once and must
    agree with `evolve` applied one at a time (a fold that copies on write then
    copies once per run, not once per event).
    """

    name: str
    initial: Any
    evolve: Evolve
    version: str = ""
    state_type: type | None = None
    folds: frozenset[str] | None = None
    evolve_all: Callable[[Any, Iterable[Event]], Any] | None = None

    def fold_events(self, state: Any, events: Iterable[Event]) -> Any:
        """The state after `events`, in order."""
        if self.evolve_all is not None:
            return self.evolve_all(state, events)
        evolve = self.evolve
        for event in events:
            state = evolve(state, event)
        return state


@attrs.frozen
class Replayed:
    """A folded state and what the replay met on the way."""

    state: Any
    position: Position
    bad: int
    newer: tuple[Problem, ...]
    torn: int
    end: int
    first_bad: Problem | None = None  # the first damaged line, when `bad`
    marker: Marker = Marker()  # what the `.pending` marker said (an unfinished command, or why it was ignored)


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
    """Whether a log is at `path` yet (False: none); NotALog when the path cannot be one (a folder, a FIFO, a
    device, a socket, unreadable), before a byte of it is read."""
    try:
        mode = os.stat(path).st_mode
    except (FileNotFoundError, NotADirectoryError):
        return False
    except OSError as exc:
        raise NotALog(f"{path} cannot be read: {exc.strerror or exc}", path=str(path)) from None
    if S_ISDIR(mode):
        raise NotALog(f"{path} is a folder, not a log file: name the events.jsonl inside it", path=str(path))
    if not S_ISREG(mode):
        raise NotALog(f"{path} is not a regular file (a FIFO, a device or a socket): a log is a regular file; "
                      "name the events.jsonl of a tuning or a batch", path=str(path))
    if not os.access(path, os.R_OK):
        raise NotALog(f"{path} cannot be read: check its permissions", path=str(path))
    return True


def encode_event_line(seq: int, type_: str, v: int, at: str, data: Any, prev: str) -> bytes:
    """`encode_line`, with a value JSON cannot carry refused (CannotEncode) rather than raised as a bug."""
    try:
        return encode_line(seq, type_, v, at, data, prev)
    except TypeError as exc:  # orjson.JSONEncodeError: too deep, an integer past 64 bits, a type it cannot write
        raise CannotEncode(f"the {type_} event cannot be written to the log: {exc}: nothing was recorded; JSON "
                           "nested deeper than 255 levels and whole numbers past 64 bits cannot be logged",
                           type=type_) from None


def remove_made_folders(log_path: Path, made: list[Path]) -> None:
    """After an append that wrote nothing: the folders it created for the log go again (innermost first), so a
    refused command leaves nothing behind; a folder something else has meanwhile used stays."""
    if not made or log_path.exists():
        return
    for folder in reversed(made):
        try:
            folder.rmdir()
        except OSError:
            return


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
        on_note: Callable[[str], None] | None = None,
    ) -> None:
        self.path = Path(path)
        self.registry = registry
        self.on_wait = on_wait
        self.on_note = on_note  # where a reader's notes go (a torn tail answered past, a marker ignored)
        self.snapshots = snapshots
        self._tail: _Tail | None = None
        self._pending_path = marker_path(self.path)
        self._held: int | None = None  # during an append: the log's descriptor, open read-write, locked
        self._created = False  # during an append: whether taking the lock created the (empty) log

    def exists(self) -> bool:
        return self.path.is_file()

    def scan(self, *, at: int | None = None, start: Position = Position(), describe: bool = False,
             check_ids: bool = False, decode: bool = True) -> Scan:
        """A lock-free checked reader of the log (iterate it for the events)."""
        return Scan(self.path, self.registry, start=start, at=at, describe=describe, check_ids=check_ids,
                    decode=decode)

    def replay(self, projection: Projection, *, at: int | None = None, notes: bool = True) -> Replayed:
        """The state after every event (up to and including seq `at`); LogDamaged when a line read is damaged
        (DESIGN.md: views refuse a damaged log as appends do). A torn tail or an unfinished command is
        answered past, with one note (`notes`)."""
        try:
            if self._held is None and not readable_log(self.path):
                return Replayed(projection.initial, Position(), 0, (), 0, 0)
            if self.snapshots is not None:
                replayed = self.snapshots.replay(self, projection, at=at)
            else:
                replayed = self.fold(projection, projection.initial, Position(), at=at)
            self.refuse_if_damaged(replayed)
        except OSError as exc:
            raise NotALog(f"{self.path} cannot be read: {exc.strerror or exc}", path=str(self.path)) from None
        if notes:
            self._note(replayed.marker.ignored)
            self._note(unacknowledged_note(self.path, replayed.torn, replayed.marker.start is not None))
        return replayed

    def refuse_if_damaged(self, replayed: Replayed) -> None:
        """LogDamaged naming the first damaged line the replay met (the scan checks the last line's id too: no
        later line vouches for it; the chain vouches for every other)."""
        if replayed.bad:
            first = replayed.first_bad or Problem(0, "damaged", "a line is damaged")
            raise refuse_damaged(self.path, first, replayed.bad)

    def _note(self, text: str | None) -> None:
        if text and self.on_note is not None:
            self.on_note(text)

    def fold(self, projection: Projection, state: Any, start: Position, *, at: int | None = None) -> Replayed:
        """Fold the events after `start` onto `state`."""
        # Under an append's lock an unfinished command has just been cut away: there is none to stop at.
        marker = Marker() if self._held is not None else check_marker_belongs(self.path, self._pending_path)
        scan = Scan(self.path, self.registry, start=start, at=at, limit=marker.start, only=projection.folds,
                    fd=self._held)
        engine_types = own_types.NAMES
        # `log.*` events are the engine's, not the domain's
        state = projection.fold_events(state, (event for event in scan if event.type not in engine_types))
        return Replayed(state, scan.position, scan.bad, tuple(scan.newer), scan.torn, scan.end, scan.first_problem,
                        marker)

    def append(self, projection: Projection, decide: Decide) -> Appended:
        """Under the lock: replay, `decide(state)`, write its events in one write, fsync.

        `decide` returns the domain events to append (none: a no-op) or raises to
        refuse, and then nothing is written.
        """
        made: list[Path] = []
        try:
            try:
                return self._append_under_lock(projection, decide)
            except NoFolder:
                made = self._make_folder()  # no folder yet: make it (and go again when nothing is written)
            return self._append_under_lock(projection, decide)
        finally:
            remove_made_folders(self.path, made)

    def _append_under_lock(self, projection: Projection, decide: Decide) -> Appended:
        with exclusive(self.path, self.on_wait) as held:
            try:
                self._held, self._created = held.fd, held.created
                return self._append_locked(projection, decide)
            finally:
                self._held, self._created = None, False

    def _make_folder(self) -> list[Path]:
        """Create the log's folder (and its parents) when missing; the folders created, outermost first."""
        missing = [folder for folder in (self.path.parent, *self.path.parent.parents) if not folder.exists()]
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise WriteFailed(f"cannot create the folder {self.path.parent}: {exc.strerror or exc}",
                              path=str(self.path)) from None
        return missing[::-1]

    def _append_locked(self, projection: Projection, decide: Decide) -> Appended:
        """Under the lock: cut an unfinished command away, replay (checked), decide, write."""
        self._note(self._cut_unfinished_command().ignored)
        replayed = self._unchanged_since_append(projection) or self.replay(projection, notes=False)
        self._refuse_untrusted(replayed)
        new = list(decide(replayed.state))
        if not new:
            return Appended((), replayed.state, replayed.state)
        events, payload = self._encode(new, replayed.position)
        self._tail = None
        stat = self._write(payload, replayed.end, replayed.torn, replayed.position.hash)
        state = projection.fold_events(replayed.state, events)
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
            try:
                type_, v, data = self.registry.encode(domain)
            except RecursionError:  # data nested too deep to turn into JSON: refused like orjson's own limit
                raise CannotEncode(f"the {type(domain).__name__} event cannot be written to the log: its data is "
                                   "nested too deep: nothing was recorded; JSON nested deeper than 255 levels "
                                   "cannot be logged", type=type(domain).__name__) from None
            seq = position.seq + offset
            line = encode_event_line(seq, type_, v, at, data, prev)
            id_ = line[line.index(b'"id":"') + 6 : line.index(b'"id":"') + 38].decode()
            events.append(Event(seq, type_, v, at, id_, domain))
            lines.append(line)
            prev = line_hash(line)
        return events, b"".join(line + b"\n" for line in lines)

    def _cut_unfinished_command(self) -> Marker:
        """Under the lock: cut away the lines of a command whose append died mid-write (only when the marker
        belongs to this log); what the marker said."""
        return cut_unfinished_command(self.path, self._pending_path)

    def _write(self, payload: bytes, end: int, torn: int, before: str) -> tuple[int, ...]:
        """Write `payload` after byte `end` (the line before it hashes to `before`) in one write and fsync; on
        failure, put the file back.

        Returns the file's signature just after the write (see `_signature`)."""
        held = self._held
        created = self._created if held is not None else not self.path.exists()
        several = payload.count(b"\n") > 1
        if several:
            write_marker(self._pending_path, end, len(payload), before, line_hash(payload[: payload.index(b"\n")]))
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
