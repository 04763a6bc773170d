"""How `quick-batch watch` draws a batch on a terminal (rich): a bar over the targets (done, failed, in
progress, pending), the target being worked on, the time since the start and the estimate of the time left, the
last outcomes. Only the layout is here: the figures are projections/quick_batch/watch.py's."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.text import Text

from batchlog.cli.terminal import escaped_values
from batchlog.cli.watch_screen import bar, clock_time, columns, duration, note_line, rows
from batchlog.projections.quick_batch.watch import BatchWatch

# The glyph and colour of each place: glyphs that differ, so a copy of the screen's text reads the same.
DONE, FAILED, IN_PROGRESS, PENDING = ("█", "green"), ("▓", "red"), ("▒", "yellow"), ("░", "dim")


def batch_screen(view: BatchWatch, note: str | None) -> RenderableType:
    """The whole screen of a batch (every string from the log written as the terminal's door writes it)."""
    view, note = escaped_values((view, note))
    title = Text.assemble((f"Quick batch {view.run_dir}", "bold"), f" · {view.workflow} · {view.source}")
    places = [(view.done, *DONE, "done"), (view.failed, *FAILED, "failed"),
              (view.in_progress, *IN_PROGRESS, "in progress"), (view.pending, *PENDING, "pending")]
    targets = Text.assemble(bar([(count, glyph, style) for count, glyph, style, _ in places[:3]], view.total,
                                PENDING[0]), f"  {view.done + view.failed} of {view.total} ended\n")
    for index, (count, glyph, style, words) in enumerate(places):
        targets.append("  " if index else "")
        targets.append(glyph, style=style)
        targets.append(f" {count} {words}")
    lines: list[tuple[str, RenderableType]] = [
        ("targets", targets),
        ("summarized" if view.summarized else "now", _now(view)),
        ("time", Text(_time(view))),
        ("last outcomes", _outcomes(view)),
    ]
    shown_note = note_line(note)
    return Group(title, rows(lines), *([shown_note] if shown_note is not None else []))


def _now(view: BatchWatch) -> Text:
    if view.summarized:
        return Text(f"{view.done} succeeded, {view.failed} failed", style="bold")
    current = view.current
    if current is None:
        return Text("no target handed out" + (" yet" if view.pending else ""))
    return Text.assemble((f"{current['batch']}  {current['target']}", "bold yellow"),
                         f"  since {clock_time(current['since'])} ({duration(view.current_seconds)})")


def _time(view: BatchWatch) -> str:
    elapsed = f"{duration(view.elapsed)} {'in all' if view.summarized else 'elapsed'}"
    if view.left is None:
        return elapsed + ("" if view.summarized else " · time left: known once a target has ended")
    finished = view.done + view.failed
    return (f"{elapsed} · about {duration(view.left)} left ({duration(view.per_target)} a target, from "
            f"{finished} that ended)")


def _outcomes(view: BatchWatch) -> Text:
    if not view.last:
        return Text("none yet")
    return columns([[str(row["batch"]), row["target"],
                     Text("done", style="green") if row["status"] == "done"
                     else Text(f"fail {row['exit_code']} {row['error_code']}", style="red"),
                     duration(row["seconds"])] for row in view.last], justify_first=True)
