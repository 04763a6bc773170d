"""Checked reading: complete lines to trusted events, bad lines counted and skipped.

A line is folded when it is a valid envelope whose `seq` comes after the last
folded event, and either its `prev` is the hash of the line before it, or (when
that link is broken) the line is intact: its `id` is the hash of its own bytes.
A damaged line is skipped; every problem (damaged line, broken link, gap) is
counted once, where it is, and described for `log verify`. Lock-free.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import Any
from hashlib import sha256

import attrs
import orjson

from engine import own_types
from engine.chain import GENESIS
from engine.envelope import FIELD_SET, Event, envelope_problem, id_problem
from engine.lines import MAX_LINE_BYTES, OVERLONG, LineReader
from engine.registry import Registry, domain_maker


@attrs.frozen
class Problem:
    """One thing wrong with one line; `line` counts from 1."""

    line: int
    code: str
    message: str
    seq: int | None = None


@attrs.frozen
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
    `torn` (bytes of an unfinished last line), and with `describe` the problems.
    """

    def __init__(
        self,
        path: str | os.PathLike,
        registry: Registry,
        *,
        start: Position = Position(),
        at: int | None = None,
        describe: bool = False,
        check_ids: bool = False,
        decode: bool = True,
        limit: int | None = None,
    ) -> None:
        self.path = path
        self.limit = limit
        self.registry = registry
        self.start = start
        self.stop_seq = at
        self.describe = describe
        self.check_ids = check_ids
        self.decode = decode
        self.position = start
        self.end = start.offset
        self.bad = 0
        self.newer: list[Problem] = []
        self.problems: list[Problem] = []
        self.first_problem: Problem | None = None  # kept even without `describe`: views name it when they refuse
        self.torn = 0
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
        # The common line (valid envelope, linked to the line before, the next seq, a current type)
        # takes a fast path of inlined checks that imply exactly what the full checks below would
        # conclude; any other line goes through the full checks, which describe what is wrong.
        reader = LineReader(self.path, self.start.offset, limit=self.limit)
        loads = orjson.loads
        fields = FIELD_SET
        current = self._current_types()
        new_event = _event_maker()
        number = self.start.line
        last_seq = self.start.seq
        last_hash = self.start.hash
        last_at = self.start.at
        offset = self.start.offset
        prev_physical = self.start.hash
        stop = self.stop_seq
        fast = not self.check_ids and self.decode
        first_at = self.first_at
        previous_bad = False  # the line before this one was skipped: its link cannot be checked
        skipped = 0  # lines skipped since the last folded event
        for block in reader.blocks():
            block_start, block_number = offset, number
            for line, hashed in zip(block, map(sha256, block)):
                number += 1
                digest = hashed.hexdigest()
                expected_prev, prev_physical = prev_physical, digest
                try:
                    obj = loads(line)
                except orjson.JSONDecodeError:
                    obj = None
                if (
                    fast
                    and not previous_bad
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
                        domain = spec[1](data)
                    except (TypeError, ValueError, KeyError):
                        pass  # the full checks below count it as bad data
                    else:
                        last_seq, last_hash, last_at = seq, digest, at
                        if first_at is None:
                            first_at = self.first_at = at
                        yield new_event(seq, type_, v, at, id_, domain)
                        continue
                skipped += 1
                after_bad, previous_bad = previous_bad, True
                if obj is None:
                    if line is OVERLONG:
                        self._problem(number, "line_too_long",
                                      f"line {number} is longer than {MAX_LINE_BYTES >> 20} MiB, the most a line may hold")
                    else:
                        self._problem(number, "bad_json", f"line {number} is not JSON")
                    continue
                why = envelope_problem(obj)
                if why is not None:
                    self._problem(number, "bad_envelope", f"line {number}: {why}")
                    continue
                seq = obj["seq"]
                linked = obj["prev"] == expected_prev
                if self.check_ids or not linked:
                    # An unlinked line is still trusted when it is intact (its id is its own hash):
                    # the damage is elsewhere, and is counted where it is.
                    why = id_problem(line, obj["id"])
                    if why is not None:
                        self._problem(number, "id_mismatch", f"line {number} (seq {seq}): {why}", seq)
                        continue
                if seq <= last_seq:
                    self._problem(number, "seq_order",
                                  f"line {number}: seq {seq} does not come after seq {last_seq}: "
                                  "lines were reordered or repeated", seq)
                    continue
                if not linked and not after_bad:
                    self._problem(number, "chain_broken",
                                  f"line {number} (seq {seq}): prev is not the hash of line {number - 1}: "
                                  "a line was removed, inserted or moved here, or line "
                                  f"{number - 1} was changed", seq)
                elif seq - last_seq - 1 > skipped - 1:
                    self._problem(number, "seq_gap",
                                  f"line {number}: seq {seq} follows seq {last_seq}: "
                                  f"{seq - last_seq - 1} event(s) missing before this line", seq)
                if stop is not None and seq > stop:
                    self.stopped_early = True
                    line_start = block_start + sum(len(before) + 1 for before in block[: number - block_number - 1])
                    self._finish(number - 1, last_seq, line_start, last_hash, last_at, reader)
                    return
                previous_bad, skipped = False, 0
                event = self._decode(number, obj)
                last_seq, last_hash, last_at = seq, digest, obj["at"]
                if first_at is None:
                    first_at = self.first_at = last_at
                if event is not None:
                    yield event
            offset = reader.end
            self.lines = number
            self.position = Position(number, last_seq, offset, last_hash, last_at)
        self._finish(number, last_seq, offset, last_hash, last_at, reader)

    def _current_types(self) -> dict[str, tuple[int, Callable[[dict], Any]]]:
        """Types whose current version decodes as `cls(**data)`: the fast path's (version, maker) by name.

        A maker is `registry.domain_maker(cls)`, looked up on a type's first event (a scan of a
        short log does not build makers for types it never meets).
        """
        current: dict[str, tuple[int, Callable[[dict], Any]]] = {}
        for name, spec in self.registry.by_name.items():
            if spec.cls is not None and spec.decode is None:
                current[name] = (spec.version, _first_maker(current, name, spec.version, spec.cls))
        return current

    def _finish(self, number: int, seq: int, offset: int, digest: str, at: str | None, reader: LineReader) -> None:
        self.lines = number
        self.position = Position(number, seq, offset, digest, at)
        self.end = reader.end
        self.torn = reader.torn

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


def _first_maker(current: dict, name: str, version: int, cls: type) -> Callable[[dict], Any]:
    """Decodes a type's first event, putting the class's maker in its place in `current`."""

    def first(data: dict) -> Any:
        maker = domain_maker(cls)
        current[name] = (version, maker)
        return maker(data)

    return first


def _event_maker():
    """`Event(seq, type, v, at, id, data)`, built without attrs' frozen __init__ (the scan's hot path).

    Sets the same slots the generated __init__ would; `Event`'s fields are checked here so a
    change to the class cannot silently go unset.
    """
    names = tuple(field.name for field in attrs.fields(Event))
    if names != ("seq", "type", "v", "at", "id", "data") or not hasattr(Event, "__slots__"):
        return Event
    new = object.__new__
    set_seq, set_type, set_v, set_at, set_id, set_data = (Event.__dict__[name].__set__ for name in names)

    def make(seq: int, type_: str, v: int, at: str, id_: str, data: object) -> Event:
        event = new(Event)
        set_seq(event, seq)
        set_type(event, type_)
        set_v(event, v)
        set_at(event, at)
        set_id(event, id_)
        set_data(event, data)
        return event

    return make
