"""How `tune watch` draws a tuning on a terminal (rich): the bars of cases used and batches built, the difficult
list, the runs by verdict, tokens and model calls, the next step and its command, the last events. Only the
layout is here: the figures are projections/tune/views/watch.py's."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.text import Text

from batchlog.cli.terminal import escaped_values
from batchlog.cli.watch_screen import bar, clock_time, columns, note_line, rows
from batchlog.engine.envelope import Event
from batchlog.projections.tune.views.watch import TuningWatch, event_words

DIFFICULT_SHOWN = 6  # entries listed; the rest are counted
VERDICT_STYLES = {"PASSED": "green", "CORRECT": "cyan", "WRONG": "red", "VOID": "magenta", "": "yellow"}
STATUS_STYLES = {"open": "red", "fixed": "green", "stuck": "magenta"}


def tuning_screen(view: TuningWatch, recent: tuple[Event, ...], note: str | None, address: str) -> RenderableType:
    """The whole screen of a tuning (every string from the log written as the terminal's door writes it)."""
    view, recent, note, address = escaped_values((view, recent, note, address))
    seq = f" · event {recent[-1].seq} at {clock_time(recent[-1].at)}" if recent else ""
    title = Text.assemble((f"Tuning {view.name}", "bold"), f" · {address}{seq}")
    ahead = "" if view.batches_total > view.batches_built else " (none ahead)"
    lines: list[tuple[str, RenderableType]] = [
        ("cases used", _bar(view.cases_used, view.selection)),
        ("batches built", _bar(view.batches_built, view.batches_total, ahead)),
        ("difficult", _difficult(view)),
        ("runs", _runs(view)),
        ("usage", Text(f"{view.tokens:,} tokens · {view.calls:,} model calls"
                       f" ({view.reporting} of {view.runs} runs report them)")),
        ("closed" if view.closed else "next", Text.assemble(view.step.words, "\n", (view.step.command, "bold cyan"))),
        ("last events", _events(recent)),
    ]
    shown_note = note_line(note)
    return Group(title, rows(lines), *([shown_note] if shown_note is not None else []))


def _bar(done: int, total: int, after: str = "") -> Text:
    return Text.assemble(bar([(done, "█", "green")], total), f"  {done} of {total}{after}")


def _difficult(view: TuningWatch) -> Text:
    counts = view.difficult_counts
    text = Text()
    for index, status in enumerate(("open", "fixed", "stuck")):
        text.append(" · " if index else "")
        text.append(f"{counts[status]} {status}", style=STATUS_STYLES[status])
    if not view.difficult:
        return text
    listed = [[Text(row.status, style=STATUS_STYLES.get(row.status, "")), row.case, ",".join(row.reasons),
               f"retries {row.retries}", f"added {row.added}" + (f", fixed {row.fixed}" if row.fixed else "")]
              for row in view.difficult[:DIFFICULT_SHOWN]]
    more = len(view.difficult) - DIFFICULT_SHOWN
    return Text("\n").join([text, columns(listed), *([Text(f"… and {more} more")] if more > 0 else [])])


def _runs(view: TuningWatch) -> Text:
    parts = [(f"{count} {verdict or 'not graded'}", VERDICT_STYLES[verdict])
             for verdict, count in view.verdicts.items() if count]
    if not parts:
        return Text("none yet")
    text = Text(f"{view.runs}: ")
    for index, (words, style) in enumerate(parts):
        text.append(" · " if index else "")
        text.append(words, style=style)
    return text


def _events(recent: tuple[Event, ...]) -> Text:
    if not recent:
        return Text("none yet")
    return columns([[str(event.seq), clock_time(event.at), event_words(event)] for event in reversed(recent)],
                   justify_first=True)
