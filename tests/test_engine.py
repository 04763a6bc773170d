"""The engine's contract: append, replay, torn tails, corruption, versions, the clock."""

from __future__ import annotations

import hashlib
import os

import attrs
import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from batchlog.engine import EventLog, EventType, Projection, Registry
from batchlog.engine.chain import GENESIS, line_hash
from batchlog.engine.clock import CLOCK_ENV, now
from batchlog.engine.errors import ClockError, LogDamaged, NewerVersion, NotALog, WriteFailed
from batchlog.engine.lines import LineReader
from batchlog.engine.recorders.file_pending import parse
from batchlog.engine.registry import Raw
from batchlog.engine.verify import verify
from batchlog.projections.errors import Refused
from tests.marker_stores import STORES, leave_unfinished, marker_value, use_store
from tests.sample_domain import NOTES, REGISTRY, NoteAdded, NotesCleared


def append(log: EventLog, *events) -> tuple:
    return log.append(NOTES, lambda state: list(events)).events


@pytest.fixture
def log(tmp_path) -> EventLog:
    return EventLog(tmp_path / "events.jsonl", REGISTRY)


texts = st.text(max_size=40)
notes = st.builds(NoteAdded, text=texts, tags=st.lists(texts, max_size=3), weight=st.integers(-(2**53), 2**53))


class TestEnvelope:
    def test_a_line_holds_the_seven_fields_in_order(self, log, pinned_clock):
        append(log, NoteAdded("hi"))

        line = log.path.read_bytes()
        assert line.endswith(b"\n") and line.count(b"\n") == 1
        obj = orjson.loads(line)
        assert list(obj) == ["seq", "type", "v", "at", "id", "data", "prev"]
        assert obj["seq"] == 1 and obj["type"] == "sample.note_added" and obj["v"] == 1
        assert obj["at"] == pinned_clock
        assert obj["prev"] == GENESIS == hashlib.sha256(b"").hexdigest()
        assert obj["data"] == {"text": "hi", "tags": [], "weight": 0}

    def test_each_prev_is_the_hash_of_the_line_before(self, log):
        append(log, NoteAdded("a"), NoteAdded("b"))
        append(log, NoteAdded("c"))

        lines = log.path.read_bytes().splitlines()
        for before, line in zip(lines, lines[1:], strict=False):
            assert orjson.loads(line)["prev"] == line_hash(before)

    def test_a_pinned_clock_writes_the_same_bytes_every_time(self, tmp_path, pinned_clock):
        for name in ("a", "b"):
            append(EventLog(tmp_path / name / "events.jsonl", REGISTRY), NoteAdded("x"), NotesCleared("y"))

        assert (tmp_path / "a/events.jsonl").read_bytes() == (tmp_path / "b/events.jsonl").read_bytes()


class TestAppend:
    def test_events_of_one_command_get_consecutive_seqs(self, log):
        first = append(log, NoteAdded("a"), NoteAdded("b"))
        second = append(log, NoteAdded("c"))

        assert [e.seq for e in first + second] == [1, 2, 3]

    def test_a_decision_sees_the_state_it_is_appended_to(self, log):
        append(log, NoteAdded("a"))

        seen = []
        log.append(NOTES, lambda state: seen.append(state) or [])

        assert [n.text for n in seen[0]] == ["a"]

    def test_an_empty_decision_writes_nothing(self, log):
        append(log, NoteAdded("a"))
        before = log.path.read_bytes()

        result = log.append(NOTES, lambda state: [])

        assert result.events == () and log.path.read_bytes() == before

    def test_a_refusal_writes_nothing(self, log):
        append(log, NoteAdded("a"))
        before = log.path.read_bytes()

        def refuse(state):
            raise Refused("no")

        with pytest.raises(Refused):
            log.append(NOTES, refuse)
        assert log.path.read_bytes() == before

    def test_append_returns_the_state_after_and_before(self, log):
        append(log, NoteAdded("a"))

        result = log.append(NOTES, lambda state: [NoteAdded("b")])

        assert [n.text for n in result.before] == ["a"]
        assert [n.text for n in result.state] == ["a", "b"]

    def test_the_log_folder_is_created(self, tmp_path):
        log = EventLog(tmp_path / "deep" / "er" / "events.jsonl", REGISTRY)

        append(log, NoteAdded("a"))

        assert log.exists()


class TestPathsThatAreNoLog:
    def test_a_folder_is_refused_for_reading_and_appending(self, tmp_path):
        folder = tmp_path / "events.jsonl"
        folder.mkdir()
        log = EventLog(folder, REGISTRY)

        for action in (lambda: log.replay(NOTES), lambda: append(log, NoteAdded("x"))):
            with pytest.raises(NotALog, match="is a folder, not a log file"):
                action()
        assert list(folder.iterdir()) == []

    def test_a_symlink_loop_is_refused_and_nothing_is_written(self, tmp_path):
        path = tmp_path / "events.jsonl"
        path.symlink_to(path)
        log = EventLog(path, REGISTRY)

        for action in (lambda: log.replay(NOTES), lambda: append(log, NoteAdded("x"))):
            with pytest.raises(NotALog, match="cannot be read"):
                action()
        assert sorted(p.name for p in tmp_path.iterdir()) == ["events.jsonl"]

    def test_a_log_below_a_file_is_no_log_yet_and_cannot_be_created(self, tmp_path):
        (tmp_path / "file").write_text("")
        log = EventLog(tmp_path / "file" / "events.jsonl", REGISTRY)

        assert log.replay(NOTES).state == ()
        with pytest.raises(WriteFailed):
            append(log, NoteAdded("x"))


class TestRoundTrip:
    @settings(max_examples=60)
    @given(batches=st.lists(st.lists(notes, min_size=1, max_size=4), min_size=1, max_size=6))
    def test_what_is_appended_is_what_is_replayed(self, tmp_path_factory, batches):
        log = EventLog(tmp_path_factory.mktemp("rt") / "events.jsonl", REGISTRY)
        written = []
        for batch in batches:
            written.extend(append(log, *batch))

        read = list(log.scan())

        assert read == written
        assert [e.data for e in read] == [n for batch in batches for n in batch]
        assert verify(log.path, REGISTRY).trusted


class TestReplay:
    def test_a_missing_log_replays_to_the_initial_state(self, log):
        assert log.replay(NOTES).state == ()

    def test_at_seq_replays_up_to_and_including_that_event(self, log):
        append(log, NoteAdded("a"), NoteAdded("b"), NoteAdded("c"))

        assert [n.text for n in log.replay(NOTES, at=2).state] == ["a", "b"]
        assert log.replay(NOTES, at=2).position.seq == 2

    def test_at_seq_equals_the_log_cut_after_that_event(self, log, tmp_path):
        append(log, NoteAdded("a"), NotesCleared("r"), NoteAdded("b"), NoteAdded("c"))
        lines = log.path.read_bytes().splitlines(keepends=True)
        for seq in range(1, len(lines) + 1):
            cut = EventLog(tmp_path / f"cut{seq}.jsonl", REGISTRY)
            cut.path.write_bytes(b"".join(lines[:seq]))

            assert log.replay(NOTES, at=seq).state == cut.replay(NOTES).state

    def test_replay_streams_in_blocks(self, log):
        append(log, *[NoteAdded("x" * 50) for _ in range(200)])

        reader = LineReader(log.path, block_bytes=1024)
        blocks = list(reader.blocks())

        assert len(blocks) > 10 and sum(len(b) for b in blocks) == 200
        assert max(sum(len(line) for line in b) for b in blocks) < 2048


class TestTornTail:
    def test_every_cut_inside_the_last_line_replays_the_acknowledged_events(self, log):
        append(log, NoteAdded("a"), NoteAdded("b"))
        acknowledged = log.path.read_bytes()
        append(log, NoteAdded("torn"))
        full = log.path.read_bytes()

        for cut in range(len(acknowledged), len(full)):
            log.path.write_bytes(full[:cut])

            replayed = log.replay(NOTES)

            assert [n.text for n in replayed.state] == ["a", "b"]
            assert replayed.bad == 0
            assert replayed.torn == cut - len(acknowledged)

    def test_the_next_append_truncates_the_torn_tail(self, log):
        append(log, NoteAdded("a"))
        acknowledged = log.path.read_bytes()
        append(log, NoteAdded("torn"))
        full = log.path.read_bytes()

        for cut in range(len(acknowledged) + 1, len(full)):
            log.path.write_bytes(full[:cut])

            append(log, NoteAdded("next"))

            assert log.path.read_bytes().startswith(acknowledged)
            assert [n.text for n in log.replay(NOTES).state] == ["a", "next"]
            report = verify(log.path, REGISTRY)
            assert report.trusted and report.torn_bytes == 0

    def test_verify_reports_a_torn_tail_but_trusts_the_log(self, log):
        append(log, NoteAdded("a"))
        with open(log.path, "ab") as fh:
            fh.write(b'{"seq":2,"ty')

        report = verify(log.path, REGISTRY)

        assert report.trusted and report.torn_bytes == 12 and report.events == 1


def _lines(log: EventLog) -> list[bytes]:
    return log.path.read_bytes().splitlines(keepends=True)


@pytest.fixture
def five(log) -> EventLog:
    append(log, *[NoteAdded(f"note {n}", weight=n) for n in range(1, 6)])
    return log


class TestCorruption:
    def codes(self, log):
        return [(p.line, p.code) for p in verify(log.path, REGISTRY).problems]

    def test_a_flipped_byte_is_reported_at_its_line(self, five):
        lines = _lines(five)
        lines[2] = lines[2].replace(b"note 3", b"note 8")
        five.path.write_bytes(b"".join(lines))

        problems = verify(five.path, REGISTRY).problems

        assert problems[0].line == 3 and problems[0].code == "id_mismatch"

    def test_a_byte_that_breaks_the_json_is_reported_at_its_line(self, five):
        lines = _lines(five)
        lines[1] = lines[1][:5] + b"\x00" + lines[1][6:]
        five.path.write_bytes(b"".join(lines))

        assert self.codes(five)[0] == (2, "bad_json")

    def test_a_deleted_line_is_reported_at_the_line_after_the_gap(self, five):
        lines = _lines(five)
        del lines[2]
        five.path.write_bytes(b"".join(lines))

        assert self.codes(five)[0] == (3, "chain_broken")

    def test_two_swapped_lines_are_reported_at_the_first_of_them(self, five):
        lines = _lines(five)
        lines[1], lines[2] = lines[2], lines[1]
        five.path.write_bytes(b"".join(lines))

        assert self.codes(five)[0] == (2, "chain_broken")

    def test_an_edited_value_in_a_middle_line_is_reported_at_its_line(self, five):
        lines = _lines(five)
        obj = orjson.loads(lines[2])
        obj["data"]["weight"] = 99
        lines[2] = orjson.dumps(obj) + b"\n"
        five.path.write_bytes(b"".join(lines))

        assert self.codes(five)[0] == (3, "id_mismatch")

    def test_the_scan_skips_and_counts_a_bad_middle_line(self, five):
        lines = _lines(five)
        lines[2] = b"not json\n"
        five.path.write_bytes(b"".join(lines))

        scan = five.scan()
        weights = [event.data.weight for event in scan]

        assert scan.bad == 1 and scan.first_problem.line == 3
        assert weights == [1, 2, 4, 5]

    def test_a_view_refuses_a_bad_middle_line_naming_it(self, five):
        """docs/ARCHITECTURE.md: a damaged line in the middle makes every view exit 3, as appends do."""
        lines = _lines(five)
        lines[2] = b"not json\n"
        five.path.write_bytes(b"".join(lines))

        with pytest.raises(LogDamaged, match=r"line 3 is not JSON.*batchlog log verify .*batchlog log salvage") as raised:
            five.replay(NOTES)
        assert raised.value.fields["line"] == 3

    def test_a_damaged_log_is_never_appended_to(self, five):
        lines = _lines(five)
        lines[2] = b"not json\n"
        five.path.write_bytes(b"".join(lines))
        before = five.path.read_bytes()

        with pytest.raises(LogDamaged):
            append(five, NoteAdded("x"))
        assert five.path.read_bytes() == before


@attrs.frozen
class Renamed:
    """v2 of sample.note_added: `text` became `body`, and `weight` became a string."""

    body: str
    tags: tuple[str, ...] = attrs.field(default=(), converter=tuple)
    weight: str = "0"


def upcast_note_v1_v2(data: dict) -> dict:
    return {"body": data["text"], "tags": data.get("tags", []), "weight": str(data.get("weight", 0))}


class TestVersions:
    def test_a_v1_event_written_by_an_old_registry_replays_as_v2(self, log):
        append(log, NoteAdded("old", weight=3))
        new_registry = Registry([EventType("sample.note_added", 2, Renamed, upcasters=(upcast_note_v1_v2,))])

        events = list(EventLog(log.path, new_registry).scan())

        assert events[0].v == 2 and events[0].data == Renamed("old", (), "3")

    def test_an_event_type_needs_one_upcaster_per_older_version(self):
        with pytest.raises(ValueError):
            EventType("sample.x", 3, Renamed, upcasters=(upcast_note_v1_v2,))

    def test_a_log_with_a_newer_version_is_read_with_a_warning(self, log):
        v2 = Registry([EventType("sample.note_added", 2, Renamed, upcasters=(upcast_note_v1_v2,))])
        EventLog(log.path, v2).append(Projection("x", (), lambda s, e: s), lambda s: [Renamed("new")])
        append_old = Registry([EventType("sample.note_added", 1, NoteAdded)])

        replayed = EventLog(log.path, append_old).replay(NOTES)

        assert replayed.state == () and len(replayed.newer) == 1 and replayed.bad == 0

    @pytest.mark.parametrize("kind", ["unknown type", "newer version"])
    def test_appending_to_a_log_with_newer_events_is_refused_and_changes_nothing(self, log, kind):
        append(log, NoteAdded("a"))
        if kind == "unknown type":
            other = Registry([EventType("future.thing_happened", 1)])
            EventLog(log.path, REGISTRY.merged(other)).append(
                Projection("x", (), lambda s, e: s), lambda s: [Raw("future.thing_happened", {"x": 1})])
        else:
            v2 = Registry([EventType("sample.note_added", 2, Renamed, upcasters=(upcast_note_v1_v2,))])
            EventLog(log.path, v2).append(Projection("x", (), lambda s, e: s), lambda s: [Renamed("new")])
        before = log.path.read_bytes()

        with pytest.raises(NewerVersion):
            append(log, NoteAdded("b"))
        assert log.path.read_bytes() == before


class TestClock:
    def test_the_pinned_clock_is_used(self, monkeypatch):
        monkeypatch.setenv(CLOCK_ENV, "2026-01-02T03:04:05.678+00:00")

        assert now() == "2026-01-02T03:04:05.678Z"

    def test_a_bad_pinned_clock_is_refused_with_the_fix(self, monkeypatch):
        monkeypatch.setenv(CLOCK_ENV, "yesterday")

        with pytest.raises(ClockError, match="ISO-8601"):
            now()

    def test_the_real_clock_is_utc_with_milliseconds(self, monkeypatch):
        monkeypatch.delenv(CLOCK_ENV, raising=False)

        at = now()

        assert len(at) == 24 and at.endswith("Z") and at[10] == "T"


class TestLayering:
    def test_importing_the_engine_loads_no_projection_or_cli(self):
        import subprocess
        import sys

        code = ("import pkgutil, importlib, sys, batchlog.engine\n"
                "for m in pkgutil.walk_packages(batchlog.engine.__path__, 'batchlog.engine.'):\n"
                "    importlib.import_module(m.name)\n"
                "print(sorted(m for m in sys.modules if m.split('.')[:2] in (['batchlog', 'projections'], "
                "['batchlog', 'cli'])))")
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout

        assert out.strip() == "[]"

    def test_projections_are_pure_and_import_no_cli(self):
        from pathlib import Path

        paths = list((Path(__file__).resolve().parent.parent / "projections").rglob("*.py"))
        assert paths

        for path in paths:
            text = path.read_text()
            for forbidden in ("import os", "from batchlog.cli", "import batchlog.cli", "open(", "print(", "environ", "import time"):
                assert forbidden not in text, f"{path}: {forbidden}"

    def test_the_engine_names_no_event_type_of_either_loop(self):
        from pathlib import Path

        paths = list((Path(__file__).resolve().parent.parent / "engine").glob("*.py"))
        assert paths

        for path in paths:
            text = path.read_text()
            assert "tune." not in text and "qb." not in text and "quick_batch" not in text, path


def test_the_log_itself_is_locked_and_no_lock_file_is_left(log):
    """The lock is the kernel's (flock) on the log's own file: no `.lock` file, and nothing left beside the log."""
    append(log, NoteAdded("a"))
    append(log, NoteAdded("b"))

    assert sorted(p.name for p in log.path.parent.iterdir()) == ["events.jsonl"]
    assert len(log.replay(NOTES).state) == 2


@pytest.fixture(params=STORES)
def store(request, monkeypatch, tmp_path) -> str:
    """Each place a file log keeps its unfinished-command marker (tests/marker_stores.py)."""
    use_store(request.param, monkeypatch, tmp_path)
    return request.param


class TestUnfinishedCommand:
    def test_readers_never_see_part_of_a_command_being_written(self, log, store):
        append(log, NoteAdded("a"))
        acknowledged = log.path.stat().st_size
        append(log, NoteAdded("b"), NoteAdded("c"), NoteAdded("d"))
        # As a writer killed part way through the three-line command leaves it: two of its lines, and the marker.
        first_two = sum(map(len, log.path.read_bytes()[acknowledged:].splitlines(keepends=True)[:2]))
        leave_unfinished(log.path, acknowledged, first_two)

        seen = [n.text for n in log.replay(NOTES).state]
        appended = append(log, NoteAdded("e"))

        assert seen == ["a"]
        assert [n.text for n in log.replay(NOTES).state] == ["a", "e"] and appended[0].seq == 2
        assert verify(log.path, REGISTRY).trusted

    @pytest.mark.parametrize("left", ["zeros", "half a page", "another file"])
    def test_a_command_whose_bytes_do_not_hash_as_marked_is_unfinished_though_its_size_is_there(self, log, store,
                                                                                             left):
        """A power cut may keep a command's new size but not its last page (issue 23, item 2): the size proves
        nothing; the bytes must hash to what the marker recorded."""
        append(log, NoteAdded("a"))
        start = log.path.stat().st_size
        append(log, NoteAdded("b" * 5000), NoteAdded("c" * 5000))
        command = log.path.read_bytes()[start:]
        page = (start + len(command) - 1) // 4096 * 4096 - start  # where the page holding its last line begins
        torn = {"zeros": command[:page] + bytes(len(command) - page),
                "half a page": command[:page + 2048] + bytes(len(command) - page - 2048),
                "another file": (b'{"seq":2}' * len(command))[: len(command) - 1] + b"\n"}[left]
        leave_unfinished(log.path, start, replace=torn)

        seen = [n.text for n in log.replay(NOTES).state]
        appended = append(log, NoteAdded("d"))

        assert seen == ["a"]
        assert appended[0].seq == 2 and [n.text for n in log.replay(NOTES).state] == ["a", "d"]
        assert verify(log.path, REGISTRY).trusted

    def test_a_marker_of_a_finished_command_changes_nothing(self, log, store):
        append(log, NoteAdded("a"))
        start = log.path.stat().st_size
        append(log, NoteAdded("b"), NoteAdded("c"))
        leave_unfinished(log.path, start)  # `pending`, as a marker whose `done` a power cut lost

        assert [n.text for n in log.replay(NOTES).state] == ["a", "b", "c"]
        append(log, NoteAdded("d"))
        assert [n.text for n in log.replay(NOTES).state] == ["a", "b", "c", "d"]
        assert parse(marker_value(log.path)).state == "done"

    def test_a_command_of_several_events_leaves_its_marker_done(self, log, store):
        append(log, NoteAdded("a"))
        start = log.path.stat().st_size
        append(log, NoteAdded("b"), NoteAdded("c"))

        marker = parse(marker_value(log.path))
        assert (marker.state, marker.end, marker.length) == ("done", start, log.path.stat().st_size - start)

    @pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="names open files through /proc")
    def test_the_marker_is_durable_before_the_command_is_written(self, log, store, monkeypatch):
        """So that after a power cut in the middle of the write, the marker is there to cut the part away."""
        append(log, NoteAdded("a"))
        calls: list[tuple[str, str]] = []
        real_fsync, real_write, real_setxattr = os.fsync, os.write, os.setxattr

        def record(name: str, fd: int) -> None:
            target = os.readlink(f"/proc/self/fd/{fd}")
            if target.startswith(str(log.path.parent)):
                calls.append((name, "the log" if target == str(log.path) else "the marker"
                              if target.endswith(".tmp") else target))

        def fsync(fd: int) -> None:
            record("fsync", fd)
            real_fsync(fd)

        def write(fd: int, data: bytes) -> int:
            record("write", fd)
            return real_write(fd, data)

        def setxattr(fd, name, value, *rest):
            record(f"mark {value.split()[1].decode()}", fd)
            return real_setxattr(fd, name, value, *rest)

        monkeypatch.setattr(os, "fsync", fsync)
        monkeypatch.setattr(os, "write", write)
        if store == "attribute":
            monkeypatch.setattr(os, "setxattr", setxattr)
        append(log, NoteAdded("b"), NoteAdded("c"))

        if store == "attribute":
            assert calls == [("mark pending", "the log"), ("fsync", "the log"), ("write", "the log"),
                             ("fsync", "the log"), ("mark done", "the log")]
        else:
            folder = str(log.path.parent)
            assert calls[:5] == [("write", "the marker"), ("fsync", "the marker"), ("fsync", folder),
                                 ("write", "the log"), ("fsync", "the log")]

    def test_the_cut_is_durable_with_the_marker_saying_so_before_anything_is_written(self, log, store,
                                                                                   monkeypatch):
        """Were the old marker to come back after a power cut, it would hide the events appended after the cut."""
        append(log, NoteAdded("a"))
        start = log.path.stat().st_size
        append(log, NoteAdded("b"), NoteAdded("c"))
        leave_unfinished(log.path, start, 20)
        synced: list[bytes | None] = []
        real_fsync = os.fsync

        def fsync(fd: int) -> None:
            real_fsync(fd)
            synced.append(marker_value(log.path))

        monkeypatch.setattr(os, "fsync", fsync)
        log.append(NOTES, lambda state: [])

        assert synced and parse(synced[-1]).state == "cut" and log.path.stat().st_size == start
        assert [n.text for n in log.replay(NOTES).state] == ["a"]
