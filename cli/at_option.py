"""`--at SEQ`, the views of the past: refused past the end of the log. No typer here (the fast views use it)."""

from __future__ import annotations

from batchlog.projections.errors import Refused


def require_within_log(at: int | None, last_seq: int, log: object) -> None:
    """Refuse `--at SEQ` past the end of the log (exit 1): a view "as the log stood after event SEQ" of an event
    that does not exist would show the present as if it were that past."""
    if at is not None and at > last_seq:
        held = f"it holds {last_seq} events (give --at 1 to {last_seq})" if last_seq else "it holds no event yet"
        raise Refused(f"--at {at} is past the end of the log {log}: {held}", at=at, events=last_seq)
