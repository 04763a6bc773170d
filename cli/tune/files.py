"""The tuning's files: reading datasets and zen folders, writing cases.json and plan.json.

All file access of `batchlog tune` lives here (projections/ never opens a file), through engine/files.py's two
doors: every file is read by `read_user_file` (a regular file of bounded size) and written by `write_file`.
Every unreadable input becomes a `BadInput` that names the file and the fix.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson

from batchlog.engine.errors import UnreadableFile
from batchlog.engine.files import read_user_file, write_file
from batchlog.engine.lines import MAX_LINE_BYTES
from batchlog.projections.errors import BadInput
from batchlog.projections.tune.batch_mjs.run_names import parse_run_name
from batchlog.projections.tune.batch_mjs.selection import check_listed_cases

if TYPE_CHECKING:  # imported where a zen folder is read: only `tune import` needs it
    from batchlog.projections.tune.zen_import import ZenFolder, ZenRun

FINDINGS_VERDICT = re.compile(r"^## ([A-Z][A-Z ]*[A-Z])", re.MULTILINE)  # batch.mjs's verdict heading

# The most each input may hold (README: Guarantees, "Files that are not logs"). What a tuning records in one event
# (a dataset, a selection, a run's cases.json and plan.json, a difficult list) no more than a line of its log may
# hold: a larger file could never be recorded. A settings file is small. Markdown (findings.md, README.md,
# USAGE.md) is text a person writes around the tuning's sections.
RECORDED_BYTES = MAX_LINE_BYTES
SETTINGS_BYTES = 1 << 20
MARKDOWN_BYTES = 64 << 20


def read_input(path: Path, what: str, limit: int) -> bytes:
    """The bytes of the file at `path` (a `what`) through engine/files.py's opener; BadInput naming the file and
    the fix when it is missing, not a regular file, unreadable or over `limit` bytes."""
    try:
        return read_user_file(path, what, limit)
    except UnreadableFile as error:
        raise BadInput(error.message, file=str(path)) from None


def read_text(path: Path, what: str, limit: int = MARKDOWN_BYTES) -> str:
    """A text file's contents (`read_input`); BadInput when it is not UTF-8."""
    raw = read_input(path, what, limit)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadInput(f"{path} is not UTF-8 (byte {exc.start}): save it as UTF-8", file=str(path)) from None


def read_json(path: Path, what: str = "file", limit: int = RECORDED_BYTES) -> Any:
    """A JSON file's value; BadInput naming the file when it is missing, not a regular file, unreadable, too
    large, not UTF-8 or not JSON."""
    text = read_text(path, what, limit)
    try:
        return orjson.loads(text.removeprefix("\ufeff"))
    except orjson.JSONDecodeError as exc:
        raise BadInput(f"{path} is not JSON ({exc}): fix the file", file=str(path)) from None


def present(path: Path) -> bool:
    """Whether anything is at `path`, a link to nothing included (which the opener then refuses, rather than
    taking it for a file that is not there)."""
    return os.path.lexists(path)


def read_dataset(path: Path) -> tuple[dict[str, Any], ...]:
    """The case objects of a dataset file: its `cases` list (or `samples`), as they are."""
    return read_dataset_and_name(path)[0]


def read_dataset_and_name(path: Path) -> tuple[tuple[dict[str, Any], ...], str | None]:
    """The case objects of a dataset file, and its `name` when it gives one as text (the README's title)."""
    value = read_json(path, "dataset")
    cases = None
    if isinstance(value, dict):
        cases = value.get("cases") if value.get("cases") is not None else value.get("samples")
    if not isinstance(cases, list):
        raise BadInput(f"{path} holds no \"cases\" (or \"samples\") list: a dataset is "
                       "{\"cases\": [{\"id\": ...}, ...]}", file=str(path))
    name = value.get("name")
    return tuple(cases), (" ".join(name.split()) or None) if isinstance(name, str) else None


def path_from(folder: Path, path: Path) -> str:
    """`path` relative to `folder` (POSIX separators), so that a log names its files the same on every clone."""
    return Path(os.path.relpath(path.absolute(), folder.absolute())).as_posix()


def check_writable(path: Path, log: Path | None = None) -> None:
    """Refuse, before anything is recorded, a path a file cannot be written at (a folder, under a file, in a
    read-only folder) or that is the tuning's log itself."""
    if log is not None and os.path.realpath(path) == os.path.realpath(log):  # realpath: a link loop is no error
        raise BadInput(f"{path} is the tuning's log: give another path (e.g. DIR/runs/<run>/...)", file=str(path))
    reason = _unwritable(path)
    if reason:
        raise BadInput(f"{path} cannot be written: {reason}", file=str(path))


def _unwritable(path: Path) -> str:
    """Why a file cannot be written at `path` ("" when nothing visible stops it)."""
    if path.is_dir():
        return "it is a folder; give the path of a file"
    folder = path.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if not folder.is_dir():
        return f"{folder} is a file, not a folder"
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"{folder} is not writable (check its permissions)"
    return ""


def write_text(path: Path, text: str) -> None:
    """Write a file whole through engine/files.py's writer (a temporary name of this writer's own, fsynced, renamed
    over it, its permissions kept): a reader, a kill or a concurrent repeat of the same command never leaves or
    sees half of it."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_file(path, text.encode("utf-8"))
    except OSError as exc:
        reason = _unwritable(path) or exc.strerror or str(exc)
        raise BadInput(f"{path} cannot be written: {reason}", file=str(path)) from None


def check_batch_files(out: str, log: Path | None) -> None:
    """Refuse an `-o` path that cases.json or plan.json could not be written at."""
    check_writable(Path(out), log)
    check_writable(Path(out).parent / "plan.json", log)


def write_batch_files(out: str, cases_text: str, plan_text: str) -> None:
    """cases.json at `out` and plan.json beside it, as batch.mjs writes them."""
    target = Path(out)
    write_text(target, cases_text)
    write_text(target.parent / "plan.json", plan_text)


def run_cases_path(folder: Path, run: str) -> Path:
    return folder / "runs" / run / "cases.json"


def read_zen_folder(folder: Path) -> ZenFolder:
    """What a zen-finetune folder holds: config, dataset, selection, difficult list, runs with verdicts."""
    from batchlog.projections.tune.zen_import import ZenFolder

    if not folder.is_dir():
        raise BadInput(f"{folder} is not a folder: give the zen-finetune folder (the one holding selection.json)",
                       folder=str(folder))
    config_path = folder / "config.json"
    config = read_json(config_path, "config", SETTINGS_BYTES) if present(config_path) else {}
    dataset = read_dataset(folder / "dataset.json")
    selection = read_json(folder / "selection.json", "selection")
    if not isinstance(selection, dict) or not isinstance(selection.get("batch"), list):
        raise BadInput(f"{folder / 'selection.json'} holds no \"batch\" list", file=str(folder / "selection.json"))
    difficult_path = folder / "difficult.json"
    difficult = None
    if present(difficult_path):
        listed = read_json(difficult_path, "difficult list")
        difficult = listed.get("cases") if isinstance(listed, dict) else None
        if not isinstance(difficult, list):
            difficult = []
    return ZenFolder(str(folder), config, dataset, tuple(selection["batch"]),
                     None if difficult is None else tuple(difficult), _read_runs(folder / "runs"))


def _read_runs(runs: Path) -> tuple[ZenRun, ...]:
    from batchlog.projections.tune.zen_import import ZenRun

    if not runs.is_dir():
        return ()
    found = []
    for entry in sorted(runs.iterdir()):
        if not entry.is_dir() or parse_run_name(entry.name) is None:
            continue
        cases_path, plan_path = entry / "cases.json", entry / "plan.json"
        cases = read_json(cases_path, "run's cases") if present(cases_path) else None
        ids = None
        if isinstance(cases, dict) and isinstance(cases.get("batch"), list):
            check_listed_cases(cases["batch"], str(cases_path))  # ids as a dataset's: named by the views
            ids = tuple(case["id"] for case in cases["batch"])
        plan = read_json(plan_path, "plan") if present(plan_path) else None
        found.append(ZenRun(entry.name, ids, _verdict(entry / "findings.md"),
                            plan if isinstance(plan, dict) else None))
    return tuple(found)


def _verdict(findings: Path) -> str:
    """The first `## WORD` heading of a run's findings.md, "" when it has none (not graded)."""
    if not present(findings):
        return ""
    text = read_text(findings, "run's findings")
    match = FINDINGS_VERDICT.search(text)
    return match[1].rstrip() if match else ""
