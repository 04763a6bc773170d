"""Carrying out what a quick-batch decision asks of the disk, after its append.

Every effect is safe to repeat: a repeat of a recorded command asks for the effects a crash may have
left undone, and each one finishes what is missing and leaves alone what is done. Output files go
through engine/files.py's writer (a unique temporary name, fsync, rename or link), so none is ever empty; a
summary already there is read through its opener.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from batchlog.cli.folders import LOG_NAME
from batchlog.cli.quick_batch.files import remove_tree
from batchlog.cli.store import log_file, log_lines
from batchlog.engine.errors import UnreadableFile
from batchlog.engine.files import read_user_file, write_file
from batchlog.projections.errors import BadInput
from batchlog.projections.quick_batch.commands import (
    ArchiveAndRemove,
    ClearEndedBatch,
    PrepareTargetFolder,
    RemoveTargetFolder,
    WriteSummary,
)

if TYPE_CHECKING:
    from batchlog.engine.log import EventLog

SUMMARY_NAMES = 1000  # `stem-stamp.json`, then `-2` … `-999`, as the seed


def summary_bytes(record: dict[str, Any]) -> bytes:
    """A summary file's bytes: indented JSON, non-ASCII kept, one newline at the end (the seed's)."""
    return (json.dumps(record, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def _candidates(effect: WriteSummary) -> Iterator[Path]:
    folder = Path(effect.output_dir)
    for n in range(1, SUMMARY_NAMES):
        yield folder / (f"{effect.stem}-{effect.stamp}.json" if n == 1 else f"{effect.stem}-{effect.stamp}-{n}.json")


def _same_bytes(path: Path, data: bytes) -> bool:
    """Whether the file at `path` holds exactly `data` (a longer one, or anything but a regular file, does not)."""
    try:
        return read_user_file(path, "summary", len(data)) == data
    except UnreadableFile:
        return False


def _claim(effect: WriteSummary, data: bytes) -> Path:
    """The per-batch summary's name: the first candidate that holds exactly `data` (this batch's, written
    by an interrupted try or a concurrent repeat) or that this writer claims; every writer of the same
    record ends on the same name."""
    for path in _candidates(effect):
        if _same_bytes(path, data):
            write_file(path, data)  # the same bytes again: what a killed writer left beside it goes
            return path
        try:
            return write_file(path, data, new=True)
        except FileExistsError:
            if _same_bytes(path, data):  # a concurrent repeat claimed it a moment ago
                return path
    raise OSError(f"no free file name for {effect.stem}-{effect.stamp}.json")


def write_summary(effect: WriteSummary) -> tuple[str | None, list[str]]:
    """Write the per-batch summary and its `-latest` copy: (the per-batch path, warnings).

    A per-batch file already holding exactly this record is this batch's (an interrupted try wrote it).
    """
    data = summary_bytes(effect.record)
    folder = Path(effect.output_dir)
    summary_path = None
    try:
        folder.mkdir(parents=True, exist_ok=True)
        mine = _claim(effect, data)
        summary_path = mine.as_posix()
        write_file(folder / f"{effect.stem}-latest.json", data)
    except OSError as e:
        return summary_path, [f"summary_write_failed: {folder.as_posix()}: {e.strerror or e}"]
    return summary_path, []


def prepare_target_folder(effect: PrepareTargetFolder) -> None:
    """The target's run folder, created empty (what an earlier try left is removed first)."""
    folder = Path(effect.folder)
    try:
        if folder.exists():
            remove_tree(folder)  # a file in its place stays, and the seed's message names it
        folder.mkdir(parents=True, exist_ok=True)  # a racing `next` of the same target may have made it
    except OSError as e:
        raise BadInput(f"the target's run folder {folder.as_posix()} cannot be created: {e.strerror or e}",
                       path=folder.as_posix()) from None


def clear_ended_batch(effect: ClearEndedBatch) -> None:
    """Empty an ended batch's folder for a new batch of the same briefs; the log and this batch's
    target folders stay."""
    run_dir = Path(effect.run_dir)
    if not run_dir.is_dir():
        return
    for child in run_dir.iterdir():
        if child.name.startswith(LOG_NAME) or child.name.startswith(effect.keep_prefix):
            continue
        if child.is_dir() and not child.is_symlink():
            remove_tree(child)
        else:
            try:
                child.unlink()
            except OSError:
                pass


def archive_and_remove(effect: ArchiveAndRemove, log: EventLog) -> None:
    """Copy the log beside the summary (`<summary stem>.events.jsonl`), then remove the run folder, its
    log last: until the log goes, a repeat of summarize finds the batch and finishes the removal.

    The folder stays when the copy fails: the log is the batch's only audit trail. A note beside the
    run folder (`archive_note`) says where the summary and the log went, for `status`. The copy is the log's
    lines as the engine reads them, from any store; a log kept on a server stays there.
    """
    run_dir, summary = Path(effect.run_dir), Path(effect.summary_path)
    archive = summary.with_name(f"{summary.stem}.{LOG_NAME}")
    try:
        write_file(archive, (line + b"\n" for line in log_lines(log)))
        write_file(archive_note(run_dir), json.dumps(
            {"summary": os.path.relpath(summary, run_dir.parent), "archive": os.path.relpath(archive, run_dir.parent)},
            indent=2).encode() + b"\n")
    except OSError:
        return
    _remove_run_folder(run_dir, log_file(log))


def _remove_run_folder(run_dir: Path, log: Path | None) -> None:
    """The run folder and all it holds, the log file (if it is in there) last."""
    try:
        children = list(run_dir.iterdir())
    except OSError:
        return  # removed already (a repeat), or never made on this machine
    for child in children:
        if child == log:
            continue
        if child.is_dir() and not child.is_symlink():
            remove_tree(child)
        else:
            _unlink(child)
    if log is not None:
        _unlink(log)
    import shutil  # only here: it imports bz2 and lzma, which `next` and `record` never need

    shutil.rmtree(run_dir, ignore_errors=True)  # what a concurrent command made in the meantime


def archive_note(run_dir: Path) -> Path:
    """The note a removed run folder leaves beside itself: `.<name>.summarized.json` (hidden)."""
    return run_dir.with_name(f".{run_dir.name}.summarized.json")


def _unlink(path: Path) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def remove_target_folder(effect: RemoveTargetFolder) -> None:
    remove_tree(Path(effect.folder))
