"""`batchlog quick-batch watch`: the batch followed live (cli/watch.py), drawn by cli/quick_batch/watch_screen.py
on a terminal, else printed as JSON Lines: `quick-batch status --json`'s fields and the event that caused each
change. Ends (exit 0) once the batch is summarized."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from batchlog.cli.quick_batch import files as io
from batchlog.cli.quick_batch.status import archived_log
from batchlog.cli.store import Store
from batchlog.cli.watch import Watched, run_watch
from batchlog.engine.clock import now
from batchlog.engine.envelope import Event
from batchlog.projections.quick_batch import decide, progress
from batchlog.projections.quick_batch.decider import QUICK_BATCH
from batchlog.projections.quick_batch.state import Batch
from batchlog.projections.quick_batch.watch import batch_watch


def watch(run_dir: Path, as_json: bool, store: Store) -> int:
    """Follow the batch in `run_dir` (its log where `store` keeps it; the archived copy once it was summarized and
    its run folder removed) until it is summarized."""
    log = io.open_log(run_dir, store, notes=True)  # batchlog's own view, as status: it says the reader's notes
    archived = archived_log(run_dir)
    if archived is not None:
        log = io.open_log_at(archived[1])
    else:
        io.require_log(log, run_dir)
    shown = run_dir.as_posix()

    def fields(state: Batch) -> dict[str, Any]:
        decide.require_batch(state, shown)
        return progress.progress(state, shown)

    def screen(state: Batch, recent: tuple[Event, ...], note: str | None) -> Any:
        from batchlog.cli.quick_batch.watch_screen import batch_screen

        decide.require_batch(state, shown)
        return batch_screen(batch_watch(state, shown, now()), note)

    return run_watch(Watched(log, QUICK_BATCH, fields, screen, lambda state: state.summary is not None, clock=True),
                     as_json)
