"""The bench's inputs, generated in a temporary folder: logs of the engine's own test domain, a
tuning and a quick batch, written with the engine's encoder (the same bytes `EventLog.append`
writes, with one pinned time), and the seed's `batch.jsonl` of the same quick-batch events.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import attrs
import orjson

from batchlog.engine import Event, EventType, Projection, Registry
from batchlog.engine.fold_version import code_version
from batchlog.engine.scan import Position
from batchlog.engine.chain import line_hash
from batchlog.engine.envelope import encode_line

AT = "2026-12-02T16:00:00.000Z"
LINES_PER_WRITE = 10_000


# -- the engine's own domain: a model-usage-shaped event and a view that counts ----------------

@attrs.frozen
class Measured:
    """A model call was measured (the shape of a tuning's most frequent event)."""

    run: str
    model: str
    calls: int
    input_tokens: int
    output_tokens: int


@attrs.frozen
class Totals:
    events: int = 0
    tokens: int = 0
    last_run: str = ""


def _count(state: Totals, event: Event) -> Totals:
    data = event.data
    return Totals(state.events + 1, state.tokens + data.input_tokens + data.output_tokens, data.run)


ENGINE_REGISTRY = Registry([EventType("bench.measured", 1, Measured)])
TOTALS = Projection("bench.totals", Totals(), _count, version=code_version(__name__), state_type=Totals)


def measured(count: int, start: int = 0) -> Iterator[Measured]:
    for i in range(start, start + count):
        yield Measured(f"batch{i // 5000:02d}-nomem-run1", "model-a" if i % 2 else "model-b", i, 1000 + i, 200 + i)


def write_log(path: Path, registry: Registry, events: Iterable[Any], after: Position = Position()) -> Position:
    """Write `events` as log lines after `after` (a new file when it is the start); return the end."""
    prev, seq, offset, line_count = after.hash, after.seq, after.offset, after.line
    lines: list[bytes] = []
    with open(path, "ab" if seq else "wb") as fh:
        for domain in events:
            type_, v, data = registry.encode(domain)
            seq += 1
            line = encode_line(seq, type_, v, AT, data, prev)
            prev = line_hash(line)
            lines.append(line)
            if len(lines) >= LINES_PER_WRITE:
                offset += _flush(fh, lines)
        offset += _flush(fh, lines)
    return Position(line_count + seq - after.seq, seq, offset, prev, AT)


def _flush(fh: Any, lines: list[bytes]) -> int:
    if not lines:
        return 0
    payload = b"\n".join(lines) + b"\n"
    fh.write(payload)
    lines.clear()
    return len(payload)


# -- a tuning: init, batches, runs graded, and model usage (most of the events) ----------------

def tuning_events(count: int, cases: int = 64) -> Iterator[Any]:
    """`count` events of a plausible tuning: batches of 3 cases, two graded halves each, usage reports."""
    from batchlog.projections.tune.events import BatchBuilt, RunGraded, RunStarted, TuningStarted, UsageRecorded

    bodies = [{"id": f"case-{i:03d}", "class": f"class-{i % 4}", "complexity": "complex" if i % 3 == 0 else "simple",
               "input": f"question {i}"} for i in range(cases)]
    yield TuningStarted("dataset.json", bodies, [b["id"] for b in bodies], None, 3, 10, 3, 1, 3, 4)
    made, batch = 1, 0
    per_run = max(1, (count - 1) // (2 * cases // 3 + 1) // 2 - 2)
    while made < count:
        batch += 1
        ids = [f"case-{(3 * (batch - 1) + k) % cases:03d}" for k in range(3)]
        yield BatchBuilt(batch, 3, "first batch" if batch == 1 else "smooth", "new", ids, [], None, 0)
        made += 1
        for kind in ("nomem", "mem"):
            run = f"batch{batch:02d}-{kind}-run1"
            events = [RunStarted(run, batch, kind, 1, ids)]
            events += [UsageRecorded(run, "model-a" if k % 2 else "model-b", k, 1000 + k, 200 + k)
                       for k in range(per_run)]
            events.append(RunGraded(run, "PASSED", (), 10, 1000))
            for event in events:
                if made >= count:
                    return
                yield event
                made += 1


def usage_events(run: str, count: int, start: int = 0) -> Iterator[Any]:
    from batchlog.projections.tune.events import UsageRecorded

    for k in range(start, start + count):
        yield UsageRecorded(run, "model-a" if k % 2 else "model-b", k, 1000 + k, 200 + k)


# -- a quick batch: its events for batchlog, and the seed's batch.jsonl of the same facts --------

def quick_batch_events(count: int) -> Iterator[Any]:
    """A started batch whose targets are handed out and recorded: `count` events in all."""
    from batchlog.projections.quick_batch.events import BatchStarted, TargetRecorded, TargetStarted
    from batchlog.projections.quick_batch.grammar import TargetLine

    targets = (count - 1) // 2
    lines = [TargetLine(n, f"https://example.org/repo-{n}", None, None) for n in range(1, targets + 1)]
    yield BatchStarted("skf-quick-skill", "/bench/targets.txt", None, False, AT, None, lines, None)
    for line in lines:
        yield TargetStarted(line.batch, line.target)
        yield TargetRecorded(line.batch, line.target, "success", 0, f"skills/repo-{line.batch}", None, 87)


def seed_batch_lines(count: int) -> Iterator[bytes]:
    """The seed's `batch.jsonl` lines for the same batch: start, the targets, their results."""
    targets = (count - 1) // 2
    yield orjson.dumps({"event": "start", "status": "running", "input_file": "/bench/targets.txt",
                        "fail_fast": False, "started_at": AT})
    for n in range(1, targets + 1):
        yield orjson.dumps({"event": "target", "batch": n, "target": f"https://example.org/repo-{n}",
                            "language_hint": None, "scope_hint": None, "status": "pending"})
    for n in range(1, targets + 1):
        yield orjson.dumps({"event": "result", "batch": n, "target": f"https://example.org/repo-{n}",
                            "status": "success", "exit_code": 0, "skill_package": f"skills/repo-{n}",
                            "quality_score": 87})


def write_lines(path: Path, lines: Iterable[bytes]) -> None:
    with open(path, "wb") as fh:
        chunk: list[bytes] = []
        for line in lines:
            chunk.append(line)
            if len(chunk) >= LINES_PER_WRITE:
                _flush(fh, chunk)
        _flush(fh, chunk)
