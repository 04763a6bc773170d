"""The quick batch's files: batch files, staged payloads, run folders, summary files, the log.

All reading and writing of `batchlog quick-batch` outside the log's own appends, through engine/files.py's two
doors (every file read by `read_user_file`: a regular file of bounded size); messages are skf-quick-batch.py's
where it has one. Raises `BadInput` (exit 1) for what it cannot read.
"""

from __future__ import annotations

import errno
import json
import os
import shlex
from pathlib import Path
from typing import Any

from batchlog.cli import store as stores, terminal
from batchlog.cli.folders import LOG_NAME
from batchlog.cli.loop_log import open_loop_log
from batchlog.cli.loops import types_for
from batchlog.cli.printed import remember
from batchlog.engine.errors import UnreadableFile
from batchlog.engine.files import read_user_file
from batchlog.engine.lines import MAX_LINE_BYTES
from batchlog.engine.log import EventLog
from batchlog.projections.errors import BadInput, Refused
from batchlog.projections.quick_batch.commands import Staged, Unstaged
from batchlog.projections.quick_batch.decide import HALT_PAYLOAD, RESULT_PAYLOAD
from batchlog.projections.quick_batch.decider import QUICK_BATCH
from batchlog.projections.quick_batch.grammar import TargetLine, parse_bytes

SEED_BATCH_FILE = "batch.jsonl"

# The most each input may hold (README: Guarantees, "Files that are not logs"). A batch file's targets and a
# staged payload are recorded in one event, so no more than a line of the log may hold; an exit-code map and a
# removed run folder's note are small; a seed's batch.jsonl (one line per event of a whole batch) is read whole
# to be imported, and is given room for a long batch.
RECORDED_BYTES = MAX_LINE_BYTES
SMALL_BYTES = 1 << 20
SEED_LOG_BYTES = 256 << 20


def _say(message: str) -> None:
    terminal.say(message, err=True)


def read_batch_file(path: str) -> tuple[TargetLine, ...]:
    """The targets of the batch file at `path` (named as given in messages)."""
    try:
        data = read_user_file(path, "batch file", RECORDED_BYTES)
    except UnreadableFile as e:
        raise BadInput(f"the batch file {path} cannot be read: {e.reason}", path=path) from None
    return parse_bytes(data, path)


def read_json_file(path: Path, what: str) -> Any:
    """A JSON file the user names (--exit-codes)."""
    try:
        return json.loads(read_user_file(path, what, SMALL_BYTES).decode("utf-8-sig"))
    except UnreadableFile as e:
        raise BadInput(e.message, path=path.as_posix()) from None
    except (UnicodeDecodeError, ValueError, RecursionError) as e:
        raise BadInput(f"the {what} {path.as_posix()} cannot be read as JSON: {e}", path=path.as_posix()) from None


def _read_payload(path: Path) -> dict[str, Any]:
    shown = path.as_posix()
    try:
        payload = json.loads(read_user_file(path, "staged payload", RECORDED_BYTES).decode("utf-8-sig"))
    except UnreadableFile as e:
        raise BadInput(f"{shown} holds no JSON object: {e.python_words()}", path=shown) from None
    except (UnicodeDecodeError, ValueError, RecursionError) as e:
        # RecursionError: JSON nested too deep to read; ValueError: a number of more than 4,300 digits (the
        # seed crashes on both)
        raise BadInput(f"{shown} holds no JSON object: {e}", path=shown) from None
    if not isinstance(payload, dict):
        raise BadInput(f"{shown} holds no JSON object", path=shown)
    return payload


def has_staged(folder: Path) -> bool:
    return (folder / HALT_PAYLOAD).exists() or (folder / RESULT_PAYLOAD).exists()


def read_staged(folder: Path) -> Staged | Unstaged:
    """The payload a target's run folder staged: halt.json first, else result-context.json; or why
    none can be read (the decision refuses with it, unless the target turns out recorded already)."""
    for name in (HALT_PAYLOAD, RESULT_PAYLOAD):
        path = folder / name
        if path.exists():
            try:
                return Staged(name, path.as_posix(), _read_payload(path))
            except BadInput as error:
                return Unstaged(error.message, str(error.fields.get("path", path.as_posix())))
    return Unstaged(f"{folder.as_posix()} staged neither {HALT_PAYLOAD} nor {RESULT_PAYLOAD}: stage the payload "
                    f"the target ended with ({HALT_PAYLOAD} or {RESULT_PAYLOAD}) and record it again",
                    folder.as_posix())


def remove_tree(path: Path) -> None:
    try:
        os.rmdir(path)  # an empty folder (a target handed out again) needs no shutil, which imports bz2 and lzma
    except OSError:
        import shutil

        shutil.rmtree(path, ignore_errors=True)


# ─── the log ────────────────────────────────────────────────────────────────


def open_log(run_dir: Path, store: stores.Store | None = None, *, notes: bool = False) -> EventLog:
    """The batch's log (`<run dir>/events.jsonl`, or in `store`; None: as BATCHLOG_STORE says), with snapshots
    (`events.jsonl.snap/`, written once a batch is long); the words that reach it remembered for the hints of
    refusals (cli/printed.py). The seed's commands keep its stderr byte for byte, and skf-quick-batch.py says nothing
    of a line a write cut short: they say none of the reader's notes; `status` and `import`, batchlog's own, say
    them (`notes`)."""
    store = store if store is not None else stores.chosen()
    remember("quick-batch", ("--run-dir", run_dir.as_posix(), *store.printed(run_dir)))
    return open_loop_log(QUICK_BATCH, run_dir, store, notes=notes)


def open_log_at(path: Path) -> EventLog:
    """A quick batch's log under another name (the copy archived beside its summary), read-only use."""
    return stores.open_archive(path, types_for(QUICK_BATCH), on_wait=_say)


def require_log(log: EventLog, run_dir: Path) -> None:
    """Refused when the run folder holds no log (start first, or import a seed batch)."""
    if log.exists():
        return
    if run_dir.exists() and not run_dir.is_dir():
        # As the seed, which reads its state file in the run folder (the message names the file).
        error = NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(run_dir / LOG_NAME))
        raise BadInput(f"the batch in {run_dir.as_posix()} cannot be read: {error}")
    if (run_dir / SEED_BATCH_FILE).is_file():
        raise Refused(f"no batch in {run_dir.as_posix()}: it holds a skf-quick-batch.py {SEED_BATCH_FILE}; run "
                      f"`batchlog quick-batch import --run-dir {shlex.quote(run_dir.as_posix())}` first")
    raise Refused(f"no batch in {run_dir.as_posix()}: run start first")
