"""How the reports grow with the log: `tune audit`, `tune readme` and `log verify`, time per event at 10× and
100× the events of a tuning whose runs grow with its log (workloads.py), against that at 1×; and the peak memory
of `log migrate` as a process on a long log against a short one.

The reports are timed in process by CPU time, doing what their commands do past parsing the command line (the
same library calls, no snapshot: each replays the whole log). A log's time per event is what its events add to
the report of the tuning's first event alone (each round measures that too), so that what a report costs at any
length, its start, does not make the short log's events look dearer. A smaller log is done several times per
sample, so that each sample covers at least the 10× log's events.
"""

from __future__ import annotations

import itertools
import shutil
from collections.abc import Callable
from pathlib import Path

from bench.install import Install
from bench.measure import Row, cpu_seconds
from bench.processes import environment, peak_memory
from bench.workloads import growing_shape, growing_tuning_events, tuning_events, write_log

FACTORS = (1, 10, 100)
MIGRATE_SHORT_LOG = 1_000  # events


def base_events(events: int) -> int:
    """The 1× tuning's length for a run of `events`: 1,000 in the full run, 100 under --quick."""
    return min(max(events // 200, 20), 1_000)


def scale_rows(folder: Path, events: int, rounds: int, install: Install) -> list[Row]:
    """The reports' time per event at 10× and 100× the events, and migrate's peak memory."""
    from batchlog.cli.tune.log import tuning_types

    work = folder / "scale"
    work.mkdir()
    logs: dict[int, tuple[Path, int]] = {}
    for factor in (0, *FACTORS):  # 0: the tuning's first event alone
        batches, voids = growing_shape(max(factor, 1))
        path = work / f"tuning-{factor}x" / "events.jsonl"
        path.parent.mkdir()
        tuning = growing_tuning_events(batches, voids, base_events(events) * factor)
        end = write_log(path, tuning_types(), itertools.islice(tuning, 1) if factor == 0 else tuning)
        logs[factor] = (path, end.seq)
    rows: list[Row] = []
    for name, report in (("`tune audit`", _audit), ("`tune readme`", _readme), ("`log verify`", _verify)):
        rows += _per_event_rows(name, report, logs, rounds)
    return [*rows, _migrate_row(work, events, install)]


def _audit(path: Path) -> object:
    """What `tune audit` does: verify the log, replay the tuning, audit its events."""
    from batchlog.cli.loops import all_types
    from batchlog.cli.tune.log import tuning_types
    from batchlog.engine import EventLog
    from batchlog.engine.verify import verify
    from batchlog.projections.tune.decider import TUNE
    from batchlog.projections.tune.views.audit import LogReport, audit

    report = verify(EventLog(path, all_types()), all_types())
    log = EventLog(path, tuning_types())
    log.replay(TUNE)
    return audit(log.scan(), LogReport(report.trusted, "bench"))


def _readme(path: Path) -> object:
    """What `tune readme` does: replay the tuning, write every section of its README."""
    from batchlog.cli.tune.log import tuning_types
    from batchlog.engine import EventLog
    from batchlog.projections.tune.decider import TUNE
    from batchlog.projections.tune.views.readme.document import sections, update

    return update("", sections(EventLog(path, tuning_types()).replay(TUNE).state, folder=path.parent.name))


def _verify(path: Path) -> object:
    """What `log verify` does: check every line."""
    from batchlog.cli.loops import all_types
    from batchlog.engine import EventLog
    from batchlog.engine.verify import verify

    return verify(EventLog(path, all_types()), all_types())


def _per_event_rows(name: str, report: Callable[[Path], object], logs: dict[int, tuple[Path, int]],
                    rounds: int) -> list[Row]:
    """`report`'s CPU seconds per event on each log (above its seconds on the first event alone), the sizes taking
    turns every round; a row for each larger log against the 1× one."""
    samples: dict[int, list[float]] = {factor: [] for factor in FACTORS}
    for round_ in range(rounds):
        order = (0, *FACTORS) if round_ % 2 else (*reversed(FACTORS), 0)
        seconds = {}
        for factor in order:
            path, _ = logs[factor]
            times = max(1, FACTORS[1] // factor) if factor else FACTORS[1]
            seconds[factor] = cpu_seconds(lambda p=path, k=times: [report(p) for _ in range(k)]) / times
        for factor in FACTORS:
            samples[factor].append((seconds[factor] - seconds[0]) / (logs[factor][1] - logs[0][1]))
    small, (_, few) = samples[FACTORS[0]], logs[FACTORS[0]]
    rows = []
    for factor in FACTORS[1:]:
        ratios = tuple(a / b for a, b in zip(samples[factor], small))
        _, count = logs[factor]
        rows.append(Row(f"{name} time per event at {factor}× the events, runs growing with them ({count:,} events "
                        f"and {_runs(factor)} runs vs {few:,} and {_runs(FACTORS[0])})", _median(samples[factor]) * 1e6,
                        _median(small) * 1e6, "µs/event", 1.1, low=0.9, ratios=ratios,
                        note="per event: what the events add to the report of the first one alone"))
    return rows


def _runs(factor: int) -> int:
    batches, voids = growing_shape(factor)
    return 3 * batches + voids + 1


def _median(values: list[float]) -> float:
    return sorted(values)[len(values) // 2]


def _migrate_row(work: Path, events: int, install: Install) -> Row:
    """`batchlog log migrate` from a tuning's log to a new file, as a process: its peak resident memory on a log of
    `events` events against one of MIGRATE_SHORT_LOG."""
    from batchlog.cli.tune.log import tuning_types

    env = environment(work)
    few = min(events, MIGRATE_SHORT_LOG)
    peaks = {}
    for n, times in ((few, 2), (events, 1)):  # the short log's first run caches the bytecode; the last is measured
        source, copies = work / f"migrate-{n}.jsonl", work / f"migrated-{n}"
        write_log(source, tuning_types(), tuning_events(n))
        for _ in range(times):
            shutil.rmtree(copies, ignore_errors=True)
            copies.mkdir()
            peaks[n] = peak_memory((install.batchlog, "log", "migrate", source, copies / "events.jsonl"), work, env,
                                   install.python) / 2**20
        source.unlink()
        shutil.rmtree(copies)
    return Row(f"`batchlog log migrate` as a process, peak memory, {events:,} events (vs {few:,})", peaks[events],
               peaks[few], "MiB", 1.5, note="the whole process's peak resident memory (ru_maxrss)")
