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

from bench.engine_cases import bare_loads, floor_ratio, typed_loads
from bench.measure import Row, Timing, side_by_side, wall_seconds
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
    return [str(script)] if script.is_file() else [sys.executable, "-m", "batchlog.cli.main"]


def process_rows(folder: Path, rounds: int, events: int) -> list[Row]:
    """CLI calls as processes, by the wall clock, each alternating with its baseline process."""
    return [_view_from_snapshot(folder, rounds, events), _quick_batch_next(folder, rounds),
            _tune_next_batch(folder, rounds), _tune_status(folder, rounds)]


def _pair(ours: list[str], theirs: list[str], cwd: Path, rounds: int) -> Timing:
    """Warm disk and bytecode caches first (one untimed call each), then side by side."""
    _process(ours, cwd)
    _process(theirs, cwd)
    return side_by_side(lambda: _process(ours, cwd), lambda: _process(theirs, cwd), rounds, clock=wall_seconds)


_IMPORT_FLOOR = [sys.executable, "-c", "import attrs, orjson"]
_BARE_LOOP = ("import orjson, sys\nwith open(sys.argv[1], 'rb') as fh:\n    for line in fh:\n"
              "        orjson.loads(line)\n")


def _view_from_snapshot(folder: Path, rounds: int, events: int) -> Row:
    """`batchlog tune status` on a long tuning log whose snapshot is up to date, against a process that
    only runs the bare orjson.loads loop over the same log."""
    registry, tune, _, _ = _tune()
    path = folder / "tuning-process" / "events.jsonl"
    path.parent.mkdir()
    write_log(path, registry, tuning_events(events))
    EventLog(path, registry, snapshots=Snapshots(every=1)).replay(tune)
    bare_loop = [sys.executable, "-c", _BARE_LOOP, str(path)]
    timing = _pair([*_batchlog(), "tune", "status", "--dir", str(path.parent)], bare_loop, path.parent, rounds)
    floor = _pair(_IMPORT_FLOOR, bare_loop, path.parent, rounds)  # a process that only starts and imports
    return Row.timed(f"`batchlog tune status` as a process, snapshot up to date, {events:,} events "
                     "(vs a process running the bare orjson.loads loop over the log)", timing, 0.15, floor=floor.ratio)


def _quick_batch_next(folder: Path, rounds: int) -> Row:
    case = "`batchlog quick-batch next` as a process (vs `python -c \"import attrs, orjson\"`)"
    if not QUICK_BATCH_SEED.is_file():
        return Row(case, None, None, "s", 1.3, note=f"seed not found: {QUICK_BATCH_SEED}")
    work = folder / "qb-process"
    work.mkdir()
    targets = work / "targets.txt"
    targets.write_text("".join(f"https://example.org/repo-{n}\n" for n in range(1, 51)))
    ours, theirs = work / "ours", work / "seed"
    _process([*_batchlog(), "quick-batch", "start", str(targets), "--run-dir", str(ours)], work)
    _process([sys.executable, str(QUICK_BATCH_SEED), "start", str(targets), "--run-dir", str(theirs)], work)
    seed_next = [sys.executable, str(QUICK_BATCH_SEED), "next", "--run-dir", str(theirs)]
    ours_next = [*_batchlog(), "quick-batch", "next", "--run-dir", str(ours)]
    timing = _pair(ours_next, _IMPORT_FLOOR, work, rounds)
    seed = _pair(ours_next, seed_next, work, rounds)
    return Row.timed(case, timing, 1.3, note=f"{seed.ratio:.2f}× the seed's next")


def _zen_folder(work: Path) -> tuple[Path, Path]:
    """A zen-finetune folder for batch.mjs and a batchlog tuning of the same 64 cases; (script, tuning dir)."""
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
    return script, ours


def _tune_process_folder(folder: Path) -> tuple[Path, Path] | None:
    work = folder / "tune-process"
    if (work / "finetune").is_dir():
        return work / "zen" / ".github" / "skills" / "zen-finetune" / "scripts" / "batch.mjs", work / "finetune"
    if not BATCH_MJS.is_file() or shutil.which("node") is None:
        return None
    work.mkdir()
    return _zen_folder(work)


def _tune_next_batch(folder: Path, rounds: int) -> Row:
    return _tune_vs_node("`batchlog tune next-batch` preview as a process (vs `node batch.mjs next`)",
                         ["next-batch"], ["next"], folder, rounds)


def _tune_status(folder: Path, rounds: int) -> Row:
    return _tune_vs_node("`batchlog tune status` as a process (vs `node batch.mjs`)", ["status"], [], folder, rounds)


def _tune_vs_node(case: str, ours_args: list[str], node_args: list[str], folder: Path, rounds: int) -> Row:
    """A `batchlog tune` command against batch.mjs on the same tuning, with the import floor beside it."""
    found = _tune_process_folder(folder)
    if found is None:
        return Row(case, None, None, "s", 1.0, note="batch.mjs or node not found")
    script, ours = found
    node = [shutil.which("node"), str(script), *node_args]
    timing = _pair([*_batchlog(), "tune", *ours_args, "--dir", str(ours)], node, ours.parent, rounds)
    floor = _pair(_IMPORT_FLOOR, node, ours.parent, rounds)
    return Row.timed(case, timing, 1.0, floor=floor.ratio)
