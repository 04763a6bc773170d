"""How the tuning's commands print what they did: their lines, or one JSON object with --json; a batch as
`tune next-batch` shows it. No typer here (the fast lane's bodies use it)."""

from __future__ import annotations

from typing import Any

from batchlog.cli import terminal
from batchlog.projections.tune.batch_mjs import rules


def emit(as_json: bool, lines: list[str], data: dict[str, Any]) -> int:
    """The lines on stdout, or `data` as one JSON object with --json; exit 0."""
    if as_json:
        terminal.json_line(data)
    else:
        terminal.say(*lines)
    return 0


def show_batch(plan: rules.BatchPlan, out: str | None, as_json: bool, has_difficult: bool,
               extra: dict[str, object] | None = None) -> int:
    """A batch as next-batch shows it: the cases JSON on stdout when previewed (`out` None; with --json, the
    batch's figures instead, and `extra` fields), and batch.mjs's summary lines on stderr."""
    if as_json:
        emit(True, [], {"batch": plan.number, "size": plan.size, "why": plan.why, "kind": plan.kind,
                        "new": [c["id"] for c in plan.new], "recheck": [c["id"] for c in plan.recheck],
                        "recorded": out is not None, "out": out, **(extra or {})})
    elif out is None:
        terminal.show_json(rules.cases_json(plan))
    terminal.say(*rules.summary_lines(plan, out, has_difficult), err=True)
    return 0
