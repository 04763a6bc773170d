"""Crash: writers killed with SIGKILL at random moments and at named points never lose an acknowledged event.

After each kill: every event a writer was told was appended is in the log once,
the log verifies (after the next append repairs a torn tail), a command's events
are all there or none is, and every view equals a fresh full replay. Also: a command
killed through a symlink, a hard link or `a/../b` is found unfinished through the
log's own path (its marker belongs to the file); a power cut that keeps a command's
size but zeros its last page; and readers racing a writer, driven by pause points.
"""

from __future__ import annotations

import collections
import os
import random
import time
from pathlib import Path

import pytest

from batchlog.engine.crash_hook import CRASH_BYTES_ENV, CRASH_ENV, PAUSE_ENV
from batchlog.engine.errors import WriteFailed
from batchlog.engine.recorders.file_pending import parse
from batchlog.engine.verify import verify
from tests.marker_stores import STORES, marker_value, use_store
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
    resume,
    wait,
    wait_stopped,
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


def acknowledged_log(tmp_path: Path) -> Path:
    """A log of 5 acknowledged single-event commands (reported as writer 0's)."""
    path = tmp_path / "events.jsonl"
    log = model.open_log(path)
    fd = os.open(tmp_path / "report-0", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    for command in range(5):
        report(fd, log.append(model.PROJECTION, model.note(1, command)).events)
    os.close(fd)
    return path


def crash_at(tmp_path: Path, point: str, *, parts: int = 3, pad: int = 100, cut: int | None = None,
             through: Path | None = None) -> Path:
    """A log of 5 acknowledged events, then one command of `parts` events killed at `point` (written through the
    path `through`, when given: a link to the log)."""
    path = acknowledged_log(tmp_path)
    env = {CRASH_ENV: point, CRASH_BYTES_ENV: str(cut or "")}
    status = wait(fork(append_and_die, through or path, tmp_path / "report-1", parts, pad, env=env))
    assert status == -9
    return path


def first_line_bytes(tmp_path: Path, parts: int, pad: int) -> int:
    """How long the first line of a command of `parts` notes padded by `pad` is (a probe log, as crash_at's)."""
    probe = tmp_path / "probe" / "events.jsonl"
    model.open_log(probe).append(model.PROJECTION, model.note(7, 1, parts, pad))
    return len(probe.read_bytes().splitlines(keepends=True)[0])


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


def other_path(tmp_path: Path, path: Path, reached: str) -> Path:
    """Another path to the log at `path`: a symlink, a hard link, or `a/../b`."""
    other = tmp_path / "elsewhere"
    other.mkdir()
    if reached == "symlink":
        (other / "events.jsonl").symlink_to(path)
        return other / "events.jsonl"
    if reached == "hard link":
        os.link(path, other / "events.jsonl")
        return other / "events.jsonl"
    return other / ".." / path.name


class TestMarkerOfTheFile:
    """Issue 23, item 3: the marker sat beside the path used, while the lock follows the file."""

    # A hard link where the marker is a file beside one name: refused (the test after this one).
    @pytest.mark.parametrize("store, reached", [(store, reached) for store in STORES
                                                for reached in ("symlink", "hard link", "a/../b")
                                                if (store, reached) != ("sidecar", "hard link")])
    def test_a_command_killed_through_another_path_is_unfinished_through_the_log_s_own(self, tmp_path, monkeypatch,
                                                                                     store, reached):
        use_store(store, monkeypatch, tmp_path)
        cut = first_line_bytes(tmp_path, 3, 100) + 10
        path = acknowledged_log(tmp_path)
        through = other_path(tmp_path, path, reached)
        env = {CRASH_ENV: "append.mid_write", CRASH_BYTES_ENV: str(cut)}

        assert wait(fork(append_and_die, through, tmp_path / "report-1", 3, 100, env=env)) == -9

        assert len(log_lines(path)) == 6  # the command's first line is whole on disk
        assert model.open_log(path).replay(model.PROJECTION).state.notes == 5
        assert verify(path, model.REGISTRY).unfinished.start is not None
        check_after_kills(path, tmp_path)
        assert not [line for line in log_lines(path) if line["data"]["writer"] == 7]

    def test_a_command_of_several_events_is_refused_on_a_hard_linked_log_without_extended_attributes(
            self, tmp_path, monkeypatch):
        """Where the marker is a file beside one name, it would be missed through another: refused, nothing
        written (a single-event command needs no marker and is taken)."""
        use_store("sidecar", monkeypatch, tmp_path)
        path = acknowledged_log(tmp_path)
        through = other_path(tmp_path, path, "hard link")
        before = path.read_bytes()

        with pytest.raises(WriteFailed, match="2 hard links.*nothing was recorded"):
            model.open_log(through).append(model.PROJECTION, model.note(7, 1, 2))
        assert path.read_bytes() == before
        model.open_log(through).append(model.PROJECTION, model.note(7, 2, 1))
        assert len(log_lines(path)) == 6


class TestPowerCutKeepsTheSizeNotThePage:
    """Issue 23, item 2: a power cut kept a command's new size but zeroed the page of its last line; the size
    rule counted it finished, readers folded its first event alone and the next append kept half a command."""

    @pytest.mark.parametrize("store", STORES)
    @pytest.mark.parametrize("lost", ["the last line's page zeroed", "half of that page zeroed"])
    def test_readers_stop_at_its_start_and_the_next_append_cuts_it(self, tmp_path, monkeypatch, store, lost):
        use_store(store, monkeypatch, tmp_path)
        acknowledged = [(seq, id_) for seq, id_ in reported_after(tmp_path, acknowledged_log(tmp_path))]
        path = tmp_path / "events.jsonl"
        start = path.stat().st_size
        # Killed once written, before the fsync: the marker is durable and `pending`; the bytes only cached.
        env = {CRASH_ENV: "append.after_write"}
        assert wait(fork(append_and_die, path, tmp_path / "report-1", 2, 3000, env=env)) == -9
        data = path.read_bytes()
        page = (len(data) - 2) // 4096 * 4096  # the page that holds the last line's last byte
        zeroed = 4096 if lost.startswith("the") else 2048
        assert page > start and data.rfind(b"\n", 0, len(data) - 1) < page + zeroed
        # What the power cut leaves: the new size, that page's bytes (or half of them) zeros.
        path.write_bytes(data[:page] + bytes(min(zeroed, len(data) - page)) + data[page + zeroed:])
        assert path.stat().st_size == len(data) and parse(marker_value(path)).state == "pending"

        seen = model.open_log(path).replay(model.PROJECTION).state.notes
        report_ = verify(path, model.REGISTRY)
        model.open_log(path).append(model.PROJECTION, model.note(3, 1))

        assert seen == 5 and report_.trusted and report_.unfinished.start == start
        assert_trusted(path, model.REGISTRY)
        assert_acknowledged_kept(path, acknowledged)
        assert_commands_whole(path)
        assert [line["data"]["writer"] for line in log_lines(path)][5:] == [3]


def reported_after(folder: Path, path: Path) -> list[tuple[int, str]]:
    assert path.exists()
    return reported(folder)


def read_and_report(path: Path, out: Path) -> None:
    """A reader: the notes a view of the log counts, written to `out`."""
    out.write_text(str(model.open_log(path).replay(model.PROJECTION).state.notes))


class TestReadersRacingAWriter:
    """Issue 23: a reader that reads the marker before the lines can miss a marker set by a writer that starts
    meanwhile. Each race is driven by pause points (the process stops itself; the test waits for the stop and
    lets it go on): never a sleep."""

    def _stopped_reader(self, path: Path, out: Path) -> int:
        pid = fork(read_and_report, path, out, env={PAUSE_ENV: "read.marker_read,read.before_recheck"})
        wait_stopped(pid)  # it has read the marker: no command is being written yet
        return pid

    def test_a_command_written_while_a_reader_looks_is_seen_whole_or_not_at_all(self, tmp_path):
        path = acknowledged_log(tmp_path)
        cut = first_line_bytes(tmp_path, 3, 100) + 10
        out = tmp_path / "seen"
        reader = self._stopped_reader(path, out)
        writer = fork(append_and_die, path, tmp_path / "report-1", 3, 100,
                      env={PAUSE_ENV: "append.mid_write", CRASH_BYTES_ENV: str(cut)})
        wait_stopped(writer)  # its marker set, its first line and 10 bytes written

        resume(reader)
        wait_stopped(reader)  # it has taken the size (the first line whole in it), not the marker again
        resume(writer)
        assert wait(writer) == 0  # the command written, fsynced, its marker `done`
        resume(reader)

        assert wait(reader) == 0 and out.read_text() == "8"  # read again: the whole command (never 6)

    def test_a_command_killed_and_cut_while_a_reader_looks_is_never_seen(self, tmp_path):
        path = acknowledged_log(tmp_path)
        cut = first_line_bytes(tmp_path, 3, 100) + 10
        out = tmp_path / "seen"
        reader = self._stopped_reader(path, out)
        env = {CRASH_ENV: "append.mid_write", CRASH_BYTES_ENV: str(cut)}
        assert wait(fork(append_and_die, path, tmp_path / "report-1", 3, 100, env=env)) == -9

        resume(reader)
        wait_stopped(reader)  # it has taken the size, the killed command's first line whole in it
        model.open_log(path).append(model.PROJECTION, model.note(3, 1, 2))  # cuts it, writes two notes there
        resume(reader)

        assert wait(reader) == 0 and out.read_text() == "7"  # 5 + the two after the cut; never a half

    def test_a_reader_never_reads_past_the_last_line_it_settled_on(self, tmp_path):
        """A torn tail when the reader took the size: the next append cuts it and writes a command of several
        lines there, from where the torn line began. The reader reads only up to the last complete line it saw
        (the torn tail is longer than the last block it read to find that line, so it must read again there)."""
        path = crash_at(tmp_path, "append.mid_write", parts=1, pad=70_000, cut=70_000)
        out = tmp_path / "seen"
        reader = fork(read_and_report, path, out, env={PAUSE_ENV: "read.settled"})
        wait_stopped(reader)
        two_lines = 2 * first_line_bytes(tmp_path, 3, 0) + 10
        writer = fork(append_and_die, path, tmp_path / "report-2", 3, 0,
                      env={PAUSE_ENV: "append.mid_write", CRASH_BYTES_ENV: str(two_lines)})
        wait_stopped(writer)  # the torn tail cut, the new command's first two lines written where it was

        resume(reader)
        assert wait(reader) == 0
        resume(writer)
        assert wait(writer) == 0

        assert out.read_text() == "5"

    def test_a_reader_never_waits_for_a_writer_and_never_sees_its_part(self, tmp_path):
        path = acknowledged_log(tmp_path)
        cut = first_line_bytes(tmp_path, 3, 100) + 10
        writer = fork(append_and_die, path, tmp_path / "report-1", 3, 100,
                      env={PAUSE_ENV: "append.mid_write", CRASH_BYTES_ENV: str(cut)})
        wait_stopped(writer)

        during = model.open_log(path).replay(model.PROJECTION).state.notes
        resume(writer)
        assert wait(writer) == 0
        after = model.open_log(path).replay(model.PROJECTION).state.notes

        assert (during, after) == (5, 8)
