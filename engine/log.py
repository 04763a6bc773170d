"""The event log: lock-free replay, and the one way to append.

`EventLog.append` runs replay, decide and write under one lock, so a decision
is always taken on the state it is appended to; there is no other way to write.
Where the lines are kept is a recorder's business (engine/recorders/protocols.py): this module
reads and writes through one and never touches a file or a server itself.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import orjson

from batchlog.engine import clock, own_types
from batchlog.engine.chain import line_hash
from batchlog.engine.damage import refuse_damaged, unacknowledged_note
from batchlog.engine.envelope import Event, encode_line
from batchlog.engine.errors import CannotEncode, LogDamaged, NewerVersion, NotALog
from batchlog.engine.recorders.file import FileRecorder
from batchlog.engine.recorders.protocols import LineSource, Marker, Recorder, Session
from batchlog.engine.recorders.wait import OnWait
from batchlog.engine.lines import MAX_LINE_BYTES
from batchlog.engine.registry import EventType, Registry
from batchlog.engine.scan import Position, Problem, Scan
from batchlog.engine.value import frozen

Evolve = Callable[[Any, Event], Any]
Decide = Callable[[Any], Iterable[Any]]


@frozen
class Projection:
    """A fold the engine runs: an initial state and `evolve(state, event) -> state`.

    `version` keys its snapshots: a hash of the code that folds, a `CodeVersion(modules)` (hashed on first
    use, so importing a projection reads no file) or a string from `code_version(...)` ("" means never
    snapshotted);
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
    version: Any = ""  # str | batchlog.engine.fold_version.CodeVersion
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


@frozen
class Replayed:
    """A folded state and what the replay met on the way."""

    state: Any
    position: Position
    bad: int
    newer: tuple[Problem, ...]
    torn: int
    end: int
    first_bad: Problem | None = None  # the first damaged line, when `bad`
    marker: Marker = Marker()  # what the unfinished-command marker said (where one starts, or why it was ignored)


@frozen
class Appended:
    """What an append wrote (nothing when the decision was a no-op) and the state after."""

    events: tuple[Event, ...]
    state: Any
    before: Any


@frozen
class _Tail:
    """Where this object's last append left the log: the recorder's token of it (a file's `stat`), where its
    last line starts, and the state folded through it."""

    projection: Projection
    token: Any
    last_line_start: int
    replayed: Replayed


def encode_event_line(seq: int, type_: str, v: int, at: str, data: Any, prev: str) -> bytes:
    """`encode_line`, with what a reader would refuse refused here, before anything is written (CannotEncode,
    nothing recorded): JSON nested too deep, a whole number past 64 bits, text that is not UTF-8, a line longer
    than a reader takes (engine/lines.py's MAX_LINE_BYTES), in the reader's words."""
    try:
        line = encode_line(seq, type_, v, at, data, prev)
    except TypeError as exc:  # orjson.JSONEncodeError: too deep, an integer past 64 bits, a type it cannot write
        raise CannotEncode(f"the {type_} event cannot be written to the log: {_why_not_json(str(exc))}: nothing was "
                           "recorded", type=type_) from None
    if len(line) > MAX_LINE_BYTES:
        raise CannotEncode(f"the {type_} event cannot be written to the log: its line would be {len(line)} bytes, "
                           f"longer than {MAX_LINE_BYTES >> 20} MiB, the most a line may hold: nothing was recorded; "
                           "give it less (fewer or shorter items)", type=type_, bytes=len(line))
    return line


def _why_not_json(said: str) -> str:
    """orjson's reason, in the words of the log's limits."""
    if "Recursion limit" in said:
        return "its data is nested deeper than 255 levels, the most JSON in the log may be"
    if "64-bit" in said:
        return "it holds a whole number past 64 bits, which JSON readers cannot all keep exactly"
    if "UTF-8" in said:
        return "it holds text that is not valid UTF-8 (a lone surrogate: e.g. undecodable bytes in an argument)"
    return f"its data is not JSON the log can hold ({said})"


def _refuse_unreadable(line: bytes, spec: EventType | None, type_: str) -> None:
    """CannotEncode when a reader would not take `line` back as a `type_` event: its data, read back, does not
    fit the type (e.g. a number JSON has no form for, written as null)."""
    if spec is None:
        return
    try:
        spec.to_domain(orjson.loads(line)["data"])
    except (TypeError, ValueError, KeyError) as exc:
        raise CannotEncode(f"the {type_} event cannot be written to the log: read back, its data would not fit "
                           f"{type_} v{spec.version} ({exc}): nothing was recorded", type=type_) from None


def _position_after(replayed: Replayed, events: Sequence[Event], payload: bytes) -> tuple[Position, int]:
    """Where the log stands once `payload` (the lines of `events`) is written after `replayed.end`: the
    position of its last event, and the offset where that event's line starts."""
    last_line_start = payload.rfind(b"\n", 0, len(payload) - 1) + 1
    position = Position(replayed.position.line + len(events), events[-1].seq, replayed.end + len(payload),
                        line_hash(payload[last_line_start:-1]), events[-1].at)
    return position, replayed.end + last_line_start


class EventLog:
    """One append-only JSONL log, wherever a recorder keeps its lines (a file by default).

    An object keeps the state its last append reached: its next append reads none of the log when
    the recorder says it is still exactly as that append left it, and replays it otherwise, as any
    other reader would.
    """

    def __init__(
        self,
        path: str | os.PathLike | Recorder,
        registry: Registry,
        *,
        on_wait: OnWait = None,
        snapshots: Any = None,
        on_note: Callable[[str], None] | None = None,
    ) -> None:
        self.recorder: Recorder = FileRecorder(path) if isinstance(path, (str, os.PathLike)) else path
        self.path = self.recorder.path  # the file, for a file log (None elsewhere)
        self.address = self.recorder.address  # what messages name: a path, or an address without its password
        self.registry = registry
        self.on_wait = on_wait
        self.on_note = on_note  # where a reader's notes go (a torn tail answered past, a marker ignored)
        self.snapshots = snapshots
        self._tail: _Tail | None = None
        self._session: Session | None = None  # during an append: the recorder holding the lock

    def exists(self) -> bool:
        return self.recorder.exists()

    def lines(self, start: Position, limit: int | None = None) -> LineSource:
        """The trusted lines after `start` (they stop where a command that was never finished begins): the door
        every reader of the log goes through; under an append's lock, read through it."""
        source = self._session if self._session is not None else self.recorder
        return source.lines(start, limit)

    def scan(self, *, at: int | None = None, start: Position = Position(), describe: bool = False,
             check_ids: bool = False, decode: bool = True) -> Scan:
        """A lock-free checked reader of the log (iterate it for the events)."""
        return Scan(self.address, self.registry, start=start, at=at, describe=describe, check_ids=check_ids,
                    decode=decode, lines=self.lines)

    def replay(self, projection: Projection, *, at: int | None = None, notes: bool = True) -> Replayed:
        """The state after every event (up to and including seq `at`); LogDamaged when a line read is damaged
        (docs/ARCHITECTURE.md: views refuse a damaged log as appends do). A torn tail or an unfinished command is
        answered past, with one note (`notes`)."""
        try:
            if self._session is None and not self.recorder.exists():
                return Replayed(projection.initial, Position(), 0, (), 0, 0)
            if self.snapshots is not None:
                replayed = self.snapshots.replay(self, projection, at=at)
            else:
                replayed = self.fold(projection, projection.initial, Position(), at=at)
            self.refuse_if_damaged(replayed)
        except OSError as exc:
            raise NotALog(f"{self.address} cannot be read: {exc.strerror or exc}", path=self.address) from None
        if notes:
            self._note(replayed.marker.ignored)
            self._note(unacknowledged_note(self.address, replayed.torn, replayed.marker.start is not None))
        return replayed

    def refuse_if_damaged(self, replayed: Replayed) -> None:
        """LogDamaged naming the first damaged line the replay met (the scan checks the last line's id too: no
        later line vouches for it; the chain vouches for every other)."""
        if replayed.bad:
            first = replayed.first_bad or Problem(0, "damaged", "a line is damaged")
            raise refuse_damaged(self.address, first, replayed.bad)

    def _note(self, text: str | None) -> None:
        if text and self.on_note is not None:
            self.on_note(text)

    def fold(self, projection: Projection, state: Any, start: Position, *, at: int | None = None) -> Replayed:
        """Fold the events after `start` onto `state`."""
        scan = Scan(self.address, self.registry, start=start, at=at, only=projection.folds, lines=self.lines)
        engine_types = own_types.NAMES
        # `log.*` events are the engine's, not the domain's
        state = projection.fold_events(state, (event for event in scan if event.type not in engine_types))
        return Replayed(state, scan.position, scan.bad, tuple(scan.newer), scan.torn, scan.end, scan.first_problem,
                        scan.unfinished or Marker())

    def append(self, projection: Projection, decide: Decide) -> Appended:
        """Under the lock: replay, `decide(state)`, write its events in one write, fsync.

        `decide` returns the domain events to append (none: a no-op) or raises to
        refuse, and then nothing is written.
        """
        with self.recorder.locked(self.on_wait) as session:
            try:
                self._session = session
                return self._append_locked(projection, decide)
            finally:
                self._session = None

    def _append_locked(self, projection: Projection, decide: Decide) -> Appended:
        """Under the lock: cut an unfinished command away, replay (checked), decide, write."""
        session = self._session
        self._note(session.cut_unfinished().ignored)
        replayed = self._unchanged_since_append(projection) or self.replay(projection, notes=False)
        self._refuse_untrusted(replayed)
        new = list(decide(replayed.state))
        if not new:
            return Appended((), replayed.state, replayed.state)
        events, payload = self._encode(new, replayed.position)
        self._tail = None
        token = session.write(payload, replayed.position, replayed.end, replayed.torn)
        state = projection.fold_events(replayed.state, events)
        position, line_start = _position_after(replayed, events, payload)
        if self.snapshots is not None:
            self.snapshots.after_append(self, projection, state, replayed, payload, position, line_start)
        # Kept, so that this object's next append need not replay.
        self._tail = _Tail(projection, token, line_start, Replayed(state, position, 0, (), 0, position.offset))
        return Appended(tuple(events), state, replayed.state)

    def _unchanged_since_append(self, projection: Projection) -> Replayed | None:
        """Under the lock: the state this object's last append left, when the log is still exactly as that
        append left it, or that state with the lines appended since folded on (where the recorder can tell
        the log only grew); None: replay (through the snapshots, when on)."""
        tail = self._tail
        if tail is None or tail.projection is not projection:
            return None
        session = self._session
        if session.unchanged(tail.token, tail.last_line_start, tail.replayed.end, tail.replayed.position.hash):
            return tail.replayed
        if session.grown_since(tail.token, tail.replayed.position):
            # Others appended since: only their lines are read, folded onto the state this object has.
            return self.fold(projection, tail.replayed.state, tail.replayed.position)
        return None

    def _refuse_untrusted(self, replayed: Replayed) -> None:
        if replayed.newer:
            first = replayed.newer[0]
            raise NewerVersion(
                f"{self.address} holds events newer than this batchlog ({first.message}): it is read, never "
                "appended to; upgrade batchlog",
                path=self.address, line=first.line,
            )
        if replayed.bad:
            import shlex  # only when a log is refused, as in damage.py

            quoted = shlex.quote(self.address)
            raise LogDamaged(
                f"{self.address} has {replayed.bad} damaged line(s) before its end: run `batchlog log verify "
                f"{quoted}` to see them, then `batchlog log salvage {quoted}`",
                path=self.address, bad=replayed.bad,
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
                                   "nested deeper than 255 levels, the most JSON in the log may be: nothing was "
                                   "recorded", type=type(domain).__name__) from None
            seq = position.seq + offset
            line = encode_event_line(seq, type_, v, at, data, prev)
            _refuse_unreadable(line, self.registry.get(type_), type_)
            id_ = line[line.index(b'"id":"') + 6 : line.index(b'"id":"') + 38].decode()
            events.append(Event(seq, type_, v, at, id_, domain))
            lines.append(line)
            prev = line_hash(line)
        return events, b"".join(line + b"\n" for line in lines)
