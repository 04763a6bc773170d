"""`log migrate`: a log copied between any two addresses (file, memory, PostgreSQL), byte for byte.

The source must verify (a damaged log is salvaged first, where it is) and the destination must hold
nothing yet; the lines are written under the destination's lock in one append (all or none), then read
back and compared with the source's. Ids, the chain and receipts carry over unchanged; snapshots do not
(they are caches, rebuilt by the first view).
"""

from __future__ import annotations

from hashlib import sha256

import attrs

from batchlog.engine.address import recorder_for
from batchlog.engine.errors import EngineError, NotALog, WriteFailed
from batchlog.engine.log import EventLog
from batchlog.engine.recorders.wait import OnWait
from batchlog.engine.registry import Registry
from batchlog.engine.scan import Position
from batchlog.engine.verify import verify


class MigrateRefused(EngineError):
    """The source does not verify, or the destination already holds a log: nothing was copied."""

    code = "migrate_refused"


@attrs.frozen
class Migrated:
    """What `log migrate` copied: the lines, their bytes and the head (seq, hash of the last line)."""

    source: str
    destination: str
    events: int
    bytes: int
    last_seq: int
    last_hash: str
    sha256: str


def migrate(source: str, destination: str, registry: Registry, *, on_wait: OnWait = None) -> Migrated:
    """Copy the log at `source` to the empty `destination`; MigrateRefused when either will not do."""
    src = EventLog(recorder_for(source, on_wait=on_wait), registry)
    dst = EventLog(recorder_for(destination, on_wait=on_wait), registry)
    if not src.exists():
        raise NotALog(f"no log at {src.address}: check the address", path=src.address)
    report = verify(src, registry)
    if not report.trusted:
        first = report.problems[0]
        raise MigrateRefused(f"{src.address} does not verify ({first.message}): nothing was copied; run `batchlog "
                             f"log verify {src.address}`, then `batchlog log salvage {src.address}`, and migrate "
                             "the salvaged log", path=src.address, line=first.line)
    source_lines = _lines(src)
    payload = b"".join(line + b"\n" for line in source_lines)
    with dst.recorder.locked(on_wait) as session:
        held = session.lines(Position(), None)
        if any(True for _ in held.blocks()) or held.torn:
            raise MigrateRefused(f"{dst.address} already holds a log: nothing was copied; migrate to an address "
                                 "that holds none", path=dst.address)
        if payload:
            session.write(payload, Position(), 0, 0)
    copied = b"".join(line + b"\n" for line in _lines(dst))
    if copied != payload:
        raise WriteFailed(f"{dst.address} does not read back as {src.address} reads: the copy is not trusted; "
                          "remove it and migrate again", path=dst.address)
    return Migrated(src.address, dst.address, len(source_lines), len(payload), report.last_seq,
                    report_hash(source_lines), sha256(payload).hexdigest())


def _lines(log: EventLog) -> list[bytes]:
    """Every complete line of the log (a torn tail, never acknowledged, is not part of it)."""
    return [line for block in log.lines(Position()).blocks() for line in block]


def report_hash(lines: list[bytes]) -> str:
    from batchlog.engine.chain import GENESIS, line_hash

    return line_hash(lines[-1]) if lines else GENESIS
