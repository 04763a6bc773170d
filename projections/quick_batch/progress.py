"""The `status` view: each target's place (pending, in progress, done, fail) and the time it took.

Pure: times come from the events' `at`.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from batchlog.projections.quick_batch import views
from batchlog.projections.quick_batch.state import Batch


def _seconds(start: str | None, end: str | None) -> float | None:
    if start is None or end is None:
        return None
    parse = datetime.fromisoformat
    return round((parse(end.replace("Z", "+00:00")) - parse(start.replace("Z", "+00:00"))).total_seconds(), 3)


def progress(state: Batch, run_dir: str) -> dict[str, Any]:
    """The batch's progress as data (what `status --json` prints)."""
    started = state.started
    assert started is not None
    rows = []
    counts = {"done": 0, "fail": 0, "pending": 0, "in_progress": 0}
    for line in started.targets:
        key = str(line.batch)
        result = state.results.get(key)
        if result is not None:
            place = "done" if result.status == "success" else "fail"
        else:
            place = "in_progress" if state.in_progress == line.batch else "pending"
        counts[place] += 1
        began, ended = state.handed_out.get(key), state.recorded_at.get(key)
        row: dict[str, Any] = {"batch": line.batch, "target": line.target, "status": place,
                               "started_at": began, "recorded_at": ended, "seconds": _seconds(began, ended)}
        if result is not None:
            row.update({"exit_code": views.outcome(result)["exit_code"], "error_code": views.error_code(result)})
        rows.append(row)
    current = next((r for r in rows if r["status"] == "in_progress"), None)
    return {
        "run_dir": run_dir, "workflow": views.workflow(state), "input_file": started.input_file,
        "input_briefs": None if started.input_briefs is None else list(started.input_briefs),
        "fail_fast": started.fail_fast, "started_at": started.started_at, "targets_total": len(rows),
        "succeeded": counts["done"], "failed": counts["fail"], "pending": counts["pending"] + counts["in_progress"],
        "in_progress": None if current is None else {"batch": current["batch"], "target": current["target"],
                                                     "since": current["started_at"]},
        "summarized": state.summary is not None,
        "summary": None if state.summary is None else views.summary_event(state.summary, state.summary_written),
        "targets": rows,
    }


def _took(row: dict[str, Any]) -> str:
    if row["seconds"] is not None:
        return f"{row['seconds']:g}s"
    if row["status"] == "in_progress":
        return f"since {row['started_at']}"
    return "-"


def progress_text(data: dict[str, Any]) -> str:
    """The batch's progress in lines a person reads."""
    source = data["input_file"] if data["input_file"] is not None else f"{len(data['input_briefs'] or [])} brief(s)"
    head = [
        f"batch {data['run_dir']} ({data['workflow']}, {source}{', fail-fast' if data['fail_fast'] else ''})",
        f"targets {data['targets_total']}: {data['succeeded']} done, {data['failed']} failed, "
        f"{data['pending']} pending" + ("; summarized" if data["summarized"] else ""),
    ]
    if data.get("archived"):
        head.append(f"summary {data['archived']['summary']}; its log archived as {data['archived']['archive']} "
                    "(the run folder was removed)")
    current = data["in_progress"]
    head.append("in progress: " + ("none" if current is None
                                   else f"{current['batch']} {current['target']} since {current['since']}"))
    places = [row["status"] if row["status"] != "fail" else f"fail {row['exit_code']} {row['error_code']}"
              for row in data["targets"]]
    width = max((len(str(r["target"])) for r in data["targets"]), default=6)
    place_width = max((len(p) for p in places), default=7)
    rows = [f"  {row['batch']:>4}  {row['target']:<{width}}  {place:<{place_width}}  {_took(row)}"
            for row, place in zip(data["targets"], places, strict=True)]
    return "\n".join(head + rows)
