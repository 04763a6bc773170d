"""Running one scenario against the seed (recording its steps) and against batchlog, and comparing.

Both run in the same absolute folder (the seed's tree is moved aside first), so
absolute paths and the briefs' folder hash are the same; the clock is pinned to
the same instant on both sides. What may differ: the state file (batch.jsonl
against events.jsonl and its snapshots; no lock file: the lock is on the log itself; a torn last line is
each side's own), the log archived beside a summary and the note beside a removed run folder.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import attrs

from tests.clirunner import invoke
from tests.quick_batch.scenarios import EPOCH
from tests.seeds import QUICK_BATCH_PY, SEEDS, UPSTREAM_SCRIPTS


def upstream_layout(folder: Path) -> tuple[Path, Path]:
    """The seed beside skill-forge's real brief validator, in skill-forge's tree (the validator finds
    its schema from its own place): (the seed script, the brief schema). As upstream/README.md says."""
    scripts = folder / "src" / "shared" / "scripts"
    shutil.copytree(UPSTREAM_SCRIPTS, scripts)
    shutil.copy(QUICK_BATCH_PY, scripts / QUICK_BATCH_PY.name)
    shutil.copytree(SEEDS / "schemas", scripts / "schemas", dirs_exist_ok=True)
    return scripts / QUICK_BATCH_PY.name, scripts / "schemas" / "skill-brief.v1.json"

SERVER = Path(__file__).with_name("seed_server.py")
BRIEF_SCHEMA = SEEDS / "schemas" / "skill-brief.v1.json"


@attrs.frozen
class Outcome:
    code: Any
    out: str
    err: str


class SeedProcess:
    """The seed, loaded once in a helper process, running one command per request."""

    def __init__(self, script: Path = QUICK_BATCH_PY) -> None:
        env = {**os.environ, "COLUMNS": "200", "PYTHONHASHSEED": "0"}
        self.proc = subprocess.Popen([sys.executable, str(SERVER), str(script)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, env=env, cwd=str(script.parent))

    def run(self, argv: list[str], cwd: Path, seconds: int) -> Outcome:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps({"argv": argv, "cwd": str(cwd), "time": seconds}) + "\n")
        self.proc.stdin.flush()
        reply = json.loads(self.proc.stdout.readline())
        return Outcome(reply["code"], reply["out"], reply["err"])

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait(timeout=10)


class Recorder:
    """Actions against the seed, each step kept for the replay."""

    def __init__(self, root: Path, seed: SeedProcess) -> None:
        self.root, self.seed, self.seconds = root, seed, EPOCH
        self.steps: list[tuple[Any, ...]] = []
        self.outcomes: list[Outcome] = []
        self.tears = 0  # torn lines written into a state file

    def write(self, path: str, data: bytes) -> None:
        self.steps.append(("write", path, data))
        _write(self.root, path, data)

    def mkdir(self, path: str) -> None:
        self.steps.append(("mkdir", path))
        (self.root / path).mkdir(parents=True, exist_ok=True)

    def clock(self, seconds: int) -> None:
        self.steps.append(("clock", seconds))
        self.seconds = seconds

    def tear(self, run_dir: str) -> None:
        self.steps.append(("tear", run_dir))
        self.tears += _tear(self.root / run_dir / "batch.jsonl", SEED_TORN)

    def cmd(self, argv: list[str], cwd: str = ".") -> Outcome:
        self.steps.append(("cmd", argv, cwd))
        outcome = self.seed.run(argv, self.root / cwd, self.seconds)
        self.outcomes.append(outcome)
        return outcome


# A line each side's state file could hold, cut short by a crash mid-write.
SEED_TORN = b'{"event":"result","batch":1,"tar'
OUR_TORN = b'{"seq":9,"type":"qb.target_rec'


def _tear(state: Path, torn: bytes) -> bool:
    """`torn` appended to the state file, when the batch has one (then True)."""
    if not state.is_file():
        return False
    with open(state, "ab") as file:
        file.write(torn)
    return True


def _write(root: Path, path: str, data: bytes) -> None:
    file = root / path
    try:
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_bytes(data)
    except OSError:
        pass  # e.g. a run folder the command removed: the same on both sides


def replay(steps: list[tuple[Any, ...]], root: Path, schema: Path = BRIEF_SCHEMA) -> list[Outcome]:
    """The recorded steps run against batchlog in-process (its brief validator: the one beside `schema`'s
    folder, as skill-forge lays them out)."""
    seconds, outcomes = EPOCH, []
    for step in steps:
        if step[0] == "write":
            _write(root, step[1], step[2])
        elif step[0] == "mkdir":
            (root / step[1]).mkdir(parents=True, exist_ok=True)
        elif step[0] == "clock":
            seconds = step[1]
        elif step[0] == "tear":
            _tear(root / step[1] / "events.jsonl", OUR_TORN)
        else:
            clock = datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
            env = {"BATCHLOG_CLOCK": clock, "BATCHLOG_BRIEF_SCHEMA": str(schema), "COLUMNS": "200"}
            result = invoke("quick-batch", *step[1], env=env, cwd=root / step[2])
            outcomes.append(Outcome(result.code, result.out, result.err))
    return outcomes


def _normal(outcome: Outcome) -> Outcome:
    """The state file named alike; a usage error compared by its exit code and last line, prog aside."""
    if outcome.code != 2:
        return Outcome(outcome.code, outcome.out, outcome.err.replace("events.jsonl", "batch.jsonl"))
    last = outcome.err.strip().splitlines()[-1]
    return Outcome(2, outcome.out, last.replace("skf-quick-batch.py", "PROG").replace("batchlog quick-batch", "PROG"))


def tree(root: Path, ours: bool) -> dict[str, bytes | None]:
    """Every file (with its bytes) and folder under `root`; the state file named alike on both sides."""
    found: dict[str, bytes | None] = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        name = path.name
        if ours and "events.jsonl.snap" in rel:
            continue  # batchlog's snapshots of a long batch's state
        if path.is_dir():
            found[rel + "/"] = None
        elif name == "batch.jsonl" and not ours:
            found[rel] = b"<state>"
        elif ours and name == "events.jsonl":
            found[rel[: -len(name)] + "batch.jsonl"] = b"<state>"
        elif ours and (name.endswith(".events.jsonl")
                       or (name.startswith(".") and name.endswith(".summarized.json"))):  # the archive's note
            continue
        else:
            found[rel] = path.read_bytes()
    return found


def archived_logs(root: Path) -> tuple[int, list[str]]:
    """(archives found, problems): each archived log ends with the summary, then the note that it was
    written to the file beside it."""
    problems, count = [], 0
    for archive in root.rglob("*.events.jsonl"):
        count += 1
        last = json.loads(archive.read_bytes().splitlines()[-1])
        summary = archive.with_name(archive.name.replace(".events.jsonl", ".json"))
        if last["type"] != "qb.summary_written" or not summary.is_file() or \
                not last["data"]["summary_path"].endswith(summary.name):
            problems.append(f"{archive.name} is not the log of {summary.name}")
    return count, problems


@attrs.frozen
class Report:
    commands: int
    archived: int
    imports: int
    summaries: int  # imports whose `summarize` wrote summaries on either side: a comparison that can differ
    tears: int  # state files given a torn last line before a command
    problems: list[str]
    seed_text: str  # everything the seed printed and every summary it wrote, for the coverage check


def imported_batches(number: int, root: Path, work: Path, seed: SeedProcess) -> tuple[int, int, list[str]]:
    """Each batch the seed left (batch.jsonl), a torn line sometimes added, taken over by
    `batchlog quick-batch import`: the next `next` and `summarize` agree with the seed's own.

    Gives (imports, imports with summaries written on either side, problems)."""
    problems, summaries = [], 0
    states = sorted(root.rglob("batch.jsonl"))
    for index, state in enumerate(states):
        run = state.parent.relative_to(root).as_posix()
        if number % 2:
            with open(state, "ab") as fh:
                fh.write(b'{"event":"result","batch":1,"tar')  # a write cut short
        other = work / f"imported{index}"
        shutil.copytree(root, other)
        first = invoke("quick-batch", "import", "--run-dir", run, cwd=other)
        if first.code != 0:
            problems.append(f"scenario {number}: import of {run} exited {first.code}")
            continue
        log = other / run / "events.jsonl"
        imported = log.read_bytes()
        again = invoke("quick-batch", "import", "--run-dir", run, cwd=other)
        if (again.code, again.out) != (0, first.out) or log.read_bytes() != imported:
            problems.append(f"scenario {number}: import of {run} again: {again} after {first}")
        for argv in (["next", "--run-dir", run], ["summarize", "--run-dir", run, "--output-dir", "imported-out"]):
            theirs = seed.run(argv, root, EPOCH)
            env = {"BATCHLOG_CLOCK": "2026-12-02T16:00:00Z"}
            result = invoke("quick-batch", *argv, env=env, cwd=other)
            mine = Outcome(result.code, result.out, result.err)
            if _normal(theirs) != _normal(mine):
                problems.append(f"scenario {number}: after import, {argv}:\n  seed:     {theirs}\n  batchlog: {mine}")
        theirs_out, ours_out = tree(root / "imported-out", ours=False), tree(other / "imported-out", ours=True)
        summaries += bool(theirs_out or ours_out)
        if theirs_out != ours_out:
            problems.append(f"scenario {number}: after import of {run}, the summaries differ")
        shutil.rmtree(other)
    return len(states), summaries, problems


def run_scenario(number: int, work: Path, seed: SeedProcess, scenario, schema: Path = BRIEF_SCHEMA) -> Report:
    """Scenario `number` on both sides, compared (`schema`: the brief schema whose validator both use)."""
    root = work / "w"
    root.mkdir()
    recorder = Recorder(root, seed)
    scenario(number, recorder)
    seed_tree = tree(root, ours=False)
    imports, summaries, imported = imported_batches(number, root, work, seed)
    shutil.rmtree(root)
    root.mkdir()
    ours = replay(recorder.steps, root, schema)
    ours_tree = tree(root, ours=True)
    problems = []
    commands = [s for s in recorder.steps if s[0] == "cmd"]
    for step, theirs, mine in zip(commands, recorder.outcomes, ours, strict=True):
        if _normal(theirs) != _normal(mine):
            problems.append(f"scenario {number}: {step[1]} (cwd {step[2]}):\n  seed:     {theirs}\n  batchlog: {mine}")
    if seed_tree != ours_tree:
        only_seed = sorted(set(seed_tree) - set(ours_tree))
        only_ours = sorted(set(ours_tree) - set(seed_tree))
        changed = sorted(k for k in set(seed_tree) & set(ours_tree) if seed_tree[k] != ours_tree[k])
        problems.append(f"scenario {number}: files differ: only seed {only_seed}, only batchlog {only_ours}, "
                        f"content {changed}")
    problems += imported
    archived, bad = archived_logs(root)
    problems += [f"scenario {number}: {why}" for why in bad]
    shutil.rmtree(root, ignore_errors=True)
    text = "".join(o.out + o.err for o in recorder.outcomes) + "".join(
        v.decode("utf-8", "replace") for k, v in seed_tree.items() if v and "-batch-" in k and k.endswith(".json"))
    return Report(len(commands), archived, imports, summaries, recorder.tears, problems, text)
