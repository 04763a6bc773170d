"""An EventLog keeps the state its last append reached, and trusts it only while the file is as it left it."""

from __future__ import annotations

import os
import time

import pytest

from batchlog.engine import EventLog, Projection
from batchlog.engine.errors import LogDamaged
from tests.sample_domain import REGISTRY, Count, CountingFold, NoteAdded, count


@pytest.fixture(autouse=True)
def _pinned(monkeypatch):
    monkeypatch.setenv("BATCHLOG_CLOCK", "2026-12-02T16:00:00Z")


@pytest.fixture
def fold():
    return CountingFold(count)


@pytest.fixture
def projection(fold):
    return Projection("sample.count", Count(), fold)


def _add(log: EventLog, projection: Projection, *texts: str):
    return log.append(projection, lambda state: [NoteAdded(text) for text in texts])


def _fresh_count(path) -> int:
    return EventLog(path, REGISTRY).replay(Projection("sample.count", Count(), count)).state.notes


def _rewrite_in_place(path, old: bytes, new: bytes) -> None:
    """Change bytes of the log without changing its size or its inode."""
    assert len(old) == len(new)
    data = path.read_bytes()
    assert data.count(old) == 1
    with open(path, "r+b") as fh:
        fh.seek(data.index(old))
        fh.write(new)


def test_appends_of_one_object_fold_only_their_own_events(tmp_path, fold, projection):
    path = tmp_path / "events.jsonl"
    EventLog(path, REGISTRY).append(projection, lambda state: [NoteAdded(f"n{i}") for i in range(50)])
    log = EventLog(path, REGISTRY)
    _add(log, projection, "first")
    fold.calls = 0

    for i in range(5):
        appended = _add(log, projection, f"more {i}")

    assert fold.calls == 5  # the new events only: the log was not read again
    assert appended.state == Count(56) == Count(_fresh_count(path))


def test_an_append_by_another_writer_in_between_is_read(tmp_path, projection):
    path = tmp_path / "events.jsonl"
    mine, theirs = EventLog(path, REGISTRY), EventLog(path, REGISTRY)
    _add(mine, projection, "a")
    _add(theirs, projection, "b", "c")

    appended = _add(mine, projection, "d")

    assert appended.before == Count(3)
    assert [e.seq for e in appended.events] == [4]
    assert appended.state == Count(_fresh_count(path))


def test_a_last_line_changed_in_place_is_refused_not_acted_on(tmp_path, fold, projection):
    """No later line's `prev` vouches for the last line: the append checks its id is still its own hash."""
    path = tmp_path / "events.jsonl"
    log = EventLog(path, REGISTRY)
    _add(log, projection, "one", "two")
    _add(log, projection, "three")
    _rewrite_in_place(path, b'"text":"three"', b'"text":"thre3"')
    before = path.read_bytes()

    with pytest.raises(LogDamaged, match=r"line 3 \(seq 3\), the last: id is not the hash of the line"):
        _add(log, projection, "four")
    assert path.read_bytes() == before


def test_a_middle_line_damaged_in_place_is_seen_by_the_next_append(tmp_path, projection):
    path = tmp_path / "events.jsonl"
    log = EventLog(path, REGISTRY)
    _add(log, projection, "one", "two", "three")
    before = path.read_bytes()
    time.sleep(0.05)  # past the file system's timestamp tick, as any later edit by hand is

    _rewrite_in_place(path, b'"text":"two"', b'"text":"tw0"')

    with pytest.raises(LogDamaged):
        _add(log, projection, "four")
    assert len(path.read_bytes()) == len(before)


def test_a_log_replaced_by_another_file_is_read_again(tmp_path, projection):
    path = tmp_path / "events.jsonl"
    other = tmp_path / "other.jsonl"
    log = EventLog(path, REGISTRY)
    _add(log, projection, "one")
    _add(EventLog(other, REGISTRY), projection, "uno", "dos", "tres")
    os.replace(other, path)

    appended = _add(log, projection, "four")

    assert appended.before == Count(3)
    assert appended.state == Count(_fresh_count(path)) == Count(4)


def test_a_torn_tail_written_after_the_append_is_cut(tmp_path, projection):
    path = tmp_path / "events.jsonl"
    log = EventLog(path, REGISTRY)
    _add(log, projection, "one")
    with open(path, "ab") as fh:
        fh.write(b'{"seq":2,"ty')

    appended = _add(log, projection, "two")

    assert [e.seq for e in appended.events] == [2]
    assert _fresh_count(path) == 2
    assert path.read_bytes().endswith(b"}\n")


def test_a_refused_decision_leaves_the_kept_state_right(tmp_path, fold, projection):
    path = tmp_path / "events.jsonl"
    log = EventLog(path, REGISTRY)
    _add(log, projection, "one")

    def refuse(state):
        raise ValueError("no")

    with pytest.raises(ValueError):
        log.append(projection, refuse)
    fold.calls = 0
    appended = _add(log, projection, "two")

    assert fold.calls == 1
    assert appended.state == Count(2) == Count(_fresh_count(path))


def test_another_projection_replays(tmp_path, projection):
    path = tmp_path / "events.jsonl"
    log = EventLog(path, REGISTRY)
    _add(log, projection, "one", "two")
    other_fold = CountingFold(count)

    appended = _add(log, Projection("sample.count", Count(), other_fold), "three")

    assert other_fold.calls == 3
    assert appended.state == Count(3)
