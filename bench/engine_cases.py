"""The engine's rows: replay against its parse+hash floor, memory, linearity, durable appends."""

from __future__ import annotations

import os
import statistics
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from hashlib import sha256
from pathlib import Path

import orjson

from bench.measure import Row, Timing, cpu_seconds, peak_bytes, side_by_side, wall_seconds
from bench.workloads import ENGINE_REGISTRY, TOTALS, measured, write_log
from batchlog.engine import Event, EventLog, Projection, Registry, open_log


def bare_loads(path: Path) -> None:
    """The baseline of the domain replays: orjson.loads over the file's lines, nothing else."""
    loads = orjson.loads
    with open(path, "rb") as fh:
        for line in fh:
            loads(line)


def checked_loads(path: Path) -> None:
    """The least a replay that types every event does per line (docs/ARCHITECTURE.md): parse it, and hash it for
    the next line's `prev`. No replay that checks the chain and parses every line can go below it."""
    loads = orjson.loads
    with open(path, "rb") as fh:
        for line in fh:
            sha256(line).hexdigest()
            loads(line)


def typed_loads(path: Path, registry: Registry, projection: Projection) -> object:
    """The least a replay that types and folds every event does, with no check at all: parse and hash each line,
    build its domain object (`cls(**data)`) and its Event, fold. What is left above it is the scan's checks."""
    classes = {name: spec.cls for name, spec in registry.by_name.items()}
    loads = orjson.loads

    def events() -> Iterator[Event]:
        with open(path, "rb") as fh:
            for line in fh:
                sha256(line).hexdigest()
                obj = loads(line)
                yield Event(obj["seq"], obj["type"], obj["v"], obj["at"], obj["id"], classes[obj["type"]](**obj["data"]))

    return projection.fold_events(projection.initial, events())


def floor_ratio(path: Path, baseline: Callable[[], object], rounds: int) -> float:
    """`checked_loads(path)` against `baseline`, side by side (median of per-round ratios): a row's floor."""
    return side_by_side(lambda: checked_loads(path), baseline, rounds).ratio


def replay(path: Path) -> object:
    return EventLog(path, ENGINE_REGISTRY).replay(TOTALS).state


def replay_rows(folder: Path, events: int, rounds: int) -> list[Row]:
    """Full replay against parse+hash, peak memory against a small log, and time at 10×, 100× the events."""
    sizes = {n: folder / f"engine-{n}.jsonl" for n in (max(events // 100, 10), max(events // 10, 100), events)}
    for n, path in sizes.items():
        write_log(path, ENGINE_REGISTRY, measured(n))
    small_n, middle_n = list(sizes)[:2]
    big = sizes[events]
    timing = side_by_side(lambda: replay(big), lambda: checked_loads(big), rounds)
    typed = side_by_side(lambda: typed_loads(big, ENGINE_REGISTRY, TOTALS), lambda: checked_loads(big), rounds)
    rows = [Row.timed(f"full replay of {events:,} events, every event typed and folded (vs its floor: "
                      "orjson.loads + sha256 per line)", timing, 2.0,
                      note=f"typed floor {typed.ratio:.2f}× (parse, hash, cls(**data), Event, fold; no check)")]

    memory_n = min(1000, max(events // 10, 10))
    memory_log = folder / f"engine-memory-{memory_n}.jsonl"
    write_log(memory_log, ENGINE_REGISTRY, measured(memory_n))
    small_peak = min(peak_bytes(lambda: replay(memory_log)) for _ in range(2))
    big_peak = peak_bytes(lambda: replay(big))
    rows.append(Row(f"peak memory, replay of {events:,} events (vs {memory_n:,} events)", big_peak / 2**20,
                    small_peak / 2**20, "MiB", 1.5))

    per_event = _per_event_times(sizes, events, rounds)
    for n in (middle_n, events):
        ratios = tuple(a / b for a, b in zip(per_event[n], per_event[small_n]))
        rows.append(Row(f"replay time per event at {n // small_n}× the events ({n:,} vs {small_n:,})",
                        _median(per_event[n]) * 1e6, _median(per_event[small_n]) * 1e6, "µs/event", 1.1, low=0.9,
                        ratios=ratios))
    return rows


def _median(values: list[float]) -> float:
    return sorted(values)[len(values) // 2]


def _per_event_times(sizes: dict[int, Path], events: int, rounds: int) -> dict[int, list[float]]:
    """Each round's CPU seconds per event of each log, the sizes taking turns; a smaller log is
    replayed several times per sample so that every sample covers the same number of events."""
    samples: dict[int, list[float]] = {n: [] for n in sizes}
    for round_ in range(rounds):
        order = list(sizes.items())
        for n, path in order if round_ % 2 else reversed(order):
            times = events // n
            seconds = cpu_seconds(lambda p=path, k=times: [replay(p) for _ in range(k)])
            samples[n].append(seconds / (n * times))
    return samples


@contextmanager
def fsync_stubbed() -> Iterator[None]:
    """`os.fsync` does nothing meanwhile: what is left of an append is the engine's own work."""
    real = os.fsync
    os.fsync = lambda fd: None
    try:
        yield
    finally:
        os.fsync = real


def disk_fsync_seconds(path: Path, times: int) -> float:
    """The disk's own durable write: the median wall seconds of one line written and fsynced to `path`."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    try:
        return statistics.median(wall_seconds(lambda: (os.write(fd, b"x" * 200 + b"\n"), os.fsync(fd)))
                                 for _ in range(max(times, 5)))
    finally:
        os.close(fd)
        path.unlink()


def append_rows(folder: Path, appends: int, rounds: int) -> list[Row]:
    """Durable single appends (a fresh command per append, and one reused EventLog) against bare
    write+fsync, the same with fsync stubbed, and 100 events in one command against 100 commands."""
    log_path, bare_path = folder / "append.jsonl", folder / "append-bare.jsonl"
    events = list(measured(appends))

    def fresh() -> None:
        for path in (log_path, bare_path):
            path.unlink(missing_ok=True)
        for snapshot in log_path.parent.glob(log_path.name + ".snap/*/*"):  # each key's folder
            snapshot.unlink()

    def fresh_commands() -> None:
        """As the CLI does: every command opens the log anew (snapshots on), appends one event, ends."""
        for event in events:
            open_log(log_path, ENGINE_REGISTRY).append(TOTALS, lambda state, e=event: [e])

    def one_object() -> None:
        log = open_log(log_path, ENGINE_REGISTRY)
        for event in events:
            log.append(TOTALS, lambda state, e=event: [e])

    fresh()
    one_object()
    written = log_path.read_bytes().splitlines(keepends=True)

    def bare_writes() -> None:
        fd = os.open(bare_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        try:
            for line in written:
                os.write(fd, line)
                os.fsync(fd)
        finally:
            os.close(fd)

    def pair(case: Callable[[], None], clock: Callable[..., float] = wall_seconds) -> Timing:
        # With fsync on, by the wall clock: the wait for the disk is the cost, and no CPU clock sees it.
        return side_by_side(case, bare_writes, rounds, prepare=fresh, prepare_baseline=fresh, clock=clock)

    per_ms = 1e3 / appends
    rows = [
        _on_disk(f"durable append, a fresh command per append, fsync on ({appends} commands vs os.write+fsync)",
                 pair(fresh_commands), per_ms),
        _on_disk(f"durable append, one EventLog reused, fsync on ({appends} appends vs os.write+fsync)",
                 pair(one_object), per_ms),
    ]
    with fsync_stubbed():
        rows.append(Row.timed(f"engine work of a fresh command's append, fsync stubbed on both sides "
                              f"({appends} commands vs os.write)", pair(fresh_commands, cpu_seconds), 0, scale=per_ms,
                              unit="ms/event", limit=0.25))
        rows.append(Row.timed(f"engine work of an append on a reused EventLog, fsync stubbed on both sides "
                              f"({appends} appends vs os.write)", pair(one_object, cpu_seconds), 0, scale=per_ms,
                              unit="ms/event", limit=0.1))

    hundred = events[:100] if len(events) >= 100 else list(measured(100))

    def one_command() -> None:
        open_log(log_path, ENGINE_REGISTRY).append(TOTALS, lambda state: hundred)

    def hundred_commands() -> None:
        for event in hundred:
            open_log(log_path, ENGINE_REGISTRY).append(TOTALS, lambda state, e=event: [e])

    timing = side_by_side(one_command, hundred_commands, rounds, prepare=fresh, prepare_baseline=fresh,
                          clock=wall_seconds)
    rows.append(Row.timed("100 events appended in one command (vs 100 single commands)", timing, 0.1, scale=1e3,
                          unit="ms"))
    fresh()
    return rows


def _on_disk(case: str, timing: Timing, per_ms: float) -> Row:
    """A row of appends that fsync: its ratio moves with the disk's fsync time (4 ms on one disk, 0.2 ms on
    another), so the row says what the disk took and what batchlog added to it (the fsync-stubbed rows measure
    the code alone)."""
    disk, ours = timing.baseline * per_ms, timing.ours * per_ms
    return Row.timed(case, timing, 1.3, scale=per_ms, unit="ms/event",
                     note=f"the disk's os.write+fsync {disk:.3g} ms, batchlog's work above it {ours - disk:.3g} ms")
