"""The bodies of the tuning's views: `tune status`, `tune next`, `tune next-batch` (its preview; -o records, in
cli/tune/actions.py) and `tune difficult`.

Each takes its command's parameters by the names the typer declaration gives them (cli/tune/commands.py), reads the
log, asks one view, renders, and returns the exit code; errors are raised for the caller to report. No typer here:
the fast lane (cli/lane.py) calls these without building the typer app.
"""

from __future__ import annotations

from pathlib import Path

import attrs

from batchlog.cli.store import chosen
from batchlog.cli.tune.log import place, read_tuning
from batchlog.cli.tune.output import emit, show_batch
from batchlog.projections.tune.batch_mjs import rules
from batchlog.projections.tune.decide.refusals import require_tuning, require_unfinished
from batchlog.projections.tune.batch_mjs.inputs import history
from batchlog.projections.tune.views.status import difficult_rows, next_step, progress, progress_figures

# The largest whole number a count, size or seed may be: JavaScript's Number.MAX_SAFE_INTEGER, as batch.mjs
# and zen-finetune's files hold these numbers exactly only up to it (and the log's JSON stays 64-bit).
LARGEST = 2**53 - 1


def status_command(size: int | None, folder: Path, store_url: str | None, log_name: str | None, at: int | None,
                   as_json: bool) -> int:
    """`tune status`: batch.mjs's progress lines (`size`: its -m)."""
    read = read_tuning(folder, at, usage=False, store=chosen(store_url, log_name))
    if as_json:
        return emit(True, [], {**progress_figures(read.state, size), **read.fields()})
    return emit(False, progress(read.state, size), {})


def next_command(folder: Path, store_url: str | None, log_name: str | None, at: int | None, as_json: bool) -> int:
    """`tune next`: the one next step, in words, and the exact command to run; then the optional records around
    it (the usage a run still lacks is among them, hence the replay with usage)."""
    store = chosen(store_url, log_name)
    read = read_tuning(folder, at, store=store)
    step = next_step(read.state, place(folder, store), newer=None if read.newer is None else str(read.newer["first"]))
    return emit(as_json, step.lines(), {**step.as_json(), **read.fields()})


def next_batch_command(size: int | None, recheck: int | None, seed: int | None, out: str | None, folder: Path,
                       store_url: str | None, log_name: str | None, at: int | None, as_json: bool) -> int:
    """`tune next-batch`: the next batch by batch.mjs's rules, shown and not recorded; with -o (`out`) recorded and
    written (cli/tune/actions.py)."""
    if out is not None:
        from batchlog.cli.tune.actions import record_batch  # the decisions, imported by the commands that record

        return record_batch(size, recheck, seed, out, folder, store_url, log_name, as_json)
    read = read_tuning(folder, at, usage=False, store=chosen(store_url, log_name))
    require_tuning(read.state)
    require_unfinished(read.state, "there is no batch left to build")
    plan = rules.next_batch(history(read.state), size=size, recheck=recheck, seed=seed)
    return show_batch(plan, None, as_json, bool(read.state.difficult), read.fields())


def difficult_command(folder: Path, store_url: str | None, log_name: str | None, at: int | None,
                      as_json: bool) -> int:
    """`tune difficult` (and `tune difficult list`): case, why, status, retries, notes."""
    read = read_tuning(folder, at, usage=False, store=chosen(store_url, log_name))
    rows = difficult_rows(read.state)
    lines = [line for row in rows for line in (
        f"{row.case}  {','.join(row.reasons)}  {row.status}  retries {row.retries}  added {row.added}"
        + (f"  fixed {row.fixed}" if row.fixed else ""), *(f"    {note}" for note in row.notes))] or ["no difficult case"]
    return emit(as_json, lines, {"difficult": [attrs.asdict(row) for row in rows], **read.fields()})
