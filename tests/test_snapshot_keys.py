"""On a shared store, each machine's snapshots are its own (issue 23, item 13).

Machines sharing one log (a PostgreSQL log, a file on a shared folder) each authenticate snapshots with a key
of their own. A machine reads and writes only the snapshots kept under its key's fingerprint, so an honest
log never raises a tamper note, `log verify --snapshots` passes on it whichever machine runs it, and the
machines never overwrite each other's snapshot: each one's later views fold only the tail.
"""

from __future__ import annotations

import pytest

from batchlog.engine import open_log
from batchlog.engine.snapshots.check import check_snapshots
from batchlog.engine.snapshots.key import SNAPSHOT_KEY_ENV
from tests.clirunner import invoke
from tests.sample_domain import COUNT, REGISTRY, CountingFold, NoteAdded
from tests.stores import STORES, Store, store_for

CLOCK = "2026-12-02T16:00:00Z"
MACHINES = ("key of machine A", "key of machine B")


@pytest.fixture(params=STORES)
def store(request, tmp_path, log_name, monkeypatch) -> Store:
    monkeypatch.setenv("BATCHLOG_CLOCK", CLOCK)
    url = request.getfixturevalue("postgres_url") if request.param == "postgresql" else None
    return store_for(request.param, log_name, tmp_path, url)


def _counting():
    counting = CountingFold(COUNT.evolve)
    return counting, type(COUNT)(COUNT.name, COUNT.initial, counting, version=COUNT.version,
                                 state_type=COUNT.state_type)


def _filled(store: Store, count: int = 230) -> None:
    log = open_log(store.address, REGISTRY)
    log.append(COUNT, lambda state: [NoteAdded(f"n{number}") for number in range(count)])


class TestTwoMachines:
    def test_views_by_turns_raise_no_note_and_each_folds_only_the_tail(self, store, monkeypatch):
        _filled(store)
        notes: list[str] = []
        for key in MACHINES:  # each machine's first view replays in full and writes its own snapshot
            monkeypatch.setenv(SNAPSHOT_KEY_ENV, key)
            open_log(store.address, REGISTRY, on_note=notes.append).replay(COUNT)

        folded = {}
        for key in MACHINES:
            monkeypatch.setenv(SNAPSHOT_KEY_ENV, key)
            counting, projection = _counting()
            replayed = open_log(store.address, REGISTRY, on_note=notes.append).replay(projection)
            folded[key] = (replayed.state.notes, counting.calls)

        assert notes == []
        assert folded == {key: (230, 0) for key in MACHINES}

    def test_log_verify_snapshots_passes_an_honest_log_on_every_machine(self, store, monkeypatch):
        _filled(store)
        for key in MACHINES:
            monkeypatch.setenv(SNAPSHOT_KEY_ENV, key)
            open_log(store.address, REGISTRY).replay(COUNT)

        verdicts = {}
        for key in MACHINES:
            monkeypatch.setenv(SNAPSHOT_KEY_ENV, key)
            verdicts[key] = [(v.agrees, v.message) for v in check_snapshots(store.address, [(REGISTRY, [COUNT])])]

        for key in MACHINES:
            agreed = [message for agrees, message in verdicts[key] if agrees]
            others = [message for agrees, message in verdicts[key] if agrees is None]
            assert len(agreed) == 1 and "agrees with a replay" in agreed[0], verdicts[key]
            assert len(others) == 1 and "another key" in others[0], verdicts[key]

    def test_a_forged_snapshot_under_a_machines_own_key_is_still_named(self, store, monkeypatch):
        _filled(store)
        monkeypatch.setenv(SNAPSHOT_KEY_ENV, MACHINES[0])
        open_log(store.address, REGISTRY).replay(COUNT)
        tag, _, doc = store.snapshot(COUNT.name).partition(b"\n")
        store.replace_snapshot(COUNT.name, tag + b"\n" + doc.replace(b'"notes":230', b'"notes":1'))
        notes: list[str] = []

        verdicts = check_snapshots(store.address, [(REGISTRY, [COUNT])])
        replayed = open_log(store.address, REGISTRY, on_note=notes.append).replay(COUNT)

        assert replayed.state.notes == 230 and any("not authentic" in note for note in notes)
        assert [v.agrees for v in verdicts] == [False]


class TestTheCommandLine:
    """`log verify --snapshots` of a long tuning whose views ran on two machines: exit 0 on each."""

    @pytest.mark.parametrize("kind", ["file", "postgresql"])
    def test_an_honest_tuning_viewed_from_two_machines_verifies_on_each(self, kind, tmp_path, request):
        from tests.reliability.test_trust import long_tuning

        folder = long_tuning(tmp_path)
        address, store_options = str(folder / "events.jsonl"), ["--dir", folder]
        if kind == "postgresql":
            url, name = request.getfixturevalue("postgres_url"), request.getfixturevalue("log_name")
            address = f"{url}{'&' if '?' in url else '?'}log={name}"
            assert invoke("log", "migrate", folder / "events.jsonl", address).code == 0
            store_options += ["--store", url, "--log", name]
        env = {"BATCHLOG_CLOCK": CLOCK}

        viewed = [invoke("tune", "status", *store_options, env={**env, SNAPSHOT_KEY_ENV: key}) for key in MACHINES]
        again = [invoke("tune", "status", *store_options, env={**env, SNAPSHOT_KEY_ENV: key}) for key in MACHINES]
        verified = [invoke("log", "verify", address, "--snapshots", env={**env, SNAPSHOT_KEY_ENV: key})
                    for key in MACHINES]

        assert [(r.code, r.err) for r in viewed + again] == [(0, "")] * 4
        assert [r.code for r in verified] == [0, 0], [r.out for r in verified]
        assert all("agrees with a replay" in r.out and "another key" in r.out for r in verified)
