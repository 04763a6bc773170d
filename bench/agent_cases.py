"""What an agent pays, one process at a time: every agent-facing command run from the installed wheel, against
the seed doing the same job on the same data and against the process floors (`python -c "import attrs, orjson"`,
the least a process that uses the design's libraries pays, and `python -c pass`); and a view from an up-to-date
snapshot of a long log against the same view of a short one.

The tuning's commands run on the tuning in progress of fixtures/ (batch 3 built, its first run waiting to be
graded); batch.mjs runs on a zen-finetune folder laid out from the same history (tests/zenfolder.py). batch.mjs
writes nothing: its `node batch.mjs` is the seed row of the tuning's writes too (the agent writes findings.md and
difficult.json by hand). The quick batch's commands and the seed's run on a started batch of 50 targets each.
Every write runs on a fresh copy of its state, restored before each run and not timed.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable
from pathlib import Path

from bench.domain_cases import BATCH_MJS, QUICK_BATCH_SEED
from bench.engine_cases import disk_fsync_seconds
from bench.install import ROOT, Install
from bench.measure import Row
from bench.processes import Ran, Step, cpu_timing, environment, panel, run, wall_timing
from bench.workloads import tuning_events, write_log

FIXTURE = ROOT / "fixtures" / "tune-in-progress"
WRONG_CASE = "extraction-invoice-total"  # a new case of batch 3, whose first run waits to be graded
TARGETS = 50
IMPORT_FLOOR = "`python -c \"import attrs, orjson\"`"
SEED_WRITES = "which writes nothing; the agent writes findings.md or difficult.json by hand"
SNAPSHOT_SHORT_LOG = 1_000  # events; a tuning's runs are as many at this length as at any longer (workloads.py)


def process_rows(folder: Path, rounds: int, events: int, install: Install) -> list[Row]:
    """The agent's commands as processes, then `tune status` from an up-to-date snapshot (long log vs short)."""
    work = folder / "agents"
    work.mkdir()
    env = environment(folder)
    logs = _snapshot_logs(work, events, install, env)  # first: they must settle while the commands run
    rows = _command_rows(work, rounds, install, env)
    return [*rows, _snapshot_row(logs, rounds, install, env)]


# -- the commands agents run most -------------------------------------------------------------------

def _command_rows(work: Path, rounds: int, install: Install, env: dict[str, str]) -> list[Row]:
    python = str(install.python)
    steps = {"import": Step((python, "-c", "import attrs, orjson"), work),
             "pass": Step((python, "-c", "pass"), work)}
    steps.update(_tuning_steps(work / "tuning", install, env))
    steps.update(_quick_batch_steps(work / "quick-batch", install, env))
    runs = panel(steps, rounds, env)
    fsync = disk_fsync_seconds(work / "fsync.bin", rounds)
    rows: list[Row] = []
    for name, command, seed_name, seed, writes in _COMMANDS:
        note = f"an fsync here: {fsync * 1e3:.1f} ms (wall)" if writes else ""
        if seed_name in runs:
            rows.append(_row(_case(command, seed, writes), runs[name], runs[seed_name], runs, 1.0, note,
                             floor=cpu_timing(runs["import"], runs[seed_name]).ratio))
        else:
            missing = "batch.mjs or node not found" if seed_name.startswith("node") else \
                f"seed not found: {QUICK_BATCH_SEED}"
            rows.append(Row(_case(command, seed, writes), None, None, "s", 1.0, note=missing))
        rows.append(_row(_case(command, IMPORT_FLOOR, writes), runs[name], runs["import"], runs, 1.3, note))
    return rows


# (step, command as the table names it, seed step, seed as the table names it, whether the command writes)
_COMMANDS = (
    ("tune status", "`batchlog tune status`", "node status", "`node batch.mjs`", False),
    ("tune next", "`batchlog tune next`", "node status", "`node batch.mjs`, where the tuning stands", False),
    ("tune next-batch", "`batchlog tune next-batch` (preview)", "node next", "`node batch.mjs next`", False),
    ("tune run start", "`batchlog tune run start`", "node status", f"`node batch.mjs`, {SEED_WRITES}", True),
    ("tune run grade", "`batchlog tune run grade`", "node status", f"`node batch.mjs`, {SEED_WRITES}", True),
    ("tune difficult add", "`batchlog tune difficult add`", "node status", f"`node batch.mjs`, {SEED_WRITES}",
     True),
    ("tune usage", "`batchlog tune usage`", "node status", f"`node batch.mjs`, {SEED_WRITES}", True),
    ("quick-batch next", "`batchlog quick-batch next`", "seed next", "the seed's `next`", True),
    ("quick-batch record", "`batchlog quick-batch record`", "seed record", "the seed's `record`", True),
)


def _case(command: str, baseline: str, writes: bool) -> str:
    fresh = ", a write on a fresh copy of its state" if writes else ""
    return f"{command} as a process{fresh} (vs {baseline})"


def _row(case: str, ours: list[Ran], baseline: list[Ran], runs: dict[str, list[Ran]], high: float, note: str,
         floor: float | None = None) -> Row:
    """A command against its baseline by CPU time, its wall-time ratio and the bare interpreter's beside it."""
    timing = cpu_timing(ours, baseline)
    said = [f"wall {wall_timing(ours, baseline).ratio:.2f}×",
            f"`python -c pass` {cpu_timing(runs['pass'], baseline).ratio:.2f}×", *([note] if note else [])]
    return Row.timed(case, timing, high, floor=floor, note="; ".join(said))


def _restorer(live: Path, setup: Callable[[], object]) -> Callable[[], None]:
    """Bring the folder `live` to its state with `setup` once, keep a copy, and return what restores it: a write
    measured in `live` then finds the same state every run (at the same path, as the state names it)."""
    setup()
    kept = live.with_name(live.name + ".kept")
    shutil.copytree(live, kept, symlinks=True)

    def restore() -> None:
        shutil.rmtree(live)
        shutil.copytree(kept, live, symlinks=True)

    return restore


def _tuning_steps(work: Path, install: Install, env: dict[str, str]) -> dict[str, Step]:
    """The tuning's commands on the fixture's tuning in progress, and batch.mjs on the same history (when it and
    Node.js are there)."""
    work.mkdir()
    batchlog = str(install.batchlog)
    views = work / "in-progress"
    shutil.copytree(FIXTURE, views)
    grade = ("run", "grade", "batch03-nomem-run1", "--verdict", "WRONG", "--wrong", WRONG_CASE, "--llm-calls", "40",
             "--tokens", "100000")

    def tune(*args: str, folder: Path) -> tuple[str, ...]:
        return (batchlog, "tune", *args, "--dir", str(folder))

    def copied(name: str, *after: tuple[str, ...]) -> tuple[Path, Callable[[], None]]:
        """The fixture copied to `name`, with the commands `after` run on it: a write's state."""
        live = work / name

        def setup() -> None:
            shutil.copytree(FIXTURE, live)
            for args in after:
                run(tune(*args, folder=live), work, env)

        return live, _restorer(live, setup)

    steps = {"tune status": Step(tune("status", folder=views), work),
             "tune next": Step(tune("next", folder=views), work),
             "tune next-batch": Step(tune("next-batch", folder=views), work)}
    writes = {"tune run grade": ("grade", (), grade),
              "tune usage": ("usage", (), ("usage", "batch03-nomem-run1", "--model", "gpt-5", "--calls", "40",
                                           "--input-tokens", "90000", "--output-tokens", "10000")),
              "tune difficult add": ("difficult", (grade,), ("difficult", "add", WRONG_CASE, "--reason", "wrong",
                                                             "--run", "batch03-nomem-run1")),
              "tune run start": ("start", (grade,), ("run", "start", "--batch", "3", "--kind", "nomem"))}
    for name, (folder, before, args) in writes.items():
        live, restore = copied(folder, *before)
        steps[name] = Step(tune(*args, folder=live), work, restore)
    node = shutil.which("node")
    if node is not None and BATCH_MJS.is_file():
        script = str(_zen_folder(work / "zen", views / "events.jsonl"))
        steps.update({"node status": Step((node, script), work), "node next": Step((node, script, "next"), work)})
    return steps


def _zen_folder(root: Path, log: Path) -> Path:
    """A zen-finetune project holding batch.mjs and the `finetune/` folder of the tuning in `log`; the script."""
    from batchlog.cli.tune.log import tuning_types
    from batchlog.engine import EventLog
    from batchlog.projections.tune.batch_mjs.inputs import history
    from batchlog.projections.tune.decider import TUNE
    from tests.zenfolder import ZenFolder  # the differential tests' layout, so both compare the same folders

    folder = ZenFolder(root)
    folder.lay_out(history(EventLog(log, tuning_types()).replay(TUNE).state))
    return folder.script


def _quick_batch_steps(work: Path, install: Install, env: dict[str, str]) -> dict[str, Step]:
    """`next` on a started batch and `record` of its first target (staged a success), by batchlog and the seed
    (when it is there)."""
    work.mkdir()
    targets = work / "targets.txt"
    targets.write_text("".join(f"https://example.org/repo-{n}\n" for n in range(1, TARGETS + 1)), encoding="utf-8")
    python = str(install.python)
    tools = {"ours": (str(install.batchlog), "quick-batch")}
    if QUICK_BATCH_SEED.is_file():
        tools["seed"] = (python, str(QUICK_BATCH_SEED))
    steps: dict[str, Step] = {}
    for who, tool in tools.items():
        for command in ("next", "record"):
            live = work / who / command / "skf-quick-skill-1"  # the run folder's name names its targets' folders

            def setup(tool: tuple[str, ...] = tool, live: Path = live, command: str = command) -> None:
                live.parent.mkdir(parents=True)
                run((*tool, "start", str(targets), "--run-dir", str(live)), work, env)
                if command == "record":
                    run((*tool, "next", "--run-dir", str(live)), work, env)
                    (live / f"{live.name}-1" / "result-context.json").write_text(
                        '{"summary": {"quality_score": 87}}', encoding="utf-8")

            words = ("--batch", "1") if command == "record" else ()
            name = f"quick-batch {command}" if who == "ours" else f"seed {command}"
            steps[name] = Step((*tool, command, "--run-dir", str(live), *words), work, _restorer(live, setup))
    return steps


# -- a view from an up-to-date snapshot: a long log against a short one -----------------------------

def _snapshot_logs(work: Path, events: int, install: Install, env: dict[str, str]) -> dict[int, Path]:
    """Two tunings, `events` and SNAPSHOT_SHORT_LOG events long (the same runs, fewer usage reports), each with
    the snapshot its first `tune status` writes."""
    from batchlog.cli.tune.log import tuning_types

    folders = {}
    for n in {events, min(events, SNAPSHOT_SHORT_LOG)}:
        tuning = folders[n] = work / f"snapshot-{n}"
        tuning.mkdir()
        write_log(tuning / "events.jsonl", tuning_types(), tuning_events(n))
        run((install.batchlog, "tune", "status", "--dir", tuning), work, env)  # writes its snapshot
    return folders


def _snapshot_row(logs: dict[int, Path], rounds: int, install: Install, env: dict[str, str]) -> Row:
    """`tune status` from an up-to-date snapshot at any length costs what it costs on a short log: both logs
    settled (last changed over 2 s before, engine/snapshots/file.py), so neither view reads the bytes before the
    snapshot's line again."""
    from batchlog.engine.snapshots.file import SETTLED_NS

    (events, long), (few, short) = max(logs.items()), min(logs.items())
    wait = max((path / "events.jsonl").stat().st_ctime_ns for path in logs.values()) + SETTLED_NS - time.time_ns()
    if wait > 0:
        time.sleep(wait / 1e9)  # the commands' rows ran meanwhile; at tiny sizes they may take less
    work = long.parent
    steps = {"long": Step((str(install.batchlog), "tune", "status", "--dir", str(long)), work),
             "short": Step((str(install.batchlog), "tune", "status", "--dir", str(short)), work),
             "import": Step((str(install.python), "-c", "import attrs, orjson"), work)}
    runs = panel(steps, rounds, env)
    return Row.timed(f"`batchlog tune status` as a process, snapshot up to date, {events:,} events (vs the same "
                     f"on {few:,} events)", cpu_timing(runs["long"], runs["short"]), 1.2,
                     floor=cpu_timing(runs["import"], runs["short"]).ratio,
                     note=f"wall {wall_timing(runs['long'], runs['short']).ratio:.2f}×")
