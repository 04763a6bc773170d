"""One reader of a log (issue 23, item 4, and `log show`): every path that reads a log's lines gets them from its
recorder's line source, which stops where a command that was never finished begins.

The paths are found in the code, not written down from memory: every function of batchlog (engine/, cli/,
projections/) that calls a line source (`.lines(START, ...)`: a line source takes where to start, which tells it
from a view's `lines()` of text; `Scan(...)`, `LineReader(...)`, `TrustedLines(...)`), or reads a file log at
offsets (`.reading()`). Each must be listed below, as the door itself or with the commands
that run it; a new path fails `test_every_reader_of_a_log_is_listed` until it is. Each listed reader then runs
on a tuning whose `next-batch -o` (two events) was killed part way, the log reached by its path, through a
symlink and through a hard link: none counts, shows as events, copies, keeps or gives a receipt for the half
command, and the next append cuts it.
"""

from __future__ import annotations

import ast
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import orjson
import pytest

from batchlog.engine import EventLog
from batchlog.engine.crash_hook import CRASH_BYTES_ENV, CRASH_ENV
from batchlog.engine.snapshots.file import Snapshots
from batchlog.cli.loops import all_types
from tests.clirunner import invoke
from tests.reliability.workers import fork, log_lines, wait
from tests.sample_domain import COUNT, REGISTRY, Count, NoteAdded

ROOT = Path(__file__).resolve().parent.parent
ENV = {"BATCHLOG_CLOCK": "2026-12-03T00:00:00Z", "BATCHLOG_LOCK_TIMEOUT": "5", "BATCHLOG_DEBUG": ""}
LINE_SOURCE = {"lines", "Scan", "LineReader", "TrustedLines", "reading"}

# Where a line source is made or handed on: the door itself, not a reader of its own.
THE_DOOR = {
    "batchlog.engine.log.EventLog.lines": "every EventLog reader's door: the recorder's, or the lock holder's",
    "batchlog.engine.recorders.file.FileRecorder.lines": "a file log's lock-free reader (file_reader.py)",
    "batchlog.engine.recorders.file.FileSession.lines": "the same reader under the lock",
    "batchlog.engine.recorders.file_reader.TrustedLines._blocks": "the reader itself, over the raw line reader",
    "batchlog.engine.recorders.memory.MemorySession.lines": "hands on the memory recorder's",
    "batchlog.engine.recorders.postgresql.PostgresSession.lines": "hands on the PostgreSQL recorder's",
    "batchlog.engine.recorders.file_follow.HeldFile.lines": "a follower's: the file's reader on the descriptor it "
                                                            "holds (engine/follow.py, the watches)",
    "batchlog.engine.recorders.postgresql_follow.ReadingServer.lines": "a follower's: hands on the PostgreSQL "
                                                                        "recorder's",
}
# Callers that read the line source of a store whose appends are one step (a list assignment, a transaction),
# which never holds part of a command.
NOT_A_FILE_LOG = {
    "batchlog.engine.recorders.memory.MemorySession.keep_copy": "a memory log's salvage copy",
    "batchlog.engine.recorders.postgresql.PostgresSession.keep_copy": "a PostgreSQL log's salvage copy",
}


def callers() -> set[str]:
    """The qualified name of every function of batchlog that calls a line source."""
    found = set()
    for folder in ("engine", "cli", "projections"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            module = "batchlog." + ".".join(path.relative_to(ROOT).with_suffix("").parts)
            _walk(ast.parse(path.read_text()), [module], found)
    return found


def _walk(node: ast.AST, scope: list[str], found: set[str]) -> None:
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            _walk(child, [*scope, child.name], found)
            continue
        if isinstance(child, ast.Call):
            func = child.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            if name in LINE_SOURCE and (name != "lines" or child.args or child.keywords):
                found.add(".".join(scope))
        _walk(child, scope, found)


# -- the log: a tuning whose two-event command was killed part way -----------------------------------------------


def tune(folder: Path, *args: object):
    return invoke("tune", *map(str, args), "--dir", folder, env=ENV)


def log_cmd(*args: object):
    return invoke("log", *map(str, args), env=ENV)


def _next_batch(folder: Path) -> None:
    invoke("tune", "next-batch", "-o", folder / "runs" / "batch01-nomem-run1" / "cases.json", "--dir", folder,
           env=ENV)


@pytest.fixture(scope="module")
def killed_once(tmp_path_factory) -> Path:
    """`tune init`, then `tune next-batch -o` (batch_built + run_started) killed 10 bytes into its second line."""
    root = tmp_path_factory.mktemp("killed")
    dataset = root / "dataset.json"
    dataset.write_bytes(orjson.dumps({"cases": [{"id": f"case-{n}", "class": "ab"[n % 2]} for n in range(8)]}))
    folder = root / "finetune"
    assert tune(folder, "init", "--dataset", dataset).code == 0
    probe = root / "probe"
    shutil.copytree(folder, probe)
    _next_batch(probe)
    first = len(probe.joinpath("events.jsonl").read_bytes().splitlines(keepends=True)[1])
    env = {CRASH_ENV: "append.mid_write", CRASH_BYTES_ENV: str(first + 10)}
    assert wait(fork(_next_batch, folder, env=env)) == -9
    shutil.rmtree(probe)
    return folder


@pytest.fixture(params=["path", "symlink", "hard link"])
def killed(request, killed_once, tmp_path) -> Path:
    """A copy of the killed tuning, its log reached as the parameter says: the folder whose events.jsonl it is."""
    real = tmp_path / "finetune"
    shutil.copytree(killed_once, real)  # copy2: the log's extended attributes (its marker) come along
    if request.param == "path":
        return real
    other = tmp_path / "other"
    other.mkdir()
    if request.param == "symlink":
        (other / "events.jsonl").symlink_to(real / "events.jsonl")
    else:
        os.link(real / "events.jsonl", other / "events.jsonl")
    return other


def test_the_killed_log_holds_part_of_a_command(killed):
    lines = log_lines(killed / "events.jsonl")

    assert [line["type"] for line in lines] == ["tune.tuning_started", "tune.batch_built"]


# -- the probes: each reader, through the commands that run it ----------------------------------------------------


def views_and_appends(folder: Path, tmp_path: Path) -> None:
    status = tune(folder, "status", "--json")
    appended = tune(folder, "next-batch", "-o", folder / "runs" / "batch01-nomem-run1" / "cases.json")
    after = log_cmd("verify", folder / "events.jsonl", "--json")

    assert status.code == 0 and orjson.loads(status.out)["batches_built"] == 0, status
    assert "part of a command that was never finished" in status.err
    assert appended.code == 0, appended
    report = orjson.loads(after.out)
    assert (report["trusted"], report["events"], report["unfinished"]) == (True, 3, None)


def show(folder: Path, tmp_path: Path) -> None:
    text = log_cmd("show", folder / "events.jsonl")
    rows = [orjson.loads(line) for line in log_cmd("show", folder / "events.jsonl", "--json").out.splitlines()]

    shown = text.out.splitlines()
    assert text.code == 0 and len(shown) == 2 and "tune.tuning_started" in shown[0]
    assert shown[1].startswith("UNFINISHED  lines 2-3 (") and "never finished" in shown[1]
    assert [row.get("type") for row in rows] == ["tune.tuning_started", None]
    assert (rows[1]["unfinished_from_line"], rows[1]["lines"]) == (2, 2)


def head(folder: Path, tmp_path: Path) -> None:
    receipt = log_cmd("head", folder / "events.jsonl")

    assert receipt.code == 0 and receipt.out.startswith("batchlog-receipt:1:"), receipt
    assert "never finished" in receipt.err


def verify(folder: Path, tmp_path: Path) -> None:
    text = log_cmd("verify", folder / "events.jsonl")
    report = orjson.loads(log_cmd("verify", folder / "events.jsonl", "--json").out)

    assert text.code == 0 and "unfinished  lines 2-3" in text.out and "events  1 (last seq 1)" in text.out
    assert (report["trusted"], report["lines"], report["events"], report["last_seq"]) == (True, 1, 1, 1)
    assert report["unfinished"]["from_line"] == 2 and report["unfinished"]["lines"] == 2


def verify_since(folder: Path, tmp_path: Path) -> None:
    """A receipt taken before the next append still verifies after it: it named only acknowledged events."""
    receipt = log_cmd("head", folder / "events.jsonl").out.strip()
    assert tune(folder, "next-batch", "-o", folder / "runs" / "batch01-nomem-run1" / "cases.json").code == 0

    since = log_cmd("verify", folder / "events.jsonl", "--since", receipt)

    assert since.code == 0 and "trusted" in since.out, since


def migrate(folder: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy" / "events.jsonl"

    done = log_cmd("migrate", folder / "events.jsonl", copy, "--json")

    assert done.code == 0, done
    assert orjson.loads(done.out)["events"] == 1 and "not copied" in done.err
    assert [line["seq"] for line in log_lines(copy)] == [1]
    assert orjson.loads(log_cmd("verify", copy, "--json").out)["unfinished"] is None


def salvage(folder: Path, tmp_path: Path) -> None:
    before = (folder / "events.jsonl").read_bytes()

    done = log_cmd("salvage", folder / "events.jsonl")

    assert done.code == 0 and "nothing to salvage" in done.out, done
    assert (folder / "events.jsonl").read_bytes() == before


def salvage_to(folder: Path, tmp_path: Path) -> None:
    """Old main kept `--to 2` (the half command's first event) and appended log.salvaged after it, for good."""
    before = (folder / "events.jsonl").read_bytes()

    for to in ("1", "2"):
        done = log_cmd("salvage", folder / "events.jsonl", "--to", to)

        assert done.code == 0 and "nothing to salvage" in done.out, done
    assert (folder / "events.jsonl").read_bytes() == before


def archived_lines(folder: Path, tmp_path: Path) -> None:
    """The lines a quick batch's summary archives (cli/store.py `log_lines`), here of the killed log."""
    from batchlog.cli.store import log_lines as archived

    lines = list(archived(EventLog(folder / "events.jsonl", all_types())))

    assert [orjson.loads(line)["seq"] for line in lines] == [1]


def through_a_snapshot(folder: Path, tmp_path: Path) -> None:
    """A view that starts from a snapshot reads the log at offsets below the snapshot's line, then the tail
    through the one reader: a two-event command killed after the snapshot is not folded."""
    path = tmp_path / "snapshotted" / "events.jsonl"
    log = EventLog(path, REGISTRY, snapshots=Snapshots(every=3))
    for n in range(5):
        log.append(COUNT, lambda state, n=n: [NoteAdded(f"n{n}")])
    env = {CRASH_ENV: "append.mid_write", CRASH_BYTES_ENV: "250"}
    assert wait(fork(lambda: log.append(COUNT, lambda state: [NoteAdded("x" * 200), NoteAdded("y")]), env=env)) == -9

    replayed = EventLog(path, REGISTRY, snapshots=Snapshots(every=3)).replay(COUNT)

    assert Snapshots.folder(path).is_dir() and replayed.state == Count(5) and replayed.marker.start is not None


def followed(folder: Path, tmp_path: Path) -> None:
    """A watch (engine/follow.py) folds through EventLog.fold on the follower's reader: the half command is no
    event, and it gets the views' note."""
    from contextlib import closing

    from batchlog.engine.follow import follow
    from batchlog.projections.tune.decider import TUNE

    with closing(follow(EventLog(folder / "events.jsonl", all_types()), TUNE)) as steps:
        first = next(steps)

    assert first.state.batches == () and first.position.seq == 1 and "never finished" in first.note


READERS: dict[str, list[Callable[[Path, Path], None]]] = {
    "batchlog.engine.log.EventLog.fold": [views_and_appends, followed],
    "batchlog.engine.log.EventLog.scan": [show, head],
    "batchlog.engine.verify.verify": [verify],
    "batchlog.engine.verify._since_problems": [verify_since],
    "batchlog.engine.migrate.migrate": [migrate],
    "batchlog.engine.salvage._first_damage": [salvage],
    "batchlog.engine.salvage._measure": [salvage_to],
    "batchlog.cli.store.log_lines": [archived_lines],
    "batchlog.engine.snapshots.file._digest_range": [through_a_snapshot],
    "batchlog.engine.snapshots.file._digest_through_last_line": [through_a_snapshot],
    "batchlog.engine.snapshots.file._log_matches": [through_a_snapshot],
}
PROBES = sorted({probe for probes in READERS.values() for probe in probes}, key=lambda probe: probe.__name__)


def test_every_reader_of_a_log_is_listed():
    found = callers()

    unlisted = found - set(THE_DOOR) - set(NOT_A_FILE_LOG) - set(READERS)
    gone = (set(THE_DOOR) | set(NOT_A_FILE_LOG) | set(READERS)) - found
    assert not unlisted, f"new readers of a log: list each with the commands that run it: {sorted(unlisted)}"
    assert not gone, f"listed readers no longer in the code: {sorted(gone)}"
    assert len(READERS) == 11 and len(PROBES) == 11


@pytest.mark.parametrize("probe", PROBES, ids=lambda probe: probe.__name__)
def test_each_reader_stops_where_a_killed_command_begins(killed, tmp_path, probe):
    probe(killed, tmp_path)
