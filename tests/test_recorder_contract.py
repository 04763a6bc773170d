"""The contract every recorder keeps (file, memory, PostgreSQL): one suite, run against each.

The log logic is the same whatever keeps the lines; what differs is only where they are. So every test
here runs three times, and a log moved between stores is byte for byte the same. PostgreSQL tests use the
server named by BATCHLOG_TEST_POSTGRES (skipped without one, failed with BATCHLOG_REQUIRE_POSTGRES=1).
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import orjson
import pytest

from batchlog.engine import EventLog, open_log
from batchlog.engine.errors import CannotEncode, LockTimeout, LogDamaged, NewerVersion
from batchlog.engine.verify import Receipt, verify
from batchlog.engine.address import recorder_for
from batchlog.engine.envelope import encode_line
from batchlog.engine.salvage import salvage
from tests.sample_domain import COUNT, NOTES, REGISTRY, NoteAdded
from tests.stores import STORES, Store, store_for

ROOT = Path(__file__).resolve().parent.parent
CLOCK = "2026-12-02T16:00:00Z"


@pytest.fixture(params=STORES)
def store(request, tmp_path, log_name, monkeypatch) -> Store:
    monkeypatch.setenv("BATCHLOG_CLOCK", CLOCK)
    url = request.getfixturevalue("postgres_url") if request.param == "postgresql" else None
    return store_for(request.param, log_name, tmp_path, url)


def log_of(store: Store, *, snapshots: bool = True, **options) -> EventLog:
    if snapshots:
        return open_log(store.address, REGISTRY, **options)
    return EventLog(recorder_for(store.address), REGISTRY, **options)


def add(text: str):
    return lambda state: [NoteAdded(text)]


def add_once(text: str):
    """A command that takes effect once: its repeat decides nothing."""
    return lambda state: [] if any(note.text == text for note in state) else [NoteAdded(text)]


def appended(store: Store, count: int, prefix: str = "n") -> EventLog:
    log = log_of(store)
    for number in range(count):
        log.append(NOTES, add(f"{prefix}{number}"))
    return log


class TestAppend:
    def test_events_get_seq_one_after_another_and_read_back(self, store):
        log = appended(store, 3)

        events = list(log_of(store).scan())
        assert [(e.seq, e.data.text) for e in events] == [(1, "n0"), (2, "n1"), (3, "n2")]
        assert len(store.lines()) == 3

    def test_the_same_commands_give_the_same_bytes_in_every_store(self, store, tmp_path):
        appended(store, 5)
        reference = store_for("file", "reference", tmp_path / "ref", None)
        appended(reference, 5)

        assert store.bytes() == reference.bytes()

    def test_a_refused_command_writes_nothing(self, store):
        log = appended(store, 2)
        before = store.bytes()

        def refuse(state):
            raise ValueError("no")

        with pytest.raises(ValueError):
            log.append(NOTES, refuse)
        assert store.bytes() == before

    def test_a_refused_first_command_leaves_no_log(self, store):
        with pytest.raises(ValueError):
            log_of(store).append(NOTES, lambda state: (_ for _ in ()).throw(ValueError("no")))

        assert not log_of(store).exists()

    def test_a_repeated_command_appends_nothing(self, store):
        log = appended(store, 2)
        log.append(NOTES, add_once("once"))
        before = store.bytes()

        again = log_of(store).append(NOTES, add_once("once"))

        assert again.events == () and store.bytes() == before

    def test_a_command_of_several_events_is_written_whole(self, store):
        log = appended(store, 1)

        done = log.append(NOTES, lambda state: [NoteAdded("a"), NoteAdded("b"), NoteAdded("c")])

        assert [e.seq for e in done.events] == [2, 3, 4]
        assert [e.data.text for e in log_of(store).scan()] == ["n0", "a", "b", "c"]

    def test_a_command_whose_last_event_cannot_be_written_writes_none(self, store):
        log = appended(store, 1)
        before = store.bytes()

        with pytest.raises(CannotEncode):
            log.append(NOTES, lambda state: [NoteAdded("a"), NoteAdded("b", weight=1 << 70)])

        assert store.bytes() == before


class TestLock:
    def test_a_wait_is_announced_and_bounded(self, store, monkeypatch):
        monkeypatch.setenv("BATCHLOG_LOCK_TIMEOUT", "0")
        appended(store, 1)
        said: list[str] = []
        before = store.bytes()

        with recorder_for(store.address).locked(None):
            with pytest.raises(LockTimeout) as waited:
                log_of(store, on_wait=said.append).append(NOTES, add("blocked"))

        assert len(said) == 1 and said[0].startswith(f"waiting for the lock on {store.address}")
        assert "BATCHLOG_LOCK_TIMEOUT" in waited.value.message and store.bytes() == before

    def test_after_others_appended_an_append_reads_only_their_lines(self, store):
        from batchlog.engine import Projection
        from tests.sample_domain import CountingFold

        counting = CountingFold(NOTES.evolve)
        notes = Projection("sample.notes", (), counting)
        mine = log_of(store, snapshots=False)
        mine.append(notes, add("mine-0"))
        appended(store, 3, prefix="other")
        counting.calls = 0

        done = mine.append(notes, add("mine-1"))

        assert [n.text for n in done.state][-2:] == ["other2", "mine-1"] and len(done.state) == 5
        assert counting.calls == (4 + 1 if store.kind == "file" else 3 + 1)  # a file changed since is replayed


class TestReplay:
    def test_at_gives_the_log_as_it_stood_after_that_event(self, store):
        appended(store, 6)

        assert [n.text for n in log_of(store).replay(NOTES, at=4).state] == ["n0", "n1", "n2", "n3"]

    def test_positions_are_the_byte_offsets_of_a_file(self, store):
        appended(store, 4)

        replayed = log_of(store, snapshots=False).replay(NOTES)

        assert replayed.position.offset == len(store.bytes()) and replayed.position.seq == 4

    def test_a_snapshot_never_changes_an_answer(self, store):
        count = 230  # past SNAPSHOT_EVERY: a snapshot is written
        log = appended(store, count)

        from_snapshot = log_of(store).replay(COUNT)
        full = log_of(store, snapshots=False).replay(COUNT)

        assert from_snapshot.state == full.state and from_snapshot.position == full.position
        assert from_snapshot.state.notes == count

    def test_a_view_from_a_snapshot_folds_only_the_tail(self, store):
        from tests.sample_domain import CountingFold

        appended(store, 230)
        log_of(store).replay(COUNT)  # makes sure a snapshot is there
        log_of(store).append(NOTES, add("tail"))
        counting = CountingFold(COUNT.evolve)
        projection = type(COUNT)(COUNT.name, COUNT.initial, counting, version=COUNT.version, state_type=COUNT.state_type)

        replayed = log_of(store).replay(projection)

        assert replayed.state.notes == 231 and counting.calls < 50

    def test_an_edit_before_the_snapshot_is_refused_as_a_full_replay_refuses_it(self, store):
        appended(store, 230)
        log_of(store).replay(COUNT)
        line = store.lines()[9]
        store.replace_line(10, line.replace(b'"n9"', b'"n9!"'))

        with pytest.raises(LogDamaged) as from_snapshot:
            log_of(store).replay(COUNT)
        with pytest.raises(LogDamaged) as full:
            log_of(store, snapshots=False).replay(COUNT)
        assert from_snapshot.value.fields["line"] == full.value.fields["line"] == 10  # the line edited

    def test_a_forged_snapshot_is_ignored(self, store, monkeypatch):
        appended(store, 230)
        log_of(store).replay(COUNT)
        body = store.snapshot(COUNT.name)
        tag, _, doc = body.partition(b"\n")
        store.replace_snapshot(COUNT.name, tag + b"\n" + doc.replace(b'"notes":230', b'"notes":999'))
        notes: list[str] = []

        replayed = log_of(store, on_note=notes.append).replay(COUNT)

        assert replayed.state.notes == 230 and any("not authentic" in note for note in notes)


class TestSnapshotCheck:
    def test_each_snapshot_is_compared_with_a_replay_and_a_forged_one_is_named(self, store):
        from batchlog.engine.snapshots.check import check_snapshots

        appended(store, 230)
        log_of(store).replay(COUNT)

        good = check_snapshots(store.address, [(REGISTRY, [COUNT])])
        tag, _, doc = store.snapshot(COUNT.name).partition(b"\n")
        store.replace_snapshot(COUNT.name, tag + b"\n" + doc.replace(b'"notes":230', b'"notes":1'))
        forged = check_snapshots(store.address, [(REGISTRY, [COUNT])])
        assert [v.agrees for v in forged] == [False] and "not authentic" in forged[0].message

        assert [v.agrees for v in good] == [True]


class TestTrust:
    def test_verify_names_the_edited_line(self, store):
        appended(store, 5)
        store.replace_line(3, store.lines()[2].replace(b'"n2"', b'"N2"'))

        report = verify(log_of(store), REGISTRY)

        assert not report.trusted
        assert report.problems[0].line == 3 and report.problems[0].code == "id_mismatch"

    def test_a_receipt_holds_while_the_log_only_grows_and_names_its_line_once_changed(self, store):
        appended(store, 3)
        scan = log_of(store).scan(decode=False)
        list(scan)
        receipt = Receipt(scan.position.seq, scan.position.hash, scan.position.at)
        appended(store, 2, prefix="m")

        assert verify(log_of(store), REGISTRY, since=receipt).trusted
        store.replace_line(3, store.lines()[2].replace(b'"n2"', b'"N2"'))  # the line the receipt names
        codes = {p.code for p in verify(log_of(store), REGISTRY, since=receipt).problems}
        assert "receipt_mismatch" in codes

    def test_a_log_holding_a_newer_event_is_read_but_never_appended_to(self, store):
        appended(store, 2)
        last = store.lines()[-1]
        from batchlog.engine.chain import line_hash

        store.add_line(encode_line(3, "sample.note_added", 99, "2026-12-02T16:00:00.000Z", {"text": "x"},
                                   line_hash(last)))
        before = store.bytes()

        with pytest.raises(NewerVersion):
            log_of(store).append(NOTES, add("more"))
        assert store.bytes() == before
        assert len(log_of(store).replay(NOTES).state) == 2

    def test_salvage_keeps_the_trusted_part_and_the_damaged_copy(self, store):
        appended(store, 8)
        original = store.bytes()
        store.replace_line(5, b"not json")
        damaged = store.bytes()

        done = salvage(store.address, REGISTRY)

        assert done.kept_through_seq == 4 and done.dropped_lines == 4
        assert store.bytes().startswith(original[: sum(len(line) + 1 for line in original.split(b"\n")[:4])])
        assert verify(log_of(store), REGISTRY).trusted
        copy = (str(Path(store.address).parent / done.damaged_copy) if store.kind == "file"
                else f"{store.address.rpartition('=')[0] if store.kind == 'postgresql' else 'memory'}"
                     f"{'=' if store.kind == 'postgresql' else ':'}{done.damaged_copy}")
        assert store.bytes(copy) == damaged
        log_of(store).append(NOTES, add("after"))
        assert verify(log_of(store), REGISTRY).trusted


CLAIMER = """
import sys
from batchlog.engine import open_log
from tests.sample_domain import COUNT, REGISTRY, NoteAdded
log = open_log(sys.argv[1], REGISTRY)
for _ in range(int(sys.argv[2])):
    event, = log.append(COUNT, lambda state: [NoteAdded(f"claim-{state.notes}")]).events
    print(event.seq, event.data.text, flush=True)
"""
WRITERS = 4
CLAIMS_EACH = 60  # 240 events: past SNAPSHOT_EVERY, so snapshots are written and used while others append


def claim_in_threads(address: str, count: int) -> list[str]:
    """The memory store lives in one process: its writers are threads, each with a log object of its own."""
    printed: list[str] = []

    def writer() -> None:
        log = open_log(address, REGISTRY)
        for _ in range(count):
            event, = log.append(COUNT, lambda state: [NoteAdded(f"claim-{state.notes}")]).events
            printed.append(f"{event.seq} {event.data.text}")

    threads = [threading.Thread(target=writer) for _ in range(WRITERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return printed


def claim_in_processes(address: str, count: int) -> list[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    writers = [subprocess.Popen([sys.executable, "-c", CLAIMER, address, str(count)], stdout=subprocess.PIPE,
                                text=True, cwd=ROOT, env=env) for _ in range(WRITERS)]
    printed = []
    for writer in writers:
        out, _ = writer.communicate(timeout=600)
        assert writer.returncode == 0
        printed += out.splitlines()
    return printed


class TestConcurrency:
    def test_concurrent_writers_never_take_a_decision_twice_and_leave_no_gap(self, store):
        claim = claim_in_threads if store.kind == "memory" else claim_in_processes

        acknowledged = claim(store.address, CLAIMS_EACH)

        total = WRITERS * CLAIMS_EACH
        events = list(log_of(store).scan())
        assert [e.seq for e in events] == list(range(1, total + 1))
        assert [e.data.text for e in events] == [f"claim-{n}" for n in range(total)]  # each claim taken once
        assert sorted(acknowledged, key=lambda row: int(row.split()[0])) == [f"{e.seq} {e.data.text}"
                                                                             for e in events]
        assert verify(log_of(store), REGISTRY).trusted
        assert log_of(store).replay(COUNT).state.notes == total

    def test_a_decision_is_never_taken_on_a_state_read_before_the_lock(self, store):
        """Two sessions, driven by handshakes: the second reads the log (and holds its own last append's
        state) while the first holds the lock and decides; its decision must see the first's event."""
        holding, waiting = threading.Event(), threading.Event()
        first = log_of(store)
        second = log_of(store, on_wait=lambda text: waiting.set())
        second.append(NOTES, add("second-0"))  # the second now keeps the state its append reached
        outcome: dict[str, object] = {}

        def first_decides(state):
            holding.set()
            outcome["released"] = waiting.wait(timeout=120)  # released by the second's announced wait
            return [NoteAdded(f"claim-{len(state)}")]

        def run_first() -> None:
            try:
                first.append(NOTES, first_decides)
            except BaseException as exc:  # noqa: BLE001 - reported by the assertion below
                outcome["error"] = exc

        thread = threading.Thread(target=run_first)
        thread.start()
        assert holding.wait(timeout=120)
        stale = len(second.replay(NOTES).state)  # read while the first holds the lock: before its commit
        seen: list[int] = []
        second.append(NOTES, lambda state: seen.append(len(state)) or [NoteAdded(f"claim-{len(state)}")])
        thread.join()

        assert "error" not in outcome and outcome["released"]
        assert stale == 1 and seen == [2]
        assert [e.data.text for e in log_of(store).scan()] == ["second-0", "claim-1", "claim-2"]


FIXTURES = sorted(str(path.relative_to(ROOT)) for path in (ROOT / "fixtures").rglob("events.jsonl"))


class TestMigrate:
    @pytest.mark.parametrize("fixture", FIXTURES)
    def test_a_fixture_goes_there_and_back_byte_for_byte(self, store, tmp_path, fixture):
        from batchlog.engine.migrate import migrate
        from batchlog.cli.loops import all_types

        back = tmp_path / "back" / "events.jsonl"

        there = migrate(str(ROOT / fixture), store.address, all_types())
        migrate(store.address, str(back), all_types())

        assert store.bytes() == (ROOT / fixture).read_bytes() == back.read_bytes()
        assert there.events == (ROOT / fixture).read_bytes().count(b"\n")

    def test_a_receipt_taken_on_the_file_verifies_in_the_store(self, store, tmp_path):
        from batchlog.engine.migrate import migrate
        from batchlog.cli.loops import all_types

        source = ROOT / "fixtures" / "tune-finished" / "events.jsonl"
        scan = EventLog(source, all_types()).scan(decode=False)
        list(scan)
        receipt = Receipt(scan.position.seq - 10, *_line_at(source, scan.position.seq - 10))

        migrate(str(source), store.address, all_types())

        assert verify(log_of(store), all_types(), since=receipt).trusted

    def test_a_source_that_does_not_verify_is_refused(self, store, tmp_path):
        from batchlog.engine.migrate import MigrateRefused, migrate

        appended(store, 4)
        store.replace_line(2, b"garbage")

        with pytest.raises(MigrateRefused, match="does not verify"):
            migrate(store.address, str(tmp_path / "copy" / "events.jsonl"), REGISTRY)
        assert not (tmp_path / "copy").exists()

    def test_a_destination_that_holds_a_log_is_refused(self, store, tmp_path):
        from batchlog.engine.migrate import MigrateRefused, migrate

        appended(store, 2)
        before = store.bytes()
        source = store_for("file", "source", tmp_path / "src", None)
        appended(source, 3, prefix="s")

        with pytest.raises(MigrateRefused, match="already holds a log"):
            migrate(source.address, store.address, REGISTRY)
        assert store.bytes() == before


def _line_at(path: Path, seq: int) -> tuple[str, str]:
    from batchlog.engine.chain import line_hash

    line = path.read_bytes().split(b"\n")[seq - 1]
    return line_hash(line), orjson.loads(line)["at"]


def test_importing_a_projection_or_using_a_file_log_loads_no_database_driver(tmp_path):
    code = ("import sys; from batchlog.engine import open_log; from tests.sample_domain import NOTES, REGISTRY, NoteAdded;"
            f"log = open_log({str(tmp_path / 'events.jsonl')!r}, REGISTRY);"
            "log.append(NOTES, lambda s: [NoteAdded('x')]); log.replay(NOTES);"
            "import batchlog.cli.main, batchlog.projections.tune.evolve, batchlog.projections.quick_batch.evolve;"
            "print(sorted(m for m in sys.modules if m.startswith(('psycopg', 'pg8000'))))")

    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)

    assert out.stdout.strip() == "[]"


class TestPostgres:
    """What only the PostgreSQL store has: its session settings, its tables, its head row."""

    def test_a_session_bounds_idle_transactions_and_never_turns_synchronous_commit_off(self, postgres_url, log_name):
        recorder = recorder_for(f"{postgres_url}{'&' if '?' in postgres_url else '?'}log={log_name}")

        idle = recorder.query("SHOW idle_in_transaction_session_timeout")[0]
        synchronous = recorder.query("SHOW synchronous_commit")[0]
        isolation = recorder.query("SHOW transaction_isolation")[0]

        assert idle != "0" and synchronous != "off" and isolation == "read committed"

    def test_lines_are_kept_as_text_and_seq_is_the_primary_key(self, postgres_url, log_name):
        recorder = recorder_for(f"{postgres_url}{'&' if '?' in postgres_url else '?'}log={log_name}")

        columns = dict(recorder.query("SELECT column_name, data_type FROM information_schema.columns WHERE "
                                      "table_schema = 'batchlog' AND table_name = 'events'", rows=True))
        key = recorder.query("SELECT string_agg(a.attname, ',' ORDER BY array_position(i.indkey, a.attnum)) "
                             "FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid "
                             "AND a.attnum = ANY(i.indkey) WHERE i.indrelid = 'batchlog.events'::regclass "
                             "AND i.indisprimary")[0]

        assert columns["line"] == "text" and key == "log,seq"

    def test_the_head_row_is_where_the_lines_end(self, postgres_url, log_name, monkeypatch):
        monkeypatch.setenv("BATCHLOG_CLOCK", CLOCK)
        store = store_for("postgresql", log_name, Path("."), postgres_url)
        appended(store, 3)

        seq, digest, length = recorder_for(store.address).head()

        from batchlog.engine.chain import line_hash
        assert (seq, digest, length) == (3, line_hash(store.lines()[-1]), len(store.bytes()))

    def test_processes_setting_up_a_new_database_at_once_all_succeed(self, postgres_url):
        import uuid

        import psycopg2

        database = f"batchlog_setup_{uuid.uuid4().hex[:10]}"
        admin = psycopg2.connect(postgres_url)
        admin.autocommit = True
        try:
            with admin.cursor() as cur:
                cur.execute(f"CREATE DATABASE {database}")
        except psycopg2.Error as exc:
            admin.close()
            pytest.skip(f"the test user cannot create a database: {exc}")
        try:
            from urllib.parse import urlsplit, urlunsplit

            parts = urlsplit(postgres_url)
            fresh = urlunsplit((parts.scheme, parts.netloc, f"/{database}", "", ""))
            acknowledged = claim_in_processes(f"{fresh}?log=setup", 5)
            assert len(acknowledged) == WRITERS * 5
        finally:
            with admin.cursor() as cur:
                cur.execute(f"DROP DATABASE {database} WITH (FORCE)")
            admin.close()
