"""The benchmark suite runs end to end at tiny sizes and prints one well-formed table (ratios are not asserted)."""

from __future__ import annotations

import shutil

import orjson
import pytest

from bench import measure
from bench.domain_cases import BATCH_MJS, QUICK_BATCH_SEED
from bench.measure import Row, side_by_side, table
from bench.run import main
from bench.store_cases import server

TINY = ["--quick", "--events", "400", "--appends", "3", "--repeats", "1"]
COLUMNS = ["case", "batchlog", "baseline", "ratio", "min–max", "target", "result"]


def _cells(line: str) -> list[str]:
    assert line.startswith("| ") and line.endswith(" |")
    return [cell.strip() for cell in line[2:-2].split(" | ")]


class TestQuickRun:
    def test_prints_one_table_with_every_row_and_an_exit_code(self, capsys):
        code = main(TINY)

        out = capsys.readouterr().out
        lines = [line for line in out.splitlines() if line.startswith("|")]
        assert _cells(lines[0]) == COLUMNS
        assert set(lines[1].replace("|", "").split()) <= {"---", "---:"}
        rows = [_cells(line) for line in lines[2:]]
        assert len(rows) == 20
        on_server = [row for row in rows if "PostgreSQL" in row[0]]  # skipped without a server, measured with one
        assert len(on_server) == 4
        assert all(row[6].startswith("skipped: no PostgreSQL server") != bool(server()) for row in on_server)
        floors = 0
        for case, ours, baseline, ratio, spread, target, result in rows:
            assert case and target
            verdict, _, floor = result.partition("; ")[0].partition(" (floor ")
            assert verdict in ("pass", "FAIL") or result.startswith("skipped: ")
            if not result.startswith("skipped"):
                assert ratio.endswith("×") and float(ratio[:-1]) >= 0
            if spread != "–":
                low, high = map(float, spread.split("–"))
                assert low <= float(ratio[:-1]) <= high
            if floor:
                floors += 1
                assert floor.endswith("×)") and float(floor[:-2]) > 0
        # tune status's replay, its view from a snapshot (the digest before it) and the view as a process (a process
        # that only starts and imports); with the seeds, also the quick batch's replay and the two node rows
        assert floors == 3 + QUICK_BATCH_SEED.is_file() + 2 * (BATCH_MJS.is_file() and shutil.which("node") is not None)
        assert code == (0 if all(not r[6].startswith("FAIL") for r in rows) else 1)

    def test_json_gives_the_same_rows_as_data(self, capsys):
        code = main([*TINY, "--json", "--only", "engine"])

        report = orjson.loads(capsys.readouterr().out)
        assert [row["case"] for row in report["rows"]][0].startswith("full replay of 400 events")
        assert len(report["rows"]) == 9
        assert report["passed"] is (code == 0)
        assert all(row["rounds"] == 1 for row in report["rows"] if row["unit"] != "MiB")
        assert {"machine", "date", "seconds", "events"} <= report.keys()


class TestRow:
    @pytest.mark.parametrize(
        ("ours", "baseline", "high", "low", "passed"),
        [(1.0, 1.0, 1.5, 0.0, True), (2.0, 1.0, 1.5, 0.0, False), (0.95, 1.0, 1.1, 0.9, True),
         (0.8, 1.0, 1.1, 0.9, False)],
    )
    def test_passes_when_the_ratio_is_within_its_target(self, ours, baseline, high, low, passed):
        assert Row("case", ours, baseline, "s", high, low).passed is passed

    def test_a_row_without_figures_is_skipped_and_says_why(self):
        row = Row("seed row", None, None, "s", 1.0, note="seed not found: /x")

        assert row.skipped and not row.passed
        assert "skipped: seed not found: /x" in table([row])


def test_side_by_side_alternates_and_gives_the_median_of_per_round_ratios():
    """Known times (each action returns its own, through a stand-in clock) so the figures can be checked:
    the median ratio is not the ratio of the medians."""
    calls: list[str] = []
    ours, base = iter([1.0, 9.0, 2.0, 3.0, 4.0]), iter([10.0, 3.0, 20.0, 1.0, 8.0])

    timing = side_by_side(lambda: calls.append("ours") or next(ours), lambda: calls.append("base") or next(base), 5,
                          clock=lambda action, prepare=None: action())

    assert calls == ["ours", "base", "base", "ours", "ours", "base", "base", "ours", "ours", "base"]
    assert (timing.ours, timing.baseline) == (3.0, 8.0)
    assert timing.ratios == (0.1, 3.0, 0.1, 3.0, 0.5)
    assert timing.ratio == 0.5
    row = Row.timed("case", timing, 1.0)
    assert row.ratio == 0.5 and row.spread == (0.1, 3.0) and row.passed


def test_a_row_with_a_limit_passes_on_its_own_figure_whatever_the_ratio():
    assert Row("append", 0.2, 0.004, "ms/event", 0, limit=0.25).passed
    assert not Row("append", 0.3, 0.5, "ms/event", 0, limit=0.25).passed
    assert Row("append", 0.2, 0.004, "ms/event", 0, limit=0.25).target == "≤ 0.25 ms/event"


@pytest.mark.parametrize(("events", "new"), [(1_000_000, 1000), (20_000, 20), (400, 1)])
def test_the_snapshot_row_adds_a_thousandth_of_its_log(events, new):
    from bench.domain_cases import new_events

    assert new_events(events) == new


class TestTheEntryPoint:
    def test_python_m_bench_runs_the_suite(self, capsys):
        from bench.run import main as bench

        code = bench([*TINY, "--json", "--only", "engine"])

        report = orjson.loads(capsys.readouterr().out)
        assert code in (0, 1) and report["passed"] is (code == 0) and len(report["rows"]) == 9

    def test_a_bad_option_is_a_usage_error_named_after_the_command(self, capsys):
        from bench.run import main as bench

        with pytest.raises(SystemExit) as exited:
            bench(["--fast"])

        assert exited.value.code == 2
        assert capsys.readouterr().err.startswith("usage: python -m bench")
