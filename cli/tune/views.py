"""The bodies of the read-only tuning views `tune status`, `tune next` and the `tune next-batch` preview.

Plain functions, no typer: the typer commands in cli/tune/commands.py call them, and so does the fast path
(cli/fast_views.py) that runs them without building the typer app. Each reads the log, asks one view,
renders, and returns the exit code; errors are raised for the caller to report.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from batchlog.cli import terminal
from batchlog.cli.store import Store
from batchlog.cli.tune.log import place, read_tuning
from batchlog.projections.tune.batch_mjs import rules
from batchlog.projections.tune.decide.refusals import require_tuning, require_unfinished
from batchlog.projections.tune.batch_mjs.inputs import history
from batchlog.projections.tune.views.status import next_step, progress, progress_figures

# The largest whole number a count, size or seed may be: JavaScript's Number.MAX_SAFE_INTEGER, as batch.mjs
# and zen-finetune's files hold these numbers exactly only up to it (and the log's JSON stays 64-bit).
LARGEST = 2**53 - 1


def emit(as_json: bool, lines: list[str], data: dict[str, Any]) -> int:
    """The lines on stdout, or `data` as one JSON object with --json; exit 0."""
    if as_json:
        terminal.json_line(data)
    else:
        terminal.say(*lines)
    return 0


def status_view(folder: Path, at: int | None, as_json: bool, size: int | None, store: Store | None = None) -> int:
    """`tune status`: batch.mjs's progress lines (`size`: its -m)."""
    read = read_tuning(folder, at, usage=False, store=store)
    if as_json:
        return emit(True, [], {**progress_figures(read.state, size), **read.fields()})
    return emit(False, progress(read.state, size), {})


def next_view(folder: Path, at: int | None, as_json: bool, store: Store | None = None) -> int:
    """`tune next`: the one next step, in words, and the exact command to run; then the optional records around
    it (the usage a run still lacks is among them, hence the replay with usage)."""
    read = read_tuning(folder, at, store=store)
    step = next_step(read.state, place(folder, store), newer=None if read.newer is None else str(read.newer["first"]))
    return emit(as_json, step.lines(), {**step.as_json(), **read.fields()})


def next_batch_view(folder: Path, at: int | None, as_json: bool, size: int | None, recheck: int | None,
                    seed: int | None, store: Store | None = None) -> int:
    """`tune next-batch` without -o: the next batch by batch.mjs's rules, shown and not recorded."""
    read = read_tuning(folder, at, usage=False, store=store)
    require_tuning(read.state)
    require_unfinished(read.state, "there is no batch left to build")
    plan = rules.next_batch(history(read.state), size=size, recheck=recheck, seed=seed)
    return show_batch(plan, None, as_json, bool(read.state.difficult), read.fields())


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
