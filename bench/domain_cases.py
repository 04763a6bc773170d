"""The loops' rows, in process: tune status and the quick batch replayed, a view from a snapshot."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path
from typing import Any

from bench.engine_cases import bare_loads, floor_ratio, typed_loads
from bench.measure import Row, side_by_side
from bench.workloads import (
    quick_batch_events,
    seed_batch_lines,
    tuning_events,
    usage_events,
    write_lines,
    write_log,
)
from batchlog.engine import EventLog, open_log
from batchlog.engine.snapshots.file import Snapshots
from batchlog.engine.snapshots.key import key_id

# The seeds: $BATCHLOG_SEEDS, else ../shared/seeds/extracted beside the checkout (as the tests find them).
SEEDS = Path(os.environ.get("BATCHLOG_SEEDS") or Path(__file__).resolve().parents[2] / "shared/seeds/extracted")
QUICK_BATCH_SEED = SEEDS / "skf-quick-batch.py"
BATCH_MJS = SEEDS / "batch.mjs"


def _tune() -> tuple[Any, Any, Any, Any]:
    from batchlog.cli.tune.log import tuning_types
    from batchlog.projections.tune.decider import without_usage
    from batchlog.projections.tune.views.status import next_step, progress

    registry = tuning_types()  # what `batchlog tune` reads with (cli/tune/log.py)
    # What `tune status` and `tune next` replay (cli/tune/log.py): the tuning without its usage reports.
    return registry, without_usage(registry.by_name), progress, next_step


def tune_rows(folder: Path, events: int, rounds: int) -> list[Row]:
    """`tune status` from a full replay against orjson.loads, and status + next from a snapshot after 0.1%
    new events (usage of the run in progress, where a real tuning's events go)."""
    registry, tune, progress, next_step = _tune()
    path = tuning_log(folder)
    end = write_log(path, registry, tuning_events(events))

    def status(log: EventLog) -> object:
        return progress(log.replay(tune).state)

    bare_loads(path)  # the page cache warm for both sides
    timing = side_by_side(lambda: status(EventLog(path, registry)), lambda: bare_loads(path), rounds)
    rows = [Row.timed(f"tune status, full replay of {events:,} tuning events (vs orjson.loads loop)", timing, 1.5,
                      floor=floor_ratio(path, lambda: bare_loads(path), rounds))]

    state = EventLog(path, registry, snapshots=Snapshots(every=1)).replay(tune).state  # a snapshot at the end
    snapshot_dir = Snapshots.key_folder(path, key_id())
    kept = {p.name: p.read_bytes() for p in snapshot_dir.iterdir()}
    new = new_events(events)
    write_log(path, registry, usage_events(state.runs[-1].name, new, start=10**6), after=end)

    def restore_snapshot() -> None:
        for name, data in kept.items():
            (snapshot_dir / name).write_bytes(data)

    def status_and_next(log: EventLog) -> object:
        state = log.replay(tune).state
        return progress(state), next_step(state)

    timing = side_by_side(lambda: status_and_next(open_log(path, registry)),
                          lambda: status_and_next(EventLog(path, registry)), rounds, prepare=restore_snapshot)
    # The least a view from a snapshot of a changed log must do: read the bytes before the snapshot's line and
    # check their SHA-256 (engine/snapshots/file.py: an edit there would change a full replay's answer).
    floor = side_by_side(lambda: digest_of(path, end.offset), lambda: status_and_next(EventLog(path, registry)),
                         rounds).ratio
    rows.append(Row.timed(f"tune status + next from a snapshot, {new:,} new events (0.1%) on {events:,} "
                          "(vs full replay)", timing, 0.05, floor=floor))
    return rows


def digest_of(path: Path, stop: int) -> str:
    """The SHA-256 of the first `stop` bytes of `path`, read in the snapshot check's chunks."""
    from hashlib import sha256

    from batchlog.engine.snapshots.file import CHUNK_BYTES

    digest = sha256()
    with open(path, "rb", buffering=0) as fh:
        while stop > 0:
            chunk = fh.read(min(CHUNK_BYTES, stop))
            if not chunk:
                break
            digest.update(chunk)
            stop -= len(chunk)
    return digest.hexdigest()


def tuning_log(folder: Path) -> Path:
    path = folder / "tuning" / "events.jsonl"
    path.parent.mkdir(exist_ok=True)
    return path


def new_events(events: int) -> int:
    """0.1% of a log's events: what a tuning adds between two views of a long log."""
    return max(1, events // 1000)


QUICK_BATCH_MAX_EVENTS = 200_001  # a start event of 100,000 targets (~9 MiB) and their two events each


def _seed_module() -> Any:
    spec = importlib.util.spec_from_file_location("skf_quick_batch_seed", QUICK_BATCH_SEED)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def quick_batch_rows(folder: Path, events: int, rounds: int) -> list[Row]:
    """The quick batch's replay against the seed's load() on the same events."""
    # Its start event lists every target on one line: past ~200,000 targets that line would pass the 16 MiB a
    # log line may hold (engine/lines.py), so the full run replays a batch of 100,000 targets.
    events = min(events, QUICK_BATCH_MAX_EVENTS)
    case = f"quick batch, replay of {events:,} events (vs the seed's load())"
    if not QUICK_BATCH_SEED.is_file():
        return [Row(case, None, None, "s", 1.25, note=f"seed not found: {QUICK_BATCH_SEED}")]
    from batchlog.projections.quick_batch.events import REGISTRY
    from batchlog.projections.quick_batch.decider import QUICK_BATCH

    seed = _seed_module()
    ours_dir, seed_dir = folder / "qb-batchlog", folder / "qb-seed"
    ours_dir.mkdir()
    seed_dir.mkdir()
    write_log(ours_dir / "events.jsonl", REGISTRY, quick_batch_events(events))
    write_lines(seed_dir / seed.BATCH_FILE, seed_batch_lines(events))
    view = QUICK_BATCH
    log = ours_dir / "events.jsonl"
    timing = side_by_side(lambda: EventLog(log, REGISTRY).replay(view), lambda: seed.load(seed_dir), rounds)
    typed = side_by_side(lambda: typed_loads(log, REGISTRY, view), lambda: seed.load(seed_dir), rounds)
    return [Row.timed(case, timing, 1.25, floor=floor_ratio(log, lambda: seed.load(seed_dir), rounds),
                      note=f"typed floor {typed.ratio:.2f}× (parse, hash, cls(**data), Event, fold; no check)")]
