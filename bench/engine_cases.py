"""The engine's rows: replay against a bare orjson loop, memory, linearity, durable appends."""

from __future__ import annotations

import os
from collections.abc import Callable
from hashlib import sha256
from pathlib import Path

import orjson

from bench.measure import Row, peak_bytes, side_by_side
from bench.workloads import ENGINE_REGISTRY, TOTALS, measured, write_log
from engine import EventLog, open_log


def bare_loads(path: Path) -> None:
    """The baseline of every replay: orjson.loads over the file's lines, nothing else."""
    loads = orjson.loads
    with open(path, "rb") as fh:
        for line in fh:
            loads(line)


def checked_loads(path: Path) -> None:
    """The least a checked replay does per line (DESIGN.md): parse it, and hash it for the next line's `prev`.

    Its ratio to `bare_loads` is the floor of every replay row: no replay that checks the chain can
    go below it, whatever its fold."""
    loads = orjson.loads
    with open(path, "rb") as fh:
        for line in fh:
            sha256(line).hexdigest()
            loads(line)


def floor_ratio(path: Path, baseline: Callable[[], object], repeats: int) -> float:
    """`checked_loads(path)` against `baseline`, side by side: a replay row's floor."""
    least, base = side_by_side(lambda: checked_loads(path), baseline, repeats)
    return least / base


def replay(path: Path) -> object:
    return EventLog(path, ENGINE_REGISTRY).replay(TOTALS).state


def replay_rows(folder: Path, events: int, repeats: int) -> list[Row]:
    """Full replay against orjson.loads, peak memory against a small log, and time at 10×, 100× the events."""
    sizes = {n: folder / f"engine-{n}.jsonl" for n in (max(events // 100, 10), max(events // 10, 100), events)}
    for n, path in sizes.items():
        write_log(path, ENGINE_REGISTRY, measured(n))
    small_n, middle_n = list(sizes)[:2]
    big = sizes[events]
    ours, baseline = side_by_side(lambda: replay(big), lambda: bare_loads(big), repeats)
    rows = [Row(f"full replay of {events:,} events into a view (vs orjson.loads loop)", ours, baseline, "s", 1.5,
                floor=floor_ratio(big, lambda: bare_loads(big), repeats))]

    memory_n = min(1000, max(events // 10, 10))
    memory_log = folder / f"engine-memory-{memory_n}.jsonl"
    write_log(memory_log, ENGINE_REGISTRY, measured(memory_n))
    small_peak = min(peak_bytes(lambda: replay(memory_log)) for _ in range(2))
    big_peak = peak_bytes(lambda: replay(big))
    rows.append(Row(f"peak memory, replay of {events:,} events (vs {memory_n:,} events)", big_peak / 2**20,
                    small_peak / 2**20, "MiB", 1.5))

    per_event = _per_event_times(sizes, events, repeats)
    for n in (middle_n, events):
        rows.append(Row(f"replay time per event at {n // small_n}× the events ({n:,} vs {small_n:,})",
                        per_event[n] * 1e6, per_event[small_n] * 1e6, "µs/event", 1.1, low=0.9))
    return rows


def _per_event_times(sizes: dict[int, Path], events: int, repeats: int) -> dict[int, float]:
    """Median replay seconds per event of each log, the sizes taking turns; a smaller log is
    replayed several times per sample so that every sample covers the same number of events."""
    samples: dict[int, list[float]] = {n: [] for n in sizes}
    for round_ in range(repeats):
        order = list(sizes.items())
        for n, path in order if round_ % 2 else reversed(order):
            times = events // n
            ours, _ = side_by_side(lambda p=path, k=times: [replay(p) for _ in range(k)], lambda: None, 1)
            samples[n].append(ours / (n * times))
    return {n: sorted(values)[len(values) // 2] for n, values in samples.items()}


def append_rows(folder: Path, appends: int, repeats: int) -> list[Row]:
    """Durable single appends against bare write+fsync, and 100 events in one command against 100 commands."""
    log_path, bare_path = folder / "append.jsonl", folder / "append-bare.jsonl"
    events = list(measured(appends))

    def fresh() -> None:
        for path in (log_path, bare_path):
            path.unlink(missing_ok=True)

    def single_appends() -> None:
        log = open_log(log_path, ENGINE_REGISTRY)
        for event in events:
            log.append(TOTALS, lambda state, e=event: [e])

    fresh()
    single_appends()
    written = log_path.read_bytes().splitlines(keepends=True)

    def bare_writes() -> None:
        fd = os.open(bare_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        try:
            for line in written:
                os.write(fd, line)
                os.fsync(fd)
        finally:
            os.close(fd)

    ours, baseline = side_by_side(single_appends, bare_writes, repeats, prepare=fresh, prepare_baseline=fresh)
    rows = [Row(f"durable append, one event per command, fsync on ({appends} commands vs os.write+fsync)",
                ours / appends * 1e3, baseline / appends * 1e3, "ms/event", 1.3)]

    hundred = events[:100] if len(events) >= 100 else list(measured(100))

    def one_command() -> None:
        open_log(log_path, ENGINE_REGISTRY).append(TOTALS, lambda state: hundred)

    def hundred_commands() -> None:
        log = open_log(log_path, ENGINE_REGISTRY)
        for event in hundred:
            log.append(TOTALS, lambda state, e=event: [e])

    ours, baseline = side_by_side(one_command, hundred_commands, repeats, prepare=fresh, prepare_baseline=fresh)
    rows.append(Row("100 events appended in one command (vs 100 single appends)", ours * 1e3, baseline * 1e3, "ms",
                    0.1))
    fresh()
    return rows
