"""The quick batch's decisions: commands in, events out, or a refusal (`Refused`, nothing written).

Pure: times, file facts and payloads arrive as arguments (a payload reader is
passed in and only called when the decision needs it). Messages are the seed's.
"""

from __future__ import annotations

import json
import posixpath
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, NamedTuple

from projections.errors import BadInput, Refused
from projections.quick_batch import views
from projections.quick_batch.events import (
    CREATE_WORKFLOW, WORKFLOW, BatchStarted, BatchSummarized, BriefRejected, TargetRecorded, TargetStarted,
    number_field,
)
from projections.quick_batch.exit_codes import REJECTED_BRIEF_FALLBACK
from projections.quick_batch.grammar import TargetLine
from projections.quick_batch.state import Batch

WRITE_FAILURE = {WORKFLOW: "write-failure", CREATE_WORKFLOW: "write-failed"}
HALT_PAYLOAD, RESULT_PAYLOAD = "halt.json", "result-context.json"


def stamps(moment: datetime) -> tuple[str, str]:
    """(ISO-8601 UTC timestamp, YYYYMMDD-HHmmss file stamp) of a time, to the second."""
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ"), moment.strftime("%Y%m%d-%H%M%S")


def _same_path(a: str | None, b: str) -> bool:
    return isinstance(a, str) and posixpath.normpath(a) == posixpath.normpath(b)


# ─── start ──────────────────────────────────────────────────────────────────


def start_batch(state: Batch, *, input_file: str, targets: Sequence[TargetLine], fail_fast: bool,
                moment: datetime, run_dir: str, exit_codes: dict[str, int] | None = None) -> list[BatchStarted]:
    """StartBatch: every target pending; nothing when this file's batch is already here (a resume)."""
    started = state.started
    if started is not None:
        if not _same_path(started.input_file, input_file):
            raise Refused(f"{run_dir} holds the batch of {started.input_file}, not {input_file}: give this "
                          "batch a run folder of its own", halt_reason="input-invalid")
        return []
    return [BatchStarted(workflow=WORKFLOW, input_file=input_file, input_briefs=None, fail_fast=fail_fast,
                         started_at=stamps(moment)[0], targets=tuple(targets), exit_codes=exit_codes)]


def resumes_brief_batch(state: Batch, briefs: Sequence[str], batch_dir: str) -> bool:
    """True when the folder holds an unfinished batch of these briefs; refused for other briefs."""
    started = state.started
    if started is None or state.summary is not None:
        return False
    if started.workflow != CREATE_WORKFLOW or list(started.input_briefs or ()) != list(briefs):
        raise Refused(f"{batch_dir} holds an unfinished batch of other briefs: finish or remove it first",
                      halt_reason=WRITE_FAILURE[CREATE_WORKFLOW])
    return True


class BriefCheck(NamedTuple):
    """What the validator said of one brief: a halt_reason and message, or the brief's `name`."""

    halt_reason: str | None = None
    message: str | None = None
    name: Any = None


def brief_rejections(briefs: Sequence[str], checks: Sequence[BriefCheck]) -> list[BriefCheck]:
    """Each brief's check, with a brief whose name an earlier valid brief has refused too
    (both would compile into one skill folder)."""
    first: dict[str, str] = {}
    out = []
    for brief, check in zip(briefs, checks, strict=True):
        name = check.name
        if check.halt_reason is None and isinstance(name, str):
            if name in first:
                check = BriefCheck("brief-invalid", f"Brief validation failed: `{brief}` has the name `{name}` of "
                                                    f"`{first[name]}`, and both would compile into one skill folder. "
                                                    "Give each brief its own name.")
            else:
                first[name] = brief
        out.append(check)
    return out


def start_brief_batch(state: Batch, *, briefs: Sequence[str], checks: Sequence[BriefCheck], fail_fast: bool,
                      moment: datetime, batch_dir: str, codes: dict[str, int],
                      exit_codes: dict[str, int] | None = None) -> list[BatchStarted | BriefRejected]:
    """StartBriefBatch: every brief a target, the refused ones recorded at once as failed.

    Nothing when the folder holds an unfinished batch of the same briefs (a resume).
    """
    if resumes_brief_batch(state, briefs, batch_dir):
        return []
    timestamp, stamp = stamps(moment)
    targets = tuple(TargetLine(n, brief) for n, brief in enumerate(briefs, start=1))
    events: list[BatchStarted | BriefRejected] = [
        BatchStarted(workflow=CREATE_WORKFLOW, input_file=None, input_briefs=tuple(briefs), fail_fast=fail_fast,
                     started_at=timestamp, batch_id=f"batch-{stamp}", targets=targets, exit_codes=exit_codes)]
    for line, check in zip(targets, brief_rejections(briefs, checks), strict=True):
        if check.halt_reason is not None:
            events.append(BriefRejected(
                batch=line.batch, target=line.target, error_code=check.halt_reason,
                exit_code=codes.get(check.halt_reason, REJECTED_BRIEF_FALLBACK), message=check.message))
    return events


# ─── next ───────────────────────────────────────────────────────────────────


def next_target(state: Batch) -> TargetLine | None:
    """The target `next` hands out, or None when the batch is done (or --fail-fast stopped it)."""
    if state.summary is not None or views.stopped_early(state):
        return None
    left = views.pending(state)
    return left[0] if left else None


def hand_out(state: Batch, line: TargetLine) -> list[TargetStarted]:
    """HandOutTarget: note that `line` is in progress; nothing when it already is (a restart of next)."""
    if state.in_progress == line.batch:
        return []
    return [TargetStarted(line.batch, line.target)]


# ─── record ─────────────────────────────────────────────────────────────────


class Staged(NamedTuple):
    """A payload a target's run folder staged: which file (`kind`), its path as shown, its JSON object."""

    kind: str
    path: str
    payload: dict[str, Any]


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _halt_outcome(staged: Staged, codes: dict[str, int]) -> dict[str, Any]:
    payload = staged.payload
    reason = payload.get("halt_reason")
    code = codes.get(reason) if isinstance(reason, str) else None
    given = payload.get("exit_code")
    if code is None and isinstance(given, int) and not isinstance(given, bool):
        code = given
    if code is None:
        raise BadInput(f"{staged.path}: halt_reason {reason!r} maps to no exit code", path=staged.path)
    package = payload.get("skill_package")
    fields: dict[str, Any] = {"status": "error", "exit_code": number_field(code),
                              "skill_package": package if isinstance(package, str) else None}
    if reason is None or isinstance(reason, str):
        fields["error_code"] = reason
    else:
        fields["error_code_json"] = _json_text(reason)
    return fields


def _json_text(value: Any) -> str:
    return json.dumps(value)


def _result_outcome(staged: Staged) -> dict[str, Any]:
    payload = staged.payload
    summary = payload.get("summary") if isinstance(payload.get("summary"), dict) else {}
    score = summary.get("quality_score")
    package = payload.get("skill_package")
    return {"status": "success", "exit_code": 0, "skill_package": package if isinstance(package, str) else None,
            "quality_score": number_field(score) if _number(score) else None}


def record_target(state: Batch, number: int, read_staged: Callable[[TargetLine], Staged],
                  codes: dict[str, int], run_dir: str) -> list[TargetRecorded]:
    """RecordTarget: how target `number` ended, from its staged payload; nothing when already recorded."""
    line = views.target(state, number)
    if line is None:
        raise BadInput(f"the batch in {run_dir} has no target {number}", batch=number)
    if str(number) in state.results:
        return []
    staged = read_staged(line)
    fields = _halt_outcome(staged, codes) if staged.kind == HALT_PAYLOAD else _result_outcome(staged)
    return [TargetRecorded(batch=number, target=line.target, **fields)]


def require_batch(state: Batch, run_dir: str) -> None:
    """Refused when the log holds no start (an empty or cut log)."""
    if state.started is None:
        raise Refused(f"the batch in {run_dir} has no start line: run start first")


# ─── summarize ──────────────────────────────────────────────────────────────


def check_summarizable(state: Batch) -> None:
    """Refused while targets are pending (unless --fail-fast stopped the batch)."""
    left = views.pending(state)
    if left and not views.stopped_early(state):
        raise Refused(f"{len(left)} target(s) of the batch are still pending: run next and finish them before "
                      "summarize", pending=len(left))


def summarize(state: Batch, record: dict[str, Any], summary_path: str | None,
              warnings: Sequence[str]) -> list[BatchSummarized]:
    """SummarizeBatch: the batch ended with `record` (the summary file's content); nothing when it already had."""
    if state.summary is not None:
        return []
    check_summarizable(state)
    code = record["exit_code"]
    return [BatchSummarized(
        status=record["status"], timestamp=record["timestamp"], targets_total=record["targets_total"],
        succeeded=record["succeeded"], failed=record["failed"], fail_fast_triggered=record["fail_fast_triggered"],
        exit_code=number_field(code) if isinstance(code, int) else code, summary_path=summary_path,
        warnings=tuple(warnings))]
