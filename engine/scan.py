"""Checked reading: complete lines to trusted events, bad lines counted and skipped.

A line is folded when it is a valid envelope whose `seq` comes after the last
folded event, and either its `prev` is the hash of the line before it, or (when
that link is broken) the line is intact: its `id` is the hash of its own bytes.
A damaged line is skipped; every problem (damaged line, broken link, gap) is
counted once, where it is, and described for `log verify`. Lock-free. The lines
come from the log's recorder (`lines`: the one door, which stops where a command
that was never finished begins); a scan never opens a file itself.

Two paths give the same events: the checked path (`log verify`, salvage, `log show`) runs every
check on every line; the fast path (replays) takes the common line through inlined checks that imply
what the checked path would conclude, and hands any other line to the checked path. With `only` (the
event types a projection folds), the fast path parses only those lines: a line of another known type
is read, hashed and linked from its raw bytes (its `seq`, type, version and `prev`), its content
vouched for by the next line's `prev`; the last line, which no line vouches for, is always parsed.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from hashlib import sha256
from typing import TYPE_CHECKING, Any

import orjson

from batchlog.engine import own_types
from batchlog.engine.chain import GENESIS
from batchlog.engine.envelope import FIELD_SET, ID_LENGTH, Event, envelope_problem, id_problem
from batchlog.engine.lines import MAX_LINE_BYTES, OVERLONG
from batchlog.engine.registry import Registry
from batchlog.engine.value import frozen

if TYPE_CHECKING:
    from batchlog.engine.recorders.protocols import LineSource, Marker


@frozen
class Problem:
    """One thing wrong with one line; `line` counts from 1."""

    line: int
    code: str
    message: str
    seq: int | None = None


@frozen
class Position:
    """Where a scan starts or stopped: after line `line`, event `seq`, at byte `offset`."""

    line: int = 0
    seq: int = 0
    offset: int = 0
    hash: str = GENESIS
    at: str | None = None


class Scan:
    """An iterator of trusted events from a log, with what it found along the way.

    After iteration: `position` (the last folded event), `end` (just past the
    last complete line read), `bad` (lines skipped), `newer` (events of a type
    or version this code does not know: read with a warning, never folded),
    `torn` (bytes of an unfinished last line), `unfinished` (a command never
    finished, which the scan stopped at), and with `describe` the problems.
    `only`: the event types to decode and yield (None: all); lines of the other known types are
    checked from their bytes and not yielded. `path`: the log's address, as messages name it.
    """

    def __init__(
        self,
        path: str | os.PathLike,
        registry: Registry,
        *,
        lines: Callable[[Position, int | None], LineSource],
        start: Position = Position(),
        at: int | None = None,
        describe: bool = False,
        check_ids: bool = False,
        decode: bool = True,
        only: frozenset[str] | None = None,
    ) -> None:
        self.path = path
        self.lines_from = lines  # the recorder's line source: (start, limit) -> blocks(), end, torn, unfinished
        self.registry = registry
        self.start = start
        self.stop_seq = at
        self.describe = describe
        self.check_ids = check_ids
        self.decode = decode
        self.only = only
        self.position = start
        self.end = start.offset
        self.bad = 0
        self.newer: list[Problem] = []
        self.problems: list[Problem] = []
        self.first_problem: Problem | None = None  # kept even without `describe`: views name it when they refuse
        self.torn = 0
        self.unfinished: Marker | None = None  # set once the lines are read
        self.lines = start.line
        self.first_at: str | None = None
        self.stopped_early = False

    def _problem(self, line: int, code: str, message: str, seq: int | None = None) -> None:
        self.bad += 1
        if self.describe:
            self.problems.append(Problem(line, code, message, seq))
        if self.first_problem is None:
            self.first_problem = Problem(line, code, message, seq)

    def __iter__(self) -> Iterator[Event]:
        reader = self.lines_from(self.start, None)
        if self.check_ids or not self.decode:
            return self._checked(reader)
        return self._fast(reader)

    # -- the checked path: every check on every line ------------------------------------------------

    def _checked(self, reader: LineSource) -> Iterator[Event]:
        cursor = _Cursor(self.start)
        final = previous = None
        for block in reader.blocks():
            block_start, block_number = cursor.offset, cursor.number
            final = block[-1]
            for line in block:
                cursor.number += 1
                digest = sha256(line).hexdigest()
                expected_prev, cursor.prev_physical = cursor.prev_physical, digest
                outcome = self._check(cursor, line, digest, expected_prev, _parsed(line), previous)
                previous = line
                if outcome is _STOP:
                    self._stop(cursor, block, block_start, block_number, reader)
                    return
                if outcome is not None:
                    yield outcome
            cursor.offset = reader.end
            self.lines = cursor.number
            self.position = cursor.position()
        self._check_last(cursor, final)
        self._finish(cursor, reader)

    def _check(self, c: _Cursor, line: bytes, digest: str, expected_prev: str, obj: Any,
               previous: bytes | None = None) -> Any:
        """Every check of one line, the cursor moved past it: its Event, None (skipped, or newer), or _STOP
        (its seq is past `at`). `previous`: the line before it, when the scan still has it (for a broken link)."""
        number = c.number
        c.skipped += 1
        after_bad, c.previous_bad = c.previous_bad, True
        if obj is None:
            if line is OVERLONG:
                self._problem(number, "line_too_long",
                              f"line {number} is longer than {MAX_LINE_BYTES >> 20} MiB, the most a line may hold")
            else:
                self._problem(number, "bad_json", f"line {number} is not JSON")
            return None
        why = envelope_problem(obj)
        if why is not None:
            self._problem(number, "bad_envelope", f"line {number}: {why}")
            return None
        seq = obj["seq"]
        linked = obj["prev"] == expected_prev
        if self.check_ids or not linked:
            # An unlinked line is still trusted when it is intact (its id is its own hash):
            # the damage is elsewhere, and is counted where it is.
            why = id_problem(line, obj["id"])
            if why is not None:
                self._problem(number, "id_mismatch", f"line {number} (seq {seq}): {why}", seq)
                return None
        if seq <= c.seq:
            self._problem(number, "seq_order",
                          f"line {number}: seq {seq} does not come after seq {c.seq}: "
                          "lines were reordered or repeated", seq)
            return None
        if not linked and not after_bad and self._edited_before(c, number, previous):
            pass  # the line before was changed (named there, as `log verify` names it): this one is not to blame
        elif not linked and not after_bad:
            self._problem(number, "chain_broken",
                          f"line {number} (seq {seq}): prev is not the hash of line {number - 1}: "
                          "a line was removed, inserted or moved here, or line "
                          f"{number - 1} was changed", seq)
        elif seq - c.seq - 1 > c.skipped - 1:
            self._problem(number, "seq_gap",
                          f"line {number}: seq {seq} follows seq {c.seq}: "
                          f"{seq - c.seq - 1} event(s) missing before this line", seq)
        if self.stop_seq is not None and seq > self.stop_seq:
            self.stopped_early = True
            c.number -= 1
            return _STOP
        c.previous_bad, c.skipped = False, 0
        event = self._decode(number, obj)
        c.seq, c.hash, c.at = seq, digest, obj["at"]
        if self.first_at is None:
            self.first_at = c.at
        return event

    def _edited_before(self, c: _Cursor, number: int, previous: bytes | None) -> bool:
        """At a broken link: whether the line before (trusted so far: no id is checked on a linked line) was
        itself changed, its id no longer its hash. Then that line is the damaged one, named in `log verify`'s
        words, so every reader names the line `log verify` names; one hash, on a damaged log only."""
        if previous is None or self.check_ids:
            return False
        obj = _parsed(previous)
        id_ = obj.get("id") if type(obj) is dict else None
        why = id_problem(previous, id_) if type(id_) is str else None
        if why is None:
            return False
        self._problem(number - 1, "id_mismatch", f"line {number - 1} (seq {c.seq}): {why}", c.seq)
        return True

    def _stop(self, c: _Cursor, block: list[bytes], block_start: int, block_number: int, reader: LineSource) -> None:
        """At the first line past `at`: the scan ends before it."""
        c.offset = block_start + sum(len(before) + 1 for before in block[: c.number - block_number])
        self._finish(c, reader)

    # -- the fast path: the common line inlined, any other through the checked path -----------------

    def _fast(self, reader: LineSource) -> Iterator[Event]:
        # The common line (valid envelope, linked to the line before, the next seq, a current type)
        # takes inlined checks that imply exactly what `_check` would conclude; any other line goes
        # through `_check`, the cursor's figures handed over and back.
        c = _Cursor(self.start)
        loads = orjson.loads
        fields = FIELD_SET
        current = self._current_types()
        skip = self._skipped_types()
        number, last_seq, last_hash, last_at = c.number, c.seq, c.hash, c.at
        prev_physical = c.prev_physical
        stop = self.stop_seq
        bound = float("inf") if stop is None else stop
        unread_at = _UNREAD
        head = None  # the head of the line last taken from its bytes, to be formatted with the next seq
        previous_bad = False  # the line before this one was skipped: its link cannot be checked
        unread = None  # the last line if it was taken from its bytes, with the figures from before it
        last_raw = None  # the line last taken from its bytes (whose `at` is read only when needed)
        final = None  # the last line read
        last_of_block = None  # the last line of the block before (the line before a block's first)
        for block in reader.blocks():
            block_start, block_number = c.offset, number
            final = block[-1]
            for line, hashed in zip(block, map(sha256, block)):
                number += 1
                digest = hashed.hexdigest()
                expected_prev, prev_physical = prev_physical, digest
                if (
                    skip
                    and not previous_bad
                    and last_seq < bound  # a line is taken from its bytes only up to `at`
                    # Most skipped lines are of the type of the one before: one test of the whole head.
                    and ((head is not None and line.startswith(head % (last_seq + 1)))
                         or (head := _skipped_head(line, last_seq + 1, skip)) is not None)
                    and line.endswith(_TAIL % expected_prev.encode())
                ):
                    unread = (line, number, expected_prev, last_seq, last_hash, last_at, last_raw)
                    last_seq, last_hash, last_at, last_raw = last_seq + 1, digest, unread_at, line
                    if self.first_at is None:
                        self.first_at = _at_of(line)
                    continue
                pending, unread = unread, None
                try:
                    obj = loads(line)
                except orjson.JSONDecodeError:
                    obj = None
                if (
                    not previous_bad
                    and type(obj) is dict
                    and obj.keys() == fields
                    and obj["prev"] == expected_prev
                    and type(seq := obj["seq"]) is int
                    and seq == last_seq + 1
                    and (stop is None or seq <= stop)
                    and type(type_ := obj["type"]) is str
                    and type(v := obj["v"]) is int
                    and type(at := obj["at"]) is str
                    and type(id_ := obj["id"]) is str
                    and id_
                    and type(data := obj["data"]) is dict
                    and (spec := current.get(type_)) is not None
                    and v == spec[0]
                ):
                    try:
                        domain = spec[1](**data)
                    except (TypeError, ValueError, KeyError):
                        pass  # the checked path counts it as bad data
                    else:
                        last_seq, last_hash, last_at = seq, digest, at
                        if self.first_at is None:
                            self.first_at = at
                        yield Event(seq, type_, v, at, id_, domain)
                        continue
                if pending is not None:
                    # No line vouches for the one before (taken from its bytes): it gets every check first.
                    self._recheck(c, pending)
                else:
                    c.seq, c.hash, c.at, c.previous_bad = last_seq, last_hash, last_at, previous_bad
                    c.resolve(last_raw)
                c.number = number
                at_block = number - block_number - 1
                outcome = self._check(c, line, digest, expected_prev, obj,
                                      block[at_block - 1] if at_block else last_of_block)
                if outcome is _STOP:
                    self._stop(c, block, block_start, block_number, reader)
                    return
                number, last_seq, last_hash, last_at, previous_bad = c.number, c.seq, c.hash, c.at, c.previous_bad
                if outcome is not None and (self.only is None or outcome.type in self.only):
                    yield outcome
            c.number, c.seq, c.hash, c.at, c.previous_bad = number, last_seq, last_hash, last_at, previous_bad
            c.resolve(last_raw)
            last_at = c.at
            last_of_block = final
            c.offset = reader.end
            self.lines = number
            self.position = c.position()
        if unread is not None:
            self._recheck(c, unread)  # the last line: no line after it vouches for it
        self._check_last(c, final)
        self._finish(c, reader)

    def _check_last(self, c: _Cursor, final: bytes | None) -> None:
        """The last line read, when trusted, must be intact: no later line's `prev` vouches for it, so an
        edit of it is found only by its id (issue 15: an edited last verdict was acted on). One hash."""
        if final is None or self.check_ids or c.previous_bad:
            return
        at = final.find(b'"id":"')
        if at >= 0 and id_problem(final, final[at + 6 : at + 6 + ID_LENGTH].decode("ascii", "replace")) is None:
            return  # the common case, from the bytes: the line is not parsed again
        obj = _parsed(final)
        id_ = obj.get("id") if type(obj) is dict else None
        if type(id_) is str and id_problem(final, id_) is None:
            return
        self._problem(c.number, "id_mismatch", f"line {c.number} (seq {c.seq}), the last: id is not the hash of the "
                      "line: the line was changed after it was written", c.seq)

    def _recheck(self, c: _Cursor, unread: tuple) -> None:
        """Every check of a line that was taken from its bytes, when no line after it vouches for it (the
        next one is not linked to it, or there is none): the cursor as the checked path would leave it."""
        line, number, expected_prev, seq, digest, at, raw_before = unread
        c.number, c.seq, c.hash, c.at, c.previous_bad, c.skipped = number, seq, digest, at, False, 0
        c.resolve(raw_before)
        kept = self._check(c, line, sha256(line).hexdigest(), expected_prev, _parsed(line))
        if kept is None and c.seq == self.start.seq:
            self.first_at = None  # it was the scan's first event

    def _current_types(self) -> dict[str, tuple[int, type]]:
        """Types whose current version decodes as `cls(**data)`: the fast path's (version, cls) by name.

        With `only`, the types outside it are left out: their lines are never decoded.
        """
        return {name: (spec.version, spec.cls) for name, spec in self.registry.by_name.items()
                if spec.cls is not None and spec.decode is None and (self.only is None or name in self.only)}

    def _skipped_types(self) -> dict[bytes, bytes]:
        """The known types outside `only`, as the bytes of their name -> the bytes that must follow it
        (their current version): a line of an unknown type or an older version is parsed as usual."""
        if self.only is None:
            return {}
        known = {**own_types.REGISTRY.by_name, **self.registry.by_name}
        return {name.encode(): b'","v":%d,"at":"' % spec.version for name, spec in known.items()
                if name not in self.only and '"' not in name and "\\" not in name}

    def _finish(self, c: _Cursor, reader: LineSource) -> None:
        self.lines = c.number
        self.position = c.position()
        self.end = reader.end
        self.torn = reader.torn
        self.unfinished = reader.unfinished

    def _decode(self, number: int, obj: dict) -> Event | None:
        spec = self.registry.by_name.get(obj["type"]) or own_types.REGISTRY.by_name.get(obj["type"])
        v = obj["v"]
        if spec is None or v > spec.version:
            known = "unknown" if spec is None else f"newer than v{spec.version}"
            self.newer.append(
                Problem(number, "newer_version", f"line {number}: {obj['type']} v{v} is {known} to this batchlog", obj["seq"])
            )
            return None
        data = obj["data"]
        try:
            if v < spec.version:
                data = spec.upcast(data, v)
            domain = spec.to_domain(data) if self.decode else data
        except (TypeError, ValueError, KeyError) as exc:
            self._problem(number, "bad_data", f"line {number}: {obj['type']} v{v} data does not fit: {exc}", obj["seq"])
            return None
        return Event(obj["seq"], obj["type"], spec.version, obj["at"], obj["id"], domain)


_STOP = object()  # `_check`: the line is past `at`
_UNREAD = object()  # an `at` not read yet: that of a line taken from its bytes
_TAIL = b',"prev":"%s"}'  # how a line linked to the line before ends, given that line's hash


def _skipped_head(line: bytes, seq: int, skip: dict[bytes, bytes]) -> bytes | None:
    """When `line` starts as event `seq` of a skipped type at its current version, its head up to `at` as a
    format of its seq (`{"seq":%d,"type":"T","v":V,"at":"`), which the next line of that type starts with."""
    start = b'{"seq":%d,"type":"' % seq
    if not line.startswith(start):
        return None
    end = line.find(b'"', len(start))
    name = line[len(start) : end]
    version = skip.get(name)
    if version is None or not line.startswith(version, end):
        return None
    return b'{"seq":%d,"type":"' + name.replace(b"%", b"%%") + version


class _Cursor:
    """Where a scan stands: lines read, the last trusted event (seq, hash, at), the last line's hash, and
    what the checks of the next line need to know of the lines before it."""

    __slots__ = ("number", "seq", "hash", "at", "offset", "prev_physical", "previous_bad", "skipped")

    def __init__(self, start: Position) -> None:
        self.number, self.seq, self.hash, self.at = start.line, start.seq, start.hash, start.at
        self.offset = start.offset
        self.prev_physical = start.hash
        self.previous_bad = False
        self.skipped = 0

    def resolve(self, line: bytes | None) -> None:
        """The `at` of the last trusted event, read from `line` when it was taken from its bytes."""
        if self.at is _UNREAD:
            self.at = _at_of(line)

    def position(self) -> Position:
        return Position(self.number, self.seq, self.offset, self.hash, self.at)


def _parsed(line: bytes) -> Any:
    try:
        return orjson.loads(line)
    except orjson.JSONDecodeError:
        return None


def _at_of(line: bytes) -> str:
    """The `at` of a line whose envelope was checked from its bytes (`..."v":N,"at":"AT",...`).

    Exact for every line batchlog writes; a damaged line gives a garbled time, which never lasts: no
    later line links to a damaged line, so it is checked in full and its time dropped."""
    begin = line.index(b',"at":"') + 7
    return line[begin : line.index(b'"', begin)].decode("utf-8", "replace")
