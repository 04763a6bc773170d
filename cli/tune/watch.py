"""`batchlog tune watch`: the tuning followed live (cli/watch.py), drawn by cli/tune/watch_screen.py on a terminal,
else printed as JSON Lines: `tune status --json`'s fields and the event that caused each change. Ends (exit 0)
once the tuning is closed: its final check passed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from batchlog.cli.store import Store, shown
from batchlog.cli.tune.log import tune_log
from batchlog.cli.watch import Watched, run_watch
from batchlog.engine.envelope import Event
from batchlog.projections.tune.decide.refusals import require_tuning
from batchlog.projections.tune.decider import TUNE
from batchlog.projections.tune.views.status import Place, progress_figures
from batchlog.projections.tune.views.watch import is_closed, tuning_watch


def watch_view(folder: Path, as_json: bool, store: Store) -> int:
    """Follow the tuning in `folder` (its log where `store` keeps it) until it is closed."""
    log = tune_log(folder, store)
    place = Place(str(folder), store.printed(folder))
    if not log.exists():
        require_tuning(TUNE.initial)  # what every view says of a folder without a tuning

    def screen(state: Any, recent: tuple[Event, ...], note: str | None) -> Any:
        from batchlog.cli.tune.watch_screen import tuning_screen

        return tuning_screen(tuning_watch(state, place), recent, note, shown(log))

    return run_watch(Watched(log, TUNE, progress_figures, screen, is_closed), as_json)
