"""Whether a replayed log may be answered from: the damage rule every view and append follows.

A damaged line in the middle, a broken chain, a seq gap, a BOM or a CR: the log cannot be trusted, and
every command (view or append) refuses it, naming the first damaged line. The scan's chain check finds an
edit of any line but the last (the next line's `prev` no longer matches), so only the last line needs its
own check: its id must be the hash of its bytes (`verify_unchecked_tail`). A torn tail or an unfinished
command (never acknowledged) is answered past, with one note. Reads only; no lock.
"""

from __future__ import annotations

import shlex
from pathlib import Path

import orjson

from engine.envelope import id_problem
from engine.errors import LogDamaged
from engine.lines import MAX_LINE_BYTES
from engine.scan import Position, Problem

_WINDOW_BYTES = 4096


def last_line(path: Path, end: int) -> bytes | None:
    """The line (without its newline) that ends just before byte `end`; None when there is none to read."""
    window = _WINDOW_BYTES
    with open(path, "rb", buffering=0) as fh:
        while True:
            begin = max(0, end - window)
            fh.seek(begin)
            chunk = fh.read(end - begin)
            if len(chunk) != end - begin or chunk[-1:] != b"\n":
                return None
            cut = chunk.rfind(b"\n", 0, len(chunk) - 1)
            if cut >= 0 or begin == 0:
                return chunk[cut + 1 : -1]
            if window > MAX_LINE_BYTES:
                return None
            window *= 4


def verify_unchecked_tail(path: Path, position: Position) -> Problem | None:
    """Why the last line folded (ending at `position.offset`) is not intact, or None: its id must be its
    own hash, since no later line's `prev` vouches for it."""
    if position.seq == 0 or position.offset == 0:
        return None
    try:
        line = last_line(path, position.offset)
    except OSError:
        line = None
    why = "it cannot be read back"
    if line is not None:
        try:
            obj = orjson.loads(line)
        except orjson.JSONDecodeError:
            obj = None
        id_ = obj.get("id") if type(obj) is dict else None
        why = id_problem(line, id_) if type(id_) is str and id_ else "it is not an event line"
        if why is None:
            return None
    return Problem(position.line, "id_mismatch", f"line {position.line} (seq {position.seq}), the last: {why}",
                   position.seq)


def refuse_damaged(path: Path, problem: Problem, bad: int) -> LogDamaged:
    """The refusal of a log with a damaged line: names the first one and the commands that look and repair."""
    quoted = shlex.quote(str(path))
    more = f" ({bad} damaged line(s) in all)" if bad > 1 else ""
    return LogDamaged(
        f"{path} cannot be trusted: {problem.message}{more}; nothing was done: run `batchlog log verify {quoted}` "
        f"to see the damage, then `batchlog log salvage {quoted}` to keep what can be trusted",
        path=str(path), line=problem.line, bad=bad, problem=problem.code,
    )


def unacknowledged_note(path: Path, torn: int, unfinished: bool) -> str | None:
    """The one note a reader gives when it answers past bytes that were never acknowledged."""
    if unfinished:
        return (f"note: {path} ends with part of a command that was never finished: answered without it "
                "(the next append removes it)")
    if torn:
        return (f"note: {path} ends with {torn} byte(s) of a line that was never finished: answered without it "
                "(the next append removes it)")
    return None
