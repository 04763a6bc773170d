"""`batchlog quick-batch status` and `import`: the batch's progress, and a seed batch.jsonl taken over."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from cli import quick_batch_io as io
from cli.past import require_within_log
from projections.errors import BadInput, Refused
from projections.quick_batch import decide, progress
from projections.quick_batch.evolve import projection
from projections.quick_batch.state import Batch


def status(run_dir: Path, as_json: bool, at: int | None = None) -> str:
    log = io.open_log(run_dir)
    io.require_log(log, run_dir)
    replayed = log.replay(projection(), at=at)
    require_within_log(at, replayed.position.seq, log.path)
    state = replayed.state
    decide.require_batch(state, run_dir.as_posix())
    data = progress.progress(state, run_dir.as_posix())
    return json.dumps(data, separators=(",", ":")) if as_json else progress.progress_text(data)


def import_seed_batch(run_dir: Path) -> dict[str, Any]:
    """Write the log a seed batch.jsonl implies (torn and bad lines skipped, as the seed reads it)."""
    from projections.quick_batch.seed_import import events_of_seed_lines  # only `import` reads seed lines

    source = run_dir / io.SEED_BATCH_FILE
    try:
        data = source.read_bytes()
    except OSError as e:
        raise BadInput(f"no {io.SEED_BATCH_FILE} to import in {run_dir.as_posix()}: {e.strerror or e}") from None
    events = events_of_seed_lines(data, run_dir.as_posix())
    log = io.open_log(run_dir)
    taken = Refused(f"{log.path.as_posix()} already exists: this batch was imported or started with batchlog; "
                    "go on with `batchlog quick-batch next`", path=log.path.as_posix())
    if log.exists():
        raise taken

    def write_all(state: Batch) -> list[Any]:
        if state.started is not None:
            raise taken
        return events

    appended = log.append(projection(), write_all)
    state = appended.state
    return {"status": "imported", "run_dir": run_dir.as_posix(), "log": log.path.as_posix(),
            "events": len(appended.events), "targets_total": len(state.started.targets),
            "recorded": len(state.results), "summarized": state.summary is not None}
