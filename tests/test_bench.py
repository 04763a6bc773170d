"""The benchmark suite runs end to end at tiny sizes and prints one well-formed table (ratios are not asserted: no
timing is a test's business)."""

from __future__ import annotations

import contextlib
import io
import itertools
import os
import re
import shutil
import subprocess
from pathlib import Path

import orjson
import pytest

from bench.domain_cases import BATCH_MJS, QUICK_BATCH_SEED
from bench.install import ROOT, install
from bench.measure import Row, side_by_side, table
from bench.run import main
from bench.store_cases import server

TINY = ["--quick", "--events", "400", "--appends", "3", "--repeats", "1"]
COLUMNS = ["case", "batchlog", "baseline", "ratio", "min–max", "target", "result"]
NODE = BATCH_MJS.is_file() and shutil.which("node") is not None
AGENT_COMMANDS = {  # the command as its rows name it -> whether it writes, whether its seed is batch.mjs
    "`batchlog tune status`": (False, True), "`batchlog tune next`": (False, True),
    "`batchlog tune next-batch` (preview)": (False, True), "`batchlog tune run start`": (True, True),
    "`batchlog tune run grade`": (True, True), "`batchlog tune difficult add`": (True, True),
    "`batchlog tune usage`": (True, True), "`batchlog quick-batch next`": (True, False),
    "`batchlog quick-batch record`": (True, False),
}
IMPORT_FLOOR = '(vs `python -c "import attrs, orjson"`)'


def _cells(line: str) -> list[str]:
    assert line.startswith("| ") and line.endswith(" |")
    return [cell.strip() for cell in line[2:-2].split(" | ")]


@pytest.fixture(scope="module")
def quick_run() -> tuple[int, str]:
    """One run of every group at tiny sizes (the wheel built and installed once for all the tests that read it):
    its exit code and what it printed."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(TINY)
    return code, out.getvalue()


@pytest.fixture(scope="module")
def rows(quick_run) -> list[list[str]]:
    lines = [line for line in quick_run[1].splitlines() if line.startswith("|")]
    return [_cells(line) for line in lines[2:]]


def _measured(row: list[str], unit: str) -> None:
    """The row ran: both figures in `unit`, a ratio, a min–max around it, and a verdict."""
    case, ours, baseline, ratio, spread, target, result = row
    assert ours.endswith(f" {unit}") and float(ours.split()[0]) > 0, case
    assert baseline.endswith(f" {unit}") and float(baseline.split()[0]) > 0, case
    assert ratio.endswith("×") and float(ratio[:-1]) > 0, case
    assert result.split(";")[0].split(" (floor")[0] in ("pass", "FAIL"), case


def _agent_rows(rows: list[list[str]], command: str) -> list[list[str]]:
    starts = tuple(f"{command} as a process{kind} (vs " for kind in ("", ", a write on a fresh copy of its state"))
    return [row for row in rows if row[0].startswith(starts)]


def _require_seeds() -> bool:
    """Whether the seed rows can run here; with BATCHLOG_REQUIRE_SEEDS set they must."""
    present = QUICK_BATCH_SEED.is_file() and NODE
    if not present and os.environ.get("BATCHLOG_REQUIRE_SEEDS"):
        pytest.fail("the seeds (batch.mjs, skf-quick-batch.py) or Node.js are missing: the seed rows were skipped")
    return present


class TestQuickRun:
    def test_prints_one_table_with_every_row_and_an_exit_code(self, quick_run, rows):
        code, out = quick_run
        lines = [line for line in out.splitlines() if line.startswith("|")]

        assert _cells(lines[0]) == COLUMNS
        assert set(lines[1].replace("|", "").split()) <= {"---", "---:"}
        assert len(rows) == 48
        on_server = [row for row in rows if "PostgreSQL" in row[0]]  # skipped without a server, measured with one
        assert len(on_server) == 6
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
        # tune status's replay, its view from a snapshot (the digest before it) and the view from a snapshot as a
        # process (a process that only starts and imports); with the seeds, the quick batch's replay and each
        # command against its seed (the import floor against the seed)
        assert floors == 3 + 3 * QUICK_BATCH_SEED.is_file() + 7 * NODE
        assert code == (0 if all(not r[6].startswith("FAIL") for r in rows) else 1)

    def test_json_gives_the_same_rows_as_data(self, capsys):
        code = main([*TINY, "--json", "--only", "engine"])

        report = orjson.loads(capsys.readouterr().out)
        assert [row["case"] for row in report["rows"]][0].startswith("full replay of 400 events")
        assert len(report["rows"]) == 9
        assert report["passed"] is (code == 0)
        assert all(row["rounds"] == 1 for row in report["rows"] if row["unit"] != "MiB")
        assert {"machine", "date", "seconds", "events", "install"} <= report.keys()
        assert report["install"] is None  # no process row ran: no wheel was built


class TestAgentRows:
    @pytest.mark.parametrize("command", list(AGENT_COMMANDS))
    def test_each_command_runs_against_the_import_floor_with_its_target(self, rows, command):
        (row,) = [row for row in _agent_rows(rows, command) if IMPORT_FLOOR in row[0]]

        _measured(row, "s")
        assert row[5] == "≤ 1.3×"
        assert "`python -c pass` " in row[6] and "wall " in row[6]
        assert ("an fsync here: " in row[6]) is AGENT_COMMANDS[command][0]
        assert ("a write on a fresh copy of its state" in row[0]) is AGENT_COMMANDS[command][0]

    @pytest.mark.parametrize("command", list(AGENT_COMMANDS))
    def test_each_command_runs_against_its_seed_with_the_floor_beside_it(self, rows, command):
        (row,) = [row for row in _agent_rows(rows, command) if IMPORT_FLOOR not in row[0]]
        seed = "`node batch.mjs" if AGENT_COMMANDS[command][1] else "the seed's `"

        assert f"(vs {seed}" in row[0]
        assert row[5] == "≤ 1×"
        if not _require_seeds():
            assert row[6].startswith("skipped: ")
            return
        _measured(row, "s")
        assert " (floor " in row[6]  # `python -c "import attrs, orjson"` against the seed

    def test_the_snapshot_process_row_compares_the_same_view_on_a_short_log(self, rows):
        (row,) = [row for row in rows if "snapshot up to date" in row[0]]

        assert row[0].endswith("400 events (vs the same on 400 events)")
        _measured(row, "s")
        assert row[5] == "≤ 1.2×" and " (floor " in row[6]

    def test_the_fsync_rows_say_what_the_disk_took(self, rows):
        durable = [row for row in rows if row[0].startswith("durable append") and "fsync on" in row[0]]

        assert len(durable) == 2
        assert all(re.search(r"the disk's os\.write\+fsync [0-9.e-]+ ms, batchlog's work above it", row[6])
                   for row in durable)

    def test_batch_mjs_sees_the_tuning_the_commands_run_on(self, tmp_path, needs_node):
        """The seed rows compare the same job on the same data: batch.mjs, on the zen folder the bench lays out,
        prints what `batchlog tune status` and `tune next-batch` print on the fixture's tuning (in batchlog's words
        where batch.mjs names itself or its files: the figures byte for byte)."""
        from bench.agent_cases import FIXTURE, _zen_folder
        from tests.clirunner import invoke
        from tests.seeds import require
        from tests.zenfolder import in_batchlog_words

        require(BATCH_MJS)
        shutil.copytree(FIXTURE, tmp_path / "tuning")
        script = _zen_folder(tmp_path / "zen", tmp_path / "tuning" / "events.jsonl")

        for seed, ours in (([], ["status"]), (["next"], ["next-batch"])):
            node = subprocess.run([needs_node, script, *seed], capture_output=True, text=True)
            batchlog = invoke("tune", *ours, "--dir", tmp_path / "tuning")
            assert (node.returncode, node.stdout, in_batchlog_words(node.stderr)) == (batchlog.code, batchlog.out,
                                                                                       batchlog.err)


class TestScaleRows:
    @pytest.mark.parametrize("report", ["`tune audit`", "`tune readme`", "`log verify`"])
    def test_each_report_has_a_row_at_10_and_100_times_the_events(self, rows, report):
        found = [row for row in rows if row[0].startswith(f"{report} time per event")]

        assert [row[0].split(" at ")[1].split("×")[0] for row in found] == ["10", "100"]
        for row in found:
            _measured(row, "µs/event")
            assert row[5] == "0.90–1.10" and "runs growing with them" in row[0]

    def test_migrate_compares_its_peak_memory_on_a_long_log_and_a_short_one(self, rows):
        (row,) = [row for row in rows if row[0].startswith("`batchlog log migrate`")]

        _measured(row, "MiB")
        assert row[5] == "≤ 1.5×"


class TestWatchRows:
    def test_an_append_to_each_watch_output_has_a_row_per_store_under_its_limit(self, rows):
        found = [row for row in rows if row[0].startswith("`tune watch`: an append's acknowledgement to ")]
        kinds = {("a file" in row[0], "terminal" in row[0]) for row in found}  # (in a file, on a terminal)

        assert len(found) == 4 and kinds == {(False, False), (False, True), (True, False), (True, True)}
        for row in found:
            assert row[5] == "≤ 100 ms"
            if not row[6].startswith("skipped: no PostgreSQL server"):
                assert row[1].endswith(" ms") and row[2].endswith(" ms") and float(row[2].split()[0]) > 0

    @pytest.mark.parametrize("loop", ["tune", "quick-batch"])
    def test_each_watch_has_an_idle_cpu_row_against_its_status_once_a_second(self, rows, loop):
        (row,) = [row for row in rows if row[0].startswith(f"`{loop} watch`'s CPU on a terminal while nothing")]

        assert row[0].endswith(f"vs `{loop} status` run once a second)") and row[5] == "≤ 1 % of a core"
        assert row[1].endswith(" % of a core") or row[6] == "skipped: needs Linux's /proc/PID/schedstat"


class TestTheInstall:
    def test_the_process_rows_ran_the_installed_wheel(self, quick_run):
        (line,) = [line for line in quick_run[1].splitlines() if line.startswith("Process rows: batchlog from ")]
        package = Path(re.search(r"of its own \((.+?)\)", line)[1])

        assert "batchlog-" in line and ".whl installed in a virtual environment" in line
        assert package.name == "batchlog" and "site-packages" in package.parts
        assert not package.is_relative_to(ROOT)

    def test_the_wheel_runs_in_a_venv_of_its_own_without_the_editable_finder(self, tmp_path):
        installed = install(tmp_path)
        probe = "import sys, batchlog.cli.main as m; print(m.__file__); print(sorted(n for n in sys.modules if 'editable' in n))"

        found = subprocess.run([installed.python, "-c", probe], capture_output=True, text=True, cwd=tmp_path,
                               check=True).stdout.splitlines()
        status = subprocess.run([installed.batchlog, "tune", "status", "--dir", "fixtures/tune-in-progress"],
                                capture_output=True, text=True, cwd=ROOT)

        assert Path(found[0]).is_relative_to(installed.venv) and found[1] == "[]"
        assert installed.package.is_relative_to(installed.venv)
        assert status.returncode == 0 and "selection     64 cases" in status.stdout


class TestWorkloads:
    @pytest.mark.parametrize(("factor", "batches", "voids"), [(1, 1, 0), (10, 13, 0), (100, 99, 102)])
    def test_a_growing_tuning_has_factor_times_the_runs(self, factor, batches, voids):
        from bench.workloads import growing_shape

        assert growing_shape(factor) == (batches, voids)
        assert 3 * batches + voids + 1 == 4 * factor

    @pytest.mark.parametrize("factor", [1, 10])
    def test_a_growing_tuning_holds_its_audit_in_the_events_asked(self, tmp_path, factor):
        from batchlog.cli.tune.log import tuning_types
        from bench.workloads import growing_shape, growing_tuning_events, write_log
        from tests.clirunner import invoke

        batches, voids = growing_shape(factor)
        end = write_log(tmp_path / "events.jsonl", tuning_types(), growing_tuning_events(batches, voids, 300 * factor))
        audit = invoke("tune", "audit", "--dir", tmp_path, "--json")

        report = orjson.loads(audit.out)
        assert audit.code == 0 and report["holds"]
        assert end.seq == 300 * factor
        assert report["timeline"]["runs"] == 4 * factor and report["timeline"]["batches"] == batches

    def test_the_first_event_alone_is_a_tuning_started(self, tmp_path):
        """The reports' rows subtract the report of this one-event log from every other."""
        from bench.workloads import growing_tuning_events

        (first,) = itertools.islice(growing_tuning_events(1, 0, 100), 1)

        assert type(first).__name__ == "TuningStarted" and len(first.cases) == 3

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
