"""`batchlog log verify | show | head` on real logs, in-process, with exact exit codes and output."""

from __future__ import annotations

import orjson
import pytest

from batchlog.engine import EventLog, Projection
from batchlog.engine.registry import Raw
from batchlog.cli.loops import all_types
from tests.clirunner import invoke

IGNORE = Projection("ignore", None, lambda state, event: state)


def memory_kept(batch: int, nodes: int) -> Raw:
    return Raw("tune.memory_kept", {"batch": batch, "nodes": nodes})


@pytest.fixture
def log_path(tmp_path, pinned_clock):
    path = tmp_path / "events.jsonl"
    EventLog(path, all_types()).append(IGNORE, lambda s: [memory_kept(1, 10), memory_kept(2, 20), memory_kept(3, 30)])
    return path


class TestVerify:
    def test_a_sound_log_is_trusted(self, log_path):
        result = invoke("log", "verify", log_path)

        assert result.code == 0, result.err
        assert result.out.splitlines() == [
            f"{log_path}: trusted",
            "  lines   3",
            "  events  3 (last seq 3)",
            "  from    2026-12-02T16:00:00.000Z",
            "  to      2026-12-02T16:00:00.000Z",
        ]

    def test_json_report(self, log_path):
        result = invoke("log", "verify", log_path, "--json")

        report = orjson.loads(result.out)
        assert result.code == 0
        assert report["trusted"] is True and report["events"] == 3 and report["problems"] == []

    def test_a_changed_line_is_named_and_exits_3(self, log_path):
        lines = log_path.read_bytes().splitlines(keepends=True)
        lines[1] = lines[1].replace(b'"nodes":20', b'"nodes":21')
        log_path.write_bytes(b"".join(lines))

        result = invoke("log", "verify", log_path, "--json")

        report = orjson.loads(result.out)
        assert result.code == 3
        assert report["problems"][0]["line"] == 2 and report["problems"][0]["code"] == "id_mismatch"

    def test_a_torn_tail_is_reported_and_trusted(self, log_path):
        with open(log_path, "ab") as fh:
            fh.write(b'{"seq":4')

        result = invoke("log", "verify", log_path)

        assert result.code == 0
        assert "torn    a last line of 8 byte(s) was never finished" in result.out

    def test_an_unknown_newer_type_makes_the_log_untrusted(self, log_path):
        future = all_types().merged(__import__("engine").Registry([__import__("engine").EventType("future.x", 1)]))
        EventLog(log_path, future).append(IGNORE, lambda s: [Raw("future.x", {})])

        result = invoke("log", "verify", log_path)

        assert result.code == 3
        assert "line 4: future.x v1 is unknown to this batchlog" in result.out

    @pytest.mark.parametrize("kind", ["missing", "folder"])
    def test_a_path_that_is_no_log_is_refused_with_exit_1(self, tmp_path, kind):
        path = tmp_path / "nothing.jsonl"
        if kind == "folder":
            path.mkdir()

        result = invoke("log", "verify", path, "--json")

        error = orjson.loads(result.err)
        assert result.code == 1 and result.out == ""
        assert error["error"] == "not_a_log" and str(path) in error["message"]


class TestShow:
    def test_one_line_per_event(self, log_path):
        result = invoke("log", "show", log_path)

        assert result.code == 0
        assert result.out.splitlines() == [
            "     1  2026-12-02T16:00:00.000Z  tune.memory_kept            batch=1 nodes=10",
            "     2  2026-12-02T16:00:00.000Z  tune.memory_kept            batch=2 nodes=20",
            "     3  2026-12-02T16:00:00.000Z  tune.memory_kept            batch=3 nodes=30",
        ]

    def test_at_and_type_filter_and_json(self, log_path):
        result = invoke("log", "show", log_path, "--at", "2", "--type", "tune.memory", "--json")

        rows = [orjson.loads(line) for line in result.out.splitlines()]
        assert [r["seq"] for r in rows] == [1, 2]
        assert rows[1]["data"] == {"batch": 2, "nodes": 20} and rows[1]["type"] == "tune.memory_kept"

    def test_a_type_prefix_that_matches_nothing_shows_nothing(self, log_path):
        assert invoke("log", "show", log_path, "--type", "qb.").out == ""

    def test_at_zero_is_a_usage_error(self, log_path):
        assert invoke("log", "show", log_path, "--at", "0").code == 2


class TestHeadAndReceipts:
    def test_a_receipt_proves_the_log_only_grew(self, log_path):
        receipt = invoke("log", "head", log_path).out.strip()
        EventLog(log_path, all_types()).append(IGNORE, lambda s: [memory_kept(4, 40)])

        result = invoke("log", "verify", log_path, "--since", receipt)

        assert receipt.startswith("batchlog-receipt:3:")
        assert result.code == 0, result.out

    def test_a_receipt_catches_a_removed_last_line(self, log_path):
        receipt = invoke("log", "head", log_path).out.strip()
        lines = log_path.read_bytes().splitlines(keepends=True)
        log_path.write_bytes(b"".join(lines[:-1]))

        result = invoke("log", "verify", log_path, "--since", receipt, "--json")

        assert result.code == 3
        assert orjson.loads(result.out)["problems"][0]["code"] == "receipt_mismatch"

    def test_a_malformed_receipt_is_a_usage_error(self, log_path):
        result = invoke("log", "verify", log_path, "--since", "nonsense")

        assert result.code == 2 and "not a receipt" in result.err
