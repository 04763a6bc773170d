"""The loops' rows: tune status and the quick batch replayed, a view from a snapshot, CLI calls as processes."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import orjson

from bench.engine_cases import bare_loads, floor_ratio
from bench.measure import Row, side_by_side
from bench.workloads import (
    quick_batch_events,
    seed_batch_lines,
    tuning_events,
    usage_events,
    write_lines,
    write_log,
)
from engine import EventLog, Snapshots, open_log

# The seeds: $BATCHLOG_SEEDS, else ../shared/seeds/extracted beside the checkout (as the tests find them).
SEEDS = Path(os.environ.get("BATCHLOG_SEEDS") or Path(__file__).resolve().parents[2] / "shared/seeds/extracted")
QUICK_BATCH_SEED = SEEDS / "skf-quick-batch.py"
BATCH_MJS = SEEDS / "batch.mjs"
NEW_EVENTS = 1000


def _tune() -> tuple[Any, Any, Any, Any]:
    from projections.catalog import all_types
    from projections.tune.evolve import TUNE
    from projections.tune.views import next_step, progress

    return all_types(), TUNE, progress, next_step


def tune_rows(folder: Path, events: int, repeats: int) -> list[Row]:
    """`tune status` from a full replay against orjson.loads, and status + next from a snapshot."""
    registry, tune, progress, next_step = _tune()
    path = folder / "tuning" / "events.jsonl"
    path.parent.mkdir()
    end = write_log(path, registry, tuning_events(events))

    def status(log: EventLog) -> object:
        return progress(log.replay(tune).state)

    ours, baseline = side_by_side(lambda: status(EventLog(path, registry)), lambda: bare_loads(path), repeats)
    rows = [Row(f"tune status, full replay of {events:,} tuning events (vs orjson.loads loop)", ours, baseline,
                "s", 1.5, floor=floor_ratio(path, lambda: bare_loads(path), repeats))]

    EventLog(path, registry, snapshots=Snapshots(every=1)).replay(tune)  # a snapshot at the end of the log
    snapshot_dir = path.with_name(path.name + ".snap")
    kept = {p.name: p.read_bytes() for p in snapshot_dir.iterdir()}
    write_log(path, registry, usage_events("batch01-nomem-run1", NEW_EVENTS, start=10**6), after=end)

    def restore_snapshot() -> None:
        for name, data in kept.items():
            (snapshot_dir / name).write_bytes(data)

    def status_and_next(log: EventLog) -> object:
        state = log.replay(tune).state
        return progress(state), next_step(state)

    ours, baseline = side_by_side(lambda: status_and_next(open_log(path, registry)),
                                  lambda: status_and_next(EventLog(path, registry)), repeats,
                                  prepare=restore_snapshot)
    rows.append(Row(f"tune status + next from a snapshot, {NEW_EVENTS:,} new events on {events:,} (vs full replay)",
                    ours, baseline, "s", 0.05))
    return rows


def _seed_module() -> Any:
    spec = importlib.util.spec_from_file_location("skf_quick_batch_seed", QUICK_BATCH_SEED)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def quick_batch_rows(folder: Path, events: int, repeats: int) -> list[Row]:
    """The quick batch's replay against the seed's load() on the same events."""
    case = f"quick batch, replay of {events:,} events (vs the seed's load())"
    if not QUICK_BATCH_SEED.is_file():
        return [Row(case, None, None, "s", 0.5, note=f"seed not found: {QUICK_BATCH_SEED}")]
    from projections.quick_batch.events import REGISTRY
    from projections.quick_batch.evolve import projection

    seed = _seed_module()
    ours_dir, seed_dir = folder / "qb-batchlog", folder / "qb-seed"
    ours_dir.mkdir()
    seed_dir.mkdir()
    write_log(ours_dir / "events.jsonl", REGISTRY, quick_batch_events(events))
    write_lines(seed_dir / seed.BATCH_FILE, seed_batch_lines(events))
    view = projection()
    log = ours_dir / "events.jsonl"
    ours, baseline = side_by_side(lambda: EventLog(log, REGISTRY).replay(view), lambda: seed.load(seed_dir), repeats)
    return [Row(case, ours, baseline, "s", 0.5, floor=floor_ratio(log, lambda: seed.load(seed_dir), repeats))]


# -- CLI calls as processes -------------------------------------------------------------------------

def _environment(folder: Path) -> dict[str, str]:
    """As a user's shell runs them: bytecode cached (in the bench's folder, so nothing is written elsewhere)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(folder / "pycache")
    return env


def _process(args: list[str], cwd: Path) -> None:
    env = _environment(cwd.parent)
    done = subprocess.run(args, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if done.returncode not in (0, 1):
        raise RuntimeError(f"{' '.join(args)} exited {done.returncode}")


def _batchlog() -> list[str]:
    """The installed console script beside this interpreter (else the module)."""
    script = Path(sys.executable).with_name("batchlog")
    return [str(script)] if script.is_file() else [sys.executable, "-m", "cli.main"]


def process_rows(folder: Path, repeats: int) -> list[Row]:
    """`batchlog quick-batch next` and `batchlog tune next-batch` as processes against the seeds."""
    return [_quick_batch_next(folder, repeats), _tune_next_batch(folder, repeats)]


def _warm_side_by_side(ours: Any, theirs: Any, repeats: int) -> tuple[float, float]:
    """Warm disk cache and bytecode cache first (one untimed call each), then side by side."""
    ours()
    theirs()
    return side_by_side(ours, theirs, repeats)


def _quick_batch_next(folder: Path, repeats: int) -> Row:
    case = "`batchlog quick-batch next` as a process (vs the seed's next, same interpreter)"
    if not QUICK_BATCH_SEED.is_file():
        return Row(case, None, None, "s", 1.0, note=f"seed not found: {QUICK_BATCH_SEED}")
    work = folder / "qb-process"
    work.mkdir()
    targets = work / "targets.txt"
    targets.write_text("".join(f"https://example.org/repo-{n}\n" for n in range(1, 51)))
    ours, theirs = work / "ours", work / "seed"
    _process([*_batchlog(), "quick-batch", "start", str(targets), "--run-dir", str(ours)], work)
    _process([sys.executable, str(QUICK_BATCH_SEED), "start", str(targets), "--run-dir", str(theirs)], work)
    seed_next = [sys.executable, str(QUICK_BATCH_SEED), "next", "--run-dir", str(theirs)]
    ours_time, seed_time = _warm_side_by_side(
        lambda: _process([*_batchlog(), "quick-batch", "next", "--run-dir", str(ours)], work),
        lambda: _process(seed_next, work), repeats)
    # The floor: the interpreter with the libraries DESIGN.md names for event and state classes, doing nothing.
    least, seed_again = _warm_side_by_side(lambda: _process([sys.executable, "-c", "import attrs, orjson"], work),
                                           lambda: _process(seed_next, work), repeats)
    return Row(case, ours_time, seed_time, "s", 1.0, floor=least / seed_again)


def _tune_next_batch(folder: Path, repeats: int) -> Row:
    case = "`batchlog tune next-batch` preview as a process (vs node batch.mjs next)"
    node = shutil.which("node")
    if not BATCH_MJS.is_file() or node is None:
        return Row(case, None, None, "s", 1.5, note="batch.mjs or node not found")
    work = folder / "tune-process"
    cases = [{"id": f"case-{i:03d}", "class": f"class-{i % 4}", "complexity": "complex" if i % 3 == 0 else "simple",
              "input": f"question {i}"} for i in range(64)]
    zen = work / "zen"
    script = zen / ".github" / "skills" / "zen-finetune" / "scripts" / "batch.mjs"  # it finds the root 4 up
    script.parent.mkdir(parents=True)
    shutil.copyfile(BATCH_MJS, script)
    (zen / "finetune" / "runs").mkdir(parents=True)
    (zen / "finetune" / "dataset.json").write_bytes(orjson.dumps({"cases": cases}))
    (zen / "finetune" / "config.json").write_bytes(orjson.dumps({"minBatch": 3, "maxBatch": 10}))
    (zen / "finetune" / "selection.json").write_bytes(orjson.dumps({"batch": cases}))
    dataset = work / "dataset.json"
    dataset.write_bytes(orjson.dumps({"cases": cases}))
    ours = work / "finetune"
    _process([*_batchlog(), "tune", "init", "--dataset", str(dataset), "--dir", str(ours)], work)
    ours_time, node_time = _warm_side_by_side(
        lambda: _process([*_batchlog(), "tune", "next-batch", "--dir", str(ours)], work),
        lambda: _process([node, str(script), "next"], work),
        repeats)
    return Row(case, ours_time, node_time, "s", 1.5)
