"""The README's `results`: what the tuning has reached so far, its token figures, and two mermaid
`xychart-beta` charts (tokens and model calls per batch, without vs with memory). Pure: no I/O.

Two kinds of token figures exist and the section names both: USAGE.md counts the model usage recorded with
`batchlog tune usage`; a grade's `--tokens` is the figure the batches table, the log and the charts use.
"""

from __future__ import annotations

from batchlog.projections.tune.batch_mjs import rules
from batchlog.projections.tune.stage import batch_passed
from batchlog.projections.tune.batch_mjs.inputs import history
from batchlog.projections.tune.views.readme.facts import (
    code,
    codes,
    kept_batches,
    numbers_text,
    passing_run,
    percent,
    plural,
    run_calls,
    run_tokens,
    token_change,
)
from batchlog.projections.tune.state import FINAL, TuneState
from batchlog.projections.tune.views.usage import total

NOT_STARTED = "No tuning has been started in this folder yet."


def results(state: TuneState, base: str = "") -> str:
    """Results so far: cases passing, instructions changed, memory, difficult counts, tokens, the charts.
    `base` leads from the README's folder to the tuning's (USAGE.md is there)."""
    if state.settings is None:
        return NOT_STARTED
    past = history(state)
    passed = [batch for batch in state.batches if batch_passed(state, batch.number)]
    cheaper = [change for batch in passed if (change := token_change(state, batch.number)) is not None]
    kept = state.last_good_memory
    memory = "none kept yet" if kept is None else f"{plural(kept.nodes, 'node')} ({kept_batches(state)})"
    if cheaper:
        memory += f"; with memory, tokens changed by {percent(min(cheaper))} to {percent(max(cheaper))}"
    lines = [
        f"- **Cases passing:** {_cases_line(state, passed)}.",
        f"- **Instructions changed:** {_changed_files(state)}.",
        f"- **Memory:** {memory}.",
        f"- **Difficult cases:** {len(rules.open_difficult(past))} open, {len(rules.fixed_difficult(past))} "
        f"fixed, {len(rules.stuck_difficult(past))} stuck{_withdrawn(state)}.",
        f"- **Tokens:** {_tokens_line(state, base)}",
    ]
    return "\n".join(lines + charts(state))


def _withdrawn(state: TuneState) -> str:
    count = sum(1 for entry in state.difficult if entry.withdrawn is not None)
    return f", {count} withdrawn (a regrade said the case was not wrong in its run)" if count else ""


def _cases_line(state: TuneState, passed: list) -> str:
    finals = state.runs_of(0, FINAL)
    selected = len(state.selection)
    if finals and finals[-1].verdict == "PASSED":
        stuck = finals[-1].wrong
        reported = f"; stuck, reported: {codes(stuck)}" if stuck else ""
        return f"{selected - len(stuck)} of {selected} (the final check passed{reported})"
    chosen = set(state.selection)
    passing = {case for batch in passed for case in batch.cases if case in chosen}
    where = f" (batches {numbers_text([b.number for b in passed])})" if passed else ""
    return f"{len(passing)} of {selected}{where}"


def _changed_files(state: TuneState) -> str:
    changes: dict[str, int | None] = {}
    for run in state.runs:
        for change in run.changes:
            known = changes.get(change.file, 0)
            changes[change.file] = None if known is None or change.lines is None else known + change.lines
    return ", ".join(f"{code(name)} ({_lines(lines)})" for name, lines in changes.items()) or "none yet"


def _lines(count: int | None) -> str:
    if count is None:
        return "changed"
    return f"{'+' if count >= 0 else '−'}{abs(count)} {'line' if abs(count) == 1 else 'lines'}"


def _tokens_line(state: TuneState, base: str) -> str:
    """USAGE.md's total, said to be the usage records; the grades' `--tokens` beside it when they differ."""
    usage = total(state)
    with_usage = sum(1 for run in state.runs if run.usage)
    link = f"[USAGE.md]({base}USAGE.md)"
    if with_usage:
        calls = f"{usage.calls:,} model {'call' if usage.calls == 1 else 'calls'}"
        line = (f"{usage.tokens:,} in {calls} over {plural(with_usage, 'run')}, as "
                f"recorded with `batchlog tune usage` - by model, batch and run in {link} (`batchlog tune "
                "usage-report`, never written by hand).")
    else:
        line = f"no model usage recorded with `batchlog tune usage` yet, so {link} counts none."
    graded = [run.tokens for run in state.runs if run.tokens is not None]
    if graded and sum(graded) != usage.tokens:
        line += (f" The grades' `--tokens` add up to {sum(graded):,} over {plural(len(graded), 'run')}: the "
                 f"figure the batches table, the log and the charts use, which {link} does not count.")
    return line


def chart_rows(state: TuneState) -> list[tuple[int, int | None, int | None, int | None, int | None]]:
    """Per built batch: (number, tokens without, tokens with, calls without, calls with), each from the run
    that passed its half (else its last graded run that counts), None when unknown."""
    rows = []
    for batch in state.batches:
        without = passing_run(state.runs_of(batch.number, "nomem"))
        with_ = passing_run(state.runs_of(batch.number, "mem"))
        rows.append((batch.number,
                     run_tokens(without) if without else None, run_tokens(with_) if with_ else None,
                     run_calls(without) if without else None, run_calls(with_) if with_ else None))
    return rows


def charts(state: TuneState) -> list[str]:
    """The two xychart-beta charts (in ```mermaid fences), with the words that say how to read them; nothing
    before a batch has a figure."""
    rows = [row for row in chart_rows(state) if any(value is not None for value in row[1:])]
    if not rows:
        return []
    return [
        "",
        f"Per batch, {SERIES} (the run that passed each half, else its last graded run; 0: no figure yet). "
        "Each value axis starts at 0.",
        "",
        *xychart("Tokens per batch", "tokens", rows, 1, 2),
        "",
        *xychart("Model calls per batch", "model calls", rows, 3, 4),
    ]


SERIES = "bars: without memory, line: with memory"  # xychart-beta draws no legend: each title says it


def xychart(title: str, axis: str, rows: list, without: int, with_: int) -> list[str]:
    """One chart: x the batch numbers, a bar series without memory and a line series with it, its title saying
    which is which, its value axis from 0 (from the smallest value, the default, a bar twice another's height
    would not be twice its value)."""
    def series(index: int) -> str:
        return "[" + ", ".join(str(row[index] or 0) for row in rows) + "]"

    largest = max((row[index] or 0 for row in rows for index in (without, with_)), default=0)
    return [
        "```mermaid",
        "xychart-beta",
        f'    title "{title} ({SERIES})"',
        "    x-axis \"batch\" [" + ", ".join(f'"{row[0]}"' for row in rows) + "]",
        f'    y-axis "{axis}" 0 --> {max(largest, 1)}',
        f"    bar {series(without)}",
        f"    line {series(with_)}",
        "```",
    ]
