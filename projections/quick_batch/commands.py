"""The quick batch's commands (requests, in the imperative), the effects a decision asks the CLI to
carry out on disk, and the decision that joins them.

Pure data. What a command needs from disk (a staged payload, whether a folder lies inside another)
is read by the CLI before deciding and arrives here as a value.
"""

from __future__ import annotations

from typing import Any

import attrs

from batchlog.projections.fields import as_tuple
from batchlog.projections.quick_batch.grammar import TargetLine
from batchlog.engine.value import frozen


# ─── what the CLI read before deciding ─────────────────────────────────────


@frozen
class Staged:
    """A payload a target's run folder staged: which file (`kind`), its path as shown, its JSON object."""

    kind: str
    path: str
    payload: dict[str, Any]


@frozen
class Unstaged:
    """What the CLI found instead of a readable payload: the message the seed gives (`path`: the file
    or folder it names)."""

    message: str
    path: str


@frozen
class BriefCheck:
    """What the user's brief validator said of one brief: a halt_reason and message, or the brief's `name`."""

    halt_reason: str | None = None
    message: str | None = None
    name: Any = None


# ─── commands ───────────────────────────────────────────────────────────────


@frozen
class StartBatch:
    """Start the batch of a batch file (skf-quick-skill), or resume it. A batch whose start recorded its
    file relative to the run folder (a fixture that moves with its folder) resumes from either path."""

    run_dir: str
    input_file: str
    targets: tuple[TargetLine, ...]
    fail_fast: bool
    started_at: str
    exit_codes: dict[str, int] | None = None
    input_from_run_dir: str | None = None  # `input_file` relative to the run folder, as a bundled fixture keeps it


@frozen
class StartBriefBatch:
    """Start the batch of a set of briefs (skf-create-skill), or resume it.

    `checks` is None when the CLI saw an unfinished batch of these briefs and checked none (a resume).
    """

    batch_dir: str
    briefs: tuple[str, ...]
    checks: tuple[BriefCheck, ...] | None
    fail_fast: bool
    started_at: str
    batch_id: str
    exit_codes: dict[str, int] | None = None


@frozen
class NextTarget:
    """Hand out the next pending target. `batch` is the target the CLI expects to be next (None: none),
    `staged` whether its run folder staged a payload."""

    run_dir: str
    batch: int | None
    staged: bool


@frozen
class RecordTarget:
    """Record how target `number` ended, from `staged` (None: the CLI read nothing, expecting it recorded)."""

    run_dir: str
    number: int
    staged: Staged | Unstaged | None
    exit_codes: dict[str, int] | None = None


@frozen
class Summarize:
    """End the batch: its summary goes to `output_dir` (`output_inside`: a folder inside the run folder)."""

    run_dir: str
    output_dir: str
    output_inside: bool
    timestamp: str


@frozen
class RecordSummaryWritten:
    """Note where the summary files went (`summary_path` None: they could not be written, see `warnings`)."""

    run_dir: str
    summary_path: str | None
    warnings: tuple[str, ...] = attrs.field(converter=as_tuple, default=())


@frozen
class ImportSeedBatch:
    """Take over a batch skf-quick-batch.py started: the `events` its batch.jsonl implies, into the log named `log`."""

    log: str
    events: tuple[Any, ...] = attrs.field(converter=as_tuple)


Command = (StartBatch | StartBriefBatch | NextTarget | RecordTarget | Summarize | RecordSummaryWritten
           | ImportSeedBatch)


# ─── effects: what the CLI does on disk after the append ──────────────────


@frozen
class ClearEndedBatch:
    """Empty the run folder of an ended brief batch for the new one; its log (the audit trail) stays,
    and so do the target folders of this batch (`keep_prefix`), which a repeat must not touch."""

    run_dir: str
    keep_prefix: str


@frozen
class PrepareTargetFolder:
    """Create the target's run folder empty (what an earlier try left goes first)."""

    folder: str


@frozen
class RemoveTargetFolder:
    """A target that succeeded keeps no run folder."""

    folder: str


@frozen
class WriteSummary:
    """Write the per-batch summary file (the first free name of `stem-stamp.json`, `-2`, `-3` …; one holding
    exactly `record` already is this batch's, from an interrupted try) and `stem-latest.json`; then record
    where it went (`RecordSummaryWritten`)."""

    output_dir: str
    stem: str
    stamp: str
    record: dict[str, Any]


@frozen
class ArchiveAndRemove:
    """Copy the log beside the summary (`<summary stem>.events.jsonl`), then remove the run folder."""

    run_dir: str
    summary_path: str


Effect = ClearEndedBatch | PrepareTargetFolder | RemoveTargetFolder | WriteSummary | ArchiveAndRemove


@frozen
class Decision:
    """A decision: the events to append (none: nothing to record), then the effects to carry out, in order.

    `answer` tells the CLI which of the seed's answers to print when the state alone does not say:
    for `next`, "next", "record" or "done".
    """

    events: tuple[Any, ...] = ()
    effects: tuple[Effect, ...] = ()
    answer: str | None = None
