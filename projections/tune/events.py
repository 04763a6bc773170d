"""The tuning's events: facts in the past tense, type strings `tune.<what_happened>`.

Pure data: every field is a plain JSON value (tuples come back from the log as
lists, hence `converter=tuple`). A shipped type string is never renamed; a new
shape gets a new version and an upcaster.
"""

from __future__ import annotations

from typing import Any

import attrs

from batchlog.engine.registry import EventType, Registry
from batchlog.engine.value import frozen


def _tuple_of_str(values: Any) -> tuple[str, ...]:
    return tuple(values)


def _cases(values: Any) -> tuple[dict[str, Any], ...]:
    return tuple(values)


@frozen
class TuningStarted:
    """A tuning was created from a dataset: its cases, the selection order, the settings.

    `cases` are the dataset's case objects as read (dataset order); `selection` the
    ids in the order batches take them. Settings are the values in force (already
    resolved as batch.mjs's `cfg()` does: `max_batch` >= `min_batch`).
    `imported_from` names the zen folder a `tune import` read, else None. `dataset` is the
    dataset file's path relative to the tuning's folder when `init` recorded it (logs written before
    may hold it as given); `name` the dataset's own `name`, else None (the README's title).
    `written` holds the objects a batch's cases.json gets where they are not the dataset's own: a zen
    folder's selection.json objects (often bare `{"id": ...}`), which batch.mjs writes while it reads each
    case's complexity from the dataset. Empty for `tune init`, whose cases.json objects are the dataset's
    (and for a v2 line written before the field existed: such a log took the selection's objects as cases).
    """

    dataset: str
    cases: tuple[dict[str, Any], ...] = attrs.field(converter=_cases)
    selection: tuple[str, ...] = attrs.field(converter=_tuple_of_str)
    limit: int | None
    min_batch: int
    max_batch: int
    recheck: int
    seed: int
    max_retries: int
    concurrency: int
    imported_from: str | None = None
    name: str | None = None
    written: tuple[dict[str, Any], ...] = attrs.field(default=(), converter=_cases)


@frozen
class BatchBuilt:
    """Batch `number` was built: batch.mjs's plan, and the overrides it was asked with.

    `unused_after` / `open_difficult` are batch.mjs's figures after it (None when
    imported: a zen folder does not keep them).
    """

    number: int
    size: int
    why: str
    kind: str
    new: tuple[str, ...] = attrs.field(converter=_tuple_of_str)
    recheck: tuple[str, ...] = attrs.field(converter=_tuple_of_str)
    unused_after: int | None = None
    open_difficult: int | None = None
    size_override: int | None = None
    recheck_override: int | None = None
    seed_override: int | None = None


@frozen
class RunStarted:
    """Run `run` was created: `batchNN-nomem-runK`, `batchNN-mem-runK` or `final-runK`.

    `batch` is 0 and `kind` "final" for the final check; `cases` the ids in its cases.json.
    """

    run: str
    batch: int
    kind: str
    number: int
    cases: tuple[str, ...] = attrs.field(converter=_tuple_of_str)


@frozen
class RunGraded:
    """A run got its verdict (PASSED, CORRECT, WRONG, VOID) and its figures."""

    run: str
    verdict: str
    wrong: tuple[str, ...] = attrs.field(converter=_tuple_of_str, default=())
    llm_calls: int | None = None
    tokens: int | None = None
    saved_twice: int | None = None
    findings: str | None = None
    note: str | None = None


@frozen
class RunRegraded:
    """A grade recorded by mistake was corrected: the run's new verdict and wrong cases, and why.

    The original `tune.run_graded` stays in the log; every view folds the correction over it. A figure left
    None is not restated: the run keeps the one its grade gave.
    """

    run: str
    verdict: str
    reason: str
    wrong: tuple[str, ...] = attrs.field(converter=_tuple_of_str, default=())
    llm_calls: int | None = None
    tokens: int | None = None
    saved_twice: int | None = None


@frozen
class DifficultAdded:
    """A case went on the difficult list, with its reasons, in run `run`."""

    case: str
    reasons: tuple[str, ...] = attrs.field(converter=_tuple_of_str)
    run: str
    note: str | None = None


@frozen
class DifficultFixed:
    """A difficult case was fixed in run `run`."""

    case: str
    run: str
    note: str | None = None


@frozen
class DifficultWithdrawn:
    """The difficult entry of `case` added in run `run` was withdrawn: a regrade of that run said the case was
    not wrong in it after all (`reason`). The entry stays in the log and the views; the rules no longer count it."""

    case: str
    run: str
    reason: str


@frozen
class ChangeRecorded:
    """What a run's fix changed: a file, in words, and how many lines."""

    run: str
    file: str
    summary: str
    lines: int | None = None


@frozen
class MemoryKept:
    """Batch `batch`'s memory (of `nodes` nodes) became the last good memory."""

    batch: int
    nodes: int


@frozen
class UsageRecorded:
    """Model usage of a run: running totals for one model (a later report replaces an earlier one)."""

    run: str
    model: str
    calls: int
    input_tokens: int
    output_tokens: int


def upcast_tuning_started_v1_v2(data: dict) -> dict:
    """v1 had no `name` nor `written`: a tuning started before the dataset's name was kept has none, and its
    cases are the objects it wrote (an import then put the selection's objects in the dataset's place)."""
    return {**data, "name": None, "written": []}


EVENT_TYPES = (
    EventType("tune.tuning_started", 2, TuningStarted, (upcast_tuning_started_v1_v2,)),
    EventType("tune.batch_built", 1, BatchBuilt),
    EventType("tune.run_started", 1, RunStarted),
    EventType("tune.run_graded", 1, RunGraded),
    EventType("tune.run_regraded", 1, RunRegraded),
    EventType("tune.difficult_added", 1, DifficultAdded),
    EventType("tune.difficult_fixed", 1, DifficultFixed),
    EventType("tune.difficult_withdrawn", 1, DifficultWithdrawn),
    EventType("tune.change_recorded", 1, ChangeRecorded),
    EventType("tune.memory_kept", 1, MemoryKept),
    EventType("tune.usage_recorded", 1, UsageRecorded),
)

REGISTRY = Registry(EVENT_TYPES)
