"""The tuning's state as batch.mjs's rules read it: `history(state) -> rules.History`. Pure.

The same `History` a zen `finetune/` folder gives batch.mjs: the selection's case
objects, the dataset's complexity, the settings, every built batch (its cases and
size), every run with its verdict, and the difficult list (None until the first
entry, as a folder has no difficult.json until then; withdrawn entries left out).
"""

from __future__ import annotations

from typing import NamedTuple

import orjson

from batchlog.projections.tune.batch_mjs import rules
from batchlog.projections.tune.state import Batch, TuneState


class Dataset(NamedTuple):
    """What the rules read of the dataset: the selection's case objects, in order, and each case's complexity.
    Only `tune init` and `tune import` (TuningStarted) change it: a walk over a log may read it once per start."""

    selection: tuple[dict, ...]
    complexity: dict[str, str]


def dataset(state: TuneState) -> Dataset:
    bodies = {case.id: case.body for case in state.cases}
    return Dataset(_objects(bodies, state.selection), {case.id: case.complexity for case in state.cases})


def history(state: TuneState, read: Dataset | None = None, earlier: rules.History | None = None) -> rules.History:
    """`read`: `dataset(state)` when the caller has it already. `earlier`: the history of an earlier state of the
    same log, for a walk asking at every batch (the audit): its difficult entries are taken over where they say
    what this state's do (the fold adds entries last and changes few), and its look-ups of the selection."""
    settings = state.settings
    assert settings is not None, "history of a tuning that was never started"
    selection, complexity = dataset(state) if read is None else read
    made = rules.History(
        selection=selection,
        complexity=complexity,
        settings=rules.Settings(
            min_batch=settings.min_batch, max_batch=settings.max_batch, recheck=settings.recheck,
            seed=settings.seed, max_retries=settings.max_retries,
        ),
        batches={batch.number: batch.cases for batch in state.batches},
        sizes={batch.number: batch.size for batch in state.batches},
        runs=tuple((run.name, run.verdict) for run in state.runs),
        # withdrawn entries are left out, as from a difficult.json edited by hand (which then exists, maybe empty)
        difficult=_entries(state, earlier) if state.difficult else None,
    )
    return made if earlier is None else earlier.hand_on(made)


def _entries(state: TuneState, earlier: rules.History | None) -> tuple[rules.DifficultEntry, ...]:
    """The rules' entries of the state's difficult list, each the one in the same place of `earlier` when it says
    the same (comparing costs a fraction of making one, and the states of a walk share most of their entries)."""
    known = () if earlier is None or earlier.difficult is None else earlier.difficult
    entries = []
    for place, entry in enumerate(state.difficult_list):
        kept = known[place] if place < len(known) else None
        if kept is None or (kept.id, kept.reasons, kept.added, kept.fixed) != (entry.case, entry.reasons,
                                                                             entry.added, entry.fixed):
            kept = rules.DifficultEntry(id=entry.case, reasons=entry.reasons, added=entry.added, fixed=entry.fixed)
        entries.append(kept)
    return tuple(entries)


def plan_of(state: TuneState, batch: Batch) -> rules.BatchPlan:
    """A built batch as the plan that built it (case objects from the dataset)."""
    bodies = {case.id: case.body for case in state.cases}
    return rules.BatchPlan(
        number=batch.number, size=batch.size, why=batch.why, kind=batch.kind,
        new=_objects(bodies, batch.new), recheck=_objects(bodies, batch.recheck),
        unused_after=batch.unused_after or 0, open_difficult=batch.open_difficult or 0,
    )


def cases_plan(state: TuneState, number: int, ids: tuple[str, ...]) -> rules.BatchPlan:
    """A plan holding just `ids`, for writing a later run's cases.json (rules.cases_json)."""
    bodies = {case.id: case.body for case in state.cases}
    return rules.BatchPlan(number=number, size=len(ids), why="", kind="new",
                           new=_objects(bodies, ids), recheck=(),
                           unused_after=0, open_difficult=0)


def _objects(bodies: dict[str, str], ids: tuple[str, ...]) -> tuple[dict, ...]:
    """The case objects of `ids` (an id the dataset lacks, possible only in an imported log, is left out)."""
    return tuple(orjson.loads(bodies[case_id]) for case_id in ids if case_id in bodies)
