"""Reading a skf-quick-batch.py `batch.jsonl` as the seed reads it, into the events it implies.

Pure: bytes in, events out. A line that is not a JSON object (a write cut short)
is skipped; the last start line counts; a later outcome line replaces an earlier one.
"""

from __future__ import annotations

import json
from typing import Any

from batchlog.projections.errors import BadInput
from batchlog.projections.quick_batch.events import (
    CREATE_WORKFLOW,
    WORKFLOW,
    BatchStarted,
    BatchSummarized,
    BriefRejected,
    TargetRecorded,
    number_field,
)
from batchlog.projections.quick_batch.grammar import TargetLine


def _lines(data: bytes, run_dir: str) -> list[dict[str, Any]]:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise BadInput(f"the batch in {run_dir} cannot be read: {e}") from None
    entries = []
    for raw in text.split("\n"):
        try:
            entry = json.loads(raw) if raw.strip() else None
        except (json.JSONDecodeError, RecursionError):
            entry = None  # a write cut short (or JSON nested too deep to read)
        if isinstance(entry, dict):
            entries.append(entry)
    return entries


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _number(value: Any) -> int | float | str | None:
    return number_field(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _target(entry: dict[str, Any]) -> str:
    target = entry.get("target")
    return target if isinstance(target, str) else json.dumps(target)


def _started(entry: dict[str, Any], targets: dict[int, dict[str, Any]]) -> BatchStarted:
    briefs = entry.get("input_briefs")
    lines = tuple(TargetLine(n, t["target"] if isinstance(t.get("target"), str) else json.dumps(t.get("target")),
                             _str(t.get("language_hint")), _str(t.get("scope_hint")))
                  for n, t in sorted(targets.items()))
    workflow = entry.get("workflow")
    return BatchStarted(
        workflow=workflow if workflow in (WORKFLOW, CREATE_WORKFLOW) else WORKFLOW,
        input_file=_str(entry.get("input_file")),
        input_briefs=[b for b in briefs if isinstance(b, str)] if isinstance(briefs, list) else None,
        fail_fast=bool(entry.get("fail_fast")), started_at=_str(entry.get("started_at")) or "",
        batch_id=_str(entry.get("batch_id")), targets=lines)


def _recorded(n: int, entry: dict[str, Any]) -> TargetRecorded | BriefRejected:
    success = entry.get("status") == "success"
    reason = entry.get("error_code")
    code = entry.get("exit_code")
    if entry.get("rejected") and isinstance(reason, str) and _int(code) and entry.get("status") == "error":
        return BriefRejected(batch=n, target=_target(entry), error_code=reason, exit_code=number_field(code),
                             message=_str(entry.get("message")))
    return TargetRecorded(
        batch=n, target=_target(entry),
        status="success" if success else (_str(entry.get("status")) or "error"),
        exit_code=number_field(code) if _int(code) else (0 if success else 1),
        skill_package=_str(entry.get("skill_package")),
        error_code=reason if reason is None or isinstance(reason, str) else None,
        error_code_json=None if reason is None or isinstance(reason, str) else json.dumps(reason),
        quality_score=_number(entry.get("quality_score")))


def _summarized(entry: dict[str, Any]) -> BatchSummarized:
    code = entry.get("exit_code")
    warnings = entry.get("warnings")
    return BatchSummarized(
        status=_str(entry.get("status")) or "failed", timestamp=_str(entry.get("timestamp")) or "",
        targets_total=entry["targets_total"] if _int(entry.get("targets_total")) else 0,
        succeeded=entry["succeeded"] if _int(entry.get("succeeded")) else 0,
        failed=entry["failed"] if _int(entry.get("failed")) else 0,
        fail_fast_triggered=bool(entry.get("fail_fast_triggered")),
        exit_code=number_field(code) if _int(code) else 0, summary_path=_str(entry.get("summary_path")),
        warnings=tuple(w for w in warnings if isinstance(w, str)) if isinstance(warnings, list) else ())


def events_of_seed_lines(data: bytes, run_dir: str) -> list[Any]:
    """The events a seed batch.jsonl implies: the start (with its targets), the outcomes, the summary."""
    start, summary = None, None
    targets: dict[int, dict[str, Any]] = {}
    results: dict[int, dict[str, Any]] = {}
    for entry in _lines(data, run_dir):
        event = entry.get("event")
        if event == "start":
            start = entry
        elif event == "target" and isinstance(entry.get("batch"), int):
            targets[entry["batch"]] = entry
        elif event == "result" and isinstance(entry.get("batch"), int):
            results[entry["batch"]] = entry
        elif event == "summary":
            summary = entry
    if start is None:
        raise BadInput(f"the batch in {run_dir} has no start line: nothing to import")
    events: list[Any] = [_started(start, targets)]
    events.extend(_recorded(n, entry) for n, entry in sorted(results.items()))
    if summary is not None:
        events.append(_summarized(summary))
    return events
