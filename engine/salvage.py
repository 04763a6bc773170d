"""Salvage: a damaged log cut back to its trusted part, the damaged log kept beside it, whatever keeps it.

Engine-level (no domain): the log keeps every line before the first damaged one (or up to a chosen seq),
byte for byte, so ids and receipts of the kept events stay valid and their chain is whole; then one
`log.salvaged` event saying what was dropped (how many lines, the event types they held) and why. Its lines
come from the log's one reader, which stops where a command that was never finished begins: such a part is
never kept (nor counted as damage; left alone, the next append cuts it). One rule for every store, under the
log's lock and
through its recorder (`Rewritable`, engine/recorders/protocols.py): every byte of the log is first kept, as
it is, as a log of its own (`<log>.damaged-<time>`, or `<log>.cut-<time>` when a sound log was cut with
--to), then the log is cut back. A file's copy is a hard link
(or a copy) beside it and the new log is renamed over the old name, so a crash at any step leaves one whole
log under the name; a stored log is copied and cut back in the transaction of its lock.
"""

from __future__ import annotations

import os
from typing import cast

import orjson

from batchlog.engine import clock
from batchlog.engine.address import recorder_for
from batchlog.engine.chain import GENESIS, line_hash
from batchlog.engine.errors import EngineError, NotALog
from batchlog.engine.log import encode_event_line
from batchlog.engine.own_types import REGISTRY as OWN_TYPES, SALVAGED
from batchlog.engine.recorders.protocols import Recorder, Rewritable, Session
from batchlog.engine.recorders.wait import OnWait
from batchlog.engine.registry import Registry
from batchlog.engine.scan import Position, Problem, Scan
from batchlog.engine.value import frozen


class SalvageRefused(EngineError):
    """Salvage cannot do what was asked (e.g. keep events past the damage); nothing was changed."""

    code = "salvage_refused"


@frozen
class Salvaged:
    """What a salvage did: events kept, lines dropped, where the damaged log is (None: nothing to do)."""

    path: str
    kept_through_seq: int
    dropped_lines: int
    dropped_bytes: int
    reason: str
    damaged_copy: str | None
    event_seq: int | None


@frozen
class _Measured:
    """The log as a salvage finds it: the lines it keeps (line n holds seq n), their bytes and the hash of the
    last of them, and every line and byte it holds (a torn tail's too)."""

    kept: int
    kept_bytes: int
    last_hash: str
    lines: int
    bytes: int
    dropped_types: dict[str, int]


def salvage(address: str | os.PathLike, registry: Registry, *, to: int | None = None,
            on_wait: OnWait = None) -> Salvaged:
    """Cut the log at `address` (any log address) back to the events before its first damaged line (or through
    seq `to`)."""
    recorder = recorder_for(address, on_wait=on_wait)
    shown = recorder.address
    _refuse_missing(recorder)
    with recorder.locked(on_wait) as locked:
        session = cast(Rewritable, locked)  # every recorder's session can rewrite its log
        first = _first_damage(shown, registry, session)
        measured = _measure(session, _lines_to_keep(shown, first.line if first else None, to))
        kept = measured.kept
        if first is None and kept >= measured.lines:  # a torn tail is not damage: the next append cuts it
            return Salvaged(shown, kept, 0, 0, "nothing to salvage: the log is trusted", None, None)
        if first is not None and kept == first.line - 1:
            reason = f"damaged: {first.message}"
        else:
            reason = f"cut after seq {kept} on request (--to {to})"
        stamp = clock.now().replace("-", "").replace(":", "").replace(".", "")
        copy, digest = session.keep_copy(f".{'damaged' if first is not None else 'cut'}-{stamp}")
        data = {
            "kept_through_seq": kept,
            "dropped_lines": measured.lines - kept,
            "dropped_bytes": measured.bytes - measured.kept_bytes,
            "reason": reason,
            "damaged_copy": copy,
            "damaged_sha256": digest,
            "dropped_types": measured.dropped_types,
        }
        version = OWN_TYPES.by_name[SALVAGED].version
        session.cut_back(kept, measured.kept_bytes,
                         encode_event_line(kept + 1, SALVAGED, version, clock.now(), data, measured.last_hash))
    return Salvaged(shown, kept, data["dropped_lines"], data["dropped_bytes"], reason, copy, kept + 1)


def _refuse_missing(recorder: Recorder) -> None:
    """NotALog when there is no log to salvage (for a file: no regular file at its path)."""
    if recorder.path is not None and not recorder.path.is_file():
        raise NotALog(f"no log file at {recorder.path}: name the events.jsonl to salvage", path=recorder.address)
    if recorder.path is None and not recorder.exists():
        raise NotALog(f"no log at {recorder.address}: name the log to salvage", path=recorder.address)


def _first_damage(address: str, registry: Registry, session: Session) -> Problem | None:
    scan = Scan(address, registry, describe=True, check_ids=True, decode=False, lines=session.lines)
    for _ in scan:
        pass
    return min(scan.problems, key=lambda p: p.line, default=None)


def _lines_to_keep(address: str, damage_line: int | None, to: int | None) -> int:
    """Lines before the damage are a whole chain from seq 1, so line n holds seq n."""
    trusted = damage_line - 1 if damage_line is not None else None
    if to is None:
        return trusted if trusted is not None else 1 << 62
    if trusted is not None and to > trusted:
        raise SalvageRefused(
            f"cannot keep events through seq {to}: line {damage_line} is damaged, so the last event that can be "
            f"kept is seq {trusted}; give --to {trusted} or less, or leave --to out",
            path=address, line=damage_line, seq=to)
    return to


def _measure(session: Session, keep: int) -> _Measured:
    """The log read once more, under the lock, its first `keep` lines (or all, when fewer) measured apart."""
    source = session.lines(Position(), None)
    kept = kept_bytes = lines = 0
    last = None
    dropped: dict[str, int] = {}
    for block in source.blocks():
        for line in block:
            lines += 1
            if lines <= keep:
                kept, kept_bytes, last = lines, kept_bytes + len(line) + 1, line
            else:
                name = _type_of(line)
                dropped[name] = dropped.get(name, 0) + 1
    held = source.end + source.torn + source.unfinished.bytes
    return _Measured(kept, kept_bytes, GENESIS if last is None else line_hash(last), lines, held, dropped)


UNREADABLE = "(unreadable)"  # a dropped line whose type cannot be read: not JSON, or no type in it


def _type_of(line: bytes) -> str:
    """The event type a dropped line holds, as far as it can be read (a damaged line may hold none)."""
    try:
        value = orjson.loads(line)
    except orjson.JSONDecodeError:
        return UNREADABLE
    name = value.get("type") if isinstance(value, dict) else None
    return name if isinstance(name, str) else UNREADABLE
