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


# -- a tuning whose runs grow with the log: batch after batch as a real one goes -----------------

MAX_BATCHES = 99  # batch.mjs's run names hold two digits (batchNN-...): no tuning has a 100th batch
_RUNS_PER_BATCH = 3  # the first no-memory run WRONG, the second PASSED, the with-memory run PASSED
_EVENTS_PER_BATCH = 11  # built, 3 runs started and graded, a difficult case added and fixed, a change, memory kept


def growing_shape(factor: int) -> tuple[int, int]:
    """(batches, VOID runs) of the tuning with `factor`× the runs of a one-batch tuning (its 3 runs and the final
    check): 3 runs a batch up to MAX_BATCHES, then with-memory runs killed for memory (VOID, which do not count)
    make up the rest."""
    runs = factor * (_RUNS_PER_BATCH + 1) - 1  # the final check's run aside
    batches = max(1, min(MAX_BATCHES, round(runs / _RUNS_PER_BATCH)))
    return batches, max(0, runs - batches * _RUNS_PER_BATCH)


def growing_tuning_events(batches: int, voids: int, count: int) -> Iterator[Any]:
    """A finished tuning of `batches` batches in `count` events (at least the decisions' own): each batch as
    batch.mjs's rules build it from the history so far, its first no-memory run WRONG on one new case (listed
    difficult, a change recorded), the second PASSED (the case fixed), its with-memory runs VOID (`voids` spread
    over the batches) then PASSED, and its memory kept; then the final check of the whole selection, PASSED.
    The runs' usage reports make up the rest of `count`, as evenly as whole numbers go, so a tuning with k× the
    runs in k× the events has the same events per run. It holds its audit."""
    from batchlog.projections.tune.batch_mjs import rules
    from batchlog.projections.tune.batch_mjs.selection import selection_order
    from batchlog.projections.tune.events import (
        BatchBuilt, ChangeRecorded, DifficultAdded, DifficultFixed, MemoryKept, RunGraded, RunStarted,
        TuningStarted)

    cases = [{"id": f"case-{i:04d}", "class": f"class-{i % 4}", "complexity": "complex" if i % 3 == 0 else "simple",
              "input": f"question {i}"} for i in range(_new_cases(batches))]
    selection = selection_order(cases)
    by_id = {case["id"]: case for case in cases}
    settings = rules.Settings(min_batch=3, max_batch=10, recheck=3, seed=1, max_retries=3)
    past = rules.History(selection=tuple(by_id[i] for i in selection),
                         complexity={case["id"]: case["complexity"] for case in cases}, settings=settings,
                         batches={}, sizes={}, runs=(), difficult=None)
    runs = batches * _RUNS_PER_BATCH + voids + 1
    decisions = 1 + batches * _EVENTS_PER_BATCH + 2 * voids + 2
    reports = iter(_spread(max(0, count - decisions), runs))

    def run(name: str, batch: int, kind: str, number: int, ids: tuple[str, ...], verdict: str,
            wrong: tuple[str, ...] = ()) -> Iterator[Any]:
        yield RunStarted(name, batch, kind, number, ids)
        yield from usage_events(name, next(reports))
        yield RunGraded(name, verdict, wrong, llm_calls=10 * len(ids), tokens=20_000 * len(ids),
                        saved_twice=0 if kind == "mem" and verdict != "VOID" else None)

    yield TuningStarted("dataset.json", cases, selection, None, settings.min_batch, settings.max_batch,
                        settings.recheck, settings.seed, settings.max_retries, 13)
    difficult: list[rules.DifficultEntry] = []
    for number, killed in enumerate(_spread(voids, batches), start=1):
        plan = rules.next_batch(past)
        new = tuple(case["id"] for case in plan.new)
        ids = new + tuple(case["id"] for case in plan.recheck)
        first, second = _run_name(number, "nomem", 1), _run_name(number, "nomem", 2)
        mem = [(_run_name(number, "mem", k), "VOID" if k <= killed else "PASSED") for k in range(1, killed + 2)]
        yield BatchBuilt(number, plan.size, plan.why, plan.kind, new, ids[len(new):], plan.unused_after,
                         plan.open_difficult)
        yield from run(first, number, "nomem", 1, ids, "WRONG", (new[0],))
        yield DifficultAdded(new[0], ("wrong",), first, "answers the policy, not the question")
        yield ChangeRecorded(first, "agents/prompts/planner.md", "answer the question first", 3)
        yield from run(second, number, "nomem", 2, ids, "PASSED")
        yield DifficultFixed(new[0], second)
        for k, (name, verdict) in enumerate(mem, start=1):
            yield from run(name, number, "mem", k, ids, verdict)
        yield MemoryKept(number, 10 * number)
        difficult.append(rules.DifficultEntry(new[0], ("wrong",), first, second))
        past = attrs.evolve(past, batches={**past.batches, number: ids}, sizes={**past.sizes, number: plan.size},
                            runs=(*past.runs, (first, "WRONG"), (second, "PASSED"), *mem), difficult=tuple(difficult))
    yield from run("final-run1", 0, "final", 1, selection, "PASSED")


def _run_name(batch: int, kind: str, number: int) -> str:
    return f"batch{batch:02d}-{kind}-run{number}"


def _new_cases(batches: int) -> int:
    """The cases `batches` smooth batches take (3, 6, then 10 each): the dataset they use up."""
    return sum([3, 6][:batches]) + 10 * max(0, batches - 2)


def _spread(total: int, parts: int) -> list[int]:
    """`total` in `parts` as evenly as whole numbers go."""
    each, rest = divmod(total, parts)
    return [each + (k < rest) for k in range(parts)]
