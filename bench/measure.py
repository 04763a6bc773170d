"""How the bench measures: each case alternating with its baseline, the median of the per-round ratios.

In-process cases are timed by CPU time (`time.process_time`: what other processes on a shared
machine do to the wall clock does not count), cases that wait for a disk by the wall clock; cases
that start a process by that process's CPU time (bench/processes.py), or by the wall clock where the
work is done elsewhere (a database server). Also peak memory (tracemalloc), the table's row and the
table. No file is read or written here.
"""

from __future__ import annotations

import gc
import statistics
import time
import tracemalloc
from collections.abc import Callable, Sequence

import attrs

ROUNDS = 9  # in-process rows: at least this many rounds
PROCESS_ROUNDS = 15  # process rows: this many rounds, each running every command and baseline once
QUICK_PROCESS_ROUNDS = 5  # under --quick (the commands and their baselines are ~15 processes a round)


@attrs.frozen
class Timing:
    """A case and its baseline side by side: the median seconds of each and the ratio of every round."""

    ours: float
    baseline: float
    ratios: tuple[float, ...]

    @property
    def ratio(self) -> float:
        return statistics.median(self.ratios)


@attrs.frozen
class Row:
    """One line of the table.

    `ratio` is the median of the per-round ratios batchlog / baseline (else of the two figures),
    `spread` their min and max. The row passes when `low <= ratio <= high`; a row with `limit`
    passes when its batchlog figure is at most `limit` (in `unit`: a target in milliseconds, say).
    """

    case: str
    batchlog: float | None
    baseline: float | None
    unit: str
    high: float
    low: float = 0.0
    note: str = ""
    floor: float | None = None  # the ratio of the least work the case must do (measured the same way), if known
    ratios: tuple[float, ...] = ()
    limit: float | None = None

    @classmethod
    def timed(cls, case: str, timing: Timing, high: float, *, scale: float = 1.0, unit: str = "s",
              **more) -> Row:
        """A row from a `Timing`, its figures multiplied by `scale` (per event, in ms, …)."""
        return cls(case, timing.ours * scale, timing.baseline * scale, unit, high, ratios=timing.ratios, **more)

    @property
    def ratio(self) -> float | None:
        if self.batchlog is None or not self.baseline:
            return None
        if self.ratios:
            return statistics.median(self.ratios)
        return self.batchlog / self.baseline

    @property
    def spread(self) -> tuple[float, float] | None:
        return (min(self.ratios), max(self.ratios)) if self.ratios else None

    @property
    def skipped(self) -> bool:
        return self.ratio is None

    @property
    def passed(self) -> bool:
        if self.ratio is None:
            return False
        if self.limit is not None:
            return self.batchlog <= self.limit
        return self.low <= self.ratio <= self.high

    @property
    def target(self) -> str:
        if self.limit is not None:
            return f"≤ {self.limit:g} {self.unit}"
        return f"{self.low:.2f}–{self.high:.2f}" if self.low else f"≤ {self.high:g}×"

    def as_dict(self) -> dict:
        return {"case": self.case, "batchlog": self.batchlog, "baseline": self.baseline, "unit": self.unit,
                "ratio": self.ratio, "spread": self.spread, "rounds": len(self.ratios), "target": self.target,
                "passed": self.passed, "skipped": self.skipped, "note": self.note, "floor": self.floor}


def cpu_seconds(action: Callable[[], object], prepare: Callable[[], object] | None = None) -> float:
    """CPU seconds of this process while `action` runs (after `prepare`, untimed)."""
    if prepare is not None:
        prepare()
    gc.collect()
    began = time.process_time()
    action()
    return time.process_time() - began


def wall_seconds(action: Callable[[], object], prepare: Callable[[], object] | None = None) -> float:
    """Wall-clock seconds while `action` runs: for a case that starts a process."""
    if prepare is not None:
        prepare()
    began = time.perf_counter()
    action()
    return time.perf_counter() - began


def side_by_side(
    batchlog: Callable[[], object],
    baseline: Callable[[], object],
    rounds: int,
    *,
    prepare: Callable[[], object] | None = None,
    prepare_baseline: Callable[[], object] | None = None,
    clock: Callable[..., float] = cpu_seconds,
) -> Timing:
    """`rounds` rounds of the case and its baseline, which goes first alternating; each round gives a ratio."""
    ours, theirs = [], []
    for round_ in range(rounds):
        if round_ % 2:
            theirs.append(clock(baseline, prepare_baseline))
            ours.append(clock(batchlog, prepare))
        else:
            ours.append(clock(batchlog, prepare))
            theirs.append(clock(baseline, prepare_baseline))
    return Timing(statistics.median(ours), statistics.median(theirs), per_round(ours, theirs))


def per_round(ours: Sequence[float], theirs: Sequence[float]) -> tuple[float, ...]:
    """Each round's ratio (a round whose baseline took no measurable time gives none)."""
    return tuple(a / b for a, b in zip(ours, theirs) if b > 0)


def peak_bytes(action: Callable[[], object]) -> int:
    """The peak of Python allocations while `action` runs (tracemalloc), above what was there before."""
    gc.collect()
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        base, _ = tracemalloc.get_traced_memory()
        action()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak - base


def _figure(value: float | None) -> str:
    return "–" if value is None else f"{value:.3g}"


def table(rows: list[Row]) -> str:
    """The rows as a Markdown table: case, batchlog, baseline, ratio, target, pass/fail."""
    lines = ["| case | batchlog | baseline | ratio | min–max | target | result |",
             "| --- | ---: | ---: | ---: | ---: | --- | --- |"]
    for row in rows:
        ratio = "–" if row.ratio is None else f"{row.ratio:.3f}×"
        spread = "–" if row.spread is None or row.skipped else f"{row.spread[0]:.3f}–{row.spread[1]:.3f}"
        result = f"skipped: {row.note}" if row.skipped else ("pass" if row.passed else "FAIL")
        if row.floor is not None and not row.skipped:
            result += f" (floor {row.floor:.2f}×)"
        if row.note and not row.skipped:
            result += f"; {row.note}"
        lines.append(f"| {row.case} | {_figure(row.batchlog)} {row.unit} | {_figure(row.baseline)} {row.unit} | "
                     f"{ratio} | {spread} | {row.target} | {result} |")
    return "\n".join(lines)
