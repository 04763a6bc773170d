"""A third loop, defined here and nowhere else (events, Decider, one command), registered the way the two real ones
are, by one line: BATCHLOG_LOOPS=tests.third_loop.loop:LOOP. The engine and the CLI work on its log as on theirs:
`log verify`, `log show`, snapshots, `--at`, and each loop refuses another's log."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path


from batchlog.engine.snapshots.file import Snapshots
from batchlog.engine.snapshots.key import key_id
from tests.clirunner import invoke
from tests.third_loop.events import REGISTRY
from tests.third_loop.versions import VERSIONS

ROOT = Path(__file__).resolve().parents[2]
REGISTERED = {"BATCHLOG_LOOPS": "tests.third_loop.loop:LOOP"}
WORDS = [f"w{n % 7}" for n in range(210)]  # enough events in one command for a snapshot after it (every 200)


def tally(*args, cwd: Path, env: dict | None = None):
    return invoke("tally", *args, env={**REGISTERED, **(env or {})}, cwd=cwd)


def test_its_table_is_its_registrys():
    assert VERSIONS == {name: spec.version for name, spec in REGISTRY.by_name.items()}


class TestThroughTheCli:
    def test_it_counts_and_shows_as_of_any_seq(self, tmp_path):
        assert tally("alpha", "beta", "alpha", cwd=tmp_path).out == "alpha 2\nbeta 1\n"
        assert tally("beta", cwd=tmp_path).out == "alpha 2\nbeta 2\n"

        assert tally(cwd=tmp_path).out == "alpha 2\nbeta 2\n"
        assert tally("--at", "2", cwd=tmp_path).out == "alpha 1\nbeta 1\n"
        past = tally("--at", "5", cwd=tmp_path)
        assert (past.code, past.err) == (1, "batchlog: --at 5 is past the end of the log tally/events.jsonl: it holds "
                                            "4 events (give --at 1 to 4)\n")

    def test_log_verify_and_log_show_read_its_log(self, tmp_path):
        tally("alpha", "beta", cwd=tmp_path, env={"BATCHLOG_CLOCK": "2026-12-02T16:00:00Z"})

        verified = invoke("log", "verify", "tally/events.jsonl", "--json", env=REGISTERED, cwd=tmp_path)
        shown = invoke("log", "show", "tally/events.jsonl", "--at", "1", env=REGISTERED, cwd=tmp_path)

        assert verified.code == 0 and json.loads(verified.out)["trusted"] is True
        assert shown.out == "     1  2026-12-02T16:00:00.000Z  tally.counted               word=alpha\n"

    def test_its_views_snapshot_and_log_verify_compares_the_snapshot(self, tmp_path):
        tally("first", cwd=tmp_path)
        tally(*WORDS, cwd=tmp_path)
        snapshot = Snapshots.key_folder(tmp_path / "tally" / "events.jsonl", key_id()) / "tally.json"
        assert snapshot.is_file()
        tally("extra", cwd=tmp_path)
        from_snapshot = tally(cwd=tmp_path).out
        snapshot.unlink()

        full_replay = tally(cwd=tmp_path).out
        checked = invoke("log", "verify", "tally/events.jsonl", "--snapshots", env=REGISTERED, cwd=tmp_path)

        assert from_snapshot == full_replay and "extra 1" in full_replay
        assert checked.code == 0 and "agrees with a replay of the log" in checked.out

    def test_each_loop_refuses_anothers_log(self, tmp_path):
        tally("alpha", cwd=tmp_path)
        shutil.copytree(ROOT / "fixtures" / "tune-in-progress", tmp_path / "finetune")

        tuning = invoke("tune", "status", "--dir", "tally", env=REGISTERED, cwd=tmp_path)
        batch = invoke("quick-batch", "status", "--run-dir", "tally", env=REGISTERED, cwd=tmp_path)
        ours = tally("--dir", "finetune", cwd=tmp_path)

        assert (tuning.code, tuning.err) == (1, "batchlog: this log is not a tuning's: it holds tally.counted events "
                                                "(another loop's); give --dir the tuning's folder\n")
        assert batch.code == 1 and "is not a quick batch's log (its first event is tally.counted)" in batch.err
        assert (ours.code, ours.err) == (1, "batchlog: finetune/events.jsonl is not a tally's log: it holds "
                                            "tune.tuning_started events\n")

    def test_it_is_a_command_only_when_registered(self, tmp_path):
        assert "tally" in invoke("--help", env=REGISTERED).out
        assert "tally" not in invoke("--help").out
        assert invoke("tally", "alpha", cwd=tmp_path).code == 2

    def test_a_registration_that_names_no_loop_is_a_usage_error(self, tmp_path):
        result = invoke("tune", "status", env={"BATCHLOG_LOOPS": "tests.third_loop.loop:NOTHING"}, cwd=tmp_path)

        assert result.code == 2 and result.err.startswith("batchlog: BATCHLOG_LOOPS: 'tests.third_loop.loop:NOTHING' "
                                                          "names no loop")

    def test_a_loop_registered_twice_is_a_usage_error(self, tmp_path):
        twice = ",".join([REGISTERED["BATCHLOG_LOOPS"]] * 2)

        result = invoke("tally", env={"BATCHLOG_LOOPS": twice}, cwd=tmp_path)

        assert result.code == 2 and "a loop named tally, and batchlog has one of that name already" in result.err


def test_as_a_subprocess(tmp_path):
    """The console script, its loops read from the environment of a process of its own."""
    env = {**os.environ, **REGISTERED, "PYTHONPATH": str(ROOT)}
    batchlog = [sys.executable, "-m", "batchlog.cli.main"]

    def run(*args):
        return subprocess.run([*batchlog, *args], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)

    first = run("tally", "first")
    counted = run("tally", *WORDS)
    at = run("tally", "--at", "3")
    verified = run("log", "verify", "tally/events.jsonl", "--snapshots")

    assert first.returncode == counted.returncode == 0 and counted.stdout.startswith("first 1\nw0 30\n")
    assert at.stdout == "first 1\nw0 1\nw1 1\n"
    assert verified.returncode == 0 and "snapshot" in verified.stdout and "agrees" in verified.stdout
