"""Following a log (engine/follow.py): the state once, then each new event folded onto it as it is appended, on
the file store and on PostgreSQL. Every wait here is the follower's own: an append is made first, then the next
step is asked for, which the recorder's signal (inotify, a poll, NOTIFY) has already announced."""

from __future__ import annotations

import os
from contextlib import closing
from pathlib import Path

import pytest

from batchlog.engine.address import open_log, parse_address, recorder_for
from batchlog.engine.crash_hook import CRASH_BYTES_ENV, CRASH_ENV
from batchlog.engine.errors import LogDamaged, NotALog
from batchlog.engine.follow import follow
from batchlog.engine.log import EventLog
from batchlog.engine.recorders import file_follow
from batchlog.engine.recorders.postgresql import notify_channel
from tests.reliability.workers import fork, wait
from tests.sample_domain import COUNT, NOTES, REGISTRY, Count, NoteAdded
from tests.stores import store_for

FOLLOWED = ("file", "postgresql")
DEADLINE_S = 60  # a step expected from an append comes at once; after this long a tick (no events) fails the test


def followed(address, projection=NOTES, **options):
    """The steps of the log at `address`: a step that never comes is a tick after DEADLINE_S, never a hang."""
    return closing(follow(open_log(address, REGISTRY), projection, **{"tick_s": DEADLINE_S, **options}))


@pytest.fixture(params=FOLLOWED)
def store(request, tmp_path, log_name):
    url = request.getfixturevalue("postgres_url") if request.param == "postgresql" else None
    return store_for(request.param, log_name, tmp_path, url)


def add(address: str, *texts: str) -> None:
    """One command appending a note per text (all in one write)."""
    EventLog(recorder_for(address), REGISTRY).append(NOTES, lambda state: [NoteAdded(text) for text in texts])


def snapshots_of(store) -> dict[str, bytes]:
    """The snapshots kept of the store's log, by name."""
    if store.kind == "file":
        folder = Path(store.address).with_name("events.jsonl.snap")
        return {str(path): path.read_bytes() for path in folder.rglob("*") if path.is_file()}
    recorder = recorder_for(store.address)
    return {f"{name} {key}": recorder.load_snapshot(name, key) for name, key in recorder.snapshot_names()}


def texts(step) -> list[str]:
    return [event.data.text for event in step.events]


class TestFollow:
    def test_the_first_step_is_the_state_as_found_then_each_append_is_folded_on(self, store):
        add(store.address, "a", "b")

        with followed(store.address) as steps:
            first = next(steps)
            add(store.address, "c")
            second = next(steps)
            add(store.address, "d", "e")
            third = next(steps)

        assert (first.events, [n.text for n in first.state]) == ((), ["a", "b"])
        assert texts(second) == ["c"] and [n.text for n in second.state] == ["a", "b", "c"]
        assert texts(third) == ["d", "e"] and third.position.seq == 5

    def test_each_gives_one_step_per_event_with_the_state_just_after_it(self, store):
        add(store.address, "a")

        with followed(store.address, each=True) as steps:
            next(steps)
            add(store.address, "b", "c")
            after_b, after_c = next(steps), next(steps)

        assert (texts(after_b), len(after_b.state)) == (["b"], 2)
        assert (texts(after_c), len(after_c.state)) == (["c"], 3)

    def test_recent_carries_the_last_events_of_the_first_fold(self, store):
        add(store.address, "a", "b", "c")

        with followed(store.address, recent=2) as steps:
            first = next(steps)

        assert texts(first) == ["b", "c"] and len(first.state) == 3

    def test_a_tick_is_a_step_without_events_when_nothing_was_appended(self, store):
        add(store.address, "a")

        with followed(store.address, tick_s=0) as steps:
            first, tick = next(steps), next(steps)

        assert tick.events == () and tick.state is first.state

    def test_a_damaged_line_ends_the_following_with_the_views_refusal(self, store):
        add(store.address, "a")

        with followed(store.address) as steps:
            next(steps)
            store.add_line(b'{"seq":2,"not":"an event"}')
            if store.kind == "postgresql":  # a line written with SQL notifies no one: batchlog's appends do
                store._sql(f"NOTIFY {notify_channel(parse_address(store.address).name)}", ())
            with pytest.raises(LogDamaged, match="cannot be trusted: line 2"):
                next(steps)

    def test_a_log_that_is_not_there_cannot_be_followed(self, store):
        with pytest.raises(NotALog, match="holds no log yet"):
            next(follow(open_log(store.address, REGISTRY), NOTES))


class TestReadsOnlyWhatWasAppended:
    def test_every_read_after_the_first_starts_where_the_last_one_ended(self, tmp_path, monkeypatch):
        address = str(tmp_path / "events.jsonl")
        add(address, *"abc")
        starts = []
        lines = file_follow.HeldFile.lines
        monkeypatch.setattr(file_follow.HeldFile, "lines",
                            lambda self, start, limit: starts.append(start.offset) or lines(self, start, limit))

        with followed(address) as steps:
            first = next(steps)
            add(address, "d")
            second = next(steps)
            add(address, "e")
            next(steps)

        assert starts == [0, first.position.offset, second.position.offset]

    def test_a_snapshot_is_read_to_start_and_never_written(self, store):
        add(store.address, *(f"n{i}" for i in range(250)))
        open_log(store.address, REGISTRY).replay(COUNT)  # a view writes the snapshot
        add(store.address, *(f"m{i}" for i in range(250)))  # a view would write a new one after these
        before = snapshots_of(store)

        with followed(store.address, COUNT) as steps:
            first = next(steps)
            add(store.address, *(f"k{i}" for i in range(250)))
            second = next(steps)

        assert (first.state, second.state) == (Count(500), Count(750))
        assert snapshots_of(store) == before and before
        open_log(store.address, REGISTRY).replay(COUNT)
        assert snapshots_of(store) != before  # where a view writes one

    def test_without_a_snapshot_none_is_written(self, tmp_path):
        address = tmp_path / "events.jsonl"
        add(str(address), *(f"n{i}" for i in range(250)))

        with followed(address, COUNT) as steps:
            next(steps)
            add(str(address), "x")
            next(steps)

        assert not (tmp_path / "events.jsonl.snap").exists()


class TestUnacknowledged:
    """What was never acknowledged is shown as the views show it: no event, one note."""

    def test_a_torn_tail_is_a_note_and_no_event_until_the_next_append_cuts_it(self, tmp_path):
        address = str(tmp_path / "events.jsonl")
        add(address, "a")

        with followed(address) as steps:
            next(steps)
            with open(address, "ab") as fh:
                fh.write(b'{"seq":2,"type":"sample.no')
            torn = next(steps)
            add(address, "b")
            after = next(steps)

        assert torn.events == () and "never finished" in torn.note
        assert texts(after) == ["b"] and after.note is None

    def test_an_unfinished_command_gives_no_event_and_the_next_append_cuts_it(self, tmp_path):
        address = str(tmp_path / "events.jsonl")
        add(address, "a")
        probe = tmp_path / "probe" / "events.jsonl"  # the same command elsewhere: how long its first line is
        add(str(probe), "a")
        add(str(probe), "b" * 100, "c")
        first_line = len(probe.read_bytes().splitlines(keepends=True)[1])

        with followed(address) as steps:
            next(steps)
            # A command of two events killed with its first line whole on disk and its second cut short.
            killed = fork(add, address, "b" * 100, "c", env={CRASH_ENV: "append.mid_write",
                                                               CRASH_BYTES_ENV: str(first_line + 20)})
            assert wait(killed) == -9
            unfinished = next(steps)
            add(address, "d")
            after = next(steps)

        assert unfinished.events == () and "never finished" in unfinished.note
        assert texts(after) == ["d"] and after.note is None


class TestFileWaits:
    def test_inotify_is_used_where_the_system_has_it(self, tmp_path):
        address = tmp_path / "events.jsonl"
        add(str(address), "a")
        tail = file_follow.FileTail(recorder_for(address))

        try:
            assert (tail._inotify is not None) == os.path.exists("/proc/self/fd")
        finally:
            tail.close()

    def test_without_inotify_the_file_is_polled(self, tmp_path, monkeypatch):
        monkeypatch.setattr(file_follow, "_watch", lambda fd: None)
        address = str(tmp_path / "events.jsonl")
        add(address, "a")

        with followed(address) as steps:
            next(steps)
            add(address, "b")
            second = next(steps)

        assert texts(second) == ["b"]

    def test_a_file_removed_while_followed_ends_the_following(self, tmp_path):
        address = tmp_path / "events.jsonl"
        add(str(address), "a")

        with followed(address) as steps:
            next(steps)
            address.unlink()
            with pytest.raises(NotALog, match="was removed, or replaced, while it was followed"):
                next(steps)

    def test_the_file_followed_is_read_to_its_end_after_its_path_is_gone(self, tmp_path):
        """A quick batch's run folder goes after its summary: what was appended before is still read."""
        address = tmp_path / "events.jsonl"
        add(str(address), "a")

        with followed(address) as steps:
            next(steps)
            add(str(address), "b")
            address.unlink()
            second = next(steps)

        assert texts(second) == ["b"]

    def test_a_memory_log_cannot_be_followed(self):
        add("memory:followed", "a")

        with pytest.raises(NotALog, match="cannot be followed"):
            next(follow(open_log("memory:followed", REGISTRY), NOTES))


class TestNotify:
    def test_an_append_notifies_the_logs_channel_when_it_commits(self, postgres_url, log_name):
        import select

        import psycopg2

        address = f"{postgres_url}{'&' if '?' in postgres_url else '?'}log={log_name}"
        listener = psycopg2.connect(postgres_url)
        listener.autocommit = True
        with listener.cursor() as cur:
            cur.execute(f"LISTEN {notify_channel(log_name)}")

        add(address, "a", "b")

        assert select.select([listener], [], [], 60)[0]
        listener.poll()
        assert [(n.channel, n.payload) for n in listener.notifies] == [(notify_channel(log_name), "2")]
        listener.close()

    def test_a_channel_is_a_plain_identifier_whatever_the_log_name(self):
        channels = {notify_channel(name) for name in ("a", "A", "x" * 200, "my-tuning.v2")}

        assert len(channels) == 4
        assert all(len(c) <= 63 and c.replace("_", "").isalnum() and c == c.lower() for c in channels)
