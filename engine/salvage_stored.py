"""Salvage of a log kept apart from files (memory, PostgreSQL): the same rules as a file's (engine/salvage.py),
in one transaction under the log's lock: every line is first copied, as it is, to a log of its own
(`NAME.damaged-<time>`, `NAME.cut-<time>` when a sound log is cut with --to), then the log is cut back to its
trusted part and one `log.salvaged` event is added."""

from __future__ import annotations

from hashlib import sha256
from typing import Any

from batchlog.engine import clock
from batchlog.engine.chain import GENESIS, line_hash
from batchlog.engine.envelope import encode_line
from batchlog.engine.errors import NotALog
from batchlog.engine.own_types import REGISTRY as OWN_TYPES, SALVAGED
from batchlog.engine.recorders.protocols import joined
from batchlog.engine.registry import Registry
from batchlog.engine.salvage import Salvaged, _lines_to_keep, dropped_types
from batchlog.engine.scan import Position, Scan


def salvage_stored(recorder: Any, registry: Registry, *, to: int | None = None, on_wait: Any = None) -> Salvaged:
    """Cut the stored log back to the events before its first damaged line (or through seq `to`)."""
    address = recorder.address
    if not recorder.exists():
        raise NotALog(f"no log at {address}: name the log to salvage", path=address)
    with recorder.locked(on_wait) as session:
        scan = Scan(address, registry, describe=True, check_ids=True, decode=False, lines=session.lines)
        for _ in scan:
            pass
        first = min(scan.problems, key=lambda p: p.line, default=None)
        lines = [line for block in session.lines(Position(), None).blocks() for line in block]
        keep = min(_lines_to_keep(address, first.line if first else None, to), len(lines))
        if first is None and keep >= len(lines):
            return Salvaged(address, keep, 0, 0, "nothing to salvage: the log is trusted", None, None)
        reason = f"damaged: {first.message}" if first is not None and keep == first.line - 1 else \
            f"cut after seq {keep} on request (--to {to})"
        stamp = clock.now().replace("-", "").replace(":", "").replace(".", "")
        copy = f"{recorder.name}.{'damaged' if first is not None else 'cut'}-{stamp}"
        session.keep_copy(copy)
        everything = joined(lines)
        kept_bytes = len(joined(lines[:keep]))
        data = {
            "kept_through_seq": keep,
            "dropped_lines": len(lines) - keep,
            "dropped_bytes": len(everything) - kept_bytes,
            "reason": reason,
            "damaged_copy": copy,
            "damaged_sha256": sha256(everything).hexdigest(),
            "dropped_types": dropped_types(lines[keep:]),
        }
        line = encode_line(keep + 1, SALVAGED, OWN_TYPES.by_name[SALVAGED].version, clock.now(), data,
                           line_hash(lines[keep - 1]) if keep else GENESIS)
        session.cut_back(keep, line, (keep + 1, line_hash(line), kept_bytes + len(line) + 1))
    return Salvaged(address, keep, data["dropped_lines"], data["dropped_bytes"], reason, copy, keep + 1)
