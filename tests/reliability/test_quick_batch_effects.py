"""The quick batch's effects (summary files, the archived log, removed run folders) finished on repeat.

A quick-batch command killed at each point the engine's crash hook names (engine/crash_hook.py), then
run again unchanged, ends exactly as one uninterrupted run: the same files byte for byte in the whole
folder (logs, summaries, archives; no temporary or empty file; run folders removed as they would be),
the same exit code and output. Covered: `start` (a batch file, and briefs over an ended batch),
`next`, `record` of a success, `summarize` of a clean batch (summary, archive, removal) and of a
halted one. Also: concurrent repeats of a recorded `summarize` never collide.
"""

from __future__ import annotations

import os
from pathlib import Path

import orjson
import pytest

from batchlog.engine.crash_hook import CRASH_ENV
from tests.clirunner import invoke
from tests.reliability.test_tune_effects import CRASH_POINTS, EFFECT_POINTS
from tests.reliability.workers import fork, wait
from tests.seeds import SEEDS, require

ENV = {"BATCHLOG_LOCK_TIMEOUT": "60", "BATCHLOG_CLOCK": "2026-12-02T16:00:00Z",
       "BATCHLOG_BRIEF_SCHEMA": str(SEEDS / "schemas" / "skill-brief.v1.json")}
RUN = "runs/skf-quick-skill-1"
CONCURRENT_REPEATS = 12
BRIEF = "name: {name}\nversion: 1.0.0\nsource_repo: https://github.com/x/y\nlanguage: python\n" \
        "description: A skill.\nforge_tier: Quick\ncreated: '2026-01-02'\ncreated_by: someone\n" \
        "scope: {{type: full-library, include: [], exclude: [], notes: ''}}\n"


def qb(folder: Path, *args: object, env: dict[str, str] | None = None):
    return invoke("quick-batch", *map(str, args), env={**ENV, **(env or {})}, cwd=folder)


def ok(result) -> None:
    assert result.code == 0, result.err


def batch_file(folder: Path) -> Path:
    folder.mkdir(parents=True)
    (folder / "t.txt").write_text("https://example.org/a\nhttps://example.org/b\n")
    return folder


def started(folder: Path) -> Path:
    ok(qb(batch_file(folder), "start", "t.txt", "--run-dir", RUN))
    return folder


def handed_out(folder: Path) -> Path:
    ok(qb(started(folder), "next", "--run-dir", RUN))
    (folder / RUN / "skf-quick-skill-1-1" / "result-context.json").write_text('{"summary":{"quality_score":90}}')
    return folder


def all_recorded(folder: Path, halt_second: bool = False) -> Path:
    handed_out(folder)
    ok(qb(folder, "record", "--run-dir", RUN, "--batch", "1"))
    ok(qb(folder, "next", "--run-dir", RUN))
    staged = ("halt.json", '{"halt_reason":"user-cancelled"}') if halt_second else ("result-context.json", "{}")
    (folder / RUN / "skf-quick-skill-1-2" / staged[0]).write_text(staged[1])
    ok(qb(folder, "record", "--run-dir", RUN, "--batch", "2"))
    return folder


def ended_brief_batch(folder: Path) -> Path:
    """A brief batch summarized with a halt (its run folder kept, a stray file in it): `start` again (a
    second later) begins a new batch there, whose effect empties the folder but for the log."""
    for name in ("alpha", "beta"):
        (folder / "b" / name).mkdir(parents=True)
        (folder / "b" / name / "skill-brief.yaml").write_text(BRIEF.format(name=name))
    first = qb(folder, "start", "--briefs", "b", "--run-root", "rr")
    ok(first)
    run = next((folder / "rr").iterdir()).relative_to(folder)
    ok(qb(folder, "next", "--run-dir", run))
    halt = next(p for p in (folder / run).iterdir() if p.is_dir() and p.name.endswith("-1"))
    (halt / "halt.json").write_text('{"halt_reason":"halted-for-brief-refinement"}')
    ok(qb(folder, "record", "--run-dir", run, "--batch", "1"))
    ok(qb(folder, "next", "--run-dir", run))
    (next(p for p in (folder / run).iterdir() if p.is_dir() and p.name.endswith("-2")) / "result-context.json") \
        .write_text("{}")
    ok(qb(folder, "record", "--run-dir", run, "--batch", "2"))
    ok(qb(folder, "summarize", "--run-dir", run, "--output-dir", "out"))
    (folder / run / "stray.txt").write_text("left by the agent")
    return folder


LATER = {"BATCHLOG_CLOCK": "2026-12-02T16:00:01Z"}
# name: (how to lay the folder out, the words after `batchlog quick-batch`, whether it writes output files)
COMMANDS = {
    "start": (batch_file, ["start", "t.txt", "--run-dir", RUN], False),
    "start --briefs over an ended batch": (ended_brief_batch, ["start", "--briefs", "b", "--run-root", "rr"], False),
    "next": (started, ["next", "--run-dir", RUN], False),
    "record": (handed_out, ["record", "--run-dir", RUN, "--batch", "1"], False),
    "summarize": (all_recorded, ["summarize", "--run-dir", RUN, "--output-dir", "out"], True),
    "summarize a halted batch": (lambda f: all_recorded(f, halt_second=True),
                                 ["summarize", "--run-dir", RUN, "--output-dir", "out"], True),
}


def brief_batch_summarized(folder: Path) -> None:
    run = next((folder / "rr").iterdir()).relative_to(folder)
    for number in (1, 2):
        ok(qb(folder, "next", "--run-dir", run, env=LATER))
        target = next(p for p in (folder / run).iterdir() if p.is_dir() and p.name.endswith(f"-{number}"))
        (target / "result-context.json").write_text("{}")
        ok(qb(folder, "record", "--run-dir", run, "--batch", number, env=LATER))
    ok(qb(folder, "summarize", "--run-dir", run, "--output-dir", "out", env=LATER))


def outcome(folder: Path) -> dict[str, bytes]:
    """Every file under `folder` byte for byte by relative path, and every folder (an empty run folder counts).
    No lock file is set aside: the lock is on the log itself, so a killed command leaves none."""
    found = {}
    for path in sorted(folder.rglob("*")):
        relative = path.relative_to(folder).as_posix()
        if path.is_dir():
            found[relative + "/"] = b""
        elif relative.endswith("events.jsonl"):
            found[relative] = _events(path)
        else:
            found[relative] = path.read_bytes()
    return found


def _events(path: Path) -> bytes:
    """A log's events by seq, type, version and data: ids and links hash the folder's absolute path."""
    lines = [orjson.loads(line) for line in path.read_bytes().splitlines()]
    return orjson.dumps([(line["seq"], line["type"], line["v"], line["at"], line["data"]) for line in lines])


def renamed(calm: Path, crashed: Path) -> list[tuple[str, str]]:
    """What differs between the two folders by where they are: their paths, and the brief batch's run
    folder (named by a hash of the briefs' absolute paths)."""
    pairs = [(str(calm), str(crashed))]
    if (calm / "rr").is_dir():
        pairs += list(zip((p.name for p in (calm / "rr").iterdir()), (p.name for p in (crashed / "rr").iterdir())))
    return pairs


def translated(text: str, pairs: list[tuple[str, str]]) -> str:
    for old, new in pairs:
        text = text.replace(old, new)
    return text


def same_as(calm: Path, crashed: Path) -> None:
    pairs = renamed(calm, crashed)
    expected = {translated(k, pairs): translated(v.decode("latin-1"), pairs).encode("latin-1")
                for k, v in outcome(calm).items()}
    got = outcome(crashed)
    assert got.keys() == expected.keys(), "a temporary, stale or missing file"
    for relative, data in expected.items():
        assert got[relative] == data, relative


def run_killed_at(folder: Path, point: str, words: list, env: dict[str, str] | None = None) -> int:
    return wait(fork(lambda: qb(folder, *words, env={**(env or {}), CRASH_ENV: point})))


@pytest.mark.parametrize("point", CRASH_POINTS)
@pytest.mark.parametrize("name", list(COMMANDS))
def test_a_command_killed_at_a_point_then_repeated_ends_as_an_uninterrupted_run(tmp_path, name, point):
    require(SEEDS / "skf-validate-brief-schema.py")
    lay_out, words, writes_files = COMMANDS[name]
    calm, crashed = tmp_path / "calm", tmp_path / "crashed"
    lay_out(calm), lay_out(crashed)
    env = LATER if name.startswith("start --briefs") else {}
    uninterrupted = qb(calm, *words, env=env)
    ok(uninterrupted)

    code = run_killed_at(crashed, point, words, env)
    assert code == (-9 if writes_files or not point.startswith("effect.") else 0)
    repeated = qb(crashed, *words, env=env)

    expected = translated(uninterrupted.out, renamed(calm, crashed))
    if name.startswith("start") and (code == 0 or point in ("append.after_write", "append.after_fsync")):
        expected = expected.replace('"resumed":false', '"resumed":true')  # the start is recorded: it says so
    assert (repeated.code, repeated.out) == (0, expected), repeated.err
    same_as(calm, crashed)
    if name.startswith("start --briefs"):  # the batch then goes on as the uninterrupted one does
        for folder in (calm, crashed):
            brief_batch_summarized(folder)
        same_as(calm, crashed)


def test_a_clean_summary_removes_its_run_folder_lock_file_included(tmp_path):
    folder = all_recorded(tmp_path / "t")

    ok(qb(folder, "summarize", "--run-dir", RUN, "--output-dir", "out"))

    assert not (folder / RUN).exists()
    assert sorted(p.name for p in (folder / "out").iterdir()) == [
        "quick-skill-batch-20261202-160000.events.jsonl", "quick-skill-batch-20261202-160000.json",
        "quick-skill-batch-latest.json"]


@pytest.mark.parametrize("point", EFFECT_POINTS)
def test_a_summary_killed_mid_write_is_absent_or_whole_never_empty(tmp_path, point):
    calm, crashed = all_recorded(tmp_path / "calm"), all_recorded(tmp_path / "crashed")
    ok(qb(calm, "summarize", "--run-dir", RUN, "--output-dir", "out"))

    assert run_killed_at(crashed, point, ["summarize", "--run-dir", RUN, "--output-dir", "out"]) == -9

    for path in (crashed / "out").iterdir():
        assert not path.name.startswith(".") or path.name.endswith(".tmp")  # a temporary of a killed writer
        if not path.name.startswith("."):
            assert path.read_bytes() == (calm / "out" / path.name).read_bytes().replace(
                str(calm).encode(), str(crashed).encode())


def repeat_summarize(folder: Path, go: int, out: Path) -> None:
    os.read(go, 1)
    result = qb(folder, "summarize", "--run-dir", RUN, "--output-dir", "out")
    out.write_text(f"{result.code}\n{result.out}{result.err}")


def test_concurrent_repeats_of_a_recorded_summarize_never_collide(tmp_path):
    calm, folder = all_recorded(tmp_path / "calm", halt_second=True), all_recorded(tmp_path / "t", halt_second=True)
    first = qb(calm, "summarize", "--run-dir", RUN, "--output-dir", "out")
    assert run_killed_at(folder, "append.after_fsync", ["summarize", "--run-dir", RUN, "--output-dir", "out"]) == -9
    go_r, go_w = os.pipe()
    children = [fork(repeat_summarize, folder, go_r, tmp_path / f"out-{n}") for n in range(CONCURRENT_REPEATS)]
    os.write(go_w, b"x" * CONCURRENT_REPEATS)  # all at once: each waits on the pipe, none on a timer

    codes = [wait(pid) for pid in children]

    results = [(tmp_path / f"out-{n}").read_text() for n in range(CONCURRENT_REPEATS)]
    assert codes == [0] * CONCURRENT_REPEATS
    assert all(result == f"0\n{first.out}" for result in results), results
    same_as(calm, folder)
