"""The watches' rows: how soon `tune watch` shows an append once the append is acknowledged (its JSON line on a
pipe, its redraw on a terminal; the log in a file and on PostgreSQL), against running `tune status` again as a
process; and a watch's CPU while nothing happens, against running its loop's `status` once a second. Every
command runs from the wheel's install (bench/install.py), as the process rows do.

The watch is a process of its own, read as it writes (a pipe, or a pseudo-terminal of 120x40): each piece of its
output is stamped with the time it was read, and a round's latency runs from the moment the append returned (its
acknowledgement: written, fsynced or committed) to the stamp of the output that shows it; an output read before
that moment counts 0 (a file's line is readable before the fsync that acknowledges it). The idle CPU is the
watch's own (Linux's /proc/PID/schedstat, in nanoseconds) over a stretch with no append.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

from bench.install import Install
from bench.measure import Row, Timing, per_round
from bench.processes import environment, run
from bench.store_cases import SERVER_ENV, server

LATENCY_LIMIT_MS = 100.0
IDLE_LIMIT_PERCENT = 1.0
IDLE_S, QUICK_IDLE_S = 20.0, 3.0  # the stretch with no append over which the idle CPU is measured
DEADLINE_S = 60.0  # a watch that shows nothing this long after an append has failed the row
COLUMNS, LINES = 120, 40
RUN = "batch01-nomem-run1"


def watch_rows(folder: Path, rounds: int, quick: bool, install: Install) -> list[Row]:
    """Every watch row (the PostgreSQL ones skipped without a server)."""
    batchlog = _Batchlog(str(install.batchlog), environment(folder))
    rows = []
    for store in ("file", "postgresql"):
        for terminal in (False, True):
            rows.append(_latency(folder, store, terminal, rounds, batchlog))
    idle_s = QUICK_IDLE_S if quick else IDLE_S
    rows.append(_idle(folder, "tune", idle_s, batchlog))
    rows.append(_idle(folder, "quick-batch", idle_s, batchlog))
    return rows


class _Batchlog:
    """The installed `batchlog` and the environment its processes run in."""

    def __init__(self, script: str, env: dict[str, str]) -> None:
        self.script = script
        self.env = env

    def command(self, *args: str) -> list[str]:
        return [self.script, *args]

    def run(self, args: list[str], cwd: Path) -> float:
        """Run `batchlog args` to its end (exit 0, else RuntimeError); its CPU seconds."""
        return run(self.command(*args), cwd, self.env).cpu


# ─── latency ────────────────────────────────────────────────────────────────


def _latency(folder: Path, store: str, terminal: bool, rounds: int, batchlog: _Batchlog) -> Row:
    where = "PostgreSQL" if store == "postgresql" else "a file"
    shown = "the redraw on a terminal" if terminal else "the JSON line on a pipe"
    case = (f"`tune watch`: an append's acknowledgement to {shown}, log in {where} (vs `tune status` run again as a "
            "process)")
    options = _store_options(store)
    if options is None:
        return Row(case, None, None, "ms", 1.0, note=f"no PostgreSQL server: set {SERVER_ENV[0]} to a database URL",
                   limit=LATENCY_LIMIT_MS)
    work = folder / f"watch-{store}-{'terminal' if terminal else 'json'}"
    tuning = _a_tuning(work, options, batchlog)
    watch = _Watch(batchlog.command("tune", "watch", *tuning), work, batchlog.env, terminal)
    try:
        watch.shows(b"cases used" if terminal else b"\n", 0)
        ours, theirs = [], []
        for round_ in range(rounds):
            calls = 1000 + round_
            offset = len(watch.output)
            acknowledged = _append_usage(work, options, calls)
            marker = f"{calls:,} model calls".encode() if terminal else b'"event":{"seq":%d,' % (4 + round_)
            ours.append(max(0.0, watch.shows(marker, offset) - acknowledged))
            theirs.append(run(batchlog.command("tune", "status", *tuning), work, batchlog.env).wall)
    finally:
        watch.stop()
    timing = Timing(statistics.median(ours), statistics.median(theirs), per_round(ours, theirs))
    return Row.timed(case, timing, 1.0, scale=1e3, unit="ms", limit=LATENCY_LIMIT_MS)


def _store_options(store: str) -> list[str] | None:
    """The options naming a log of this run's own in `store` (None: no server to put it on)."""
    if store == "file":
        return []
    url = server()
    return None if url is None else ["--store", url, "--log", f"bench-watch-{uuid.uuid4().hex[:8]}"]


def _a_tuning(work: Path, options: list[str], batchlog: _Batchlog) -> list[str]:
    """A tuning of 64 cases in work/finetune with its first batch built (its first run started); its options."""
    work.mkdir(parents=True)
    cases = [{"id": f"case-{number:03d}", "class": f"c{number % 4}"} for number in range(64)]
    (work / "dataset.json").write_text(json.dumps({"name": "bench", "cases": cases}), encoding="utf-8")
    tuning = ["--dir", "finetune", *options]
    for args in (["init", "--dataset", "dataset.json"], ["next-batch", "-o", f"finetune/runs/{RUN}/cases.json"]):
        batchlog.run(["tune", *args, *tuning], work)
    return tuning


def _append_usage(work: Path, options: list[str], calls: int) -> float:
    """One `tune usage` of the run in progress, appended as the command appends it; the time it returned."""
    from batchlog.cli.store import Store
    from batchlog.cli.tune.log import decide_in
    from batchlog.projections.tune.decide.records import RecordUsage

    store = Store(options[1], options[3]) if options else Store()
    decide_in(work / "finetune", RecordUsage(RUN, "bench-model", calls, 10 * calls, calls), store)
    return time.perf_counter()


# ─── idle ───────────────────────────────────────────────────────────────────


def _idle(folder: Path, loop: str, idle_s: float, batchlog: _Batchlog) -> Row:
    redrawn = "redrawn at changes only" if loop == "tune" else "its clocks redrawn every second"
    case = (f"`{loop} watch`'s CPU on a terminal while nothing happens, {idle_s:g} s ({redrawn}; vs `{loop} status` "
            "run once a second)")
    if not Path("/proc/self/schedstat").exists():
        return Row(case, None, None, "% of a core", 1.0, note="needs Linux's /proc/PID/schedstat",
                   limit=IDLE_LIMIT_PERCENT)
    work = folder / f"watch-idle-{loop}"
    if loop == "tune":
        where, first = _a_tuning(work, [], batchlog), b"cases used"
    else:
        where, first = _a_batch(work, batchlog), b"targets"
    watch = _Watch(batchlog.command(loop, "watch", *where), work, batchlog.env, True)
    try:
        watch.shows(first, 0)
        began, cpu = time.perf_counter(), _cpu_s(watch.process.pid)
        time.sleep(idle_s)  # the stretch measured: nothing is appended
        percent = 100 * (_cpu_s(watch.process.pid) - cpu) / (time.perf_counter() - began)
    finally:
        watch.stop()
    status_cpu_s = statistics.median(batchlog.run([loop, "status", *where], work) for _ in range(3))
    return Row(case, percent, 100 * status_cpu_s, "% of a core", 1.0, limit=IDLE_LIMIT_PERCENT)


def _a_batch(work: Path, batchlog: _Batchlog) -> list[str]:
    """A quick batch of three targets in work/run, the first one handed out (its clock running); its options."""
    work.mkdir(parents=True)
    (work / "targets.txt").write_text("alpha\nbeta\ngamma\n", encoding="utf-8")
    for args in (["start", "targets.txt"], ["next"]):
        batchlog.run(["quick-batch", *args, "--run-dir", "run"], work)
    return ["--run-dir", "run"]


def _cpu_s(pid: int) -> float:
    """The CPU time a process has used, all its threads (the first field of /proc/PID/schedstat: nanoseconds)."""
    with open(f"/proc/{pid}/schedstat", encoding="ascii") as fh:
        return int(fh.read().split()[0]) / 1e9


# ─── a watch, read as it writes ─────────────────────────────────────────────


class _Watch:
    """A watch process whose output is read as it comes (on a pipe, or on a pseudo-terminal it takes for its
    screen), each piece stamped with the time it was read."""

    def __init__(self, args: list[str], cwd: Path, env: dict[str, str], terminal: bool) -> None:
        # COLUMNS and LINES, when set, would stand for the terminal's own size.
        env = {key: value for key, value in env.items() if key not in ("COLUMNS", "LINES")}
        env["TERM"] = "xterm-256color"
        if terminal:
            import fcntl
            import pty
            import struct
            import termios

            self.fd, child = pty.openpty()
            fcntl.ioctl(child, termios.TIOCSWINSZ, struct.pack("HHHH", LINES, COLUMNS, 0, 0))
            self.process = subprocess.Popen(args, cwd=cwd, env=env, stdin=child, stdout=child, stderr=child,
                                            start_new_session=True)
            os.close(child)
        else:
            self.process = subprocess.Popen(args, cwd=cwd, env=env, stdout=subprocess.PIPE,
                                            stderr=subprocess.DEVNULL)
            self.fd = self.process.stdout.fileno()
        self.output = bytearray()
        self.stamps: list[tuple[int, float]] = []  # (length of the output once a piece was read, when)
        self.arrived = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        while True:
            try:
                piece = os.read(self.fd, 1 << 16)
            except OSError:  # the terminal's other end closed
                piece = b""
            with self.arrived:
                if piece:
                    self.output += piece
                    self.stamps.append((len(self.output), time.perf_counter()))
                self.arrived.notify_all()
            if not piece:
                return

    def shows(self, marker: bytes, offset: int) -> float:
        """When `marker` was first read after byte `offset` of the output (RuntimeError after DEADLINE_S)."""
        deadline = time.monotonic() + DEADLINE_S
        with self.arrived:
            while (found := self.output.find(marker, offset)) < 0:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"the watch never showed {marker!r}: {bytes(self.output[-2000:])!r}")
                self.arrived.wait(timeout=1.0)
            end = found + len(marker)
            return next(when for length, when in self.stamps if length >= end)

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait()
        if self.process.stdout is None:
            os.close(self.fd)


if __name__ == "__main__":  # a quick look: python -m bench.watch_cases
    import tempfile

    from bench.install import install
    from bench.measure import table

    with tempfile.TemporaryDirectory() as temp:
        print(table(watch_rows(Path(temp), 5, True, install(Path(temp) / "install"))))
    sys.exit(0)
