"""`tune import`: the events a zen-finetune folder's history implies. Pure (cli/tune/files.py reads the folder).

The log it gives replays to the `History` batch.mjs reads from the folder: the
recorded selection (not recomputed), each batch as its first no-memory run's
cases.json and plan.json hold it, every run with the verdict heading of its
findings.md, and the difficult list with the runs entries were added and fixed in.
"""

from __future__ import annotations

from typing import Any

import orjson

from batchlog.projections.errors import BadInput
from batchlog.projections.tune.batch_mjs.config import settings_from_config
from batchlog.projections.tune.batch_mjs.run_names import RunName, parse_run_name
from batchlog.projections.tune.decide.loop import MAX_CONCURRENCY
from batchlog.projections.tune.events import (
    BatchBuilt,
    DifficultAdded,
    DifficultFixed,
    RunGraded,
    RunStarted,
    TuningStarted,
)
from batchlog.projections.tune.batch_mjs.selection import ID_RULE, check_cases, id_problem
from batchlog.engine.value import frozen


@frozen
class ZenRun:
    """A run folder: its name, the ids of its cases.json (None when it has none), verdict, plan.json."""

    name: str
    cases: tuple[str, ...] | None
    verdict: str
    plan: dict[str, Any] | None


@frozen
class ZenFolder:
    folder: str
    config: Any
    dataset: tuple[dict[str, Any], ...]
    selection: tuple[Any, ...]
    difficult: tuple[Any, ...] | None
    runs: tuple[ZenRun, ...]


def import_events(zen: ZenFolder) -> list:
    """Every event of the folder's history, in the order it happened."""
    check_cases(zen.dataset, f"{zen.folder}/dataset.json")
    check_cases(zen.selection, f"{zen.folder}/selection.json")
    events: list = [_started(zen)]
    runs = sorted(((run, parts) for run in zen.runs if (parts := parse_run_name(run.name)) is not None),
                  key=lambda named: _run_order(named[1]))
    firsts = {parts.batch: run for run, parts in runs if _is_first(parts) and run.cases is not None}
    for number in sorted(firsts):
        events.append(_built(zen, number, firsts[number]))
        for run, parts in runs:
            if parts.batch == number:
                events.extend(_run_events(run, parts, firsts[number].cases or ()))
    selection = tuple(case["id"] for case in zen.selection)
    for run, parts in runs:
        if parts.batch == 0:
            events.extend(_run_events(run, parts, selection))
    return _with_difficult(events, zen.difficult or (), f"{zen.folder}/difficult.json")


def _started(zen: ZenFolder) -> TuningStarted:
    settings = settings_from_config(zen.config)
    chosen = {case["id"]: case for case in zen.selection}
    known = {case["id"]: case for case in zen.dataset}
    # batch.mjs reads a case's fields from the dataset only (none for an id the dataset lacks) and writes the
    # selection's object to cases.json.
    cases = [*zen.dataset, *({"id": case_id} for case_id in chosen if case_id not in known)]
    written = tuple(case for case_id, case in chosen.items() if _text(known.get(case_id)) != _text(case))
    config = zen.config if isinstance(zen.config, dict) else {}
    limit = config.get("limit")
    concurrency = config.get("concurrency")
    return TuningStarted(
        dataset=f"{zen.folder}/dataset.json", cases=tuple(cases), selection=tuple(chosen), limit=_whole(limit),
        min_batch=settings.min_batch, max_batch=settings.max_batch, recheck=settings.recheck, seed=settings.seed,
        max_retries=settings.max_retries,
        concurrency=_whole(concurrency) or min(settings.max_batch + settings.recheck, MAX_CONCURRENCY),
        imported_from=zen.folder, written=written,
    )


def _built(zen: ZenFolder, number: int, first: ZenRun) -> BatchBuilt:
    ids = first.cases or ()
    plan = first.plan or {}
    new, recheck = plan.get("new"), plan.get("recheck")
    if not (isinstance(new, list) and isinstance(recheck, list) and tuple(new) + tuple(recheck) == ids):
        new, recheck = list(ids), []
    size = _number(plan.get("size")) or settings_from_config(zen.config).min_batch  # batch.mjs: || MIN
    why, kind = plan.get("why"), plan.get("kind")
    return BatchBuilt(number, size, why if isinstance(why, str) else "", kind if kind == "difficult" else "new",
                      tuple(new), tuple(recheck))


def _run_events(run: ZenRun, parts: RunName, fallback: tuple[str, ...]) -> list:
    started = RunStarted(run.name, parts.batch, parts.kind, parts.number,
                         run.cases if run.cases is not None else fallback)
    if not run.verdict:
        return [started]
    return [started, RunGraded(run.name, run.verdict, findings=f"runs/{run.name}/findings.md")]


def _with_difficult(events: list, entries: tuple[Any, ...], source: str) -> list:
    """Each entry added after the run it names was graded (or started), fixed after its fixing run (and after
    its own addition). A case may have several entries: fixed, then added again when it broke again."""
    placed = list(events)
    for number, entry in enumerate(entries, start=1):
        problem = id_problem(entry.get("id")) if isinstance(entry, dict) else "is not a JSON object"
        if problem is not None:
            raise BadInput(f"{source}: entry {number} {problem}: each entry is {{\"id\": ...}} ({ID_RULE})",
                           file=source, entry=number)
        reasons = entry.get("reasons") if isinstance(entry.get("reasons"), list) else []
        added = str(entry.get("added", ""))
        addition = DifficultAdded(entry["id"], tuple(str(r) for r in reasons), added)
        _insert_after_run(placed, added, addition)
        if entry.get("fixed"):
            fixed = str(entry["fixed"])
            _insert_after_run(placed, fixed, DifficultFixed(entry["id"], fixed), after=addition)
    _check_replayed(placed, entries)
    return placed


def _check_replayed(events: list, entries: tuple[Any, ...]) -> None:
    """The log's fixes must land on the entries the file fixed: a fix goes to the case's oldest entry not yet
    fixed (the fold's rule), so a file that fixes a later entry of a case while an earlier one stays open, or
    fixes a case's entries out of order, cannot be replayed; refused rather than imported wrong."""
    replayed: dict[str, list[list[str | None]]] = {}
    for event in events:
        if isinstance(event, DifficultAdded):
            replayed.setdefault(event.case, []).append([event.run, None])
        elif isinstance(event, DifficultFixed):
            entry = next(e for e in replayed[event.case] if e[1] is None)
            entry[1] = event.run
    listed: dict[str, list[list[str | None]]] = {}
    for entry in entries:
        listed.setdefault(entry["id"], []).append(
            [str(entry.get("added", "")), str(entry["fixed"]) if entry.get("fixed") else None])
    for case, file_entries in listed.items():
        if sorted(file_entries, key=str) != sorted(replayed[case], key=str):
            raise BadInput(f"difficult.json lists case {case} in entries batchlog cannot replay (a later entry "
                           "fixed while an earlier one is open, or fixes out of order): give each case at most "
                           "one entry that is not fixed, its last, and fix its entries in the order they were added")


def _insert_after_run(events: list, run: str, event: Any, after: Any = None) -> None:
    """Insert `event` after the run's events, after the event `after`, and after the difficult entries placed
    there before it."""
    position = len(events)
    for index, known in enumerate(events):
        if isinstance(known, (RunStarted, RunGraded)) and known.run == run:
            position = index + 1
    if after is not None:
        position = max(position, next(i for i, known in enumerate(events) if known is after) + 1)
    # Entries already placed after that run came earlier in difficult.json: keep the file's order.
    while position < len(events) and isinstance(events[position], (DifficultAdded, DifficultFixed)):
        position += 1
    events.insert(position, event)


def _run_order(parts: RunName) -> tuple[int, int, int]:
    """Batches in number order, each half without memory first, the final check last."""
    if parts.batch == 0:
        return (10**9, 0, parts.number)
    return (parts.batch, 0 if parts.kind == "nomem" else 1, parts.number)


def _is_first(parts: RunName) -> bool:
    return parts.kind == "nomem" and parts.number == 1


def _number(value: Any) -> int:
    """Number(value) as a whole number, 0 when it is not one (batch.mjs then falls back)."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, (int, float)) and value == value and abs(value) != float("inf"):
        return int(value)
    if isinstance(value, str):
        try:
            return int(float(value.strip()))
        except ValueError:
            return 0
    return 0


def _text(case: dict[str, Any] | None) -> bytes | None:
    """A case object as JSON text: equal objects with keys in another order (or 1 against true) differ."""
    return None if case is None else orjson.dumps(case)


def _whole(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None
