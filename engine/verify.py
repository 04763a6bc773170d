"""`log verify`: every line checked (envelope, id, chain, seq, versions), a report out.

Also receipts: a kept (seq, hash, time) proves later that the log only grew.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import attrs

from batchlog.engine.chain import GENESIS, line_hash
from batchlog.engine.recorders.protocols import Marker
from batchlog.engine.registry import Registry
from batchlog.engine.scan import Position, Problem, Scan
from batchlog.engine.value import frozen

if TYPE_CHECKING:
    from batchlog.engine.log import EventLog

RECEIPT_PREFIX = "batchlog-receipt"


@frozen
class Receipt:
    """The head of a log at one moment: its last event's seq, line hash and time."""

    seq: int
    hash: str
    at: str

    def render(self) -> str:
        return f"{RECEIPT_PREFIX}:{self.seq}:{self.hash}:{self.at}"

    @classmethod
    def parse(cls, text: str) -> Receipt | None:
        parts = text.strip().split(":", 3)
        if len(parts) != 4 or parts[0] != RECEIPT_PREFIX or not (parts[1].isascii() and parts[1].isdigit()):
            return None
        if len(parts[2]) != 64 or any(c not in "0123456789abcdef" for c in parts[2]):
            return None
        return cls(int(parts[1]), parts[2], parts[3])


@frozen
class Report:
    """What `log verify` found: counts, times, problems; `trusted` when nothing is wrong. A command that was never
    finished (`unfinished`) is not damage and not events: it is named apart, as a torn tail is. `end`: the byte
    just past the last line checked; `last_hash`: the hash of the last trusted event's line."""

    path: str
    lines: int
    events: int
    first_at: str | None
    last_at: str | None
    last_seq: int
    torn_bytes: int
    problems: tuple[Problem, ...]
    unfinished: Marker = Marker()
    end: int = 0
    last_hash: str = GENESIS

    @property
    def trusted(self) -> bool:
        return not self.problems

    def as_dict(self) -> dict:
        return {
            "path": self.path,
            "trusted": self.trusted,
            "lines": self.lines,
            "events": self.events,
            "last_seq": self.last_seq,
            "first_at": self.first_at,
            "last_at": self.last_at,
            "torn_tail_bytes": self.torn_bytes,
            "unfinished": self.unfinished_part(),
            "problems": [attrs.asdict(p) for p in self.problems],
        }

    def unfinished_part(self) -> dict | None:
        """The part of a command that was never finished, where it lies (None: there is none)."""
        if self.unfinished.start is None:
            return None
        return {"from_line": self.lines + 1, "lines": self.unfinished.lines, "bytes": self.unfinished.bytes}


def verify(log: str | os.PathLike | EventLog, registry: Registry, since: Receipt | None = None) -> Report:
    """Check every line of `log` (an EventLog of any store, or a file's path); with `since`, also that it only
    grew since that receipt (a receipt taken of the same lines in any store)."""
    if isinstance(log, (str, os.PathLike)):
        from batchlog.engine.log import EventLog

        log = EventLog(log, registry)
    scan = Scan(log.address, registry, describe=True, check_ids=True, lines=log.lines)  # stops at an unfinished command
    for _ in scan:
        pass
    problems = [*scan.problems, *scan.newer]
    if since is not None:
        problems.extend(_since_problems(log, since))
    problems.sort(key=lambda p: p.line)
    return Report(
        path=log.address,
        lines=scan.lines,
        events=scan.lines - scan.bad,
        first_at=scan.first_at,
        last_at=scan.position.at,
        last_seq=scan.position.seq,
        torn_bytes=scan.torn,
        problems=tuple(problems),
        unfinished=scan.unfinished,
        end=scan.end,
        last_hash=scan.position.hash,
    )



def _since_problems(log: EventLog, receipt: Receipt) -> list[Problem]:
    """The receipt's event must still be line `seq`, hashing the same."""
    import orjson

    if receipt.seq == 0:
        # A receipt of an empty log: any log grew from it (its first `prev` is the
        # genesis hash, which the scan checks), unless the receipt names another hash.
        if receipt.hash != GENESIS:
            return [Problem(1, "receipt_mismatch", "the receipt of an empty log must hold the hash of nothing")]
        return []

    lines = (line for block in log.lines(Position()).blocks() for line in block)
    for number, line in enumerate(lines, start=1):
        if number < receipt.seq:
            continue
        try:
            seq = orjson.loads(line).get("seq")
        except (orjson.JSONDecodeError, AttributeError):
            seq = None
        if seq != receipt.seq or line_hash(line) != receipt.hash:
            return [Problem(number, "receipt_mismatch",
                            f"line {number}: the event the receipt names (seq {receipt.seq}) is no longer there "
                            "as it was: the log was changed, cut or reordered since the receipt", receipt.seq)]
        return []
    return [Problem(receipt.seq, "receipt_mismatch",
                    f"the log has fewer than {receipt.seq} lines: it was cut since the receipt", receipt.seq)]
