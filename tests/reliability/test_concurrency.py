"""Concurrency: 16 processes read-decide-append on one log; no decision is taken twice; lock waits are bounded."""

from __future__ import annotations

import collections
import os
import threading
import time

import pytest

from batchlog.engine.errors import LockTimeout
from tests.reliability import model
from tests.reliability.conftest import soak_seconds
from tests.reliability.workers import assert_trusted, fork, holder, kill, log_lines, report, wait

PROCESSES = 16
CLAIMS_EACH = 12


def claim_many(path, report_path, name: str, claims: int) -> None:
    log = model.open_log(path)
    fd = os.open(report_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    for n in range(claims):
        decide = model.claim_next(name) if n % 3 else model.note(int(name[1:]), n, 2)
        report(fd, log.append(model.PROJECTION, decide).events)


def race(tmp_path, processes: int, claims: int) -> list[dict]:
    path = tmp_path / "events.jsonl"
    pids = [fork(claim_many, path, tmp_path / f"report-{p}", f"p{p}", claims) for p in range(processes)]
    assert [wait(pid) for pid in pids] == [0] * processes
    return log_lines(path)


class TestReadDecideAppend:
    def test_sixteen_processes_claiming_the_next_number_never_claim_one_twice(self, tmp_path):
        lines = race(tmp_path, PROCESSES, CLAIMS_EACH)

        numbers = [line["data"]["number"] for line in lines if line["type"] == "test.claimed"]
        assert numbers == list(range(1, len(numbers) + 1))
        assert len(numbers) == PROCESSES * (CLAIMS_EACH - CLAIMS_EACH // 3 - (CLAIMS_EACH % 3 > 0))
        assert [line["seq"] for line in lines] == list(range(1, len(lines) + 1))
        assert_trusted(tmp_path / "events.jsonl", model.REGISTRY)

    def test_every_claim_a_process_was_told_of_is_the_one_in_the_log(self, tmp_path):
        lines = race(tmp_path, PROCESSES, 6)

        by_seq = {line["seq"]: line for line in lines}
        for report_path in tmp_path.glob("report-*"):
            for row in report_path.read_text().splitlines():
                seq, id_ = row.split()
                assert by_seq[int(seq)]["id"] == id_
        per_writer = collections.Counter(line["data"]["by"] for line in lines if line["type"] == "test.claimed")
        assert set(per_writer.values()) == {4}

    @pytest.mark.soak
    def test_soak_processes_racing(self, tmp_path):
        deadline = time.monotonic() + soak_seconds()
        rounds = 0
        while time.monotonic() < deadline:
            folder = tmp_path / f"r{rounds}"
            folder.mkdir()
            lines = race(folder, PROCESSES, 30)
            numbers = [line["data"]["number"] for line in lines if line["type"] == "test.claimed"]
            assert numbers == list(range(1, len(numbers) + 1))
            assert_trusted(folder / "events.jsonl", model.REGISTRY)
            rounds += 1
        print(f"rounds of {PROCESSES} racing processes: {rounds}")


class TestLockWaits:
    def test_a_lock_held_by_a_dead_process_does_not_block(self, tmp_path, monkeypatch):
        monkeypatch.setenv("BATCHLOG_LOCK_TIMEOUT", "2")
        wait(holder(tmp_path, then_die=True))
        waits = []
        began = time.monotonic()

        model.EventLog(tmp_path / "events.jsonl", model.REGISTRY, on_wait=waits.append).append(
            model.PROJECTION, model.note(1, 1))

        assert time.monotonic() - began < 0.9
        assert waits == []

    def test_a_waiting_append_says_what_it_waits_for_then_gives_up(self, tmp_path, monkeypatch):
        monkeypatch.setenv("BATCHLOG_LOCK_TIMEOUT", "1.5")
        pid = holder(tmp_path, then_die=False)
        waits = []
        path = tmp_path / "events.jsonl"
        try:
            began = time.monotonic()
            with pytest.raises(LockTimeout) as raised:
                model.EventLog(path, model.REGISTRY, on_wait=waits.append).append(model.PROJECTION, model.note(1, 1))
            waited = time.monotonic() - began
        finally:
            kill(pid)
            wait(pid)

        assert 1.4 < waited < 3
        assert waits == [f"waiting for the lock on {path}: another batchlog command is appending to it "
                         "(giving up after 1.5s)"]
        assert str(path) in raised.value.message and "BATCHLOG_LOCK_TIMEOUT" in raised.value.message
        assert path.read_bytes() == b""  # the holder made the log to lock it; nothing was recorded

    def test_a_waiting_append_goes_on_when_the_holder_is_killed(self, tmp_path, monkeypatch):
        monkeypatch.setenv("BATCHLOG_LOCK_TIMEOUT", "20")
        pid = holder(tmp_path, then_die=False)
        threading.Timer(1.3, kill, (pid,)).start()
        waits = []

        appended = model.EventLog(tmp_path / "events.jsonl", model.REGISTRY, on_wait=waits.append).append(
            model.PROJECTION, model.note(1, 1))
        wait(pid)

        assert [e.seq for e in appended.events] == [1]
        assert len(waits) == 1 and "waiting for the lock" in waits[0]
