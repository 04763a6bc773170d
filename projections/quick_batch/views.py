"""Views of a quick batch: the answers and event lines skf-quick-batch.py prints, and `status`.

Pure functions of the state (and of values the CLI passes in); key order is the seed's.
"""

from __future__ import annotations

import json
from typing import Any

from batchlog.projections.quick_batch.events import (
    CREATE_WORKFLOW,
    WORKFLOW,
    BatchStarted,
    BatchSummarized,
    SummaryWritten,
    number_value,
)
from batchlog.projections.quick_batch.grammar import TargetLine
from batchlog.projections.quick_batch.state import Batch, Outcome

SUMMARY_STEMS = {WORKFLOW: "quick-skill-batch", CREATE_WORKFLOW: "create-skill-batch"}


def workflow(state: Batch) -> str:
    started = state.started
    return started.workflow if started is not None and started.workflow in SUMMARY_STEMS else WORKFLOW


def pending(state: Batch) -> list[TargetLine]:
    """The targets not yet recorded, in batch order."""
    assert state.started is not None
    results = state.results
    return [t for t in state.started.targets if str(t.batch) not in results]


def stopped_early(state: Batch) -> bool:
    """--fail-fast was given and a target failed."""
    assert state.started is not None
    return state.started.fail_fast and any(r.status != "success" for r in state.results.values())


def target(state: Batch, number: int) -> TargetLine | None:
    assert state.started is not None
    for line in state.started.targets:
        if line.batch == number:
            return line
    return None


def target_folder_name(run_dir_name: str, started: BatchStarted, number: int) -> str:
    """Target `number`'s run folder: named after the batch's start for a brief batch."""
    if started.batch_id:
        return f"{CREATE_WORKFLOW}-{started.batch_id}-{number}"
    return f"{run_dir_name}-{number}"


def error_code(result: Outcome) -> Any:
    """The halt_reason as the payload gave it (any JSON value)."""
    if result.error_code_json is not None:
        return json.loads(result.error_code_json)
    return result.error_code


def outcome(result: Outcome) -> dict[str, Any]:
    """A result as the summary file lists it."""
    return {
        "batch": result.batch, "target": result.target, "status": result.status,
        "exit_code": number_value(result.exit_code), "skill_package": result.skill_package,
        "error_code": error_code(result), "quality_score": number_value(result.quality_score),
    }


def results(state: Batch) -> list[Outcome]:
    """Every recorded outcome, in batch order."""
    return [state.results[key] for key in sorted(state.results, key=int)]


def start_answer(state: Batch, resumed: bool) -> dict[str, Any]:
    """What `start FILE` prints."""
    started = state.started
    assert started is not None
    return {"status": "running", "input_file": started.input_file, "fail_fast": bool(started.fail_fast),
            "targets_total": len(started.targets), "recorded": len(state.results), "resumed": resumed}


def start_briefs_answer(state: Batch, batch_dir: str, resumed: bool) -> dict[str, Any]:
    """What `start --briefs` prints."""
    started = state.started
    assert started is not None
    rejected = [{"batch": r.batch, "target": r.target, "error_code": error_code(r), "message": r.message}
                for r in results(state) if r.rejected]
    return {"status": "running", "workflow": CREATE_WORKFLOW, "batch_dir": batch_dir,
            "input_briefs": list(started.input_briefs or ()), "fail_fast": bool(started.fail_fast),
            "targets_total": len(started.targets), "recorded": len(state.results), "resumed": resumed,
            "rejected": rejected}


def done_answer(state: Batch) -> dict[str, Any]:
    return {"status": "done", "fail_fast_triggered": stopped_early(state) and bool(pending(state))}


def next_answer(line: TargetLine, folder: str) -> dict[str, Any]:
    return {"status": "next", "batch": line.batch, "target": line.target, "language_hint": line.language_hint,
            "scope_hint": line.scope_hint, "run_dir": folder}


def record_answer(number: int) -> dict[str, Any]:
    return {"status": "record", "batch": number}


def start_event(line: TargetLine) -> dict[str, Any]:
    """The target's start event `next` prints on stderr."""
    return {"batch": line.batch, "target": line.target, "status": "start"}


def end_event(result: Outcome) -> dict[str, Any]:
    """The target's end event `record` prints."""
    if result.status == "success":
        return {"batch": result.batch, "target": result.target, "status": "done", "exit": 0}
    return {"batch": result.batch, "target": result.target, "status": "fail",
            "exit": number_value(result.exit_code), "error_code": error_code(result)}


def summary_record(state: Batch, timestamp: str) -> dict[str, Any]:
    """The summary file's content for a batch ending at `timestamp`: from the outcomes it summed up once
    summarized (so a repeat writes the same bytes), else from the outcomes recorded so far."""
    started = state.started
    assert started is not None
    name = workflow(state)
    done = list(state.summarized_results) if state.summary is not None else results(state)
    bad = [r for r in done if r.status != "success"]
    succeeded = len(done) - len(bad)
    record: dict[str, Any] = {
        "skill": name, "mode": "batch",
        "status": "success" if not bad else ("partial" if succeeded else "failed"),
        "timestamp": timestamp,
    }
    if name == CREATE_WORKFLOW:
        record["input_briefs"] = None if started.input_briefs is None else list(started.input_briefs)
    else:
        record["input_file"] = started.input_file
    record.update({
        "targets_total": len(done), "succeeded": succeeded, "failed": len(bad),
        "fail_fast_triggered": (state.summary.fail_fast_triggered if state.summary is not None
                                else stopped_early(state) and bool(pending(state))),
        "exit_code": max((number_value(r.exit_code) for r in bad), default=0),
        "results": [outcome(r) for r in done],
    })
    return record


def summary_event(summary: BatchSummarized, written: SummaryWritten | None) -> dict[str, Any]:
    """The batch_summary event `summarize` prints (`written`: where its summary file went; None while unwritten)."""
    event: dict[str, Any] = {
        "batch_summary": True, "targets_total": summary.targets_total, "succeeded": summary.succeeded,
        "failed": summary.failed, "status": summary.status, "fail_fast_triggered": summary.fail_fast_triggered,
        "exit_code": number_value(summary.exit_code), "summary_path": None if written is None else written.summary_path,
    }
    if written is not None and written.warnings:
        event["warnings"] = list(written.warnings)
    return event
