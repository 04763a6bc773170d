"""The bodies of `batchlog quick-batch parse|start|next|record|summarize`.

Each reads what the decision needs from disk (staged payloads, briefs, the batch file) on a
lock-free replay, builds one command, has the quick batch's `decide` take it under the log's lock
(cli/loop_log.py), carries out the effects the decision returns, and returns the answer the
seed prints. When the batch moved between the read and the lock (`Stale`), it reads again.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from collections.abc import Callable
from typing import Any

from batchlog.cli.loop_log import decided, state_of
from batchlog.cli.quick_batch import effects as effects_io
from batchlog.cli.quick_batch import files as io
from batchlog.cli.store import Store
from batchlog.engine.clock import now_datetime
from batchlog.engine.errors import WriteFailed
from batchlog.engine.log import Appended, EventLog
from batchlog.projections.errors import BadInput, Refused
from batchlog.projections.quick_batch import decide, views
from batchlog.projections.quick_batch.commands import (
    ArchiveAndRemove,
    BriefCheck,
    ClearEndedBatch,
    Command,
    Decision,
    Effect,
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
from batchlog.projections.quick_batch.decider import QUICK_BATCH
from batchlog.projections.quick_batch.events import CREATE_WORKFLOW, WORKFLOW
from batchlog.projections.quick_batch.exit_codes import exit_code_map
from batchlog.projections.quick_batch.state import Batch

ATTEMPTS = 50  # reads again when another command moved the batch; each retry follows a commit of another
WRITE_FAILURE = decide.WRITE_FAILURE


def parse(file: str) -> dict[str, Any]:
    return {"targets": [_target_dict(t) for t in io.read_batch_file(file)]}


def _target_dict(t: Any) -> dict[str, Any]:
    return {"batch": t.batch, "target": t.target, "language_hint": t.language_hint, "scope_hint": t.scope_hint}


def _given_codes(path: str | None) -> dict[str, int] | None:
    if path is None:
        return None
    return exit_code_map(io.read_json_file(Path(path), "exit-code map"), Path(path).as_posix())


def _as_start_refusal(error: Refused, halt_reason: str) -> Refused:
    if error.fields.get("halt_reason"):
        return error
    return Refused(error.message, **{**error.fields, "halt_reason": halt_reason})


def _write_failed(error: WriteFailed | OSError, run_dir: Path, workflow: str) -> Refused:
    errno = error.errno if isinstance(error, OSError) else error.fields.get("errno")
    why = (error.strerror if isinstance(error, OSError) else None) or (os.strerror(errno) if errno else None)
    return Refused(f"the batch file cannot be written in {run_dir.as_posix()}: {why or error}",
                   halt_reason=WRITE_FAILURE[workflow])


def start(args: argparse.Namespace, store: Store | None = None) -> dict[str, Any]:
    if args.briefs is not None:
        if args.file is not None:
            raise Refused("give start a batch file or --briefs, not both", halt_reason="input-invalid")
        if args.run_root is None or args.run_dir is not None:
            raise Refused("start --briefs takes --run-root, not --run-dir: the briefs name their batch run folder",
                          halt_reason="input-invalid")
        return start_briefs(args.briefs, Path(args.run_root), args.fail_fast, args.brief_schema, args.exit_codes,
                            args.brief_validator, store)
    if args.file is None:
        raise Refused("start needs the batch file, or --briefs", halt_reason="input-invalid")
    if args.run_dir is None or args.run_root is not None:
        raise Refused("start with a batch file takes --run-dir, not --run-root", halt_reason="input-invalid")
    return start_file(args.file, Path(args.run_dir), args.fail_fast, args.exit_codes, store)


def _decided(log: EventLog, command_of: Callable[[Batch], Command]) -> tuple[Appended, Decision]:
    """Read (lock-free), build the command, decide it under the lock: (the append, the decision).
    Retried while the batch moved in between (each retry follows another command's append)."""
    for _ in range(ATTEMPTS):
        command = command_of(state_of(log, QUICK_BATCH))
        try:
            return decided(log, QUICK_BATCH, command)
        except decide.Stale:
            continue
    raise Refused("the batch kept changing while this command read it: run it again")


def _carry_out(log: EventLog, run_dir: Path, effects: tuple[Effect, ...]) -> Batch | None:
    """Do on disk what a decision asks, in order (a summary written is then recorded, which may ask more).
    The state after the last append this made (None: it made none)."""
    state = None
    for effect in effects:
        match effect:
            case PrepareTargetFolder():
                effects_io.prepare_target_folder(effect)
            case RemoveTargetFolder():
                effects_io.remove_target_folder(effect)
            case ClearEndedBatch():
                effects_io.clear_ended_batch(effect)
            case ArchiveAndRemove():
                effects_io.archive_and_remove(effect, log)
            case WriteSummary():
                path, warnings = effects_io.write_summary(effect)
                written = RecordSummaryWritten(run_dir.as_posix(), path, tuple(warnings))
                appended, decision = _decided(log, lambda _state: written)
                state = _carry_out(log, run_dir, decision.effects) or appended.state
    return state


def start_file(file: str, run_dir: Path, fail_fast: bool, exit_codes: str | None,
               store: Store | None = None) -> dict[str, Any]:
    path = os.path.abspath(file)  # absolute: a start run again from another folder finds the same batch
    log = io.open_log(run_dir, store)
    # The file is read only for a new batch, as the seed does. New is decided on the log's acknowledged
    # events, not on the file's existence: a start killed before its event was durable is a new start.
    resuming = log.exists() and _has_start(log)
    try:
        targets = ()
        if not resuming:
            targets = io.read_batch_file(path)
        codes = _given_codes(exit_codes)
    except Refused as error:
        raise _as_start_refusal(error, "input-invalid") from None
    try:
        run_dir.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise _write_failed(error, run_dir, WORKFLOW) from None
    timestamp, _ = decide.stamps(now_datetime())
    try:
        relative: str | None = Path(os.path.relpath(path, os.path.abspath(run_dir))).as_posix()
    except ValueError:  # another drive (Windows): no relative path
        relative = None
    command = StartBatch(run_dir.as_posix(), path, tuple(targets), fail_fast, timestamp, codes, relative)

    def start_batch(state: Batch) -> Command:
        if resuming:  # the targets were not read: never start a batch without them
            decide.require_batch(state, run_dir.as_posix())
        return command

    try:
        appended, decision = _decided(log, start_batch)
    except WriteFailed as error:
        raise _write_failed(error, run_dir, WORKFLOW) from None
    _carry_out(log, run_dir, decision.effects)
    return views.start_answer(appended.state, resumed=not appended.events)


def _has_start(log: EventLog) -> bool:
    return state_of(log, QUICK_BATCH).started is not None


def start_briefs(paths: list[str], run_root: Path, fail_fast: bool, schema: str | None,
                 exit_codes: str | None, validator_path: str | None = None,
                 store: Store | None = None) -> dict[str, Any]:
    from batchlog.cli.quick_batch.briefs import batch_dir, expand_briefs, load_validator

    briefs = tuple(expand_briefs(paths))
    if not briefs:
        raise Refused(f"no skill-brief.yaml under {', '.join(paths)}", halt_reason="brief-missing")
    run_dir = batch_dir(run_root, list(briefs))
    shown = run_dir.as_posix()
    log = io.open_log(run_dir, store)
    if log.exists():
        state_of(log, QUICK_BATCH)  # another loop's log is refused before any brief is read
    given = _given_codes(exit_codes) if exit_codes is not None else None
    checked: list[tuple[BriefCheck, ...]] = []

    def start_batch(state: Batch) -> Command:
        timestamp, stamp = decide.stamps(now_datetime())
        checks = None
        if not decide.resumes_brief_batch(state, briefs, shown):
            if not checked:
                validator = load_validator(validator_path, schema)
                checked.append(tuple(validator.check(brief) for brief in briefs))
            checks = checked[0]
        run_dir.mkdir(parents=True, exist_ok=True)  # only once the briefs were checked: a refusal writes nothing
        return StartBriefBatch(shown, briefs, checks, fail_fast, timestamp, f"batch-{stamp}", given)

    try:
        appended, decision = _decided(log, start_batch)
        _carry_out(log, run_dir, decision.effects)
    except (WriteFailed, OSError) as error:
        raise _write_failed(error, run_dir, CREATE_WORKFLOW) from None
    return views.start_briefs_answer(appended.state, shown, resumed=not appended.events)


def next_target(run_dir: Path, store: Store | None = None) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """(the answer, the start event for stderr or None)."""
    log = io.open_log(run_dir, store)
    io.require_log(log, run_dir)
    shown = run_dir.as_posix()

    def hand_out(state: Batch) -> Command:
        if state.started is None:
            return NextTarget(shown, None, False)
        line = decide.next_target(state)
        if line is None:
            return NextTarget(shown, None, False)
        folder = run_dir / views.target_folder_name(run_dir.name, state.started, line.batch)
        return NextTarget(shown, line.batch, io.has_staged(folder))

    appended, decision = _decided(log, hand_out)
    _carry_out(log, run_dir, decision.effects)
    state = appended.state
    if decision.answer == "done":
        return views.done_answer(state), None
    line = decide.next_target(state)
    assert line is not None and state.started is not None
    if decision.answer == "record":
        return views.record_answer(line.batch), None
    folder = run_dir / views.target_folder_name(run_dir.name, state.started, line.batch)
    return views.next_answer(line, folder.as_posix()), views.start_event(line)


def record(run_dir: Path, number: int, exit_codes: str | None, store: Store | None = None) -> dict[str, Any]:
    log = io.open_log(run_dir, store)
    io.require_log(log, run_dir)
    given = _given_codes(exit_codes)
    shown = run_dir.as_posix()

    def record_target(state: Batch) -> Command:
        staged: Staged | Unstaged | None = None
        started = state.started
        if started is not None and str(number) not in state.results and views.target(state, number) is not None:
            staged = io.read_staged(run_dir / views.target_folder_name(run_dir.name, started, number))
        return RecordTarget(shown, number, staged, given)

    appended, decision = _decided(log, record_target)
    _carry_out(log, run_dir, decision.effects)
    return views.end_event(appended.state.results[str(number)])


def summarize(run_dir: Path, output_dir: Path, store: Store | None = None) -> dict[str, Any]:
    log = io.open_log(run_dir, store)
    if not run_dir.exists() and not log.exists():  # a file store's log is in the run folder
        workflow = CREATE_WORKFLOW if run_dir.name.startswith(f"{CREATE_WORKFLOW}-") else WORKFLOW
        latest = output_dir / f"{views.SUMMARY_STEMS[workflow]}-latest.json"
        raise BadInput(f"no batch in {run_dir.as_posix()}: a batch whose targets all succeeded removes its run "
                       f"folder once summarized; its summary is {latest.as_posix()}")
    io.require_log(log, run_dir)
    timestamp, _ = decide.stamps(now_datetime())
    inside = output_dir.resolve().is_relative_to(run_dir.resolve())
    command = Summarize(run_dir.as_posix(), output_dir.as_posix(), inside, timestamp)
    appended, decision = _decided(log, lambda state: command)
    state = _carry_out(log, run_dir, decision.effects) or appended.state
    assert state.summary is not None
    return views.summary_event(state.summary, state.summary_written)
