"""The tuning's files: reading datasets and zen folders, writing cases.json and plan.json.

All file access of `batchlog tune` lives here (projections/ never opens a file).
Every unreadable input becomes a `BadInput` that names the file and the fix.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson

from batchlog.engine.files import NotARegularFile, read_regular, write_atomically
from batchlog.projections.errors import BadInput
from batchlog.projections.tune.batch_mjs.run_names import parse_run_name

if TYPE_CHECKING:  # imported where a zen folder is read: only `tune import` needs it
    from batchlog.projections.tune.zen_import import ZenFolder, ZenRun

FINDINGS_VERDICT = re.compile(r"^## ([A-Z][A-Z ]*[A-Z])", re.MULTILINE)  # batch.mjs's verdict heading


def read_json(path: Path, what: str = "file") -> Any:
    """A JSON file's value; BadInput naming the file when it is missing, unreadable, not UTF-8 or not JSON."""
    try:
        raw = read_regular(path)
    except FileNotFoundError:
        raise BadInput(f"{path} does not exist: give the path of the {what}", file=str(path)) from None
    except IsADirectoryError:
        raise BadInput(f"{path} is a folder: give the path of the {what} (a JSON file)", file=str(path)) from None
    except NotARegularFile:
        raise BadInput(f"{path} is not a regular file (a FIFO, a device or a socket): give the path of the {what} "
                       "(a JSON file)", file=str(path)) from None
    except OSError as exc:
        raise BadInput(f"{path} cannot be read ({exc.strerror or exc}): check its permissions",
                       file=str(path)) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadInput(f"{path} is not UTF-8 (byte {exc.start}): save it as UTF-8", file=str(path)) from None
    try:
        return orjson.loads(text.removeprefix("\ufeff"))
    except orjson.JSONDecodeError as exc:
        raise BadInput(f"{path} is not JSON ({exc}): fix the file", file=str(path)) from None


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
    if log is not None and path.resolve() == log.resolve():
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
    """Write a file whole through engine/files.py (a temporary name of this writer's own, fsynced, renamed over
    it): a reader, a kill or a concurrent repeat of the same command never leaves or sees half of it."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(path, text.encode("utf-8"))
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
    config = read_json(config_path, "config") if config_path.exists() else {}
    dataset = read_dataset(folder / "dataset.json")
    selection = read_json(folder / "selection.json", "selection")
    if not isinstance(selection, dict) or not isinstance(selection.get("batch"), list):
        raise BadInput(f"{folder / 'selection.json'} holds no \"batch\" list", file=str(folder / "selection.json"))
    difficult_path = folder / "difficult.json"
    difficult = None
    if difficult_path.exists():
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
        cases = read_json(cases_path, "run's cases") if cases_path.exists() else None
        ids = None
        if isinstance(cases, dict) and isinstance(cases.get("batch"), list):
            ids = tuple(case.get("id") for case in cases["batch"] if isinstance(case, dict))
        plan = read_json(plan_path, "plan") if plan_path.exists() else None
        found.append(ZenRun(entry.name, ids, _verdict(entry / "findings.md"),
                            plan if isinstance(plan, dict) else None))
    return tuple(found)


def _verdict(findings: Path) -> str:
    """The first `## WORD` heading of a run's findings.md, "" when it has none (not graded)."""
    if not findings.exists():
        return ""
    try:
        text = findings.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise BadInput(f"{findings} cannot be read as UTF-8 text ({exc}): fix or remove it",
                       file=str(findings)) from None
    match = FINDINGS_VERDICT.search(text)
    return match[1].rstrip() if match else ""
