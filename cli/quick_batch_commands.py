"""The bodies of `batchlog quick-batch parse|start|next|record|summarize`.

Each reads what it needs, takes one decision under the log's lock (the decide
function given to `EventLog.append`) and returns the answer the seed prints.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

import engine
from cli import quick_batch_io as io
from engine import WriteFailed
from projections.errors import BadInput, Refused
from projections.quick_batch import decide, views
from projections.quick_batch.events import CREATE_WORKFLOW, WORKFLOW
from projections.quick_batch.evolve import projection
from projections.quick_batch.exit_codes import codes_for, exit_code_map
from projections.quick_batch.state import Batch

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


def start(args: argparse.Namespace) -> dict[str, Any]:
    if args.briefs is not None:
        if args.file is not None:
            raise Refused("give start a batch file or --briefs, not both", halt_reason="input-invalid")
        if args.run_root is None or args.run_dir is not None:
            raise Refused("start --briefs takes --run-root, not --run-dir: the briefs name their batch run folder",
                          halt_reason="input-invalid")
        return start_briefs(args.briefs, Path(args.run_root), args.fail_fast, args.brief_schema, args.exit_codes)
    if args.file is None:
        raise Refused("start needs the batch file, or --briefs", halt_reason="input-invalid")
    if args.run_dir is None or args.run_root is not None:
        raise Refused("start with a batch file takes --run-dir, not --run-root", halt_reason="input-invalid")
    return start_file(args.file, Path(args.run_dir), args.fail_fast, args.exit_codes)


def start_file(file: str, run_dir: Path, fail_fast: bool, exit_codes: str | None) -> dict[str, Any]:
    path = os.path.abspath(file)  # absolute: a start run again from another folder finds the same batch
    log = io.open_log(run_dir)
    resuming = log.exists()  # the file is read only for a new batch, as the seed does
    try:
        targets = ()
        if resuming:
            io.refuse_foreign_log(log)
            decide.require_batch(log.replay(projection()).state, run_dir.as_posix())
        else:
            targets = io.read_batch_file(path)
        codes = _given_codes(exit_codes)
    except Refused as error:
        raise _as_start_refusal(error, "input-invalid") from None
    try:
        run_dir.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise _write_failed(error, run_dir, WORKFLOW) from None
    moment = engine.now_datetime()

    def start_batch(state: Batch) -> list[Any]:
        if resuming:
            decide.require_batch(state, run_dir.as_posix())
        return decide.start_batch(state, input_file=path, targets=targets, fail_fast=fail_fast, moment=moment,
                                  run_dir=run_dir.as_posix(), exit_codes=codes)

    try:
        appended = log.append(projection(), start_batch)
    except WriteFailed as error:
        raise _write_failed(error, run_dir, WORKFLOW) from None
    return views.start_answer(appended.state, resumed=not appended.events)


def start_briefs(paths: list[str], run_root: Path, fail_fast: bool, schema: str | None,
                 exit_codes: str | None) -> dict[str, Any]:
    from cli.quick_batch_briefs import SCHEMA_ENV, BriefValidator, batch_dir, expand_briefs

    briefs = expand_briefs(paths)
    if not briefs:
        raise Refused(f"no skill-brief.yaml under {', '.join(paths)}", halt_reason="brief-missing")
    run_dir = batch_dir(run_root, briefs)
    shown = run_dir.as_posix()
    log = io.open_log(run_dir)
    if log.exists():
        io.refuse_foreign_log(log)
        state = log.replay(projection()).state
        if decide.resumes_brief_batch(state, briefs, shown):
            return views.start_briefs_answer(state, shown, resumed=True)
    validator = BriefValidator(schema or os.environ.get(SCHEMA_ENV))
    given = _given_codes(exit_codes)
    checks = [validator.check(brief) for brief in briefs]
    moment = engine.now_datetime()
    try:
        io.clear_folder_but_log(run_dir)  # an ended batch of these briefs gives way to this one
        run_dir.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise _write_failed(error, run_dir, CREATE_WORKFLOW) from None

    def start_batch(state: Batch) -> list[Any]:
        return decide.start_brief_batch(state, briefs=briefs, checks=checks, fail_fast=fail_fast, moment=moment,
                                        batch_dir=shown, codes=codes_for(CREATE_WORKFLOW, given),
                                        exit_codes=given)

    try:
        appended = log.append(projection(), start_batch)
    except WriteFailed as error:
        raise _write_failed(error, run_dir, CREATE_WORKFLOW) from None
    return views.start_briefs_answer(appended.state, shown, resumed=not appended.events)


def next_target(run_dir: Path) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """(the answer, the start event for stderr or None)."""
    log = io.open_log(run_dir)
    io.require_log(log, run_dir)
    answer: dict[str, Any] = {}
    start_event: list[dict[str, Any]] = []

    def hand_out(state: Batch) -> list[Any]:
        decide.require_batch(state, run_dir.as_posix())
        line = decide.next_target(state)
        if line is None:
            answer.update(views.done_answer(state))
            return []
        folder = run_dir / views.target_folder_name(run_dir.name, state.started, line.batch)
        if io.has_staged(folder):  # it ended but was never recorded: record it, never run it twice
            answer.update(views.record_answer(line.batch))
            return []
        io.prepare_target_folder(folder)
        answer.update(views.next_answer(line, folder.as_posix()))
        start_event.append(views.start_event(line))
        return decide.hand_out(state, line)

    log.append(projection(), hand_out)
    return answer, (start_event[0] if start_event else None)


def record(run_dir: Path, number: int, exit_codes: str | None) -> dict[str, Any]:
    log = io.open_log(run_dir)
    io.require_log(log, run_dir)
    given = _given_codes(exit_codes)
    shown = run_dir.as_posix()

    def record_target(state: Batch) -> list[Any]:
        decide.require_batch(state, shown)
        started = state.started
        codes = codes_for(views.workflow(state), given if given is not None else started.exit_codes)

        def read_staged(line: Any) -> decide.Staged:
            return io.read_staged(run_dir / views.target_folder_name(run_dir.name, started, line.batch))

        return decide.record_target(state, number, read_staged, codes, shown)

    appended = log.append(projection(), record_target)
    result = appended.state.results[str(number)]
    if appended.events and result.status == "success":
        io.remove_tree(run_dir / views.target_folder_name(run_dir.name, appended.state.started, number))
    return views.end_event(result)


def summarize(run_dir: Path, output_dir: Path) -> dict[str, Any]:
    if not run_dir.exists():
        workflow = CREATE_WORKFLOW if run_dir.name.startswith(f"{CREATE_WORKFLOW}-") else WORKFLOW
        latest = output_dir / f"{views.SUMMARY_STEMS[workflow]}-latest.json"
        raise BadInput(f"no batch in {run_dir.as_posix()}: a batch whose targets all succeeded removes its run "
                       f"folder once summarized; its summary is {latest.as_posix()}")
    log = io.open_log(run_dir)
    io.require_log(log, run_dir)
    timestamp, stamp = decide.stamps(engine.now_datetime())

    def end_batch(state: Batch) -> list[Any]:
        decide.require_batch(state, run_dir.as_posix())
        if state.summary is not None:
            return []
        decide.check_summarizable(state)
        record = views.summary_record(state, timestamp)
        stem = views.SUMMARY_STEMS[views.workflow(state)]
        summary_path, warnings = io.write_summary(output_dir, stem, stamp, record)
        return decide.summarize(state, record, summary_path, warnings)

    appended = log.append(projection(), end_batch)
    summary = appended.state.summary
    inside = output_dir.resolve().is_relative_to(run_dir.resolve())
    clean = appended.events and not summary.failed and summary.summary_path is not None
    if clean and not inside and run_dir.name.startswith(f"{views.workflow(appended.state)}-"):
        io.archive_log_and_remove(run_dir, summary.summary_path)  # kept when a target halted
    return views.summary_event(summary)
