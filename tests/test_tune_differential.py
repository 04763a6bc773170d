"""batch.mjs against projections/tune/rules.py on generated tuning histories, step by step.

A seeded generator plays the tuning loop (datasets of 1 to 80 cases with ids that differ in case and
punctuation, batches built with and without -m/-r/--seed, runs of both halves graded, some VOID, difficult
cases added, fixed and left to go stuck, selections used up, the last run sometimes ungraded). At every
decision it lays the history out as a zen folder and compares batch.mjs's status, preview (cases JSON on
stdout), cases.json and plan.json written with -o, the stderr summary and the nothing-left exit with what
rules.py gives. Most calls go to one long-lived Node process (tests/zenfolder.py: BatchMjsDriver); every
`PROCESS_EVERY`-th history runs batch.mjs as its own process instead, which also checks the driver.
"""

from __future__ import annotations

import random
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import attrs
import pytest

from projections.tune.config import settings_from_config
from projections.tune.rules import (
    SEVERITY,
    DifficultEntry,
    History,
    NothingLeft,
    Settings,
    cases_json,
    next_batch,
    open_difficult,
    pad,
    plan_json,
    progress_lines,
    summary_lines,
)
from projections.tune.selection import selection_order
from tests.zenfolder import NODE, BatchMjsDriver, NodeResult, ZenFolder, batch_mjs_args, run_batch_mjs

pytestmark = pytest.mark.skipif(NODE is None, reason="Node.js runs batch.mjs")

HISTORIES = 300
SOAK_HISTORIES = 3000
PROCESS_EVERY = 30  # 1 history in 30 runs batch.mjs as separate processes (~0.1 s a call)
WORKERS = 2
MAX_BATCHES = 12
RUN_LIMIT = 4  # non-VOID runs per half
ID_PARTS = ["case", "Case", "CASE", "a", "A", "b", "B", "q", "x-1", "x_1", "x.1", "X-1", "-", "_", ".", "0", "1",
            "2", "10", "Zeta", "zeta", "z"]


# ---------------------------------------------------------------------------------------------------------
# The generated tuning
# ---------------------------------------------------------------------------------------------------------

@attrs.define
class Tuning:
    """The generator's own record of a tuning: what a zen folder holds."""

    dataset: dict
    selection: list[dict]
    settings: Settings
    config: dict
    batches: dict[int, tuple[str, ...]] = attrs.Factory(dict)
    sizes: dict[int, int] = attrs.Factory(dict)
    runs: list[list[str]] = attrs.Factory(list)  # [name, verdict]
    difficult: list[DifficultEntry] | None = None

    def history(self) -> History:
        complexity = {c["id"]: c.get("complexity") or "" for c in self.dataset["cases"]}
        return History(selection=tuple(self.selection), complexity=complexity, settings=self.settings,
                       batches=dict(self.batches), sizes=dict(self.sizes),
                       runs=tuple((name, verdict) for name, verdict in self.runs),
                       difficult=None if self.difficult is None else tuple(self.difficult))


def random_id(rng: random.Random) -> str:
    return "".join(rng.choice(ID_PARTS) + rng.choice(["", "", "-", "_", "."]) for _ in range(rng.randint(1, 3)))


def generate_tuning(rng: random.Random) -> Tuning:
    count = rng.choice([rng.randint(1, 8), rng.randint(1, 25), rng.randint(1, 80)])
    ids: list[str] = []
    while len(ids) < count:
        candidate = random_id(rng)
        if candidate not in ids:
            ids.append(candidate)
    classes = [f"class-{k}" for k in range(rng.randint(1, 4))]
    cases = []
    for case_id in ids:
        case: dict = {"id": case_id, "class": rng.choice(classes)}
        complexity = rng.choice(["simple", "medium", "complex", "complex", None, "Complex"])
        if complexity is not None:
            case["complexity"] = complexity
        if rng.random() < 0.3:
            case["rubric"] = rng.choice(["must cite the clause", {"points": 3, "weight": 0.5}, ["a", "b"]])
        if rng.random() < 0.2:
            case["prompt"] = rng.choice(["résumé · naïve", "line\nbreak \"quoted\" \\ tab\t", "emoji 😀", "\u2028"])
        if rng.random() < 0.1:
            case["10"] = rng.choice([1.0, 1e-7, 2.5e21, -0.0, 12345678.9])
        cases.append(case)
    dataset = {"cases": cases}
    limit = rng.choice([None, None, rng.randint(1, count)])
    bodies = {c["id"]: c for c in cases}
    selection = [bodies[i] for i in selection_order(cases, limit)]
    config = {"minBatch": rng.randint(1, 5), "maxBatch": rng.randint(1, 12), "recheck": rng.randint(0, 5),
              "seed": rng.choice([1, rng.randint(1, 10**6), rng.randint(10**12, 10**15)]),
              "maxRetries": rng.randint(1, 4)}
    if rng.random() < 0.15:  # values batch.mjs's cfg() ignores or reads its own way
        config.update(rng.choice([{"minBatch": 0}, {"maxBatch": "6"}, {"recheck": None}, {"seed": -3},
                                  {"maxRetries": "x"}, {"recheck": "2"}]))
    return Tuning(dataset=dataset, selection=selection, settings=settings_from_config(config), config=config)


# ---------------------------------------------------------------------------------------------------------
# Comparing batch.mjs with rules.py
# ---------------------------------------------------------------------------------------------------------

class Diverged(AssertionError):
    pass


@attrs.define
class Comparison:
    """One history's zen folder and the way batch.mjs is run on it; each check compares one step."""

    tuning: Tuning
    folder: ZenFolder
    run: object  # (folder, args) -> NodeResult
    steps: list[str] = attrs.Factory(list)
    calls: int = 0

    def node(self, args: list[str]) -> NodeResult:
        self.folder.lay_out(self.tuning.history(), dataset=self.tuning.dataset, config=self.tuning.config)
        self.calls += 1
        return self.run(self.folder, args)

    def expect(self, what: str, got: object, want: object) -> None:
        if got != want:
            trail = "\n  ".join(self.steps[-12:])
            raise Diverged(f"{what} differs after:\n  {trail}\nbatch.mjs: {got!r}\nrules.py:  {want!r}")

    def status(self, size: int | None = None) -> None:
        self.steps.append(f"status -m {size}")
        result = self.node(batch_mjs_args("status", size=size))
        want = "\n".join(progress_lines(self.tuning.history(), size)) + "\n"
        self.expect("status", (result.code, result.out, result.err), (0, want, ""))

    def next(self, *, size=None, recheck=None, seed=None, out=None):
        """batch.mjs next against rules.next_batch; the plan, or None when nothing is left."""
        self.steps.append(f"next -m {size} -r {recheck} --seed {seed} -o {out}")
        history = self.tuning.history()
        result = self.node(batch_mjs_args("next", size=size, recheck=recheck, seed=seed, out=out))
        try:
            plan = next_batch(history, size=size, recheck=recheck, seed=seed)
        except NothingLeft as nothing:
            self.expect("nothing left", (result.code, result.out, result.err), (1, "", f"batch.mjs: {nothing}\n"))
            return None
        summary = "\n".join(summary_lines(plan, out, history.difficult is not None)) + "\n"
        self.expect("summary", (result.code, result.err), (0, summary))
        if out is None:
            self.expect("preview", result.out, cases_json(plan))
        else:
            plan_path = str(Path(out).parent / "plan.json") if "/" in out else "plan.json"
            self.expect("files", result.files, {str(Path(out)): cases_json(plan), plan_path: plan_json(plan)})
        return plan


# ---------------------------------------------------------------------------------------------------------
# Playing the loop
# ---------------------------------------------------------------------------------------------------------

def overrides(rng: random.Random) -> dict:
    chosen = {}
    if rng.random() < 0.15:
        chosen["size"] = rng.randint(1, 12)
    if rng.random() < 0.15:
        chosen["recheck"] = rng.randint(0, 6)
    if rng.random() < 0.15:
        chosen["seed"] = rng.choice([0, rng.randint(1, 10**6)])
    return chosen


def play(rng: random.Random, check: Comparison) -> None:
    """Play a tuning to its end (nothing left), to MAX_BATCHES, or to a stop in the middle of a batch."""
    tuning = check.tuning
    for _ in range(rng.randint(1, MAX_BATCHES)):
        chosen = overrides(rng)
        check.status(chosen.get("size") if rng.random() < 0.5 else None)
        if rng.random() < 0.5:
            check.next(**chosen)
        if rng.random() < 0.1:
            probe_odd_output(rng, check, chosen)
        number = max(tuning.batches, default=0) + 1
        out = f"finetune/runs/batch{pad(number)}-nomem-run1/cases.json"
        plan = check.next(**chosen, out=rng.choice([out, out, out, "./" + out]))
        if plan is None:
            return
        tuning.batches[number] = tuple(c["id"] for c in [*plan.new, *plan.recheck])
        tuning.sizes[number] = plan.size
        tuning.runs.append([f"batch{pad(number)}-nomem-run1", ""])
        if not play_batch(rng, check, number):
            check.status()
            check.next(**overrides(rng))
            return


def play_batch(rng: random.Random, check: Comparison, number: int) -> bool:
    """Run and grade both halves of a batch; False when the history stops with a run ungraded."""
    for kind in ("nomem", "mem"):
        passed = False
        run = 1
        while True:
            name = f"batch{pad(number)}-{kind}-run{run}"
            if run > 1 or kind == "mem":
                check.tuning.runs.append([name, ""])
            if rng.random() < 0.04:
                return False
            verdict = rng.choices(["PASSED", "CORRECT", "WRONG", "VOID"], [45, 15, 25, 15])[0]
            grade(rng, check, number, name, verdict)
            if rng.random() < 0.1:
                check.status()
            counted = sum(1 for n, v in check.tuning.runs if n.startswith(f"batch{pad(number)}-{kind}-")
                          and v != "VOID")
            passed = verdict == "PASSED"
            if passed or counted >= RUN_LIMIT:
                break
            run += 1
        if not passed:
            return True  # given up: the with-memory half does not run
    return True


def grade(rng: random.Random, check: Comparison, number: int, name: str, verdict: str) -> None:
    tuning = check.tuning
    for entry in tuning.runs:
        if entry[0] == name:
            entry[1] = verdict
    ids = tuning.batches[number]
    listed = {e.id for e in tuning.difficult or ()}
    if verdict == "WRONG" or rng.random() < 0.1:
        for case_id in rng.sample(ids, min(len(ids), rng.randint(1, 2))):
            if case_id not in listed:
                reasons = rng.sample(SEVERITY, rng.randint(1, 2))
                if verdict == "WRONG" and "wrong" not in reasons:
                    reasons.insert(0, "wrong")
                tuning.difficult = [*(tuning.difficult or []), DifficultEntry(case_id, tuple(reasons), name)]
                listed.add(case_id)
    if verdict in ("PASSED", "CORRECT") and rng.random() < 0.6:
        history = tuning.history()
        fixable = [e for e in open_difficult(history) if e.id in ids and e.added != name]
        for entry in rng.sample(fixable, min(len(fixable), rng.randint(0, 2))):
            tuning.difficult = [attrs.evolve(e, fixed=name) if e is entry else e for e in tuning.difficult]


def probe_odd_output(rng: random.Random, check: Comparison, chosen: dict) -> None:
    """-o to a folder batch.mjs warns about; what it writes is removed again (not part of the history)."""
    number = max(check.tuning.batches, default=0) + 1
    out = rng.choice(["cases.json", "out/cases.json", "finetune/runs/scratch/cases.json",
                      f"finetune/runs/batch{pad(number + rng.randint(1, 3))}-nomem-run1/cases.json",
                      f"finetune/runs/batch{pad(number)}-mem-run1/cases.json", "finetune/runs/x\\y/cases.json"])
    check.next(**chosen, out=out)
    check.folder.forget(out)
    folder = check.folder.root / Path(out).parent
    if folder != check.folder.root and folder.is_dir() and not any(folder.iterdir()):
        folder.rmdir()


# ---------------------------------------------------------------------------------------------------------
# The tests
# ---------------------------------------------------------------------------------------------------------

def play_histories(seeds: range, workdir: Path) -> tuple[int, int]:
    """Play one history per seed on WORKERS threads, each with its own Node driver; (histories, node calls)."""
    def work(worker: int) -> int:
        calls = 0
        with BatchMjsDriver(workdir / f"driver{worker}") as driver:
            for seed in seeds[worker::WORKERS]:
                rng = random.Random(seed)
                folder = ZenFolder(workdir / f"h{seed}")
                run = run_batch_mjs if seed % PROCESS_EVERY == 0 else driver.run
                check = Comparison(generate_tuning(rng), folder, run)
                play(rng, check)
                calls += check.calls
        return calls

    for worker in range(WORKERS):
        (workdir / f"driver{worker}").mkdir()
    with ThreadPoolExecutor(WORKERS) as pool:
        calls = sum(pool.map(work, range(WORKERS)))
    return len(seeds), calls


def test_batch_mjs_and_rules_agree_on_generated_histories(tmp_path):
    histories, calls = play_histories(range(HISTORIES), tmp_path)

    assert histories >= 300 and calls > histories * 5


@pytest.mark.soak
def test_batch_mjs_and_rules_agree_on_many_more_histories(tmp_path, request):
    if "soak" not in (request.config.getoption("markexpr") or ""):
        pytest.skip("soak run: pytest -m soak")
    histories, calls = play_histories(range(HISTORIES, HISTORIES + SOAK_HISTORIES), tmp_path)

    assert histories == SOAK_HISTORIES
