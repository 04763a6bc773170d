"""How the bench measures: side by side with the baseline, alternating, median of repetitions.

Also peak memory (tracemalloc) and the table's row. No file is read or written here.
"""

from __future__ import annotations

import gc
import statistics
import time
import tracemalloc
from collections.abc import Callable

import attrs


@attrs.frozen
class Row:
    """One line of the table: `ratio` = batchlog / baseline, passed when `low <= ratio <= high`."""

    case: str
    batchlog: float | None
    baseline: float | None
    unit: str
    high: float
    low: float = 0.0
    note: str = ""
    floor: float | None = None  # the ratio of the least work the case must do (measured the same way), if known

    @property
    def ratio(self) -> float | None:
        if self.batchlog is None or not self.baseline:
            return None
        return self.batchlog / self.baseline

    @property
    def skipped(self) -> bool:
        return self.ratio is None

    @property
    def passed(self) -> bool:
        return self.ratio is not None and self.low <= self.ratio <= self.high

    @property
    def target(self) -> str:
        return f"{self.low:.2f}–{self.high:.2f}" if self.low else f"≤ {self.high:g}×"

    def as_dict(self) -> dict:
        return {"case": self.case, "batchlog": self.batchlog, "baseline": self.baseline, "unit": self.unit,
                "ratio": self.ratio, "target": self.target, "passed": self.passed, "skipped": self.skipped,
                "note": self.note, "floor": self.floor}


def _timed(action: Callable[[], object], prepare: Callable[[], object] | None) -> float:
    if prepare is not None:
        prepare()
    gc.collect()
    began = time.perf_counter()
    action()
    return time.perf_counter() - began


def side_by_side(
    batchlog: Callable[[], object],
    baseline: Callable[[], object],
    repeats: int,
    *,
    prepare: Callable[[], object] | None = None,
    prepare_baseline: Callable[[], object] | None = None,
) -> tuple[float, float]:
    """Median seconds of each, run alternately (which goes first alternates too) `repeats` times."""
    ours, theirs = [], []
    for round_ in range(repeats):
        if round_ % 2:
            theirs.append(_timed(baseline, prepare_baseline))
            ours.append(_timed(batchlog, prepare))
        else:
            ours.append(_timed(batchlog, prepare))
            theirs.append(_timed(baseline, prepare_baseline))
    return statistics.median(ours), statistics.median(theirs)


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
