"""`batchlog quick-batch status` and `import`: the batch's progress, and a seed batch.jsonl taken over."""

from __future__ import annotations

import json
import os
from itertools import islice
from pathlib import Path
from typing import Any

from batchlog.cli.loop_log import decided, read_state, state_of
from batchlog.cli.quick_batch import files as io
from batchlog.cli.store import Store, shown
from batchlog.engine.errors import UnreadableFile
from batchlog.engine.files import read_user_file
from batchlog.projections.errors import BadInput
from batchlog.projections.quick_batch import decide, progress
from batchlog.projections.quick_batch.commands import ImportSeedBatch
from batchlog.projections.quick_batch.decider import QUICK_BATCH


def status(run_dir: Path, as_json: bool, at: int | None = None, store: Store | None = None) -> str:
    """The batch's progress, as text or as one JSON object. A log holding events newer than this batchlog is shown
    without them, with a warning on stderr (and `newer` in the JSON object), as every view of a loop."""
    log = io.open_log(run_dir, store, notes=True)
    archived = archived_log(run_dir)
    if archived is not None:
        log = io.open_log_at(archived[1])
    else:
        io.require_log(log, run_dir)
    read = read_state(log, QUICK_BATCH, at)
    decide.require_batch(read.state, run_dir.as_posix())
    data = progress.progress(read.state, run_dir.as_posix())
    if archived is not None:
        data["archived"] = {"summary": archived[0].as_posix(), "archive": archived[1].as_posix()}
    data.update(read.fields())
    return json.dumps(data, separators=(",", ":")) if as_json else progress.progress_text(data)


def archived_log(run_dir: Path) -> tuple[Path, Path] | None:
    """(summary, archived log) of a batch summarized clean, its run folder removed; None otherwise."""
    from batchlog.cli.quick_batch.effects import archive_note

    if run_dir.exists():
        return None
    try:
        note = json.loads(read_user_file(archive_note(run_dir), "archive note", io.SMALL_BYTES))
        summary, archive = (Path(os.path.normpath(run_dir.parent / note[key])) for key in ("summary", "archive"))
    except (UnreadableFile, ValueError, TypeError, KeyError):
        return None
    return (summary, archive) if archive.is_file() else None


def import_seed_batch(run_dir: Path, store: Store | None = None) -> dict[str, Any]:
    """Write the log a seed batch.jsonl implies (torn and bad lines skipped, as the seed reads it). Run again, it
    answers as it did and appends nothing, however far the batch went on since."""
    from batchlog.projections.quick_batch.seed_import import events_of_seed_lines  # only `import` reads seed lines

    source = run_dir / io.SEED_BATCH_FILE
    try:
        data = read_user_file(source, f"seed's {io.SEED_BATCH_FILE}", io.SEED_LOG_BYTES)
    except UnreadableFile as e:
        if e.missing:
            raise BadInput(f"no {io.SEED_BATCH_FILE} to import in {run_dir.as_posix()}: {e.reason}") from None
        raise BadInput(e.message, path=source.as_posix()) from None
    events = events_of_seed_lines(data, run_dir.as_posix())
    log = io.open_log(run_dir, store, notes=True)
    command = ImportSeedBatch(shown(log), events)
    if log.exists():  # the import is for a run folder batchlog never wrote in: this is a repeat of it, or refused
        decide.require_same_import(command, tuple(event.data for event in islice(log.scan(), len(events))))
        state = state_of(log, QUICK_BATCH, len(events))  # the batch as the import left it
    else:
        state = decided(log, QUICK_BATCH, command)[0].state
    return {"status": "imported", "run_dir": run_dir.as_posix(), "log": shown(log),
            "events": len(events), "targets_total": len(state.started.targets),
            "recorded": len(state.results), "summarized": state.summary is not None}
