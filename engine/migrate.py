"""`log migrate`: a log copied between any two addresses (file, memory, PostgreSQL), byte for byte, streamed.

The source must verify (a damaged log is salvaged first, where it is) and the destination must hold
nothing yet. The source is read twice through its one reader (which stops where a command that was never
finished begins: such a part is never copied): once checked whole, once copied, block by block, under the
destination's lock, all or none (engine/recorders/protocols.py's `write_blocks`); then the destination is read
back and its bytes' digest compared with the source's. Memory stays that of one block whatever the log's
length. Ids, the chain and receipts carry over unchanged; snapshots do not (they are caches, rebuilt by the
first view).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from hashlib import sha256


from batchlog.engine.address import recorder_for
from batchlog.engine.damage import unacknowledged_note
from batchlog.engine.errors import EngineError, NotALog, WriteFailed
from batchlog.engine.log import EventLog
from batchlog.engine.recorders.protocols import LineSource
from batchlog.engine.recorders.wait import OnWait
from batchlog.engine.registry import Registry
from batchlog.engine.scan import Position
from batchlog.engine.verify import Report, verify
from batchlog.engine.value import frozen

COPY_BLOCK_BYTES = 1 << 20  # what one write into the destination holds: 1 MiB, whatever the log's length


class MigrateRefused(EngineError):
    """The source does not verify, or the destination already holds a log: nothing was copied."""

    code = "migrate_refused"


@frozen
class Migrated:
    """What `log migrate` copied: the lines, their bytes and the head (seq, hash of the last line)."""

    source: str
    destination: str
    events: int
    bytes: int
    last_seq: int
    last_hash: str
    sha256: str


def migrate(source: str, destination: str, registry: Registry, *, on_wait: OnWait = None,
            on_note: Callable[[str], None] | None = None) -> Migrated:
    """Copy the log at `source` to the empty `destination`; MigrateRefused when either will not do. `on_note`
    hears of a part of a command never finished at the source's end (never copied)."""
    src = EventLog(recorder_for(source, on_wait=on_wait), registry)
    dst = EventLog(recorder_for(destination, on_wait=on_wait), registry)
    if not src.exists():
        raise NotALog(f"no log at {src.address}: check the address", path=src.address)
    report = _verified(src, registry)
    left = unacknowledged_note(src.address, 0, report.unfinished.start is not None)
    if left and on_note is not None:
        on_note(left.replace("answered without it", "not copied"))
    digest = sha256()
    with dst.recorder.locked(on_wait) as session:
        session.cut_unfinished()  # a copy that died part way: never acknowledged
        held = session.lines(Position(), None)
        if any(True for _ in held.blocks()) or held.torn:
            raise MigrateRefused(f"{dst.address} already holds a log: nothing was copied; migrate to an address "
                                 "that holds none", path=dst.address)
        if report.end:
            source_digest = _digest(src.lines(Position(), report.end))
            source_lines = src.lines(Position(), report.end)
            session.write_blocks(_copied(source_lines, digest), report.end, source_digest)
            if digest.hexdigest() != source_digest or source_lines.end != report.end:
                raise WriteFailed(f"{src.address} changed while it was copied: nothing was copied; migrate again",
                                  path=src.address)
    if _digest(dst.lines(Position(), None)) != digest.hexdigest():
        raise WriteFailed(f"{dst.address} does not read back as {src.address} reads: the copy is not trusted; "
                          "remove it and migrate again", path=dst.address)
    return Migrated(src.address, dst.address, report.lines, report.end, report.last_seq, report.last_hash,
                    digest.hexdigest())


def _verified(src: EventLog, registry: Registry) -> Report:
    """The source's report; MigrateRefused when it does not verify."""
    report = verify(src, registry)
    if not report.trusted:
        first = report.problems[0]
        import shlex

        quoted = shlex.quote(src.address)
        raise MigrateRefused(f"{src.address} does not verify ({first.message}): nothing was copied; run `batchlog "
                             f"log verify {quoted}`, then `batchlog log salvage {quoted}`, and migrate "
                             "the salvaged log", path=src.address, line=first.line)
    return report


def _copied(source: LineSource, digest) -> Iterator[bytes]:
    """The source's lines as blocks of about COPY_BLOCK_BYTES bytes (each line with its newline), hashed on the way."""
    pending: list[bytes] = []
    size = 0
    for block in source.blocks():
        pending.extend(block)
        size += sum(len(line) + 1 for line in block)
        if size >= COPY_BLOCK_BYTES:
            chunk = b"".join(line + b"\n" for line in pending)
            digest.update(chunk)
            yield chunk
            pending, size = [], 0
    if pending:
        chunk = b"".join(line + b"\n" for line in pending)
        digest.update(chunk)
        yield chunk


def _digest(source: LineSource) -> str:
    """The SHA-256 of the bytes a file holds for the lines of `source`."""
    digest = sha256()
    for block in source.blocks():
        digest.update(b"".join(line + b"\n" for line in block))
    return digest.hexdigest()
