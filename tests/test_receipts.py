"""Receipts on the finished tuning: `log head` prints one, `log verify --since` proves the log only grew
since, and names the line when anything before it was changed, removed or reordered."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from batchlog.engine import EventLog, Projection
from batchlog.cli.loops import all_types
from tests.clirunner import invoke

ROOT = Path(__file__).resolve().parent.parent
FINISHED = ROOT / "fixtures" / "tune-finished"
LINES = (FINISHED / "events.jsonl").read_bytes().splitlines(keepends=True)
RECEIPT_SEQ = 80


def log_of(tmp_path: Path, lines: list[bytes]) -> Path:
    path = tmp_path / "events.jsonl"
    path.write_bytes(b"".join(lines))
    return path


def receipt_at(tmp_path: Path, seq: int = RECEIPT_SEQ) -> str:
    """The receipt `log head` gave when the log held its first `seq` lines."""
    folder = tmp_path / "then"
    folder.mkdir()
    result = invoke("log", "head", log_of(folder, LINES[:seq]))
    assert result.code == 0
    return result.out.strip()


def verify_since(path: Path, receipt: str):
    return invoke("log", "verify", path, "--since", receipt)


class TestHead:
    def test_prints_seq_hash_of_the_last_line_and_its_time(self):
        from hashlib import sha256

        result = invoke("log", "head", FINISHED / "events.jsonl")

        last = orjson.loads(LINES[-1])
        digest = sha256(LINES[-1].rstrip(b"\n")).hexdigest()
        assert result.code == 0
        assert result.out == f"batchlog-receipt:107:{digest}:{last['at']}\n"

    def test_json_gives_the_same_receipt_and_its_parts(self):
        text = invoke("log", "head", FINISHED / "events.jsonl").out.strip()

        body = orjson.loads(invoke("log", "head", FINISHED / "events.jsonl", "--json").out)

        assert body["receipt"] == text and body["seq"] == 107 and text.split(":")[2] == body["hash"]


class TestVerifySince:
    def test_the_log_grown_since_the_receipt_is_trusted(self, tmp_path):
        receipt = receipt_at(tmp_path)

        result = verify_since(log_of(tmp_path, LINES), receipt)

        assert result.code == 0, result.out

    def test_the_log_as_it_was_is_trusted(self, tmp_path):
        receipt = receipt_at(tmp_path)

        assert verify_since(log_of(tmp_path, LINES[:RECEIPT_SEQ]), receipt).code == 0

    def test_a_receipt_of_the_whole_fixture_holds_for_the_fixture(self):
        receipt = invoke("log", "head", FINISHED / "events.jsonl").out.strip()

        assert verify_since(FINISHED / "events.jsonl", receipt).code == 0

    def test_an_edited_line_before_it_is_named(self, tmp_path):
        receipt = receipt_at(tmp_path)
        lines = list(LINES)
        lines[29] = lines[29].replace(b'"at":"2026-12-0', b'"at":"2026-12-1', 1)

        result = verify_since(log_of(tmp_path, lines), receipt)

        assert result.code == 3
        assert "problem line 30 (seq 30): " in result.out

    def test_a_removed_line_before_it_is_named(self, tmp_path):
        receipt = receipt_at(tmp_path)

        result = verify_since(log_of(tmp_path, LINES[:40] + LINES[41:]), receipt)

        assert result.code == 3
        assert "problem line 41 " in result.out
        assert f"problem line {RECEIPT_SEQ}: the event the receipt names (seq {RECEIPT_SEQ})" in result.out

    def test_reordered_lines_before_it_are_named(self, tmp_path):
        receipt = receipt_at(tmp_path)
        lines = list(LINES)
        lines[10], lines[11] = lines[11], lines[10]

        result = verify_since(log_of(tmp_path, lines), receipt)

        assert result.code == 3 and "problem line 11 " in result.out

    def test_a_log_cut_before_the_receipt_is_named(self, tmp_path):
        receipt = receipt_at(tmp_path)

        result = verify_since(log_of(tmp_path, LINES[: RECEIPT_SEQ - 5]), receipt)

        assert result.code == 3
        assert f"the log has fewer than {RECEIPT_SEQ} lines: it was cut since the receipt" in result.out

    def test_a_history_rewritten_and_re_chained_by_the_engine_fails_at_the_receipt(self, tmp_path, monkeypatch):
        """Every line verifies (the chain is whole), but the receipt's line no longer hashes the same."""
        receipt = receipt_at(tmp_path)
        events = list(EventLog(FINISHED / "events.jsonl", all_types()).scan())
        del events[5]
        log = EventLog(tmp_path / "events.jsonl", all_types())
        nothing = Projection("nothing", None, lambda state, event: state)
        for event in events:
            monkeypatch.setenv("BATCHLOG_CLOCK", event.at)
            log.append(nothing, lambda _state, data=event.data: [data])

        plain = invoke("log", "verify", tmp_path / "events.jsonl")
        result = verify_since(tmp_path / "events.jsonl", receipt)

        assert plain.code == 0
        assert result.code == 3
        assert f"problem line {RECEIPT_SEQ}: the event the receipt names (seq {RECEIPT_SEQ}) is no longer there" \
            in result.out

    @pytest.mark.parametrize("seq", ["12", "²", "١٢"])  # a seq of other digits than 0-9 is not one either
    def test_a_receipt_that_is_not_one_is_a_usage_error(self, tmp_path, seq):
        hash_ = "nothex" if seq == "12" else "a" * 64
        result = verify_since(FINISHED / "events.jsonl", f"batchlog-receipt:{seq}:{hash_}:then")

        assert result.code == 2 and "not a receipt" in result.err

    def test_a_receipt_of_an_empty_log_holds_once_it_grows(self, tmp_path):
        empty = tmp_path / "empty"
        empty.mkdir()
        (empty / "events.jsonl").write_bytes(b"")
        receipt = invoke("log", "head", empty / "events.jsonl").out.strip()

        assert verify_since(log_of(tmp_path, LINES), receipt).code == 0
