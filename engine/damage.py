"""Whether a replayed log may be answered from: the damage rule every view and append follows.

A damaged line in the middle, a broken chain, a seq gap, a BOM or a CR: the log cannot be trusted, and
every command (view or append) refuses it, naming the first damaged line. The scan's chain check finds an
edit of any line but the last (the next line's `prev` no longer matches); the last line's id is checked by
the scan too. A torn tail or an unfinished command (never acknowledged) is answered past, with one note.
"""

from __future__ import annotations

from pathlib import Path

from batchlog.engine.errors import LogDamaged
from batchlog.engine.scan import Problem

def refuse_damaged(path: Path, problem: Problem, bad: int) -> LogDamaged:
    """The refusal of a log with a damaged line: names the first one and the commands that look and repair."""
    import shlex  # only when a log is refused: every view and append imports this module

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
