"""Crash: writers killed with SIGKILL at random moments and at named points never lose an acknowledged event.

After each kill: every event a writer was told was appended is in the log once,
the log verifies (after the next append repairs a torn tail), a command's events
are all there or none is, and every view equals a fresh full replay.
"""

from __future__ import annotations

import collections
import os
import random
import time
from pathlib import Path

import pytest

from batchlog.engine.crash_hook import CRASH_BYTES_ENV, CRASH_ENV
from tests.reliability import model
from tests.reliability.conftest import soak_seconds
from tests.reliability.workers import (
    assert_acknowledged_kept,
    assert_trusted,
    assert_views_match_full_replay,
    fork,
    kill,
    log_lines,
    report,
    reported,
    wait,
)

KILLS_IN_CI = 520
WRITERS_PER_ROUND = 4
ROUNDS_PER_LOG = 10
KILL_AFTER_S = 0.03


def write_forever(path: Path, report_path: Path, writer: int, seed: int) -> None:
    """Append commands of 1 to 3 events (some of several pages, some claims) until killed."""
    rnd = random.Random(seed)
    log = model.open_log(path)
    fd = os.open(report_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    command = 0
    while True:
        command += 1
        if rnd.random() < 0.2:
            decide = model.claim_next(f"w{writer}")
        else:
            decide = model.note(writer, command, rnd.choice((1, 1, 2, 3)), rnd.choice((0, 40, 3000, 9000)))
        report(fd, log.append(model.PROJECTION, decide).events)


def assert_commands_whole(path: Path) -> None:
    """Every command's events are all in the log, or none is."""
    parts = collections.Counter()
    expected = {}
    for line in log_lines(path):
        if line["type"] == "test.noted":
            key = (line["data"]["writer"], line["data"]["command"], line["at"])
            parts[key] += 1
            expected[key] = line["data"]["parts"]
    broken = [key for key, count in parts.items() if count != expected[key]]
    assert not broken, f"commands partly in the log: {broken[:5]}"


def check_after_kills(path: Path, folder: Path) -> None:
    acknowledged = reported(folder)
    assert_acknowledged_kept(path, acknowledged)
    if path.exists():  # every writer may die before its first append created the log
        assert_trusted(path, model.REGISTRY, torn_allowed=True)
    model.open_log(path).append(model.PROJECTION, model.note(99, 0))  # repairs a torn tail
    assert_trusted(path, model.REGISTRY)
    assert_acknowledged_kept(path, acknowledged)
    assert_commands_whole(path)
    assert_views_match_full_replay(path, model.REGISTRY, model.PROJECTION)


def kill_rounds(tmp_path: Path, rounds: int | None, seed: int, deadline: float | None = None) -> int:
    """Rounds of parallel writers killed at random moments; the checks after each round. Returns the kills."""
    rnd = random.Random(seed)
    kills = 0
    round_ = 0
    while (rounds is not None and round_ < rounds) or (deadline is not None and time.monotonic() < deadline):
        folder = tmp_path / f"log{round_ // ROUNDS_PER_LOG}"
        folder.mkdir(exist_ok=True)
        path = folder / "events.jsonl"
        pids = [fork(write_forever, path, folder / f"report-{round_}-{w}", round_ * 10 + w, rnd.randrange(1 << 30))
                for w in range(WRITERS_PER_ROUND)]
        started = time.monotonic()
        for pid, delay in sorted(zip(pids, (rnd.uniform(0, KILL_AFTER_S) for _ in pids)), key=lambda p: p[1]):
            time.sleep(max(0.0, started + delay - time.monotonic()))
            kill(pid)
        statuses = [wait(pid) for pid in pids]
        assert all(status == -9 for status in statuses), f"a writer failed before its kill: {statuses}"
        kills += len(pids)
        check_after_kills(path, folder)
        round_ += 1
    return kills


class TestRandomKills:
    def test_writers_killed_at_random_moments_lose_no_acknowledged_event(self, tmp_path):
        kills = kill_rounds(tmp_path, KILLS_IN_CI // WRITERS_PER_ROUND, seed=20261202)

        assert kills >= 500

    @pytest.mark.soak
    def test_soak_writers_killed_at_random_moments(self, tmp_path):
        kills = kill_rounds(tmp_path, None, seed=int(time.time()), deadline=time.monotonic() + soak_seconds())

        print(f"kills survived: {kills}")


def append_and_die(path: Path, report_path: Path, parts: int, pad: int) -> None:
    fd = os.open(report_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    report(fd, model.open_log(path).append(model.PROJECTION, model.note(7, 1, parts, pad)).events)


def crash_at(tmp_path: Path, point: str, *, parts: int = 3, pad: int = 100, cut: int | None = None) -> Path:
    """A log of 5 acknowledged events, then one command of `parts` events killed at `point`."""
    path = tmp_path / "events.jsonl"
    log = model.open_log(path)
    fd = os.open(tmp_path / "report-0", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    for command in range(5):
        report(fd, log.append(model.PROJECTION, model.note(1, command)).events)
    env = {CRASH_ENV: point, CRASH_BYTES_ENV: str(cut or "")}
    status = wait(fork(append_and_die, path, tmp_path / "report-1", parts, pad, env=env))
    assert status == -9
    return path


class TestCrashAtNamedPoints:
    @pytest.mark.parametrize("point, kept", [
        ("append.before_write", set()),
        ("append.after_write", {1}),  # written, never fsynced: in the page cache, not acknowledged, yet kept
        ("append.after_fsync", {1}),
    ])
    def test_a_command_killed_at_a_point_is_all_there_or_not_at_all(self, tmp_path, point, kept):
        path = crash_at(tmp_path, point)

        check_after_kills(path, tmp_path)
        commands = {line["data"]["command"] for line in log_lines(path) if line["data"]["writer"] == 7}
        assert commands == kept

    def test_a_kill_inside_the_first_line_leaves_a_torn_tail_the_next_append_removes(self, tmp_path):
        path = crash_at(tmp_path, "append.mid_write", cut=50)
        size = path.stat().st_size

        assert_trusted(path, model.REGISTRY, torn_allowed=True)
        check_after_kills(path, tmp_path)
        assert path.stat().st_size > size
        assert not [line for line in log_lines(path) if line["data"]["writer"] == 7]

    def test_a_kill_after_whole_lines_of_a_command_leaves_none_of_its_events(self, tmp_path):
        """The kernel may stop a long write at a page when SIGKILL comes: whole lines of the command are on disk."""
        probe = tmp_path / "probe.jsonl"
        model.open_log(probe).append(model.PROJECTION, model.note(7, 1, 3, 100))
        first_line = len(probe.read_bytes()) // 3

        path = crash_at(tmp_path, "append.mid_write", parts=3, pad=100, cut=first_line + 10)

        check_after_kills(path, tmp_path)
        assert not [line for line in log_lines(path) if line["data"]["writer"] == 7]

    @pytest.mark.parametrize("lost", ["all", "prefix", "zeros"])
    def test_power_loss_after_the_write_before_the_fsync_leaves_a_readable_log(self, tmp_path, lost):
        """What a power cut can leave of an unsynced write: nothing, a prefix of it, or zeros in its place."""
        path = tmp_path / "events.jsonl"
        log = model.open_log(path)
        acknowledged = [(e.seq, e.id) for c in range(5) for e in log.append(model.PROJECTION, model.note(1, c)).events]
        end = path.stat().st_size
        log.append(model.PROJECTION, model.note(2, 1, 1, 500))
        unsynced = path.read_bytes()[end:]
        with open(path, "r+b") as fh:
            fh.truncate(end)
            fh.seek(end)
            fh.write({"all": b"", "prefix": unsynced[: len(unsynced) // 2], "zeros": bytes(len(unsynced))}[lost])

        assert_trusted(path, model.REGISTRY, torn_allowed=True)
        log.append(model.PROJECTION, model.note(3, 1))
        assert_trusted(path, model.REGISTRY)
        assert_acknowledged_kept(path, acknowledged)
