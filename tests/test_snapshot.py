"""Projection snapshots: a view from a snapshot always equals a full replay, whatever happened to the files."""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
import types
from pathlib import Path

import attrs
import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from batchlog.engine import EngineError, EventLog, EventType, Projection, Registry, open_log
from batchlog.engine.fold_version import code_version
from batchlog.engine.registry import Raw
from batchlog.engine.snapshots.document import SNAPSHOT_EVERY
from batchlog.engine.snapshots.file import Snapshots
from tests.sample_domain import CountingFold

CLOCK = "2026-12-02T16:00:00Z"


@attrs.frozen
class Added:
    key: str
    amount: int


@attrs.frozen
class Noted:
    text: str


def _added_v1_to_v2(data: dict) -> dict:
    return {"key": data["name"], "amount": data.get("amount", 1)}


REGISTRY = Registry([EventType("t.added", 2, Added, upcasters=(_added_v1_to_v2,)), EventType("t.noted", 1, Noted)])
FUTURE = REGISTRY.merged(Registry([EventType("t.future", 1)]))


@attrs.frozen
class Tally:
    totals: dict[str, int] = attrs.field(factory=dict)
    notes: tuple[str, ...] = ()
    events: int = 0
    last_id: str | None = None


def evolve(state: Tally, event) -> Tally:
    match event.data:
        case Added(key=key, amount=amount):
            totals = {**state.totals, key: state.totals.get(key, 0) + amount}
            return attrs.evolve(state, totals=totals, events=state.events + 1, last_id=event.id)
        case Noted(text=text):
            return attrs.evolve(state, notes=(*state.notes, text)[-3:], events=state.events + 1, last_id=event.id)
        case _:
            raise TypeError(f"no fold for {event.data!r}")


def evolve_other(state: Tally, event) -> Tally:
    """Another version of the code: it folds differently under the same projection name."""
    return attrs.evolve(evolve(state, event), events=state.events + 100)


TALLY = Projection("tally", Tally(), evolve, version=code_version(__name__))
OTHER_CODE = Projection("tally", Tally(), evolve_other, version="another version of the code")


@pytest.fixture(autouse=True)
def _pinned(monkeypatch):
    monkeypatch.setenv("BATCHLOG_CLOCK", CLOCK)


def _snapshot_file(path: Path) -> Path:
    from batchlog.engine.snapshots.key import key_id

    return Snapshots.key_folder(path, key_id()) / "tally.json"


def _append(log: EventLog, events: list, projection: Projection = TALLY):
    return log.append(projection, lambda state: events)


def _fill(path: Path, count: int, start: int = 0) -> None:
    plain = EventLog(path, REGISTRY)
    _append(plain, [Added(f"k{i % 7}", i) if i % 3 else Noted(f"note {i}") for i in range(start, start + count)])


# -- the property ------------------------------------------------------------------------------

_events = st.lists(
    st.one_of(
        st.builds(Added, st.sampled_from(["a", "b", "É", "x.y"]), st.integers(-5, 10**12)),
        st.builds(Noted, st.text(max_size=12)),
    ),
    max_size=4,
)
_fraction = st.floats(0, 1)
_operation = st.one_of(
    st.tuples(st.just("append"), _events),
    st.tuples(st.just("append"), _events),
    st.tuples(st.just("append_second"), _events),
    st.tuples(st.just("view"), st.none() | st.integers(0, 40)),
    st.tuples(st.just("view"), st.none()),
    st.tuples(st.just("view_other_code"), st.none()),
    st.tuples(st.just("snapshot_delete"), st.none()),
    st.tuples(st.just("snapshot_garbage"), st.binary(max_size=64)),
    st.tuples(st.just("snapshot_truncate"), _fraction),
    st.tuples(st.just("snapshot_flip"), st.tuples(_fraction, st.integers(1, 255))),
    st.tuples(st.just("snapshot_keep"), st.none()),
    st.tuples(st.just("snapshot_restore_stale"), st.none()),
    st.tuples(st.just("log_truncate"), _fraction),
    st.tuples(st.just("log_flip"), st.tuples(_fraction, st.integers(1, 255))),
    st.tuples(st.just("log_torn_tail"), st.binary(min_size=1, max_size=20)),
    st.tuples(st.just("log_garbage_line"), st.binary(max_size=30)),
    st.tuples(st.just("log_rewrite"), _events),
    st.tuples(st.just("log_future_event"), st.none()),
    st.tuples(st.just("log_delete"), st.none()),
)


def _outcome(log: EventLog, events: list):
    try:
        appended = _append(log, events)
    except EngineError as error:
        return type(error).__name__
    return appended.events, appended.state, appended.before


def _view(log: EventLog, at: int | None = None):
    """A view's answer: the replayed state, or the refusal of a log that cannot be trusted (the same message)."""
    try:
        return log.replay(TALLY, at=at)
    except EngineError as error:
        return type(error).__name__, error.message


def _flip(path: Path, where: tuple[float, int]) -> None:
    data = bytearray(path.read_bytes()) if path.exists() else bytearray()
    if data:
        at = min(int(where[0] * len(data)), len(data) - 1)
        data[at] ^= where[1]
        path.write_bytes(bytes(data))


def _truncate(path: Path, fraction: float) -> None:
    if path.exists():
        data = path.read_bytes()
        path.write_bytes(data[: int(fraction * len(data))])


class TestEveryViewEqualsAFullReplay:
    @settings(max_examples=150)
    @given(seed=_events, operations=st.lists(_operation, max_size=14), every=st.integers(1, 3))
    def test_after_any_appends_views_and_corruptions(self, tmp_path_factory, seed, operations, every):
        folder = tmp_path_factory.mktemp("log")
        path = folder / "events.jsonl"
        snapshot = _snapshot_file(path)
        kept = folder / "kept.json"
        full = EventLog(path, REGISTRY)
        fast = EventLog(path, REGISTRY, snapshots=Snapshots(every=every))
        second = EventLog(path, REGISTRY)  # another long-lived writer: each keeps the state of its last append
        if seed:
            _append(full, seed)
        for name, arg in operations:
            if name in ("append", "append_second"):
                shadow = folder / "shadow.jsonl"
                if path.exists():
                    shutil.copyfile(path, shadow)
                elif shadow.exists():
                    shadow.unlink()
                expected = _outcome(EventLog(shadow, REGISTRY), arg)
                assert _outcome(fast if name == "append" else second, arg) == expected
                assert (path.read_bytes() if path.exists() else None) == (
                    shadow.read_bytes() if shadow.exists() else None)
            elif name == "view":
                assert _view(fast, arg) == _view(full, arg)
            elif name == "view_other_code":
                try:
                    EventLog(path, REGISTRY, snapshots=Snapshots(every=1)).replay(OTHER_CODE)
                except EngineError:
                    pass  # a damaged log: refused, and no snapshot written
            elif name == "snapshot_delete" and snapshot.exists():
                snapshot.unlink()
            elif name == "snapshot_garbage" and snapshot.parent.exists():
                snapshot.write_bytes(arg)
            elif name == "snapshot_truncate":
                _truncate(snapshot, arg)
            elif name == "snapshot_flip":
                _flip(snapshot, arg)
            elif name == "snapshot_keep" and snapshot.exists():
                shutil.copyfile(snapshot, kept)
            elif name == "snapshot_restore_stale" and kept.exists() and snapshot.parent.exists():
                shutil.copyfile(kept, snapshot)
            elif name == "log_truncate":
                _truncate(path, arg)
            elif name == "log_flip":
                _flip(path, arg)
            elif name == "log_torn_tail":
                with open(path, "ab") as fh:
                    fh.write(arg.replace(b"\n", b" "))
            elif name == "log_garbage_line":
                with open(path, "ab") as fh:
                    fh.write(arg.replace(b"\n", b" ") + b"\n")
            elif name == "log_rewrite":
                path.unlink(missing_ok=True)
                _append(full, arg or [Noted("rewritten")])
            elif name == "log_future_event":
                try:
                    EventLog(path, FUTURE).append(Projection("any", None, lambda s, e: s),
                                                  lambda state: [Raw("t.future", {"x": 1})])
                except EngineError:
                    pass
            elif name == "log_delete":
                path.unlink(missing_ok=True)
            assert _view(fast) == _view(full)


# -- units -------------------------------------------------------------------------------------


class TestSnapshotUse:
    def test_a_view_after_a_long_replay_writes_a_snapshot_beside_the_log(self, tmp_path):
        path = tmp_path / "events.jsonl"
        _fill(path, SNAPSHOT_EVERY)

        open_log(path, REGISTRY).replay(TALLY)

        assert _snapshot_file(path).is_file()
        assert [p.name for p in _snapshot_file(path).parent.iterdir()] == ["tally.json"]

    def test_a_view_from_a_snapshot_folds_only_the_tail(self, tmp_path):
        path = tmp_path / "events.jsonl"
        _fill(path, 50)
        EventLog(path, REGISTRY, snapshots=Snapshots(every=10)).replay(TALLY)
        _fill(path, 5, start=50)
        fold = CountingFold(evolve)
        counting = Projection("tally", Tally(), fold, version=TALLY.version)

        replayed = EventLog(path, REGISTRY, snapshots=Snapshots()).replay(counting)

        assert fold.calls == 5
        assert replayed == EventLog(path, REGISTRY).replay(TALLY)

    def test_an_append_keeps_the_snapshot_near_the_end(self, tmp_path):
        path = tmp_path / "events.jsonl"
        log = EventLog(path, REGISTRY, snapshots=Snapshots(every=3))
        for i in range(7):
            _append(log, [Added("a", i)])
        fold = CountingFold(evolve)

        EventLog(path, REGISTRY, snapshots=Snapshots()).replay(
            Projection("tally", Tally(), fold, version=TALLY.version))

        assert fold.calls <= 2

    def test_at_before_the_snapshot_is_a_full_replay(self, tmp_path):
        path = tmp_path / "events.jsonl"
        _fill(path, 30)
        EventLog(path, REGISTRY, snapshots=Snapshots(every=1)).replay(TALLY)
        fold = CountingFold(evolve)
        counting = Projection("tally", Tally(), fold, version=TALLY.version)

        replayed = EventLog(path, REGISTRY, snapshots=Snapshots()).replay(counting, at=12)

        assert fold.calls == 12
        assert replayed == EventLog(path, REGISTRY).replay(TALLY, at=12)

    def test_a_snapshot_of_other_code_is_ignored_and_replaced(self, tmp_path):
        path = tmp_path / "events.jsonl"
        _fill(path, 20)
        EventLog(path, REGISTRY, snapshots=Snapshots(every=1)).replay(OTHER_CODE)

        replayed = EventLog(path, REGISTRY, snapshots=Snapshots(every=1)).replay(TALLY)

        assert replayed == EventLog(path, REGISTRY).replay(TALLY)
        fold = CountingFold(evolve)
        EventLog(path, REGISTRY, snapshots=Snapshots()).replay(Projection("tally", Tally(), fold, version=TALLY.version))
        assert fold.calls == 0

    def test_an_edit_before_the_snapshot_line_means_a_full_replay(self, tmp_path):
        """The snapshot's last line still hashes the same, but a full replay now finds a damaged line: the view
        from the snapshot refuses the log as the full replay does, naming the same line."""
        path = tmp_path / "events.jsonl"
        _fill(path, 20)
        EventLog(path, REGISTRY, snapshots=Snapshots(every=1)).replay(TALLY)
        lines = path.read_bytes().split(b"\n")
        lines[4] = lines[4].replace(b'"amount":4', b'"amount":5')
        path.write_bytes(b"\n".join(lines))

        refused = _view(EventLog(path, REGISTRY, snapshots=Snapshots()))

        assert refused[0] == "LogDamaged" and "line 5 (seq 5): id is not the hash of the line" in refused[1]
        assert refused == _view(EventLog(path, REGISTRY))

    def test_a_projection_without_a_version_is_never_snapshotted(self, tmp_path):
        path = tmp_path / "events.jsonl"
        _fill(path, 20)

        EventLog(path, REGISTRY, snapshots=Snapshots(every=1)).replay(Projection("tally", Tally(), evolve))

        assert not _snapshot_file(path).exists()

    def test_a_state_that_does_not_read_back_equal_is_not_snapshotted(self, tmp_path):
        @attrs.frozen
        class Loose:
            seen: object = ()

        path = tmp_path / "events.jsonl"
        _fill(path, 5)
        loose = Projection("tally", Loose(), lambda s, e: Loose((*s.seen, e.seq)), version="v")

        EventLog(path, REGISTRY, snapshots=Snapshots(every=1)).replay(loose)

        assert not _snapshot_file(path).exists()

    def test_a_snapshot_whose_state_does_not_fit_the_type_is_ignored(self, tmp_path):
        path = tmp_path / "events.jsonl"
        _fill(path, 10)
        EventLog(path, REGISTRY, snapshots=Snapshots(every=1)).replay(TALLY)
        body = _snapshot_file(path).read_bytes().split(b"\n", 1)[1]
        doc = orjson.loads(body)
        doc["state"] = {"totals": "not a mapping", "__reduce__": ["os.system", ["true"]]}
        body = orjson.dumps(doc)
        _snapshot_file(path).write_bytes(hashlib.sha256(body).hexdigest().encode() + b"\n" + body)

        assert EventLog(path, REGISTRY, snapshots=Snapshots()).replay(TALLY) == EventLog(path, REGISTRY).replay(TALLY)

    def test_a_read_only_folder_still_answers(self, tmp_path, monkeypatch):
        """Root ignores chmod, so the folder's refusal is made where the snapshot file is created."""
        path = tmp_path / "events.jsonl"
        _fill(path, 10)
        refused = []

        def read_only(target, *args, **kwargs):
            refused.append(target)
            raise PermissionError(13, "Permission denied", str(target.parent))

        with monkeypatch.context() as patch:
            patch.setattr("batchlog.engine.snapshots.file.write_file", read_only)
            replayed = EventLog(path, REGISTRY, snapshots=Snapshots(every=1)).replay(TALLY)

        assert refused
        assert not _snapshot_file(path).exists()
        assert replayed == EventLog(path, REGISTRY).replay(TALLY)


class TestCodeVersion:
    def test_is_stable_for_the_same_code(self):
        assert code_version(__name__) == code_version(sys.modules[__name__]) != ""

    def test_differs_when_the_code_differs(self, tmp_path, monkeypatch):
        module = tmp_path / "fold_a.py"
        module.write_text("X = 1\n")
        monkeypatch.syspath_prepend(str(tmp_path))
        before = code_version("fold_a")
        module.write_text("X = 2\n")

        assert code_version("fold_a") != before

    def test_is_empty_for_a_module_without_source(self):
        assert code_version(types.ModuleType("in_memory")) == ""

    def test_covers_every_module_given(self):
        assert code_version("batchlog.engine.snapshots.file", __name__) != code_version("batchlog.engine.snapshots.file")


def test_open_log_turns_snapshots_on(tmp_path):
    log = open_log(tmp_path / "events.jsonl", REGISTRY)

    assert isinstance(log.snapshots, Snapshots)
    assert os.fspath(log.path) == os.fspath(tmp_path / "events.jsonl")


class TestAnUnchangedLogIsNotReadAgain:
    """A view that checked the bytes before the snapshot's line of a log that had settled (last changed more
    than SETTLED_NS before) records the file's signature in the snapshot; a view of the very same file then
    skips that digest. Any change of the file (a write moves ctime) brings the check back."""

    @pytest.fixture
    def settled(self, monkeypatch):
        """The clock 10 s ahead: every file here counts as settled (no test waits for the real clock)."""
        from batchlog.engine.snapshots import file as snapshot

        later = types.SimpleNamespace(time_ns=lambda: snapshot_time_ns() + 10**10)
        snapshot_time_ns = snapshot.time.time_ns
        monkeypatch.setattr(snapshot, "time", later)
        reads = []
        real = snapshot._hash_range
        monkeypatch.setattr(snapshot, "_hash_range", lambda read, start, stop, digest: reads.append((start, stop))
                            or real(read, start, stop, digest))
        return reads

    def _snapshotted(self, path: Path) -> None:
        _fill(path, 30)
        EventLog(path, REGISTRY, snapshots=Snapshots(every=1)).replay(TALLY)

    def test_the_second_view_of_the_same_file_skips_the_digest(self, tmp_path, settled):
        path = tmp_path / "events.jsonl"
        self._snapshotted(path)
        EventLog(path, REGISTRY, snapshots=Snapshots()).replay(TALLY)  # checks the digest, records the signature
        assert settled and "log" in orjson.loads(_snapshot_file(path).read_bytes().partition(b"\n")[2])
        settled.clear()
        fold = CountingFold(evolve)

        replayed = EventLog(path, REGISTRY, snapshots=Snapshots()).replay(
            Projection("tally", Tally(), fold, version=TALLY.version))

        assert settled == [] and fold.calls == 0
        assert replayed.state == EventLog(path, REGISTRY).replay(TALLY).state

    def test_a_same_size_edit_after_it_is_seen(self, tmp_path, settled):
        path = tmp_path / "events.jsonl"
        self._snapshotted(path)
        EventLog(path, REGISTRY, snapshots=Snapshots()).replay(TALLY)
        before = os.stat(path)
        lines = path.read_bytes().split(b"\n")
        lines[4] = lines[4].replace(b'"amount":4', b'"amount":5')
        path.write_bytes(b"\n".join(lines))
        # The write moves mtime and ctime; with the clock run ahead (the fixture) they could fall in the tick of
        # the first write, which the real clock's SETTLED_NS rules out: the mtime is moved for sure here.
        os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns + 10**9))
        assert os.stat(path).st_size == before.st_size
        settled.clear()

        refused = _view(EventLog(path, REGISTRY, snapshots=Snapshots()))

        assert settled  # the digest was checked again
        assert refused[0] == "LogDamaged" and refused == _view(EventLog(path, REGISTRY))

    def test_a_log_changed_just_before_the_check_is_not_recorded(self, tmp_path):
        """Real clock: the log was written a moment ago, within the clock's coarse tick of the check."""
        path = tmp_path / "events.jsonl"
        self._snapshotted(path)

        EventLog(path, REGISTRY, snapshots=Snapshots()).replay(TALLY)

        assert "log" not in orjson.loads(_snapshot_file(path).read_bytes().partition(b"\n")[2])
