"""Following a log as it grows: the state folded once, then every new event folded onto the state as it arrives.

Never a replay per change: after the first fold (from a snapshot, when a valid one is there), each read takes
only what was appended after the position reached (a file: the bytes after that offset; a server: the rows
after that line), through the same checked reader as every view, so a torn tail or an unfinished command is
answered past with the views' note, and a damaged line ends the following with the views' LogDamaged. Never a
lock, never a write (a snapshot is read to start, never written). Knows nothing of either loop: the domain
comes in as a `Projection`.

Each recorder tells when its log may have grown (a `Tail`): a file by inotify or a light poll
(engine/recorders/file_follow.py), a server by LISTEN/NOTIFY (engine/recorders/postgresql_follow.py). The tail
is set listening before the first read, so nothing appended after that read is missed.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator
from typing import Any, Protocol

import attrs

from batchlog.engine.damage import unacknowledged_note
from batchlog.engine.envelope import Event
from batchlog.engine.errors import NotALog
from batchlog.engine.log import EventLog, Projection, Replayed
from batchlog.engine.recorders.file import FileRecorder
from batchlog.engine.scan import Position, Problem
from batchlog.engine.snapshots.file import Snapshots
from batchlog.engine.snapshots.stored import StoredSnapshots
from batchlog.engine.value import frozen

NEVER = 1 << 62  # a snapshot interval no fold reaches: a follower's snapshots are never written


class Tail(Protocol):
    """A recorder's log as a follower reads it."""

    recorder: Any  # reads the lines (a file: through a descriptor held open)

    def wait(self, timeout_s: float | None) -> bool:
        """Block until the log may have grown (True) or `timeout_s` passed (False; None: no timeout)."""

    def gone(self) -> bool:
        """Whether the log is no longer where it was (a file removed): nothing more will be appended to it."""

    def close(self) -> None: ...


@frozen
class Followed:
    """One step of a followed log: the state, the events folded onto it since the step before (none in the
    first step, the state as following found it; in a tick, where time passed and nothing was appended; and
    when only the note changed), where the last read ended, the note a view gives about what it answered past (a torn tail, an unfinished
    command, an ignored marker; None when there is nothing to say), and every event met so far that is newer than
    this batchlog (read, never folded: views warn of them)."""

    state: Any
    events: tuple[Event, ...]
    position: Position
    note: str | None = None
    newer: tuple[Problem, ...] = ()


def follow(log: EventLog, projection: Projection, *, tick_s: float | None = None, each: bool = False,
           recent: int = 0) -> Iterator[Followed]:
    """The state of `log` as folded by `projection`, then again after every change, without end.

    `tick_s`: yield a step with no events when that long passed without a change (None: only on changes).
    `each`: one step per new event, the state just after it (else one step per read, with every event it
    brought). `recent`: the first step carries the last `recent` events its fold went through (fewer when it
    started from a snapshot near the end). Raises LogDamaged when a line read is damaged, NotALog when a file
    is removed while followed. Close the generator to stop (its descriptors and connections close then).
    """
    if not log.exists():
        raise NotALog(f"{log.address} holds no log yet: there is nothing to follow", path=log.address)
    tail = tail_of(log)
    try:
        reader = EventLog(tail.recorder, log.registry, snapshots=_read_only(log.snapshots), on_note=log.on_note)
        kept: deque[Event] = deque(maxlen=recent)
        replayed = reader.replay(_keeping(projection, kept) if recent else projection, notes=False)
        state, position, note, newer = replayed.state, replayed.position, _note(reader, replayed), replayed.newer
        yield Followed(state, tuple(kept), position, note, newer)
        while True:
            if not tail.wait(tick_s):
                yield Followed(state, (), position, note, newer)
                continue
            new, replayed = _read(reader, projection, state, position)
            position, said, newer = replayed.position, note, newer + replayed.newer
            note = _note(reader, replayed)
            if not new:
                if tail.gone():
                    raise NotALog(f"{log.address} was removed, or replaced, while it was followed: nothing more "
                                  "can be appended to the file followed; follow the log again", path=log.address)
                if note != said or replayed.newer:  # what is no event (yet): a torn tail, a newer event
                    yield Followed(state, (), position, note, newer)
                continue
            for events in ([(event,) for event in new] if each else [tuple(new)]):
                state = projection.fold_events(state, events)
                yield Followed(state, events, position, note, newer)
    finally:
        tail.close()


def tail_of(log: EventLog) -> Tail:
    """The tail of the recorder that keeps `log`, listening from now on."""
    recorder = log.recorder
    if isinstance(recorder, FileRecorder):
        from batchlog.engine.recorders.file_follow import FileTail

        return FileTail(recorder)
    from batchlog.engine.recorders.postgresql import PostgresRecorder

    if isinstance(recorder, PostgresRecorder):
        from batchlog.engine.recorders.postgresql_follow import ServerTail

        return ServerTail(recorder)
    raise NotALog(f"{log.address} cannot be followed: only a log in a file or on a PostgreSQL server can",
                  path=log.address)


def _read(reader: EventLog, projection: Projection, state: Any, position: Position) -> tuple[list[Event], Replayed]:
    """The events appended after `position`, checked (LogDamaged on a damaged line), and where they end; folded by
    the caller, which may fold them one at a time."""
    new: list[Event] = []

    def collect(unchanged: Any, events: Iterable[Event]) -> Any:
        new.extend(events)
        return unchanged

    replayed = reader.fold(attrs.evolve(projection, evolve_all=collect), state, position)
    reader.refuse_if_damaged(replayed)
    return new, replayed


def _keeping(projection: Projection, kept: deque[Event]) -> Projection:
    """`projection`, the events it folds passing through `kept` on their way (its snapshots are the same)."""

    def passing(events: Iterable[Event]) -> Iterator[Event]:
        for event in events:
            kept.append(event)
            yield event

    return attrs.evolve(projection, evolve_all=lambda state, events: projection.fold_events(state, passing(events)))


def _note(reader: EventLog, replayed: Replayed) -> str | None:
    """The note a view gives on this read: a marker ignored, else bytes never acknowledged answered past."""
    return replayed.marker.ignored or unacknowledged_note(reader.address, replayed.torn,
                                                          replayed.marker.start is not None)


class _FileSnapshotsReadOnly(Snapshots):
    """A file log's snapshots, read and never written (a stored log's are kept by its recorder, which a follower
    reads through one that stores none: engine/recorders/postgresql_follow.py)."""

    def _store(self, log: EventLog, projection: Projection, body: bytes) -> None:
        return None


def _read_only(snapshots: Any) -> Any:
    """The same kind of snapshot store as `snapshots`, none written: a snapshot is read to start from."""
    if isinstance(snapshots, Snapshots):
        return _FileSnapshotsReadOnly(every=NEVER, on_note=snapshots.on_note)
    if isinstance(snapshots, StoredSnapshots):
        return StoredSnapshots(every=NEVER, on_note=snapshots.on_note)
    return None
