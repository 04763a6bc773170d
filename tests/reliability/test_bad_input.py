"""Bad input sweep: every command given wrong input says so clearly, exits with its documented code, no traceback.

Run with BATCHLOG_DEBUG unset, as users run it: an unexpected exception would
show as "unexpected error" (exit 1), which this suite counts as a failure. The
log's bytes never change on a refusal.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.clirunner import invoke
from tests.marker_stores import keeps_attributes

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "fixtures" / "tune-in-progress"
USER_ENV = {"BATCHLOG_DEBUG": "", "BATCHLOG_CLOCK": "2026-12-03T00:00:00Z", "BATCHLOG_LOCK_TIMEOUT": "5"}
HUGE = "9" * 400
NOT_UTF8 = b"\xff\xfe\x00bad"

# {t}: a tuning folder, {bad}: a file that is not UTF-8, {nj}: not JSON, {d}: a folder, {qb}: a quick-batch run dir,
# {fresh}: a tuning whose next batch can be recorded, {broken}: a tuning whose log has a damaged middle line,
# {logdir}: a tuning folder whose events.jsonl is a folder.
# Exit codes as documented: 1 refused or bad input (nothing written), 2 usage error, 3 the log cannot be trusted.
REFUSED, USAGE, UNTRUSTED = 1, 2, 3
TUNE_CASES = [
    (REFUSED, "tune status --dir {d}/nothing-here"), (REFUSED, "tune status --dir {bad}"),
    (USAGE, "tune status --dir {t} --at 0"), (USAGE, "tune status --dir {t} --at x"), (USAGE, "tune status --dir {t} --at"),
    (USAGE, "tune next-batch --dir {t} -m 0"), (USAGE, "tune next-batch --dir {t} -m x"),
    (USAGE, "tune next-batch --dir {t} -r -1"),
    (REFUSED, "tune init --dir {t} --dataset {d}"), (REFUSED, "tune init --dir {t}2 --dataset {bad}"),
    (REFUSED, "tune init --dir {t}2 --dataset {nj}"), (REFUSED, "tune init --dir {t}2 --dataset {d}/missing.json"),
    (REFUSED, "tune init --dir {t}2 --dataset {empty}"), (REFUSED, "tune init --dir {t}2 --dataset {list}"),
    (REFUSED, "tune init --dir {t}2 --dataset {nested}"), (REFUSED, "tune init --dir {t}2 --dataset {cases_bad}"),
    (REFUSED, "tune init --dir {t}2 --dataset {cases_ok} --limit -3"),
    (REFUSED, "tune init --dir {t}2 --dataset {cases_ok} --max-batch 0"),
    (USAGE, "tune init --dir {t}2 --dataset {cases_ok} --min-batch x"),
    (REFUSED, "tune init --dir {t} --dataset {cases_ok}"),
    (REFUSED, "tune run start --dir {t} --batch 99 --kind nomem"), (USAGE, "tune run start --dir {t} --batch x"),
    (REFUSED, "tune run start --dir {t} --batch 1 --kind sideways"),
    (USAGE, "tune run start --dir {t} --batch " + HUGE + " --kind mem"),
    (USAGE, "tune run start --dir {t} --batch 1 --kind mem --final"), (USAGE, "tune run start --dir {t}"),
    (REFUSED, "tune run start --dir {t} --batch -1 --kind nomem"),
    (REFUSED, "tune run grade nope --verdict PASSED --dir {t}"),
    (REFUSED, "tune run grade batch01-nomem-run1 --verdict MAYBE --dir {t}"),
    (REFUSED, "tune run grade batch03-nomem-run1 --verdict WRONG --llm-calls -1 --dir {t}"),
    (REFUSED, "tune run grade batch03-nomem-run1 --verdict WRONG --findings {d} --dir {t}"),
    (REFUSED, "tune run grade batch03-nomem-run1 --verdict WRONG --wrong no-such-case --dir {t}"),
    (USAGE, "tune run grade batch03-nomem-run1 --dir {t}"), (REFUSED, "tune change nope --file x --summary y --dir {t}"),
    (USAGE, "tune change batch01-nomem-run1 --file x --summary y --lines x --dir {t}"),
    (REFUSED, "tune usage nope --model m --calls 1 --input-tokens 1 --output-tokens 1 --dir {t}"),
    (REFUSED, "tune usage batch01-nomem-run1 --model m --calls -5 --input-tokens 1 --output-tokens 1 --dir {t}"),
    (REFUSED, "tune difficult add nope --reason wrong --run batch01-nomem-run1 --dir {t}"),
    (REFUSED, "tune difficult add nope --reason bored --run batch01-nomem-run1 --dir {t}"),
    (REFUSED, "tune difficult fix nope --run batch01-nomem-run1 --dir {t}"),
    (REFUSED, "tune memory keep --batch 77 --nodes 3 --dir {t}"),
    (REFUSED, "tune memory keep --batch 1 --nodes -3 --dir {t}"), (REFUSED, "tune readme --dir {t} --file {d}"),
    (USAGE, "tune readme --dir {t} --at 0"), (REFUSED, "tune audit --dir {qb}"), (REFUSED, "tune status --dir {qb}"),
    (REFUSED, "tune next --dir {qb}"), (REFUSED, "tune run start --dir {qb} --batch 1 --kind nomem"),
    (REFUSED, "tune import {d}/nothing"), (REFUSED, "tune import {bad}"), (REFUSED, "tune import {d}"),
    (REFUSED, "tune import {t}"), (USAGE, "tune import {d}/nothing --dir {t}2"),
    (USAGE, "tune frobnicate"), (USAGE, "tune status --bogus"),
    # Paths that are folders, under a file, or the log itself: refused before anything is recorded.
    (REFUSED, "tune next-batch --dir {fresh} -o {d}"), (REFUSED, "tune next-batch --dir {fresh} -o ''"),
    (REFUSED, "tune next-batch --dir {fresh} -o {nj}/under/cases.json"),
    (REFUSED, "tune next-batch --dir {fresh} -o {fresh}/events.jsonl"),
    (REFUSED, "tune readme --dir {t} --file {t}/events.jsonl"), (REFUSED, "tune usage-report --dir {t} --file {d}"),
    (REFUSED, "tune usage-report --dir {t} --file {t}/events.jsonl"),
    (REFUSED, "tune readme --dir {t} --file {nj}/README.md"),
    # Huge numbers (past JavaScript's safe integers, which batch.mjs reads them as): usage errors.
    (USAGE, "tune next-batch --dir {fresh} --seed " + HUGE), (USAGE, "tune next-batch --dir {fresh} -m " + HUGE),
    (USAGE, "tune next-batch --dir {fresh} -r " + HUGE), (USAGE, "tune next-batch --dir {fresh} --seed -3"),
    (USAGE, "tune init --dir {t}3 --dataset {cases_ok} --seed " + HUGE),
    (USAGE, "tune init --dir {t}3 --dataset {cases_ok} --limit " + HUGE),
    (USAGE, "tune init --dir {t}3 --dataset {cases_ok} --max-batch 9007199254740992"),
    (USAGE, "tune init --dir {t}3 --dataset {cases_ok} --concurrency " + HUGE),
    (USAGE, "tune run grade batch03-nomem-run1 --verdict WRONG --tokens " + HUGE + " --dir {t}"),
    (USAGE, "tune run grade batch03-nomem-run1 --verdict WRONG --saved-twice " + HUGE + " --dir {t}"),
    (USAGE, "tune change batch01-nomem-run1 --file x --summary y --lines " + HUGE + " --dir {t}"),
    (USAGE, "tune usage batch01-nomem-run1 --model m --calls 1 --input-tokens " + HUGE + " --output-tokens 1 --dir {t}"),
    (USAGE, "tune memory keep --batch 1 --nodes " + HUGE + " --dir {t}"),
    (REFUSED, "tune run grade batch03-nomem-run1 --verdict WRONG --tokens -4 --dir {t}"),
    (REFUSED, "tune usage batch01-nomem-run1 --model m --calls 1 --input-tokens -1 --output-tokens 1 --dir {t}"),
    # Empty strings and unicode.
    (REFUSED, "tune run grade '' --verdict WRONG --dir {t}"), (REFUSED, "tune run grade batch03-nomem-run1 --verdict '' --dir {t}"),
    (REFUSED, "tune difficult add '' --reason wrong --run batch01-nomem-run1 --dir {t}"),
    (REFUSED, "tune difficult add é✓ --reason wrong --run batch01-nomem-run1 --dir {t}"),
    (REFUSED, "tune init --dir {t}3 --dataset {lone_surrogate}"), (REFUSED, "tune init --dir {t}3 --dataset ''"),
    # A log that is a folder, and a log that cannot be trusted.
    (REFUSED, "tune status --dir {logdir}"), (REFUSED, "tune next --dir {logdir}"),
    (REFUSED, "tune next-batch --dir {logdir}"), (REFUSED, "tune audit --dir {logdir}"),
    (REFUSED, "tune readme --dir {logdir} --stdout"), (REFUSED, "tune difficult --dir {logdir}"),
    (REFUSED, "tune init --dir {logdir} --dataset {cases_ok}"), (REFUSED, "tune import {logdir}"),
    (UNTRUSTED, "tune run grade batch03-nomem-run1 --verdict WRONG --dir {broken}"),
    (UNTRUSTED, "tune next-batch --dir {broken} -o {broken}/runs/x/cases.json"),
    (UNTRUSTED, "tune audit --dir {broken}"), (UNTRUSTED, "log verify {broken}/events.jsonl"),
    (UNTRUSTED, "tune usage batch01-nomem-run1 --model m --calls 1 --input-tokens 1 --output-tokens 1 --dir {newer}"),
    # --at past the end: refused with the log's length (a past that never was is not shown as the present).
    (REFUSED, "tune status --dir {t} --at 99999"), (REFUSED, "tune next --dir {t} --at " + HUGE),
    (REFUSED, "tune difficult --dir {t} --at 99999"), (REFUSED, "tune readme --dir {t} --at 99999 --stdout"),
    (USAGE, "tune next-batch --dir {fresh} --at 1 -o {d}/x/cases.json"),
    (REFUSED, "log verify {d}"), (REFUSED, "log verify {d}/missing.jsonl"),
    (USAGE, "log verify {t}/events.jsonl --since junk"),
    (USAGE, "log show {t}/events.jsonl --at 0"), (USAGE, "log show {t}/events.jsonl --at x"), (REFUSED, "log head {d}"),
    (REFUSED, "log salvage {d}"), (USAGE, "log salvage {t}/events.jsonl --to -1"),
    (USAGE, "log salvage {t}/events.jsonl --to x"),
    (USAGE, "quick-batch next --run-dir {t} --batch 1"), (REFUSED, "quick-batch record --run-dir {t} --batch 1"),
    (REFUSED, "quick-batch status --run-dir {t}"), (USAGE, "quick-batch next --run-dir {d}/none --batch 1"),
    (USAGE, "quick-batch next --run-dir {qb} --batch x"), (USAGE, "quick-batch next --run-dir {qb} --batch " + HUGE),
    (USAGE, "quick-batch record --run-dir {qb} --batch 1 --target nowhere"),
    (REFUSED, "quick-batch start {bad} --run-dir {d}/new"), (REFUSED, "quick-batch start {d} --run-dir {d}/new2"),
    (REFUSED, "quick-batch start {d}/missing.txt --run-dir {d}/new3"),
    (REFUSED, "quick-batch start {batch} --run-dir {d}/new4 --exit-codes {nj}"),
    (REFUSED, "quick-batch start {batch} --run-dir {d}/new5 --exit-codes {d}"),
    (REFUSED, "quick-batch parse {bad}"), (REFUSED, "quick-batch parse {d}"),
    (USAGE, "quick-batch summarize --run-dir {d}/none"),
    (USAGE, "quick-batch frobnicate"), (USAGE, "quick-batch next"), (USAGE, "frobnicate"), (USAGE, ""),
]


@pytest.fixture(scope="module")
def places(tmp_path_factory):
    root = tmp_path_factory.mktemp("bad-input")
    tuning = root / "finetune"
    shutil.copytree(FIXTURE, tuning)
    files = {"bad": NOT_UTF8, "nj": b"{not json", "empty": b"", "list": b"[1, 2]", "nested": b"[" * 50_000,
             "cases_bad": b'{"cases": [1, "x", null, {"id": 5}]}',
             "cases_ok": b'{"cases": [{"id": "a", "class": "x", "complexity": "simple"}]}',
             "batch": b"skill-one\nskill-two\n"}
    paths = {"t": str(tuning), "d": str(root)}
    for name, data in files.items():
        (root / f"{name}.json").write_bytes(data)
        paths[name] = str(root / f"{name}.json")
    (root / "lone_surrogate.json").write_bytes(b'{"cases": [{"id": "\\ud800"}]}')
    paths["lone_surrogate"] = str(root / "lone_surrogate.json")
    paths.update(_tunings(root, paths["cases_ok"]))
    qb = root / "qb"
    started = invoke("quick-batch", "start", paths["batch"], "--run-dir", qb, env=USER_ENV)
    assert started.code == 0, (started.out, started.err)
    paths["qb"] = str(qb)
    return paths


def _tunings(root: Path, dataset: str) -> dict[str, str]:
    """A fresh tuning, one with a damaged middle line, one written by a newer batchlog, a log that is a folder."""
    fresh = root / "fresh"
    made = invoke("tune", "init", "--dir", fresh, "--dataset", dataset, env=USER_ENV)
    assert made.code == 0, (made.out, made.err)
    broken = root / "broken"
    shutil.copytree(FIXTURE, broken)
    lines = (broken / "events.jsonl").read_bytes().splitlines(keepends=True)
    lines[5] = lines[5].replace(b'"seq":6', b'"seq":7', 1)
    (broken / "events.jsonl").write_bytes(b"".join(lines))
    newer = root / "newer"
    shutil.copytree(FIXTURE, newer)
    lines = (newer / "events.jsonl").read_bytes().splitlines(keepends=True)
    lines[-1] = lines[-1].replace(b'"v":1', b'"v":99', 1)
    (newer / "events.jsonl").write_bytes(b"".join(lines))
    logdir = root / "logdir"
    (logdir / "events.jsonl").mkdir(parents=True)
    return {"fresh": str(fresh), "broken": str(broken), "newer": str(newer), "logdir": str(logdir)}


def snapshot_logs(places) -> dict[str, bytes]:
    return {str(p): p.read_bytes() for p in (Path(places[name]) / "events.jsonl" for name in LOGS) if p.is_file()}


def words(case: str, places: dict[str, str]) -> list[str]:
    return ["" if word == "''" else word.format(**places) for word in case.split()]


LOGS = ("t", "qb", "fresh", "broken", "newer")


@pytest.mark.parametrize(("code", "case"), TUNE_CASES, ids=[case[:90] for _, case in TUNE_CASES])
def test_bad_input_gets_a_clear_message_and_its_exit_code(places, code, case):
    before = snapshot_logs(places)

    result = invoke(*words(case, places), env=USER_ENV)

    assert "Traceback" not in result.out + result.err
    assert "unexpected error" not in result.err, result.err
    assert result.code == code, (result.code, result.out, result.err)
    assert code == 0 or (result.err + result.out).strip(), "a refusal must say what was wrong (verify, audit: a report)"
    assert snapshot_logs(places) == before


def test_a_refused_batch_file_leaves_no_file_behind(places):
    """-o under a file or naming a folder: nothing recorded and nothing written (no plan.json either)."""
    folder = Path(places["d"]) / "out-folder"
    folder.mkdir()

    result = invoke("tune", "next-batch", "--dir", places["fresh"], "-o", folder, env=USER_ENV)

    assert (result.code, list(folder.iterdir())) == (REFUSED, [])
    assert not (Path(places["d"]) / "plan.json").exists()


# -- hostile classes (issue 15.11): deep nesting, huge numbers, special files, links, in every input a command reads --

DEPTHS = [254, 255, 256, 1000, 1023, 1024, 5000]
NUMBERS = [b"1" + b"0" * 19, b"-" + b"9" * 30, b"7" * 4301, b"7" * 20_000, b"1e400", b"-1e400", b"Infinity", b"NaN",
           b"-Infinity"]


def deep(depth: int) -> bytes:
    return b"[" * depth + b"]" * depth


def hostile_json() -> list[tuple[str, bytes]]:
    """Documents that hold a hostile value where a good one holds an ordinary one."""
    values = [(f"depth-{d}", deep(d)) for d in DEPTHS] + [(f"number-{n[:12].decode()}", n) for n in NUMBERS]
    return values


DATASET = b'{"cases": [{"id": "a", "class": "x", "complexity": "simple", "extra": %s}]}'
PAYLOADS = {"halt.json": b'{"halt_reason": "user-cancelled", "extra": %s}', "result-context.json": b'{"extra": %s}'}
EXIT_CODES = b'{"user-cancelled": %s}'


def tree(folder: Path) -> dict[str, bytes | None]:
    """Every entry under `folder` (a link by its target, a folder as None, a file by its bytes)."""
    found: dict[str, bytes | None] = {}
    for path in sorted(folder.rglob("*")):
        key = path.relative_to(folder).as_posix()
        if path.is_symlink():
            found[key] = b"-> " + os.readlink(path).encode()
        elif path.is_dir():
            found[key] = None
        elif path.is_file():
            size = path.stat().st_size  # an oversized file (sparse) is known by its size: it is never read
            found[key] = path.read_bytes() if size <= 1 << 24 else f"<{size} bytes>".encode()
        else:
            found[key] = b"<special>"
    return found


def clean(result, *codes: int) -> None:
    assert "Traceback" not in result.out + result.err, result.err
    assert "unexpected error" not in result.err, result.err
    assert result.code in codes, (result.code, result.out, result.err)
    assert result.err.strip(), "a refusal says what was wrong"


def started_batch(root: Path) -> Path:
    (root / "t.txt").write_text("one\ntwo\n")
    assert invoke("quick-batch", "start", root / "t.txt", "--run-dir", root / "run", env=USER_ENV).code == 0
    assert invoke("quick-batch", "next", "--run-dir", root / "run", env=USER_ENV).code == 0
    return root / "run"


class TestHostileJson:
    @pytest.mark.parametrize(("name", "value"), hostile_json(), ids=[n for n, _ in hostile_json()])
    def test_a_dataset_holding_it_is_refused_and_nothing_is_made(self, tmp_path, name, value):
        (tmp_path / "d.json").write_bytes(DATASET % value)
        before = tree(tmp_path)

        result = invoke("tune", "init", "--dir", tmp_path / "t", "--dataset", tmp_path / "d.json", env=USER_ENV)

        if result.code == 0:  # a number the dataset may hold where batchlog keeps nothing of it: a sound log
            assert name.startswith("number-"), result.out
            assert invoke("log", "verify", tmp_path / "t" / "events.jsonl").code == 0
            return
        clean(result, REFUSED)
        assert tree(tmp_path) == before

    @pytest.mark.parametrize("payload", sorted(PAYLOADS))
    @pytest.mark.parametrize(("name", "value"), hostile_json(), ids=[n for n, _ in hostile_json()])
    def test_a_staged_payload_holding_it_gets_a_clear_answer(self, tmp_path, payload, name, value):
        run = started_batch(tmp_path)
        (run / "run-1" / payload).write_bytes(PAYLOADS[payload] % value)
        log = (run / "events.jsonl").read_bytes()

        result = invoke("quick-batch", "record", "--run-dir", run, "--batch", "1", env=USER_ENV)

        assert "Traceback" not in result.err and "unexpected error" not in result.err, result.err
        if result.code != 0:
            assert (run / "events.jsonl").read_bytes() == log, "a refused record appends nothing"
            assert payload in result.out + result.err
        assert invoke("log", "verify", run / "events.jsonl").code == 0

    @pytest.mark.parametrize(("name", "value"), hostile_json(), ids=[n for n, _ in hostile_json()])
    def test_an_exit_code_map_holding_it_is_refused_and_nothing_is_made(self, tmp_path, name, value):
        (tmp_path / "t.txt").write_text("one\n")
        (tmp_path / "codes.json").write_bytes(EXIT_CODES % value)
        before = tree(tmp_path)

        result = invoke("quick-batch", "start", tmp_path / "t.txt", "--run-dir", tmp_path / "run", "--exit-codes",
                        tmp_path / "codes.json", env=USER_ENV)

        clean(result, REFUSED)
        assert tree(tmp_path) == before


KINDS = ["fifo", "dev-null", "dev-zero", "folder", "dangling-link", "link-loop", "oversized"]
OVERSIZED = 2 << 30  # past every bound of engine/files.py's opener (the largest: a snapshot's 1 GiB); sparse


def make_special(path: Path, kind: str) -> None:
    """Put a thing that is not a regular file (or one too large to read) at `path`."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "dev-null":
        path.symlink_to("/dev/null")
    elif kind == "dev-zero":
        path.symlink_to("/dev/zero")
    elif kind == "folder":
        path.mkdir()
    elif kind == "dangling-link":
        path.symlink_to(path.parent / "nowhere")
    elif kind == "oversized":
        with open(path, "wb") as fh:
            fh.truncate(OVERSIZED)
    else:
        path.symlink_to(path.name + ".loop")
        path.with_name(path.name + ".loop").symlink_to(path.name)


def _bounded_memory() -> None:
    """A child that reads /dev/zero or a huge file whole fails with MemoryError rather than taking the host's."""
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


def run_cli(*args: str | Path) -> subprocess.CompletedProcess:
    """The CLI in a child process: a command that would wait on a FIFO or read /dev/zero fails by the timeout."""
    return subprocess.run([sys.executable, "-m", "batchlog.cli.main", *map(str, args)], cwd=ROOT, capture_output=True,
                          text=True, env={**os.environ, **USER_ENV}, timeout=60, preexec_fn=_bounded_memory)


def special_roles(root: Path) -> dict[str, tuple[Path, list[list[str | Path]]]]:
    """Per input a command reads: where it lies and the commands that read it."""
    from batchlog.engine.snapshots.file import Snapshots
    from batchlog.engine.snapshots.key import key_id

    tuning, run, zen = root / "finetune", root / "run", root / "zen"
    zen_run = zen / "runs" / "batch01-nomem-run1"
    briefs = ["quick-batch", "start", "--briefs", root / "briefs", "--run-root", root / "rr", "--brief-validator"]
    return {
        "tune log": (tuning / "events.jsonl", [["tune", "next", "--dir", tuning],
                                               ["tune", "memory", "keep", "--batch", "1", "--nodes", "2", "--dir", tuning],
                                               ["log", "verify", tuning / "events.jsonl"]]),
        "batch log": (run / "events.jsonl", [["quick-batch", "status", "--run-dir", run],
                                             ["quick-batch", "next", "--run-dir", run]]),
        "dataset": (root / "d.json", [["tune", "init", "--dir", root / "new", "--dataset", root / "d.json"]]),
        "payload": (root / "staged" / "run-1" / "halt.json", [["quick-batch", "record", "--run-dir", root / "staged",
                                                                "--batch", "1"]]),
        "targets file": (root / "t.txt", [["quick-batch", "start", root / "t.txt", "--run-dir", root / "new-run"],
                                          ["quick-batch", "parse", root / "t.txt"]]),
        "pending marker": (tuning / "events.jsonl.pending", [["tune", "next", "--dir", tuning],
                                                             ["tune", "memory", "keep", "--batch", "1", "--nodes", "2",
                                                              "--dir", tuning]]),
        # issue 23, item 9: every other file a command reads, each through engine/files.py's opener
        **{f"zen {name}": (zen / name, [["tune", "import", zen]]) for name in
           ("dataset.json", "selection.json", "config.json", "difficult.json")},
        **{f"a run's {name}": (zen_run / name, [["tune", "import", zen]]) for name in
           ("cases.json", "plan.json", "findings.md")},
        "README.md": (tuning / "README.md", [["tune", "readme", "--dir", tuning],
                                             ["tune", "readme", "--stdout", "--dir", tuning]]),
        "USAGE.md": (tuning / "USAGE.md", [["tune", "usage-report", "--dir", tuning],
                                           ["tune", "usage-report", "--check", "--dir", tuning]]),
        "seed batch.jsonl": (root / "seed" / "batch.jsonl", [["quick-batch", "import", "--run-dir", root / "seed"]]),
        "exit-code map": (root / "codes.json", [["quick-batch", "start", root / "t.txt", "--run-dir", root / "new-run",
                                                 "--exit-codes", root / "codes.json"]]),
        "brief validator": (root / "validator.py", [[*briefs, root / "validator.py"]]),
        "archive note": (root / ".gone.summarized.json", [["quick-batch", "status", "--run-dir", root / "gone"]]),
        "snapshot": (Snapshots.key_folder(tuning / "events.jsonl", key_id()) / "tune.progress.json",
                     [["tune", "status", "--dir", tuning]]),
    }


# Roles read through engine/files.py's opener (its own bounds; the logs' are the log reader's). The roles batchlog
# had before issue 23 meet every kind; the others the kinds that hung or filled memory, and a link to nothing
# (the opener refuses a folder, /dev/null and a loop for every reader alike: tests/test_file_doors.py).
FIRST_ROLES = ["dataset", "payload", "targets file"]
OPENED_ROLES = [*(f"zen {name}" for name in ("dataset.json", "selection.json", "config.json", "difficult.json")),
                *(f"a run's {name}" for name in ("cases.json", "plan.json", "findings.md")), "README.md", "USAGE.md",
                "seed batch.jsonl", "exit-code map", "brief validator", "archive note", "snapshot"]
LOG_ROLES = ["tune log", "batch log", "pending marker"]
QUICK_BATCH_ROLES = {"batch log", "payload", "targets file", "exit-code map"}  # they need a batch started


def roles_and_kinds() -> list[tuple[str, str]]:
    return [(role, kind) for role in LOG_ROLES for kind in KINDS if kind != "oversized"] + \
        [(role, kind) for role in FIRST_ROLES for kind in KINDS] + \
        [(role, kind) for role in OPENED_ROLES for kind in ("fifo", "dev-zero", "dangling-link", "oversized")]


class TestSpecialFiles:
    @pytest.mark.parametrize(("role", "kind"), roles_and_kinds())
    def test_it_is_refused_clearly_and_nothing_is_written(self, tmp_path, role, kind):
        shutil.copytree(FIXTURE, tmp_path / "finetune")
        if role in QUICK_BATCH_ROLES:
            started_batch_in(tmp_path / "staged")
        if role.startswith(("zen ", "a run's ")):
            from tests.test_case_ids import zen

            zen(tmp_path)
        (tmp_path / "seed").mkdir()
        (tmp_path / "codes.json").write_text('{"$defs":{"skf-envelope":{"const":{"exit_codes":{"odd":17}}}}}')
        (tmp_path / "briefs" / "one").mkdir(parents=True)
        (tmp_path / "briefs" / "one" / "skill-brief.yaml").write_text("name: alpha\n")
        path, commands = special_roles(tmp_path)[role]
        if path.exists() or path.is_symlink():
            path.unlink()
        make_special(path, kind)
        before = tree(tmp_path)

        log = tmp_path / "finetune" / "events.jsonl"
        acknowledged = log.read_bytes() if role == "pending marker" else b""
        sidecar_unused = keeps_attributes(tmp_path)  # the CLI runs in a child process: no store can be forced
        for command in commands:
            done = run_cli(*command)

            said = done.stdout + done.stderr
            assert "Traceback" not in said and "unexpected error" not in said, (command, done.stderr)
            if role == "pending marker" and sidecar_unused:
                # The marker is the log file's own extended attribute: a file beside the log is never opened.
                assert done.returncode in (0, REFUSED) and path.name not in said, (command, said)
                assert log.read_bytes().startswith(acknowledged), command
                continue
            if role == "pending marker" and command[1] == "memory":
                assert done.returncode in (0, REFUSED) and path.name in said, (command, said)
                # A marker that does not belong is never obeyed: the command is decided as without it, and
                # every acknowledged byte is kept (the marker itself may be cleared away by the append).
                assert log.read_bytes().startswith(acknowledged), command
                continue
            assert done.returncode == expected_code(role, kind, command), (command, done.stdout, done.stderr)
            assert path.name in said or (role == "batch log" and str(path.parent) in said) or \
                (kind == "dangling-link" and "tune init" in said) or role == "archive note", (command, said)
            assert tree(tmp_path) == before, command


def expected_code(role: str, kind: str, command: list) -> int:
    """Refused (1), but for designed answers of a read-only view: a marker that does not belong is ignored with a
    note naming it (README: markers), a link to nothing reads as no log yet (the view says to init), and a
    snapshot that is not one batchlog wrote is ignored with a note (the log is replayed)."""
    view = command[:2] in (["tune", "next"], ["log", "verify"])
    if role == "pending marker" and view:
        return 0
    if view and role == "tune log" and kind == "dangling-link" and command[0] == "tune":
        return 0
    if role == "snapshot":
        return 0
    return REFUSED


def started_batch_in(run: Path) -> None:
    (run.parent / "t.txt").write_text("one\ntwo\n")
    assert invoke("quick-batch", "start", run.parent / "t.txt", "--run-dir", run, env=USER_ENV).code == 0
    assert invoke("quick-batch", "next", "--run-dir", run, env=USER_ENV).code == 0
    shutil.copytree(run, run.parent / "run")
