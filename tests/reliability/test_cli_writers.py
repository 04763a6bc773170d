"""Through the CLI: `batchlog tune` commands racing on one tuning, killed at random moments, waiting for a lock.

Workers are forked from the test process and call the CLI in-process (tests/clirunner.py: the same
`batchlog.cli.main.main` the console script runs), so a command's whole path is exercised, from parsing to
the append and the files it writes, at the cost of a fork rather than an interpreter start.
"""

from __future__ import annotations

import collections
import os
import random
import shlex
import shutil
import time
from pathlib import Path

import orjson
import pytest

from batchlog.cli.tune.log import tuning_state
from batchlog.engine import EventLog
from batchlog.engine.crash_hook import CRASH_BYTES_ENV, CRASH_ENV
from batchlog.engine.verify import verify
from batchlog.engine.snapshots.file import Snapshots
from batchlog.cli.loops import all_types
from batchlog.projections.tune.decider import TUNE
from batchlog.projections.tune.views.status import next_step, progress
from tests.clirunner import invoke
from tests.reliability.workers import fork, holder, kill, log_lines, wait

ROOT = Path(__file__).resolve().parents[2]
IN_PROGRESS = ROOT / "fixtures" / "tune-in-progress"
RACERS = 16
STEPS_EACH = 40  # at most: a racer stops sooner once the tuning has built BATCHES_WANTED batches
BATCHES_WANTED = 3  # so that racers meet at the second batch's build, whatever the interleaving
CLI_KILL_ROUNDS = 40
CLI_WRITERS_PER_ROUND = 4
ROUNDS_PER_LOG = 10
PATIENT = {"BATCHLOG_LOCK_TIMEOUT": "60"}


def tune(folder: Path, *args: object, env: dict[str, str] | None = None):
    return invoke("tune", *map(str, args), "--dir", folder, env={**PATIENT, **(env or {})})


def small_tuning(folder: Path, cases: int = 14) -> Path:
    dataset = folder.parent / f"{folder.name}-dataset.json"
    dataset.write_bytes(orjson.dumps({"cases": [{"id": f"case-{n:02d}", "class": "abc"[n % 3]}
                                                for n in range(cases)]}))
    assert tune(folder, "init", "--dataset", dataset, "--min-batch", "2", "--max-batch", "4",
                "--recheck", "1").code == 0
    return folder


def follow_the_loop(folder: Path, report_path: Path, racer: int, go: int) -> None:
    """Do what `tune next` says (verdicts at random) until the tuning has built BATCHES_WANTED batches, at most
    STEPS_EACH times (racers that repeat one another's steps make no progress); report each acknowledged
    command. The step is read in-process (the view `tune next` prints); the command runs through the CLI."""
    rnd = random.Random(racer)
    os.read(go, 1)
    with open(report_path, "a", encoding="utf-8") as report:
        for _ in range(STEPS_EACH):
            state = tuning_state(folder)
            step = next_step(state, str(folder))  # what `tune next` prints, without a CLI call
            if step.step == "done" or len(state.batches) >= BATCHES_WANTED:
                return
            words = shlex.split(step.command)[2:]  # drop "batchlog tune"
            words = [rnd.choice(("PASSED", "PASSED", "WRONG", "VOID")) if w == "VERDICT"
                     else "7" if w == "NODES" else w for w in words]
            if "-o" in words:  # each racer writes its own copy of the batch files
                at = words.index("-o") + 1
                words[at] = str(folder / f"racer{racer}" / Path(words[at]).relative_to(folder))
            result = invoke("tune", *words, env=PATIENT)
            assert result.code in (0, 1), result.err  # 1: another racer took that decision first
            if result.code == 0:
                report.write(shlex.join(words) + "\t" + result.out.replace("\n", " ") + "\n")
                report.flush()


def start_the_run(folder: Path, report_path: Path, go: int) -> None:
    """Once released: start batch 1's run with memory; report the run the command acknowledged."""
    os.read(go, 1)
    result = invoke("tune", "run", "start", "--batch", "1", "--kind", "mem", "--dir", str(folder), env=PATIENT)
    assert result.code == 0, result.err
    report_path.write_text(result.out, encoding="utf-8")


@pytest.fixture(scope="module")
def raced(tmp_path_factory) -> Path:
    """A small tuning that RACERS processes played at once, each following `tune next`; their reports beside it."""
    root = tmp_path_factory.mktemp("race")
    folder = small_tuning(root / "finetune")
    go_read, go_write = os.pipe()
    pids = [fork(follow_the_loop, folder, root / f"report-{n}", n, go_read) for n in range(RACERS)]
    os.write(go_write, b"x" * RACERS)
    assert [wait(pid) for pid in pids] == [0] * RACERS
    return root


class TestRacingCommands:
    def test_sixteen_processes_following_the_loop_never_take_a_decision_twice(self, raced):
        lines = log_lines(raced / "finetune" / "events.jsonl")

        built = [line["data"]["number"] for line in lines if line["type"] == "tune.batch_built"]
        started = [line["data"]["run"] for line in lines if line["type"] == "tune.run_started"]
        graded = [line["data"]["run"] for line in lines if line["type"] == "tune.run_graded"]
        assert len(built) >= 2 and built == list(range(1, len(built) + 1))
        assert len(started) == len(set(started)) and len(graded) == len(set(graded))
        assert set(graded) <= set(started)
        assert [line["seq"] for line in lines] == list(range(1, len(lines) + 1))
        assert verify(raced / "finetune" / "events.jsonl", all_types()).trusted

    def test_every_acknowledged_run_start_names_a_run_the_log_holds_once(self, raced):
        acknowledged = [row.split("\t")[1].strip() for path in raced.glob("report-*")
                        for row in path.read_text().splitlines() if row.startswith("run start")]

        started = collections.Counter(line["data"]["run"] for line in log_lines(raced / "finetune" / "events.jsonl")
                                      if line["type"] == "tune.run_started")
        assert acknowledged and all(started[name] == 1 for name in acknowledged)

    def test_racers_starting_the_same_run_all_acknowledge_the_one_run_the_log_holds(self, tmp_path):
        """The collision the loop's racers meet when it happens, made certain: each racer starts the same run of
        the same state (released together by one handshake, in whatever order they then run), so every one of
        them is acknowledged, the first by its append and the others as its repeat."""
        folder = small_tuning(tmp_path / "finetune")
        assert tune(folder, "next-batch", "-o", folder / "runs" / "batch01-nomem-run1" / "cases.json").code == 0
        assert tune(folder, "run", "grade", "batch01-nomem-run1", "--verdict", "PASSED").code == 0
        go_read, go_write = os.pipe()
        pids = [fork(start_the_run, folder, tmp_path / f"report-{n}", go_read) for n in range(RACERS)]

        os.write(go_write, b"x" * RACERS)

        assert [wait(pid) for pid in pids] == [0] * RACERS
        acknowledged = [path.read_text() for path in tmp_path.glob("report-*")]
        started = [line["data"]["run"] for line in log_lines(folder / "events.jsonl")
                   if line["type"] == "tune.run_started"]
        assert acknowledged == ["batch01-mem-run1\n"] * RACERS
        assert started == ["batch01-nomem-run1", "batch01-mem-run1"]

    def test_every_acknowledged_batch_is_the_one_the_log_holds(self, raced):
        built = {line["data"]["number"]: line["data"]["new"] + line["data"]["recheck"]
                 for line in log_lines(raced / "finetune" / "events.jsonl") if line["type"] == "tune.batch_built"}
        written = list(raced.glob("finetune/racer*/runs/batch*-nomem-run1/cases.json"))

        assert written
        for path in written:
            # The batch the command recorded, as its plan.json says, is the one its folder is named after: a racer
            # whose `tune next` was read before another racer took the loop past that batch is refused rather
            # than writing the next batch into that batch's folder.
            number = orjson.loads((path.parent / "plan.json").read_bytes())["batch"]
            assert path.parent.name == f"batch{number:02d}-nomem-run1"
            assert [case["id"] for case in orjson.loads(path.read_bytes())["batch"]] == built[number]


def record_usage_forever(folder: Path, report_path: Path, writer: int, seed: int) -> None:
    """`tune usage` and `tune change` in a loop until killed; each acknowledged command reported after exit 0."""
    rnd = random.Random(seed)
    fd = os.open(report_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    command = 0
    while True:
        command += 1
        if rnd.random() < 0.8:
            args = ("usage", "batch03-nomem-run1", "--model", f"m{writer}", "--calls", command,
                    "--input-tokens", rnd.randrange(10**6), "--output-tokens", 5)
        else:
            args = ("change", "batch03-nomem-run1", "--file", f"w{writer}/{command}.md", "--summary", "fix",
                    "--lines", command)
        result = tune(folder, *args)
        if result.code == 0:
            os.write(fd, f"{writer} {command} {args[0]}\n".encode())


def acknowledged_commands(folder: Path) -> list[tuple[int, int, str]]:
    found = []
    for path in folder.glob("report-*"):
        for row in path.read_bytes().split(b"\n")[:-1]:
            writer, command, kind = row.decode().split()
            found.append((int(writer), int(command), kind))
    return found


def command_of(line: dict) -> tuple[int, int, str] | None:
    data = line["data"]
    if line["type"] == "tune.usage_recorded" and data["model"].startswith("m"):
        return (int(data["model"][1:]), data["calls"], "usage")
    if line["type"] == "tune.change_recorded" and data["file"].startswith("w"):
        writer, command = data["file"][1:].removesuffix(".md").split("/")
        return (int(writer), int(command), "change")
    return None


def check_after_cli_kills(folder: Path, reports: Path) -> None:
    log = folder / "events.jsonl"
    acknowledged = acknowledged_commands(reports)
    held = collections.Counter(command_of(line) for line in log_lines(log))
    assert [c for c in acknowledged if held[c] != 1] == [], "an acknowledged command is missing or twice"
    assert [c for c, n in held.items() if c is not None and n > 1] == [], "a command written twice"
    assert tune(folder, "usage", "batch03-nomem-run1", "--model", "check", "--calls", len(held),
                "--input-tokens", 1, "--output-tokens", 1).code == 0  # the next append repairs a torn tail
    report = verify(log, all_types())
    assert report.trusted and report.torn_bytes == 0, [p.message for p in report.problems]
    full = EventLog(log, all_types()).replay(TUNE).state
    snapshotted = EventLog(log, all_types(), snapshots=Snapshots(every=1)).replay(TUNE).state
    assert snapshotted == full
    assert (progress(full), next_step(full)) == (progress(snapshotted), next_step(snapshotted))
    assert tune(folder, "status").out == "".join(line + "\n" for line in progress(full))


class TestCliWritersKilled:
    def test_tune_commands_killed_at_random_moments_lose_no_acknowledged_event(self, tmp_path):
        rnd = random.Random(20261203)
        kills = 0
        for round_ in range(CLI_KILL_ROUNDS):
            folder = tmp_path / f"log{round_ // ROUNDS_PER_LOG}" / "finetune"
            if not folder.exists():
                shutil.copytree(IN_PROGRESS, folder)
            reports = folder.parent / f"round{round_}"
            reports.mkdir()
            writers = range(round_ * CLI_WRITERS_PER_ROUND, (round_ + 1) * CLI_WRITERS_PER_ROUND)
            pids = [fork(record_usage_forever, folder, reports / f"report-{w}", w, rnd.randrange(10**9))
                    for w in writers]
            time.sleep(rnd.uniform(0.02, 0.25))
            for pid in pids:
                kill(pid)
            statuses = [wait(pid) for pid in pids]
            assert all(status == -9 for status in statuses), f"a writer failed before its kill: {statuses}"
            kills += len(pids)
            check_after_cli_kills(folder, reports)

        assert kills == CLI_KILL_ROUNDS * CLI_WRITERS_PER_ROUND


def build_first_batch(folder: Path) -> None:
    """`tune next-batch -o`: a command of two events (the batch built, its first run started)."""
    tune(folder, "next-batch", "-o", folder / "runs" / "batch01-nomem-run1" / "cases.json")


def tuning_with_a_page_edge_in_the_command(root: Path) -> tuple[Path, int]:
    """A tuning whose `next-batch -o` command (two lines) starts in one page and ends in the next, its first line
    whole in the first page (a case's rubric pads the tuning's first line so); the folder and the command's start."""
    cases = [{"id": f"case-{n:02d}", "class": "abc"[n % 3]} for n in range(30)]
    rubric = 0
    for _ in range(3):
        folder = root / "finetune"
        shutil.rmtree(folder, ignore_errors=True)
        dataset = root / "dataset.json"
        dataset.write_bytes(orjson.dumps({"cases": [*cases[:-1], {**cases[-1], "rubric": "r" * rubric}]}))
        assert tune(folder, "init", "--dataset", dataset, "--min-batch", "2", "--max-batch", "4").code == 0
        start = (folder / "events.jsonl").stat().st_size
        probe = root / "probe"
        shutil.rmtree(probe, ignore_errors=True)
        shutil.copytree(folder, probe)
        build_first_batch(probe)
        first = len((probe / "events.jsonl").read_bytes()[start:].splitlines(keepends=True)[0])
        wanted = 4096 - first - 50  # the first line ends 50 bytes before the page's end; the second crosses it
        if start == wanted:
            shutil.rmtree(probe)
            return folder, start
        rubric += wanted - start
    raise AssertionError("the tuning's first line could not be padded to the page")


class TestCliCommandKilledThroughAnotherPath:
    """Issue 23, items 2 and 3 through the CLI: a two-event command run through a symlink or a hard link to the
    tuning's log, killed part way, or cut by a power cut that kept its size but zeroed the page holding its last
    line; the tuning, used through its own folder, never sees half of it, and its next command cuts it away."""

    @pytest.mark.parametrize("reached", ["symlink", "hard link"])
    @pytest.mark.parametrize("how", ["killed mid-write", "power cut zeroing the last line's page"])
    def test_the_tuning_s_own_path_finds_the_command_unfinished(self, tmp_path, reached, how):
        folder, start = tuning_with_a_page_edge_in_the_command(tmp_path)
        log = folder / "events.jsonl"
        via = tmp_path / "via"
        via.mkdir()
        if reached == "symlink":
            (via / "events.jsonl").symlink_to(log)
        else:
            os.link(log, via / "events.jsonl")
        point = {CRASH_ENV: "append.mid_write", CRASH_BYTES_ENV: str(4096 - 50 - start + 10)} \
            if how.startswith("killed") else {CRASH_ENV: "append.after_write"}

        assert wait(fork(build_first_batch, via, env=point)) == -9
        if how.startswith("power"):  # written, not fsynced: the page after the edge never reached the disk
            data = log.read_bytes()
            log.write_bytes(data[:4096] + bytes(len(data) - 4096))
        assert [line["type"] for line in log_lines(log)][1:] == ["tune.batch_built"]  # its first line whole
        status = tune(folder, "status", "--json")
        built = tune(folder, "next-batch", "-o", folder / "runs" / "batch01-nomem-run1" / "cases.json")

        assert status.code == 0 and orjson.loads(status.out)["batches_built"] == 0, status
        assert "never finished" in status.err
        assert built.code == 0, built
        report = verify(log, all_types())
        assert report.trusted and report.events == 3 and report.unfinished.start is None
        assert [line["type"] for line in log_lines(log)] == ["tune.tuning_started", "tune.batch_built",
                                                             "tune.run_started"]


def grade_with_stderr_on(err_fd: int, out: Path, folder: Path) -> None:
    """In a forked child: grade a run through the CLI with stderr on `err_fd` as it is printed, stdout to `out`."""
    import sys

    from batchlog.cli.main import main

    os.dup2(err_fd, 2)
    sys.stderr = open(2, "w", encoding="utf-8", buffering=1, closefd=False)
    os.environ["BATCHLOG_LOCK_TIMEOUT"] = "600"
    with open(out, "w", encoding="utf-8") as sys.stdout:
        code = main(["tune", "run", "grade", "batch03-nomem-run1", "--verdict", "PASSED", "--dir", str(folder)])
    if code:
        raise SystemExit(code)


class TestLockWaitOnACommand:
    def test_a_command_says_it_waits_for_the_lock_then_gives_up_with_exit_1(self, tmp_path):
        folder = tmp_path / "finetune"
        shutil.copytree(IN_PROGRESS, folder)
        log = folder / "events.jsonl"
        before = log.read_bytes()
        pid = holder(folder, then_die=False)
        try:
            began = time.monotonic()
            result = tune(folder, "run", "grade", "batch03-nomem-run1", "--verdict", "PASSED",
                          env={"BATCHLOG_LOCK_TIMEOUT": "1"})
            waited = time.monotonic() - began
        finally:
            kill(pid)
            wait(pid)

        assert result.code == 1 and result.out == ""
        assert waited >= 1  # it gave up after the timeout, not before (no upper bound: the machine may be loaded)
        lines = result.err.splitlines()
        assert lines[0] == (f"waiting for the lock on {log}: another batchlog command is appending to it "
                            "(giving up after 1s)")
        assert lines[1].startswith("batchlog: ") and str(log) in lines[1] and "BATCHLOG_LOCK_TIMEOUT" in lines[1]
        assert len(lines) == 2 and log.read_bytes() == before

    def test_a_waiting_command_goes_on_once_the_holder_dies(self, tmp_path):
        """A handshake, no timer: the holder says it holds the lock; the waiter's "waiting for the lock" line is
        read from its stderr as it prints it; only then is the holder killed."""
        folder = tmp_path / "finetune"
        shutil.copytree(IN_PROGRESS, folder)
        pid = holder(folder, then_die=False)
        err_r, err_w = os.pipe()
        out = tmp_path / "waiter.out"
        waiter = fork(grade_with_stderr_on, err_w, out, folder)
        os.close(err_w)
        with os.fdopen(err_r, "r", encoding="utf-8") as err:
            notice = err.readline()  # blocks until the waiter prints it: the waiter is at the lock
            kill(pid)
            wait(pid)
            rest = err.read()

        assert wait(waiter) == 0
        assert out.read_text() == "batch03-nomem-run1 graded PASSED\n"
        assert notice == (f"waiting for the lock on {folder / 'events.jsonl'}: another batchlog command is "
                          "appending to it (giving up after 600s)\n")
        assert rest == ""
