"""The quick batch's decisions: `decide(command, state) -> Decision`, or a refusal (`Refused`, nothing written).

Pure: it reads no file and calls nothing. Times, payloads and file facts arrive in the
command; what must happen on disk comes back as effects beside the events, and the CLI
carries them out after the append. A repeat of a recorded command appends nothing and
asks again for every effect that may still be missing (each effect is safe to repeat),
so a crash between an append and its effects is finished by the repeat. Messages are the seed's.
"""

from __future__ import annotations

import json
import posixpath
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import attrs

from batchlog.projections.errors import BadInput, Refused, WrongLog
from batchlog.projections.quick_batch import views
from batchlog.projections.quick_batch.commands import (
    ArchiveAndRemove,
    BriefCheck,
    ClearEndedBatch,
    Command,
    Decision,
    ImportSeedBatch,
    NextTarget,
    PrepareTargetFolder,
    RecordSummaryWritten,
    RecordTarget,
    RemoveTargetFolder,
    Staged,
    StartBatch,
    StartBriefBatch,
    Summarize,
    Unstaged,
    WriteSummary,
)
from batchlog.projections.quick_batch.events import (
    CREATE_WORKFLOW,
    WORKFLOW,
    BatchStarted,
    BatchSummarized,
    BriefRejected,
    SummaryWritten,
    TargetRecorded,
    TargetStarted,
    number_field,
)
from batchlog.projections.quick_batch.exit_codes import REJECTED_BRIEF_FALLBACK, codes_for
from batchlog.projections.quick_batch.grammar import TargetLine
from batchlog.projections.quick_batch.state import Batch

WRITE_FAILURE = {WORKFLOW: "write-failure", CREATE_WORKFLOW: "write-failed"}
HALT_PAYLOAD, RESULT_PAYLOAD = "halt.json", "result-context.json"


class Stale(Refused):
    """The batch changed between what the CLI read and the lock (another command ran): read again."""

    code = "stale"


def stamps(moment: datetime) -> tuple[str, str]:
    """(ISO-8601 UTC timestamp, YYYYMMDD-HHmmss file stamp) of a time, to the second."""
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ"), moment.strftime("%Y%m%d-%H%M%S")


def file_stamp(timestamp: str) -> str:
    """The YYYYMMDD-HHmmss stamp of an ISO-8601 timestamp `stamps` made."""
    return timestamp[:10].replace("-", "") + "-" + timestamp[11:19].replace(":", "")


def decide(command: Command, state: Batch) -> Decision:
    """The events `command` appends to `state` and the effects the CLI carries out after."""
    match command:
        case StartBatch():
            return _start(state, command)
        case StartBriefBatch():
            return _start_briefs(state, command)
        case NextTarget():
            return _next(state, command)
        case RecordTarget():
            return _record(state, command)
        case Summarize():
            return _summarize(state, command)
        case RecordSummaryWritten():
            return _summary_written(state, command)
        case ImportSeedBatch():
            return _import(state, command)
        case _:
            raise TypeError(f"the quick batch has no command {type(command).__name__}")


def another_loops_log(state: Batch, log: str) -> WrongLog | None:
    """The refusal of a log that holds another loop's events (the fold noted the first one; batchlog's commands
    write a loop's own events from a log's first line on), else None."""
    if state.foreign is None:
        return None
    return WrongLog(f"{log} is not a quick batch's log (its first event is {state.foreign}): give `batchlog "
                    "quick-batch` the run folder of a quick batch, or use the command of that log's loop",
                    path=log, type=state.foreign)


def require_batch(state: Batch, run_dir: str) -> None:
    """Refused when the log holds no start (an empty or cut log)."""
    if state.started is None:
        raise Refused(f"the batch in {run_dir} has no start line: run start first")


def _same_path(a: str | None, b: str) -> bool:
    return isinstance(a, str) and posixpath.normpath(a) == posixpath.normpath(b)


def _target_folder(run_dir: str, state: Batch, number: int) -> str:
    assert state.started is not None
    return posixpath.join(run_dir, views.target_folder_name(posixpath.basename(run_dir), state.started, number))


# ─── start ──────────────────────────────────────────────────────────────────


def _start(state: Batch, command: StartBatch) -> Decision:
    """Every target pending; nothing when this file's batch is already here (a resume)."""
    started = state.started
    if started is not None:
        if not (_same_path(started.input_file, command.input_file)
                or (command.input_from_run_dir is not None and _same_path(started.input_file,
                                                                          command.input_from_run_dir))):
            raise Refused(f"{command.run_dir} holds the batch of {started.input_file}, not {command.input_file}: "
                          "give this batch a run folder of its own", halt_reason="input-invalid")
        return Decision()
    return Decision((BatchStarted(
        workflow=WORKFLOW, input_file=command.input_file, input_briefs=None, fail_fast=command.fail_fast,
        started_at=command.started_at, targets=command.targets, exit_codes=command.exit_codes),))


def resumes_brief_batch(state: Batch, briefs: tuple[str, ...], batch_dir: str) -> bool:
    """True when the folder holds an unfinished batch of these briefs; refused for other briefs."""
    started = state.started
    if started is None or state.summary is not None:
        return False
    if started.workflow != CREATE_WORKFLOW or tuple(started.input_briefs or ()) != tuple(briefs):
        raise Refused(f"{batch_dir} holds an unfinished batch of other briefs: finish or remove it first",
                      halt_reason=WRITE_FAILURE[CREATE_WORKFLOW])
    return True


def brief_rejections(briefs: tuple[str, ...], checks: tuple[BriefCheck, ...]) -> list[BriefCheck]:
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


def _clear(batch_dir: str, batch_id: str) -> ClearEndedBatch:
    return ClearEndedBatch(batch_dir, keep_prefix=f"{CREATE_WORKFLOW}-{batch_id}-")


def _start_briefs(state: Batch, command: StartBriefBatch) -> Decision:
    """Every brief a target, the refused ones recorded at once as failed; the ended batch's folder
    emptied after. Nothing when the folder holds an unfinished batch of the same briefs (a resume),
    but the emptying again while that batch has handed nothing out (a start cut short after its append)."""
    if resumes_brief_batch(state, command.briefs, command.batch_dir):
        assert state.started is not None and state.started.batch_id is not None
        redo = () if state.handed_out else (_clear(command.batch_dir, state.started.batch_id),)
        return Decision((), redo)
    if command.checks is None:
        raise Stale(f"{command.batch_dir} changed while its briefs were read: run start again")
    codes = codes_for(CREATE_WORKFLOW, command.exit_codes)
    targets = tuple(TargetLine(n, brief) for n, brief in enumerate(command.briefs, start=1))
    events: list[BatchStarted | BriefRejected] = [BatchStarted(
        workflow=CREATE_WORKFLOW, input_file=None, input_briefs=command.briefs, fail_fast=command.fail_fast,
        started_at=command.started_at, batch_id=command.batch_id, targets=targets, exit_codes=command.exit_codes)]
    for line, check in zip(targets, brief_rejections(command.briefs, command.checks), strict=True):
        if check.halt_reason is not None:
            events.append(BriefRejected(
                batch=line.batch, target=line.target, error_code=check.halt_reason,
                exit_code=codes.get(check.halt_reason, REJECTED_BRIEF_FALLBACK), message=check.message))
    return Decision(tuple(events), (_clear(command.batch_dir, command.batch_id),))


# ─── next ───────────────────────────────────────────────────────────────────


def next_target(state: Batch) -> TargetLine | None:
    """The target `next` hands out, or None when the batch is done (or --fail-fast stopped it)."""
    if state.summary is not None or views.stopped_early(state):
        return None
    left = views.pending(state)
    return left[0] if left else None


def _next(state: Batch, command: NextTarget) -> Decision:
    """The next pending target, in progress and its run folder made empty; "record" when its folder
    staged a payload (it ended: never run twice); "done" when none is left."""
    require_batch(state, command.run_dir)
    line = next_target(state)
    if (None if line is None else line.batch) != command.batch:
        raise Stale(f"the batch in {command.run_dir} changed while next read it: run next again")
    if line is None:
        return Decision(answer="done")
    if command.staged:
        return Decision(answer="record")
    events = () if state.in_progress == line.batch else (TargetStarted(line.batch, line.target),)
    return Decision(events, (PrepareTargetFolder(_target_folder(command.run_dir, state, line.batch)),), "next")


# ─── record ─────────────────────────────────────────────────────────────────


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
        fields["error_code_json"] = json.dumps(reason)
    return fields


def _result_outcome(staged: Staged) -> dict[str, Any]:
    payload = staged.payload
    summary = payload.get("summary") if isinstance(payload.get("summary"), dict) else {}
    score = summary.get("quality_score")
    package = payload.get("skill_package")
    return {"status": "success", "exit_code": 0, "skill_package": package if isinstance(package, str) else None,
            "quality_score": number_field(score) if _number(score) else None}


def _record(state: Batch, command: RecordTarget) -> Decision:
    """How target `number` ended, from its staged payload; a success's run folder removed after.
    Nothing when already recorded, but the removal again (a record cut short after its append)."""
    require_batch(state, command.run_dir)
    number = command.number
    line = views.target(state, number)
    if line is None:
        raise BadInput(f"the batch in {command.run_dir} has no target {number}", batch=number)
    folder = _target_folder(command.run_dir, state, number)
    known = state.results.get(str(number))
    if known is not None:
        return Decision((), (RemoveTargetFolder(folder),) if _removes_folder(known) else ())
    staged = command.staged
    if staged is None:
        raise Stale(f"target {number} of the batch in {command.run_dir} changed while record read it: "
                    "run record again")
    if isinstance(staged, Unstaged):
        raise BadInput(staged.message, path=staged.path)
    codes = codes_for(views.workflow(state), command.exit_codes if command.exit_codes is not None
                      else state.started.exit_codes if state.started is not None else None)
    fields = _halt_outcome(staged, codes) if staged.kind == HALT_PAYLOAD else _result_outcome(staged)
    result = TargetRecorded(batch=number, target=line.target, **fields)
    return Decision((result,), (RemoveTargetFolder(folder),) if _removes_folder(result) else ())


def _removes_folder(result: TargetRecorded | BriefRejected) -> bool:
    """A run folder is kept only for a halt (a brief refused at start never had one)."""
    return result.status == "success"


# ─── summarize ──────────────────────────────────────────────────────────────


def check_summarizable(state: Batch) -> None:
    """Refused while targets are pending (unless --fail-fast stopped the batch)."""
    left = views.pending(state)
    if left and not views.stopped_early(state):
        raise Refused(f"{len(left)} target(s) of the batch are still pending: run next and finish them before "
                      "summarize", pending=len(left))


def _summarize(state: Batch, command: Summarize) -> Decision:
    """The batch ends; its summary files are written after (then `RecordSummaryWritten`). A repeat
    appends nothing and asks again for whatever a crash left undone."""
    require_batch(state, command.run_dir)
    if state.summary is not None:
        return Decision((), _summary_effects(state, command.run_dir))
    check_summarizable(state)
    record = views.summary_record(state, command.timestamp)
    code = record["exit_code"]
    event = BatchSummarized(
        status=record["status"], timestamp=record["timestamp"], targets_total=record["targets_total"],
        succeeded=record["succeeded"], failed=record["failed"], fail_fast_triggered=record["fail_fast_triggered"],
        exit_code=number_field(code) if isinstance(code, int) else code, summary_path=None,
        output_dir=command.output_dir, output_inside=command.output_inside)
    return Decision((event,), (_write_summary(state, event),))


def _write_summary(state: Batch, summary: BatchSummarized) -> WriteSummary:
    assert summary.output_dir is not None
    record = views.summary_record(state, summary.timestamp)
    return WriteSummary(summary.output_dir, views.SUMMARY_STEMS[views.workflow(state)],
                        file_stamp(summary.timestamp), record)


def _summary_effects(state: Batch, run_dir: str) -> tuple[WriteSummary | ArchiveAndRemove, ...]:
    """What an ended batch still asks of the disk: its summary files, then (a clean batch) the archive
    of its log and the removal of its run folder."""
    summary, written = state.summary, state.summary_written
    assert summary is not None
    if written is None:
        return (_write_summary(state, summary),)
    clean = not summary.failed and written.summary_path is not None and not summary.output_inside
    if clean and summary.output_dir is not None and posixpath.basename(run_dir).startswith(f"{views.workflow(state)}-"):
        return (ArchiveAndRemove(run_dir, written.summary_path),)
    return ()


def _summary_written(state: Batch, command: RecordSummaryWritten) -> Decision:
    """Where the summary went; then the run folder's archive and removal, for a clean batch."""
    require_batch(state, command.run_dir)
    if state.summary is None:
        raise Stale(f"the batch in {command.run_dir} has no summary to note: run summarize again")
    if state.summary_written is not None:
        return Decision((), _summary_effects(state, command.run_dir))
    event = SummaryWritten(command.summary_path, command.warnings)
    return Decision((event,), _summary_effects(attrs.evolve(state, summary_written=event), command.run_dir))


# ─── import ─────────────────────────────────────────────────────────────────


def already_taken(log: str) -> Refused:
    """The refusal of an import into the log named `log`, which holds a batch already."""
    return Refused(f"{log} already exists: this batch was imported or started with batchlog; go on with "
                   "`batchlog quick-batch next`", path=log)


def require_same_import(command: ImportSeedBatch, logged: Sequence[Any]) -> None:
    """Nothing to do when the log begins with the very events `command` writes (`logged`: the log's first ones):
    the import ran already, and a repeat appends nothing. Refused, as an import into a log that holds a batch,
    otherwise (the seed's batch.jsonl went on since, or the log holds another batch)."""
    if tuple(logged[: len(command.events)]) != tuple(command.events):
        raise already_taken(command.log)


def _import(state: Batch, command: ImportSeedBatch) -> Decision:
    """A seed's batch, into a log that holds none."""
    if state.started is not None:
        raise already_taken(command.log)
    return Decision(command.events)
