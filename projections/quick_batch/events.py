"""The quick batch's events: facts in the past tense, type strings `qb.<what_happened>`.

Pure data. Every field is a plain JSON value, except the targets of `BatchStarted`
(rebuilt from their dicts by its converter). Numbers orjson cannot hold (an integer beyond 64
bits, a NaN or infinite score a payload gave) are kept as their JSON text; see
`number_field` / `number_value`.
"""

from __future__ import annotations

import math
from typing import Any

import attrs

from batchlog.engine.registry import EventType, Registry
from batchlog.projections.fields import as_tuple
from batchlog.projections.quick_batch.grammar import TargetLine
from batchlog.engine.value import frozen

WORKFLOW = "skf-quick-skill"
CREATE_WORKFLOW = "skf-create-skill"

_INT_MIN, _INT_MAX = -(1 << 63), (1 << 64) - 1


def number_field(value: int | float) -> int | float | str:
    """A payload's number as stored: itself, or its JSON text when orjson cannot hold it."""
    if isinstance(value, int):
        return value if _INT_MIN <= value <= _INT_MAX else str(value)
    if math.isfinite(value):
        return value
    return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")


def number_value(stored: int | float | str | None) -> int | float | None:
    """The number a stored field stands for (the inverse of `number_field`)."""
    if not isinstance(stored, str):
        return stored
    return float(stored) if stored in ("NaN", "Infinity", "-Infinity") else int(stored)


def _strings(values: Any) -> tuple[str, ...] | None:
    return None if values is None else tuple(values)


def _targets(values: Any) -> tuple[TargetLine, ...]:
    return tuple(t if isinstance(t, TargetLine) else TargetLine(**t) for t in values)


@frozen
class BatchStarted:
    """A batch was started: its workflow, its input, its targets (all pending).

    `input_file` is the batch file's absolute path (skf-quick-skill); `input_briefs`
    the briefs' absolute paths (skf-create-skill), whose target run folders are
    named after `batch_id`. `exit_codes` is the halt_reason map given with
    `--exit-codes` at start (None: the workflow's built-in map).
    """

    workflow: str
    input_file: str | None
    input_briefs: tuple[str, ...] | None = attrs.field(converter=_strings)
    fail_fast: bool
    started_at: str
    batch_id: str | None = None
    targets: tuple[TargetLine, ...] = attrs.field(converter=_targets, default=())
    exit_codes: dict[str, int] | None = None


@frozen
class TargetStarted:
    """Target `batch` was handed out by `next` (its run folder created empty)."""

    batch: int
    target: str


@frozen
class TargetRecorded:
    """How target `batch` ended, from what its run folder staged: status `success` or `error`.

    `error_code` is the halt_reason when it is a string (or None); any other JSON
    value a payload gave as halt_reason is kept as its JSON text in `error_code_json`.
    `exit_code` and `quality_score` may be JSON text (see `number_field`).
    """

    batch: int
    target: str
    status: str
    exit_code: int | str
    skill_package: str | None = None
    error_code: str | None = None
    quality_score: int | float | str | None = None
    error_code_json: str | None = None

    rejected = False  # not a field: a brief refused at start is a `BriefRejected`
    message = None


@frozen
class BriefRejected:
    """Brief `batch` was refused at start (by the validator, or for a name an earlier brief has):
    recorded at once as failed, with the exit code its halt_reason maps to; `next` never hands it out."""

    batch: int
    target: str
    error_code: str
    exit_code: int | str
    message: str | None

    # Not fields: what a brief refused at start shares with a recorded outcome.
    status = "error"
    skill_package = None
    quality_score = None
    error_code_json = None
    rejected = True


@frozen
class BatchSummarized:
    """The batch ended: its figures, and where its summary goes.

    Since v2 the summary file is written after this event, as its effect, and `SummaryWritten`
    records where it went: `output_dir` is the folder given to summarize, `output_inside` whether it
    lies inside the run folder (then the run folder is never removed). A v1 event (written before the
    summary was an effect) carries `summary_path` and `warnings` itself and has no `output_dir`.
    """

    status: str
    timestamp: str
    targets_total: int
    succeeded: int
    failed: int
    fail_fast_triggered: bool
    exit_code: int | str
    summary_path: str | None
    warnings: tuple[str, ...] = attrs.field(converter=as_tuple, default=())
    output_dir: str | None = None
    output_inside: bool = False


@frozen
class SummaryWritten:
    """The summary files of a `BatchSummarized` were written (`summary_path`, the per-batch file), or
    could not be (`summary_path` None, the reason in `warnings`)."""

    summary_path: str | None
    warnings: tuple[str, ...] = attrs.field(converter=as_tuple, default=())


def _summary_v1_to_v2(data: dict) -> dict:
    return {**data, "output_dir": None, "output_inside": False}


EVENT_TYPES = (
    EventType("qb.batch_started", 1, BatchStarted),
    EventType("qb.target_started", 1, TargetStarted),
    EventType("qb.target_recorded", 1, TargetRecorded),
    EventType("qb.brief_rejected", 1, BriefRejected),
    EventType("qb.batch_summarized", 2, BatchSummarized, upcasters=(_summary_v1_to_v2,)),
    EventType("qb.summary_written", 1, SummaryWritten),
)

REGISTRY = Registry(EVENT_TYPES)
