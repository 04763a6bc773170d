"""`batchlog tune watch` and `batchlog quick-batch watch`, driven as a person and an agent's host use them: the
watch runs in a real terminal (a tmux pane of the test's own) or with its stdout on a pipe (JSON Lines), while
other processes append through the CLI; on the file store and on PostgreSQL.

No sleep stands for a timing assumption: each check waits for the content it expects (the pane read again each
time the watch wrote to it, the pipe read line by line) and fails after a generous deadline.
"""

from __future__ import annotations

import json
import os
import queue
import select
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

import pytest

from tests.clirunner import invoke

ROOT = Path(__file__).resolve().parent.parent
BATCHLOG = [sys.executable, "-m", "batchlog.cli.main"]
DEADLINE_S = 60  # what a loaded machine may take to show a change; the watch takes milliseconds
STORES = ("file", "postgresql")
DATASET = {"name": "tiny", "cases": [{"id": "alpha", "class": "a"}, {"id": "beta", "class": "b"},
                                     {"id": "gamma", "class": "a"}]}

# Skipped without tmux on a developer's machine; in CI (which runs tests/run, which installs it) a failure.
needs_tmux = pytest.mark.skipif(shutil.which("tmux") is None and not os.environ.get("CI"),
                                reason="tmux is not installed (tests/run installs it)")


@pytest.fixture(params=STORES)
def store(request, log_name) -> list[str]:
    """The options that put the loop's log in the store under test."""
    if request.param == "file":
        return []
    return ["--store", request.getfixturevalue("postgres_url"), "--log", log_name]


def batchlog(*args: str, cwd: Path) -> str:
    """A batchlog command in a process of its own, as an agent runs it; its stdout (it must succeed)."""
    done = subprocess.run([*BATCHLOG, *args], cwd=cwd, capture_output=True, text=True, timeout=DEADLINE_S)
    assert done.returncode == 0, (args, done.stdout, done.stderr)
    return done.stdout


# ─── the loops, step by step ────────────────────────────────────────────────


def a_tuning(tmp: Path, store: list[str]) -> list[str]:
    """A tuning of three cases started in tmp/t; the options that name it."""
    (tmp / "dataset.json").write_text(json.dumps(DATASET), encoding="utf-8")
    where = ["--dir", "t", *store]
    batchlog("tune", "init", "--dataset", "dataset.json", "--min-batch", "3", "--max-batch", "3", *where, cwd=tmp)
    return where


# Each command an agent runs to the end of the tuning, and what the watch shows after it.
TUNING_STEPS = [
    (["next-batch", "-o", "t/runs/batch01-nomem-run1/cases.json"],
     ["3 of 3", "1 of 1 (none ahead)", "batch01-nomem-run1 started (3 cases)"]),
    (["run", "grade", "batch01-nomem-run1", "--verdict", "PASSED", "--tokens", "1000", "--llm-calls", "4"],
     ["1: 1 PASSED", "1,000 tokens · 4 model calls (1 of 1 runs report them)", "Run batch 1 with memory"]),
    (["run", "start", "--batch", "1", "--kind", "mem"], ["1 PASSED · 1 not graded"]),
    (["run", "grade", "batch01-mem-run1", "--verdict", "WRONG", "--wrong", "beta"], ["1 WRONG"]),
    (["difficult", "add", "beta", "--reason", "wrong", "--run", "batch01-mem-run1"], ["1 open · 0 fixed · 0 stuck"]),
    (["run", "start", "--batch", "1", "--kind", "mem"], ["batch01-mem-run2 started"]),
    (["run", "grade", "batch01-mem-run2", "--verdict", "PASSED"], ["2 PASSED · 1 WRONG"]),
    (["difficult", "fix", "beta", "--run", "batch01-mem-run2"], ["0 open · 1 fixed · 0 stuck"]),
    (["memory", "keep", "--batch", "1", "--nodes", "5"], ["run the final check"]),
    (["run", "start", "--final"], ["final-run1 started (3 cases)"]),
    (["run", "grade", "final-run1", "--verdict", "PASSED"], ["closed", "Done: the final check passed in final-run1"]),
]
TUNING_EVENTS = ["tune.batch_built", "tune.run_started", "tune.run_graded", "tune.run_started", "tune.run_graded",
                 "tune.difficult_added", "tune.run_started", "tune.run_graded", "tune.difficult_fixed",
                 "tune.memory_kept", "tune.run_started", "tune.run_graded"]


def a_batch(tmp: Path, store: list[str]) -> list[str]:
    """A quick batch of three targets started in tmp/run; the options that name it."""
    (tmp / "targets.txt").write_text("cognee@0.5.0\nrequests==99.0.0\nleftpad\n", encoding="utf-8")
    where = ["--run-dir", "run", *store]
    batchlog("quick-batch", "start", "targets.txt", *where, cwd=tmp)
    return where


def staged(name: str, body: str, number: int):
    def stage(tmp: Path) -> None:
        (tmp / "run" / f"run-{number}" / name).write_text(body, encoding="utf-8")
    return stage


# Each step: what is staged first (a target's payload), the command, and what the watch shows after it.
BATCH_STEPS = [
    (None, ["next"], ["0 of 3 ended", "1 in progress", "1  cognee@0.5.0", "2 pending"]),
    (staged("result-context.json", "{}", 1), ["record", "--batch", "1"], ["1 of 3 ended", "1 done", "0 in progress"]),
    (None, ["next"], ["2  requests==99.0.0  since"]),
    (staged("halt.json", '{"halt_reason":"resolution-failure"}', 2), ["record", "--batch", "2"],
     ["1 failed", "fail 3 resolution-failure"]),
    (None, ["next"], ["3  leftpad  since", "left"]),
    (staged("result-context.json", "{}", 3), ["record", "--batch", "3"], ["3 of 3 ended", "2 done"]),
    (None, ["summarize", "--output-dir", "out"], ["summarized", "2 succeeded, 1 failed"]),
]
BATCH_EVENTS = ["qb.target_started", "qb.target_recorded"] * 3 + ["qb.batch_summarized"]


# ─── a terminal: tmux ───────────────────────────────────────────────────────


class Pane:
    """A command in a 120x40 tmux pane of a tmux server of the test's own; the pane stays once the command ended,
    saying how: `watch exited CODE`."""

    def __init__(self, args: list[str], cwd: Path) -> None:
        self.server = ["tmux", "-L", f"batchlog-test-{uuid.uuid4().hex[:12]}", "-f", "/dev/null"]
        script = f'{shlex.join(args)}; echo "watch exited $?"; exec cat'
        self.tmux("new-session", "-d", "-s", "watch", "-x", "120", "-y", "40", "-c", str(cwd), "bash", "-c", script)
        # Everything the pane's program writes is copied to a FIFO: the test wakes when the watch wrote, and reads
        # the pane then. Opened for writing too, so that it never reads as ended while tmux's copy opens it.
        self.fifo = Path(tempfile.mkdtemp(prefix="batchlog-pane-")) / "written"
        os.mkfifo(self.fifo)
        self.written = os.open(self.fifo, os.O_RDWR | os.O_NONBLOCK)
        self.tmux("pipe-pane", "-t", "watch", f"cat > {shlex.quote(str(self.fifo))}")

    def tmux(self, *args: str) -> str:
        # The server takes this environment: COLUMNS and LINES (pytest-xdist's workers have 80 and 24) would
        # override the pane's own size for every program in it.
        env = {key: value for key, value in os.environ.items() if key not in ("COLUMNS", "LINES")}
        env["TERM"] = os.environ.get("TERM") or "xterm-256color"
        return subprocess.run([*self.server, *args], capture_output=True, text=True, check=True, env=env,
                              timeout=DEADLINE_S).stdout

    def text(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", "watch")

    def shows(self, *needles: str) -> str:
        """The pane's text once it shows every one of `needles`, a line wrapped or not (a failure after
        DEADLINE_S)."""
        deadline = time.monotonic() + DEADLINE_S
        while True:
            text = self.text()
            if all(" ".join(needle.split()) in " ".join(text.split()) for needle in needles):
                return text
            ready, _, _ = select.select([self.written], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                pytest.fail(f"the pane never showed {needles!r}; it shows:\n{text}")
            os.read(self.written, 1 << 16)  # what the watch wrote since: the pane is read again

    def cursor_visible(self) -> bool:
        return self.tmux("display-message", "-p", "-t", "watch", "#{cursor_flag}").strip() == "1"

    def close(self) -> None:
        subprocess.run([*self.server, "kill-server"], capture_output=True, timeout=DEADLINE_S)
        os.close(self.written)
        shutil.rmtree(self.fifo.parent, ignore_errors=True)


@pytest.fixture
def panes():
    opened: list[Pane] = []

    def pane(args: list[str], cwd: Path) -> Pane:
        opened.append(Pane(args, cwd))
        return opened[-1]

    yield pane
    for pane_ in opened:
        pane_.close()


@needs_tmux
class TestOnATerminal:
    def test_the_tuning_is_redrawn_as_agents_append_and_the_watch_ends_when_it_closes(self, tmp_path, store, panes):
        where = a_tuning(tmp_path, store)
        pane = panes([*BATCHLOG, "tune", "watch", *where], tmp_path)
        pane.shows("Tuning tiny", "cases used", "0 of 3", "Build batch 1", "tuning started: 3 cases, 3 selected")

        for command, shown in TUNING_STEPS:
            batchlog("tune", *command, *where, cwd=tmp_path)
            pane.shows(*shown)

        final = pane.shows("watch exited 0")
        assert "closed" in final and pane.cursor_visible()

    def test_the_batch_is_redrawn_as_agents_append_and_the_watch_ends_when_it_is_summarized(self, tmp_path, store,
                                                                                            panes):
        where = a_batch(tmp_path, store)
        pane = panes([*BATCHLOG, "quick-batch", "watch", *where], tmp_path)
        pane.shows("Quick batch run", "0 of 3 ended", "3 pending", "no target handed out yet")

        for stage, command, shown in BATCH_STEPS:
            if stage is not None:
                stage(tmp_path)
            batchlog("quick-batch", *command, *where, cwd=tmp_path)
            pane.shows(*shown)

        assert "summarized" in pane.shows("watch exited 0") and pane.cursor_visible()

    def test_ctrl_c_ends_the_watch_at_once_with_the_terminal_restored(self, tmp_path, store, panes):
        where = a_tuning(tmp_path, store)
        pane = panes([*BATCHLOG, "tune", "watch", *where], tmp_path)
        pane.shows("cases used")
        assert not pane.cursor_visible()  # while it draws, the cursor is hidden

        pane.tmux("send-keys", "-t", "watch", "C-c")

        text = pane.shows("watch exited 130")
        assert pane.cursor_visible() and "Traceback" not in text


# ─── a pipe: JSON Lines ─────────────────────────────────────────────────────


class Lines:
    """A command whose stdout is a pipe, read line by line as it writes."""

    def __init__(self, args: list[str], cwd: Path) -> None:
        self.process = subprocess.Popen(args, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def next(self) -> dict | None:
        """The next JSON object printed (None: stdout was closed); a failure after DEADLINE_S."""
        try:
            line = self.lines.get(timeout=DEADLINE_S)
        except queue.Empty:
            pytest.fail(f"no line in {DEADLINE_S}s")
        return None if line is None else json.loads(line)

    def ended(self) -> tuple[int, str]:
        """Its exit code and stderr, once it has ended by itself (a failure after DEADLINE_S)."""
        try:
            self.process.wait(timeout=DEADLINE_S)
        except subprocess.TimeoutExpired:
            self.process.kill()
            pytest.fail(f"it did not end in {DEADLINE_S}s")
        return self.process.returncode, self.process.stderr.read()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


@pytest.fixture
def piped():
    started: list[Lines] = []

    def lines(args: list[str], cwd: Path) -> Lines:
        started.append(Lines(args, cwd))
        return started[-1]

    yield lines
    for lines_ in started:
        lines_.stop()


class TestJsonLines:
    def test_a_tuning_gives_one_object_per_event_with_status_fields_until_it_closes(self, tmp_path, store, piped):
        where = a_tuning(tmp_path, store)
        watch = piped([*BATCHLOG, "tune", "watch", "--json", *where], tmp_path)
        first = watch.next()
        assert first["event"] is None and (first["used"], first["selection"]) == (0, 3)

        for command, _ in TUNING_STEPS:
            batchlog("tune", *command, *where, cwd=tmp_path)
        lines = []
        while (line := watch.next()) is not None:
            lines.append(line)

        assert [line["event"]["type"] for line in lines] == TUNING_EVENTS
        for line in [first, *lines]:  # each: the fields `tune status --json` gives of the log as it stood
            at = str(line["event"]["seq"] if line["event"] else 1)  # the first: the log as found, after `init`
            assert {k: v for k, v in line.items() if k != "event"} == json.loads(
                batchlog("tune", "status", "--json", "--at", at, *where, cwd=tmp_path))
        assert watch.ended() == (0, "")

    def test_a_batch_gives_one_object_per_event_with_status_fields_until_it_is_summarized(self, tmp_path, store,
                                                                                          piped):
        where = a_batch(tmp_path, store)
        watch = piped([*BATCHLOG, "quick-batch", "watch", "--json", *where], tmp_path)
        first = watch.next()
        assert first["event"] is None and (first["targets_total"], first["pending"]) == (3, 3)

        for stage, command, _ in BATCH_STEPS:
            if stage is not None:
                stage(tmp_path)
            batchlog("quick-batch", *command, *where, cwd=tmp_path)
        lines = []
        while (line := watch.next()) is not None:
            lines.append(line)

        assert [line["event"]["type"] for line in lines] == BATCH_EVENTS
        assert [(line["succeeded"], line["failed"]) for line in lines[1::2]] == [(1, 0), (1, 1), (2, 1)]
        assert lines[-1]["summarized"] and set(lines[-1]) == set(first)
        assert watch.ended() == (0, "")

    def test_without_a_terminal_the_watch_prints_json_lines_unasked(self, tmp_path, piped):
        where = a_tuning(tmp_path, [])
        watch = piped([*BATCHLOG, "tune", "watch", *where], tmp_path)

        first = watch.next()

        assert first["event"] is None and first["lines"][0] == "selection     3 cases"

    def test_a_log_damaged_while_watched_ends_it_with_exit_3_and_the_views_message(self, tmp_path, piped):
        where = a_tuning(tmp_path, [])
        watch = piped([*BATCHLOG, "tune", "watch", "--json", *where], tmp_path)
        watch.next()

        with open(tmp_path / "t" / "events.jsonl", "ab") as log:
            log.write(b"not an event\n")
        code, err = watch.ended()

        status = subprocess.run([*BATCHLOG, "tune", "status", "--json", *where], cwd=tmp_path, capture_output=True,
                                text=True)
        assert (code, status.returncode) == (3, 3)
        assert err == status.stderr and "cannot be trusted: line 2 is not JSON" in err

    def test_a_torn_tail_is_no_event_and_gets_the_views_note(self, tmp_path, piped):
        where = a_tuning(tmp_path, [])
        watch = piped([*BATCHLOG, "tune", "watch", "--json", *where], tmp_path)
        watch.next()

        with open(tmp_path / "t" / "events.jsonl", "ab") as log:
            log.write(b'{"seq":2,"type":"tune.batch_bu')
        batchlog("tune", "next-batch", "-o", "t/runs/batch01-nomem-run1/cases.json", *where, cwd=tmp_path)
        built, started = watch.next(), watch.next()
        watch.stop()

        assert (built["event"]["seq"], started["event"]["seq"]) == (2, 3)
        assert "ends with 30 byte(s) of a line that was never finished" in watch.process.stderr.read()


# ─── at once ────────────────────────────────────────────────────────────────


class TestAtOnce:
    def test_a_closed_tuning_is_printed_once_and_the_watch_ends(self):
        result = invoke("tune", "watch", "--dir", ROOT / "fixtures" / "tune-finished")

        assert result.code == 0 and result.err == ""
        (line,) = result.out.splitlines()
        assert json.loads(line)["event"] is None

    def test_a_folder_without_a_tuning_is_refused_as_tune_status_refuses_it(self, tmp_path):
        watched = invoke("tune", "watch", "--dir", tmp_path)
        status = invoke("tune", "status", "--dir", tmp_path)

        assert (watched.code, watched.out, watched.err) == (status.code, status.out, status.err) == (
            1, "", status.err) and "no tuning here yet" in watched.err

    def test_another_loops_log_is_refused_as_tune_status_refuses_it(self):
        batch = ROOT / "fixtures" / "quick_batch" / "skf-quick-skill-demo"

        watched = invoke("tune", "watch", "--dir", batch, "--json")
        status = invoke("tune", "status", "--dir", batch, "--json")

        assert (watched.code, watched.out, watched.err) == (status.code, "", status.err)
        assert watched.code == 1 and "not a tuning's" in watched.err

    def test_a_newer_event_is_left_out_with_the_views_warning_and_field(self, tmp_path):
        from batchlog.cli.tune.log import tuning_types
        from batchlog.engine import EventLog, EventType, Projection, Registry
        from batchlog.engine.registry import Raw

        folder = tmp_path / "finetune"  # the tuning in progress, and a tune.run_graded v9 a newer batchlog wrote
        shutil.copytree(ROOT / "fixtures" / "tune-in-progress", folder)
        future = Registry([*(t for t in tuning_types().by_name.values() if t.name != "tune.run_graded"),
                           EventType("tune.run_graded", 9, upcasters=(dict,) * 8)])
        EventLog(folder / "events.jsonl", future).append(
            Projection("any", None, lambda state, event: state),
            lambda state: [Raw("tune.run_graded", {"run": "batch03-nomem-run1", "verdict": "PASSED", "stars": 5})])
        watch = Lines([*BATCHLOG, "tune", "watch", "--json", "--dir", str(folder)], tmp_path)
        status = invoke("tune", "status", "--json", "--dir", folder)

        try:
            first = watch.next()
        finally:
            watch.stop()
        assert first == {**json.loads(status.out), "event": None}
        assert watch.process.stderr.read() == status.err and "newer than this batchlog" in status.err

    def test_a_folder_without_a_batch_is_refused_as_quick_batch_status_refuses_it(self, tmp_path):
        watched = invoke("quick-batch", "watch", "--run-dir", tmp_path / "none")
        status = invoke("quick-batch", "status", "--run-dir", tmp_path / "none")

        assert (watched.code, watched.err) == (status.code, status.err) and watched.code == 1


class TestOnlyTheWatchImportsRich:
    """rich is the watch's: the commands agents run at every step never load it."""

    @pytest.mark.parametrize("args", [
        ["tune", "status", "--dir", "fixtures/tune-in-progress"],
        ["tune", "next", "--dir", "fixtures/tune-in-progress"],
        ["tune", "difficult", "--dir", "fixtures/tune-in-progress"],
        ["quick-batch", "status", "--run-dir", "fixtures/quick_batch/skf-quick-skill-demo"],
        ["tune", "watch", "--json", "--dir", "fixtures/tune-finished"],
    ], ids=" ".join)
    def test_the_process_never_imports_rich(self, args):
        assert imported(args, ROOT) == []

    def test_quick_batch_next_never_imports_rich(self, tmp_path):
        (tmp_path / "targets.txt").write_text("a\n", encoding="utf-8")
        batchlog("quick-batch", "start", "targets.txt", "--run-dir", "run", cwd=tmp_path)

        assert imported(["quick-batch", "next", "--run-dir", "run"], tmp_path) == []


def imported(args: list[str], cwd: Path, package: str = "rich") -> list[str]:
    """The modules of `package` a batchlog process running `args` imported (python -X importtime lists them)."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "batchlog.cli.main", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=DEADLINE_S)
    assert done.returncode == 0, done.stderr
    modules = [line.rpartition("|")[2].strip() for line in done.stderr.splitlines() if line.startswith("import time:")]
    assert "batchlog.cli" in modules  # the list is there to read
    return [module for module in modules if module == package or module.startswith(package + ".")]
