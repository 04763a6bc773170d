"""The tuning's effects (the files a command writes besides its log) finished on repeat.

A command killed at each point the engine's crash hook names (engine/crash_hook.py: `append.*` and
`effect.*`), then run again unchanged, ends exactly as one uninterrupted run: the same log (event
types and data), the same files byte for byte, no temporary file left, the same exit code and output.
Covered: `tune next-batch -o`, `tune run start`, `tune import`. Also: many concurrent repeats of a
recorded `next-batch -o` never collide (each writer has a temporary name of its own).
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import orjson
import pytest

from batchlog.cli.tune.log import tuning_state
from batchlog.engine.crash_hook import CRASH_ENV
from tests.clirunner import invoke
from tests.reliability.workers import fork, log_lines, wait

CRASH_POINTS = ("append.before_write", "append.mid_write", "append.after_write", "append.after_fsync",
                "effect.temp_written", "effect.before_rename", "effect.after_rename")
EFFECT_POINTS = tuple(point for point in CRASH_POINTS if point.startswith("effect."))
PATIENT = {"BATCHLOG_LOCK_TIMEOUT": "60"}
CONCURRENT_REPEATS = 24


def _crash_points_named_by_the_hook() -> tuple[str, ...]:
    import batchlog.engine.crash_hook

    doc = batchlog.engine.crash_hook.__doc__ or ""
    # A reader's pause points (`read.*`) are no command's: nothing is written there.
    return tuple(line.split()[0] for line in doc.splitlines()
                 if line.startswith("  ") and "." in line.split()[0] and not line.split()[0].startswith("read."))


def tune(*args: object, env: dict[str, str] | None = None):
    return invoke("tune", *map(str, args), env={**PATIENT, **(env or {})})


def new_tuning(folder: Path) -> Path:
    # one folder per tuning, the dataset beside it: `init` records the dataset relative to the tuning's folder,
    # so the calm and the crashed tuning record the same path
    folder.parent.mkdir(parents=True, exist_ok=True)
    dataset = folder.parent / "dataset.json"
    dataset.write_bytes(orjson.dumps({"name": "effects", "cases": [
        {"id": f"case-{n:02d}", "class": "abc"[n % 3], "complexity": "complex" if n % 4 == 0 else "simple"}
        for n in range(9)]}))
    assert tune("init", "--dataset", dataset, "--min-batch", "2", "--max-batch", "3", "--recheck", "1",
                "--dir", folder).code == 0
    return folder


def batch_built(folder: Path) -> Path:
    new_tuning(folder)
    assert tune("next-batch", "-o", folder / "runs" / "batch01-nomem-run1" / "cases.json", "--dir", folder).code == 0
    return folder


def nomem_passed(folder: Path) -> Path:
    batch_built(folder)
    assert tune("run", "grade", "batch01-nomem-run1", "--verdict", "PASSED", "--dir", folder).code == 0
    return folder


def zen_folder(folder: Path) -> Path:
    """A zen-finetune folder (dataset, selection, a run with cases, plan and findings) and no log."""
    tuning = nomem_passed(folder.parent / f"{folder.name}-source")
    state = tuning_state(tuning)
    shutil.copytree(tuning / "runs", folder / "runs")
    bodies = {case.id: json.loads(case.body) for case in state.cases}
    (folder / "dataset.json").write_text(json.dumps({"cases": list(bodies.values())}))
    (folder / "selection.json").write_text(json.dumps({"batch": [{"id": case} for case in state.selection]}))
    (folder / "config.json").write_text(json.dumps({"minBatch": 2, "maxBatch": 3, "recheck": 1, "seed": 1}))
    (folder / "runs" / "batch01-nomem-run1" / "findings.md").write_text("# batch01-nomem-run1\n\n## PASSED\n")
    return folder


# (how to lay the folder out before the command, the command's words after `batchlog tune`)
COMMANDS = {
    "next-batch -o": (new_tuning, lambda d: ["next-batch", "-o", d / "runs" / "batch01-nomem-run1" / "cases.json",
                                             "--dir", d]),
    "run start": (nomem_passed, lambda d: ["run", "start", "--batch", "1", "--kind", "mem", "--dir", d]),
    "tune import": (zen_folder, lambda d: ["import", d]),
}


def outcome(folder: Path) -> tuple[list, dict[str, bytes]]:
    """What the command left: the log's events (type and data: seq, time and ids differ between runs) and every
    file of the folder but the log's own (lock, snapshots), byte for byte, by relative path."""
    events = [(line["seq"], line["type"], line["data"]) for line in log_lines(folder / "events.jsonl")]
    files = {}
    for path in sorted(folder.rglob("*")):
        relative = path.relative_to(folder).as_posix()
        if path.is_file() and not relative.startswith("events.jsonl"):
            files[relative] = path.read_bytes()
    return events, files


def run_killed_at(point: str, words: list) -> int:
    """The command in a child process with the crash hook set at `point`; the child's exit (-9: killed)."""
    return wait(fork(lambda: tune(*words, env={CRASH_ENV: point})))


def test_every_point_of_the_crash_hook_is_covered():
    assert set(_crash_points_named_by_the_hook()) == set(CRASH_POINTS)


@pytest.mark.parametrize("point", CRASH_POINTS)
@pytest.mark.parametrize("name", list(COMMANDS))
def test_a_command_killed_at_a_point_then_repeated_ends_as_an_uninterrupted_run(tmp_path, name, point):
    lay_out, words = COMMANDS[name]
    calm, crashed = lay_out(tmp_path / "calm" / "t"), lay_out(tmp_path / "crashed" / "t")
    uninterrupted = tune(*words(calm))
    assert uninterrupted.code == 0, uninterrupted.err

    code = run_killed_at(point, words(crashed))
    reached = not (name == "tune import" and point in EFFECT_POINTS)  # import writes no file besides its log
    assert code == (-9 if reached else 0)
    repeated = tune(*words(crashed))

    assert repeated.code == 0, repeated.err
    assert repeated.out == uninterrupted.out.replace(str(calm), str(crashed))
    calm_events, calm_files = outcome(calm)
    crashed_events, crashed_files = outcome(crashed)
    assert orjson.dumps(crashed_events) == orjson.dumps(calm_events).replace(str(calm).encode(), str(crashed).encode())
    assert crashed_files.keys() == calm_files.keys(), "a temporary or missing file"
    for relative, data in calm_files.items():
        assert crashed_files[relative] == data.replace(str(calm).encode(), str(crashed).encode()), relative


@pytest.mark.parametrize("point", EFFECT_POINTS)
def test_a_file_killed_mid_write_is_absent_or_whole_never_empty(tmp_path, point):
    folder = batch_built(tmp_path / "t")
    target = folder / "runs" / "batch01-nomem-run1" / "cases.json"
    whole = target.read_bytes()
    target.unlink()

    assert run_killed_at(point, ["next-batch", "-o", target, "--dir", folder]) == -9

    assert (target.read_bytes() == whole) if target.exists() else point != "effect.after_rename"


def repeat_next_batch(folder: Path, target: Path, go: int, out: Path) -> None:
    os.read(go, 1)
    result = tune("next-batch", "-o", target, "--dir", folder)
    out.write_text(f"{result.code}\n{result.err}")


def test_many_concurrent_repeats_of_a_recorded_next_batch_never_collide(tmp_path):
    folder = batch_built(tmp_path / "t")
    target = folder / "runs" / "batch01-nomem-run1" / "cases.json"
    cases, plan = target.read_bytes(), (target.parent / "plan.json").read_bytes()
    events = outcome(folder)[0]
    go_r, go_w = os.pipe()
    children = [fork(repeat_next_batch, folder, target, go_r, tmp_path / f"out-{n}")
                for n in range(CONCURRENT_REPEATS)]
    os.write(go_w, b"x" * CONCURRENT_REPEATS)  # all at once: each waits on the pipe, none on a timer

    codes = [wait(pid) for pid in children]

    results = [(tmp_path / f"out-{n}").read_text() for n in range(CONCURRENT_REPEATS)]
    assert codes == [0] * CONCURRENT_REPEATS
    assert all(result.startswith("0\n") for result in results), [r for r in results if not r.startswith("0\n")]
    assert target.read_bytes() == cases and (target.parent / "plan.json").read_bytes() == plan
    assert outcome(folder)[0] == events, "a repeat recorded something"
    assert sorted(p.name for p in target.parent.iterdir()) == ["cases.json", "plan.json"]


def test_an_import_killed_mid_write_can_be_repeated_and_views_agree(tmp_path):
    folder = zen_folder(tmp_path / "zen")

    assert run_killed_at("append.mid_write", ["import", folder]) == -9
    assert (folder / "events.jsonl").exists() and not tuning_state(folder).started

    repeated = tune("import", folder)
    assert repeated.code == 0, repeated.err
    assert tuning_state(folder).started and "imported" in repeated.out


def test_an_import_onto_a_log_with_other_events_is_refused(tmp_path):
    folder = zen_folder(tmp_path / "zen")
    assert tune("import", folder).code == 0
    (folder / "runs" / "batch01-nomem-run1" / "findings.md").write_text("## WRONG\n")
    before = (folder / "events.jsonl").read_bytes()

    again = tune("import", folder)

    assert again.code == 1 and "holds events already" in again.err
    assert (folder / "events.jsonl").read_bytes() == before
