"""batch.mjs against projections/tune/batch_mjs/rules.py on generated tuning histories, step by step.

A seeded generator plays the tuning loop (datasets of 1 to 80 cases with ids that differ in case and
punctuation, batches built with and without -m/-r/--seed, runs of both halves graded, some VOID, difficult
cases added, fixed and left to go stuck, selections used up, the last run sometimes ungraded; once nothing is
left, the final check: when it fails, the cases it got wrong go on the difficult list from its run, so
difficult.json holds entries added in final-runK, and batches of the open difficult cases follow until the
final check runs again). At every
decision it lays the history out as a zen folder and compares batch.mjs's status, preview (cases JSON on
stdout), cases.json and plan.json written with -o, the stderr summary and the nothing-left exit with what
rules.py gives. Most calls go to one long-lived Node process (tests/zenfolder.py: BatchMjsDriver); every
`PROCESS_EVERY`-th history runs batch.mjs as its own process instead, which also checks the driver.
"""

from __future__ import annotations

import json
import random
import re
import shutil
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import attrs
import pytest

from batchlog.projections.tune.batch_mjs.config import settings_from_config
from batchlog.projections.tune.batch_mjs.rules import (
    SEVERITY,
    BatchPlan,
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
    stuck_difficult,
    summary_lines,
)
from batchlog.projections.tune.batch_mjs.selection import selection_order
from batchlog.projections.tune.batch_mjs.js_json import js_json
from batchlog.cli.tune.log import tuning_state
from batchlog.projections.tune.views.status import PLACEHOLDERS, next_step
from tests.clirunner import invoke
from tests.tune_helpers import shell_problems
from tests.zenfolder import (
    BatchMjsDriver,
    NodeResult,
    ZenFolder,
    batch_mjs_args,
    in_batchlog_words,
    run_batch_mjs,
)

pytestmark = pytest.mark.usefixtures("needs_node")  # fails, not skips, with BATCHLOG_REQUIRE_SEEDS=1

HISTORIES = 300
SOAK_HISTORIES = 3000
PROCESS_EVERY = 30  # 1 history in 30 runs batch.mjs as separate processes (~0.1 s a call)
MIRROR_EVERY = 4  # 1 history in 4 is also played through `batchlog tune` (~20 ms a command); soak: all
IMPORT_HISTORIES = 40  # histories whose zen folder is then imported with `batchlog tune import`
CLOCK = {"BATCHLOG_CLOCK": "2026-12-02T16:00:00Z"}
_INVOKE = threading.Lock()  # invoke() sets the process's cwd and environment: one at a time
WORKERS = 2
MAX_BATCHES = 12
RUN_LIMIT = 4  # non-VOID runs per half
FINAL_CHECKS = 3  # final checks a history runs at most
FINAL_BUDGET = 3  # batches a failed final check adds to a history's budget
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
    plans: dict[int, str] = attrs.Factory(dict)  # plan.json texts batch.mjs wrote
    limit: int | None = None
    bare_ids: bool = False  # some selection object is a bare {"id": ...}
    only_in_dataset: bool = False  # the dataset holds cases the selection does not

    def history(self) -> History:
        complexity = {c["id"]: c.get("complexity") or "" for c in self.dataset["cases"]}
        return History(selection=tuple(self.selection), complexity=complexity, settings=self.settings,
                       batches=dict(self.batches), sizes=dict(self.sizes),
                       runs=tuple((name, verdict) for name, verdict in self.runs),
                       difficult=None if self.difficult is None else tuple(self.difficult))


def random_id(rng: random.Random) -> str:
    return "".join(rng.choice(ID_PARTS) + rng.choice(["", "", "-", "_", "."]) for _ in range(rng.randint(1, 3)))


def generate_tuning(rng: random.Random, mirrored: bool = False) -> Tuning:
    """A dataset, its selection and config. A mirrored tuning's selection is what `batchlog tune init` selects
    (the dataset's objects); any other's selection objects are often bare `{"id": ...}` or carry fields of
    their own, and its dataset may hold cases no selection holds (as a zen folder's can)."""
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
        if rng.random() < 0.2:
            case["meta"] = rng.choice([{"source": "upstream", "tags": ["x", "y"]}, {"weight": 2}, None])
        cases.append(case)
    dataset = {"cases": cases}
    limit = rng.choice([None, None, rng.randint(1, count)])
    bodies = {c["id"]: c for c in cases}
    selection = [bodies[i] for i in selection_order(cases, limit)]
    style = "whole" if mirrored else rng.choice(["whole", "bare", "bare", "mixed"])
    if style == "bare":
        selection = [{"id": c["id"]} for c in selection]
    elif style == "mixed":
        selection = [rng.choice([c, {"id": c["id"]}, {"id": c["id"], "note": "from the selection"},
                                 {**c, "complexity": "complex"}]) for c in selection]
    if not mirrored and rng.random() < 0.4:  # ids only in the dataset, anywhere in it
        for extra in range(rng.randint(1, 5)):
            case = {"id": f"only-in-dataset-{extra}", "class": rng.choice(classes),
                    "complexity": rng.choice(["complex", "simple"])}
            cases.insert(rng.randint(0, len(cases)), case)
    config = {"minBatch": rng.randint(1, 5), "maxBatch": rng.randint(1, 12), "recheck": rng.randint(0, 5),
              "seed": rng.choice([1, rng.randint(1, 10**6), rng.randint(10**12, 10**15)]),
              "maxRetries": rng.randint(1, 4)}
    if rng.random() < 0.15:  # values batch.mjs's cfg() ignores or reads its own way
        config.update(rng.choice([{"minBatch": 0}, {"maxBatch": "6"}, {"recheck": None}, {"seed": -3},
                                  {"maxRetries": "x"}, {"recheck": "2"}]))
    return Tuning(dataset=dataset, selection=selection, settings=settings_from_config(config), config=config,
                  limit=limit, bare_ids=any(set(c) == {"id"} for c in selection),
                  only_in_dataset=len(cases) > len(selection))


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
    mirror: Batchlog | None = None
    steps: list[str] = attrs.Factory(list)
    one_difficult_per_run: bool = False
    # `tune import` places a zen folder's final runs after its batches (the folder does not say when a final
    # check ran), so the histories imported run no final check
    final_checks: bool = True
    calls: int = 0
    failed_finals: int = 0  # final checks that failed with a case to list
    batches_after_final: int = 0  # batches built after a failed final check
    repeats: int = 0  # batches batch.mjs would build with a case twice (batchlog: once, the place filled)

    def lay_out(self) -> None:
        self.folder.lay_out(self.tuning.history(), dataset=self.tuning.dataset, config=self.tuning.config,
                            plans=self.tuning.plans)

    def node(self, args: list[str]) -> NodeResult:
        self.lay_out()
        self.calls += 1
        return self.run(self.folder, args)

    def act(self, *args: str | int, out: str = "") -> None:
        """A command that changes the tuning, played through batchlog too when it mirrors the history."""
        self.steps.append(" ".join(map(str, args)))
        if self.mirror is not None:
            result = self.mirror.tune(*args)
            self.expect(f"batchlog {args[0]}", (result.code, result.err, result.out[: len(out)]), (0, "", out))

    def expect(self, what: str, got: object, want: object) -> None:
        if got != want:
            trail = "\n  ".join(self.steps[:1] + ["..."] + self.steps[-12:])
            raise Diverged(f"{what} differs after:\n  {trail}\ngot:  {got!r}\nwant: {want!r}")

    def status(self, size: int | None = None) -> None:
        self.steps.append(f"status -m {size}")
        result = self.node(batch_mjs_args("status", size=size))
        want = "\n".join(progress_lines(self.tuning.history(), size)) + "\n"
        self.expect("status", (result.code, result.out, result.err), (0, want, ""))
        if self.mirror is not None:
            mirrored = self.mirror.tune("status", *(("-m", size) if size is not None else ()))
            self.expect(f"batchlog tune status -m {size}", (mirrored.code, mirrored.out, mirrored.err), (0, want, ""))

    def next(self, *, size=None, recheck=None, seed=None, out=None, mirrors=True):
        """batch.mjs next against rules.next_batch; the plan, or None when nothing is left."""
        self.steps.append(f"next -m {size} -r {recheck} --seed {seed} -o {out}")
        history = self.tuning.history()
        args = batch_mjs_args("next", size=size, recheck=recheck, seed=seed, out=out)
        result = self.node(args)
        mirrored = self.mirror.tune("next-batch", *args[1:]) if self.mirror is not None and (out is None or mirrors) else None
        try:
            plan = next_batch(history, size=size, recheck=recheck, seed=seed)
        except NothingLeft as nothing:
            self.expect("nothing left", (result.code, result.out, result.err), (1, "", f"batch.mjs: {nothing}\n"))
            if mirrored is not None:
                self.expect("batchlog nothing left", (mirrored.code, mirrored.out, nothing.message in mirrored.err),
                            (1, "", True))
            return None
        mjs_plan = self.as_batch_mjs_builds(plan, result, out, size=size, recheck=recheck, seed=seed)
        summary = "\n".join(summary_lines(plan, out, history.difficult is not None)) + "\n"
        mjs_summary = "\n".join(summary_lines(mjs_plan, out, history.difficult is not None)) + "\n"
        self.expect("summary", (result.code, in_batchlog_words(result.err)), (0, mjs_summary))
        if mirrored is not None:
            self.expect("batchlog next-batch summary", (mirrored.code, mirrored.err), (0, summary))
            self.expect("batchlog next-batch stdout", mirrored.out, cases_json(plan) if out is None else "")
        if out is None:
            self.expect("preview", result.out, cases_json(mjs_plan))
        else:
            plan_path = str(Path(out).parent / "plan.json") if "/" in out else "plan.json"
            files = {str(Path(out)): cases_json(plan), plan_path: plan_json(plan)}
            self.expect("files", result.files, {str(Path(out)): cases_json(mjs_plan), plan_path: plan_json(mjs_plan)})
            if mirrored is not None:
                self.expect("batchlog next-batch files", self.mirror.files(files), files)
        return plan

    def as_batch_mjs_builds(self, plan: BatchPlan, result: NodeResult, out: str | None, **chosen) -> BatchPlan:
        """`plan` as batch.mjs builds it. They differ in one deliberate way (README): batch.mjs rechecks a case
        with several difficult entries (fixed, then added again) once per entry; batchlog rechecks it once and
        the next candidate takes the repeat's place. Checked against batch.mjs itself: the candidates do not
        depend on -r, so batch.mjs asked for more rechecks lists the ones batchlog fills the places with."""
        built = json.loads(result.out if out is None else result.files.get(str(Path(out)), "null") or "null")
        if not isinstance(built, dict):
            return plan
        ids = [case.get("id") for case in built["batch"]][len(plan.new):]
        if len(ids) == len(set(ids)):
            return plan
        self.repeats += 1
        if out is not None:  # the batch written is not built yet: the history lays it out (as batchlog built it)
            self.folder.forget(out)
        limit = self.tuning.settings.recheck if chosen["recheck"] is None else chosen["recheck"]
        more = self.node(batch_mjs_args("next", size=chosen["size"], seed=chosen["seed"],
                                        recheck=limit + len(self.tuning.difficult or ())))
        candidates = [case["id"] for case in json.loads(more.out)["batch"][len(plan.new):]]
        self.expect("batch.mjs's rechecks are a prefix of its candidates", candidates[: len(ids)], ids)
        self.expect("rechecks with repeats filled", [case["id"] for case in plan.recheck],
                    list(dict.fromkeys(candidates))[:limit])
        by_id = {case.get("id"): case for case in self.tuning.selection}
        return attrs.evolve(plan, recheck=tuple(by_id[i] for i in ids))


@attrs.define
class Batchlog:
    """The same tuning played through `batchlog tune` (in-process), in its own folder."""

    root: Path

    @classmethod
    def init(cls, root: Path, tuning: Tuning) -> Batchlog:
        root.mkdir()
        (root / "dataset.json").write_text(js_json(tuning.dataset), encoding="utf-8")
        mirror = cls(root)
        settings = tuning.settings
        args = ["init", "--dataset", "dataset.json", "--min-batch", settings.min_batch,
                "--max-batch", settings.max_batch, "--recheck", settings.recheck, "--seed", settings.seed,
                "--max-retries", settings.max_retries] + (["--limit", tuning.limit] if tuning.limit else [])
        result = mirror.tune(*args)
        assert result.code == 0, result
        return mirror

    def tune(self, *args: str | int):
        words = [str(a) for a in args]
        end = words.index("--") if "--" in words else len(words)  # ids may start with "-"
        with _INVOKE:
            result = invoke("tune", *words[:end], "--dir", "finetune", *words[end:], env=CLOCK, cwd=self.root)
        if result.code == 0:
            self.check_next_commands()
        for command in re.findall(r"`(batchlog [^`]*)`", result.err):  # a refusal's commands are pasted too
            if shell_problems(command):
                raise Diverged(f"a message of {words} named an unsafe command {command!r}: {shell_problems(command)}")
        return result

    def check_next_commands(self) -> None:
        """Every command `tune next` prints in the state this command left (its step and the optional ones) is one
        simple command, safe to paste."""
        step = next_step(tuning_state(self.root / "finetune"), "finetune")
        for printed in (step, *step.optional):
            problems = shell_problems(printed.command)
            if problems or not set(printed.placeholders) <= set(PLACEHOLDERS):
                raise Diverged(f"tune next printed an unsafe command {printed.command!r}: {problems}")

    def files(self, expected: dict[str, str]) -> dict[str, str]:
        return {name: (self.root / name).read_text(encoding="utf-8") for name in expected
                if (self.root / name).is_file()}


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
    """Play a tuning to its end (the final check passed, or nothing left), to its budget of batches, or to a stop
    in the middle of a batch. Once nothing is left, the final check runs (at most FINAL_CHECKS times); after a
    failed one the batches go on, with a few more in the budget."""
    tuning = check.tuning
    budget = rng.randint(1, MAX_BATCHES)
    while budget > 0:
        budget -= 1
        chosen = overrides(rng)
        if rng.random() < 0.6:  # not before every batch: the file stays under a minute on a loaded machine
            check.status(chosen.get("size") if rng.random() < 0.5 else None)
        if rng.random() < 0.5:
            check.next(**chosen)
        if rng.random() < 0.1:
            probe_odd_output(rng, check, chosen)
        number = max(tuning.batches, default=0) + 1
        out = f"finetune/runs/batch{pad(number)}-nomem-run1/cases.json"
        plan = check.next(**chosen, out=rng.choice([out, out, out, "./" + out]))
        if plan is None:
            if not final_check(rng, check):
                return
            budget += FINAL_BUDGET
            continue
        check.batches_after_final += any(name.startswith("final-") for name, _ in tuning.runs)
        tuning.batches[number] = tuple(c["id"] for c in [*plan.new, *plan.recheck])
        tuning.sizes[number] = plan.size
        tuning.plans[number] = plan_json(plan)
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
                check.act("run", "start", "--batch", number, "--kind", kind, out=name + "\n")
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
    check.act("memory", "keep", "--batch", number, "--nodes", rng.randint(0, 60))  # batchlog only: zen keeps none
    return True


def grade(rng: random.Random, check: Comparison, number: int, name: str, verdict: str) -> None:
    tuning = check.tuning
    for entry in tuning.runs:
        if entry[0] == name:
            entry[1] = verdict
    ids = sorted(set(tuning.batches[number]))
    latest = {e.id: e for e in tuning.difficult or ()}  # each case's latest entry
    listed = {case_id for case_id, e in latest.items() if not e.fixed}  # a fixed case can go on the list again
    most = 1 if check.one_difficult_per_run else 2
    picked = rng.sample(ids, min(len(ids), rng.randint(1, most))) if verdict == "WRONG" or rng.random() < 0.1 else []
    broke_again = [i for i in ids if i in latest and latest[i].fixed and i not in picked]
    if broke_again and picked and rng.random() < 0.9:  # a fixed case regresses: it gets a new entry
        picked[-1] = rng.choice(broke_again)
    wrong = [f"--wrong={i}" for i in picked] if verdict == "WRONG" else []
    check.act("run", "grade", name, "--verdict", verdict, *wrong)
    for case_id in picked:
        if case_id not in listed:
            reasons = rng.sample(SEVERITY, rng.randint(1, 2))
            if case_id in latest and rng.random() < 0.7:
                reasons = ["regressed", *(r for r in reasons if r != "regressed")]
            if verdict == "WRONG" and "wrong" not in reasons:
                reasons.insert(0, "wrong")
            tuning.difficult = [*(tuning.difficult or []), DifficultEntry(case_id, tuple(reasons), name)]
            listed.add(case_id)
            check.act("difficult", "add", f"--run={name}", *(f"--reason={r}" for r in reasons), "--", case_id)
    if verdict in ("PASSED", "CORRECT") and rng.random() < 0.8:
        history = tuning.history()
        fixable = [e for e in open_difficult(history) if e.id in ids and e.added != name]
        for entry in rng.sample(fixable, min(len(fixable), rng.randint(1, 2))):
            tuning.difficult = [attrs.evolve(e, fixed=name) if e is entry else e for e in tuning.difficult]
            check.act("difficult", "fix", f"--run={name}", "--", entry.id)


def final_check(rng: random.Random, check: Comparison) -> bool:
    """Run and grade the final check (nothing is left to build); True when the tuning goes on after it: it
    failed, and a case it got wrong went on the difficult list (batches of the open difficult cases follow)."""
    tuning = check.tuning
    number = sum(1 for name, _ in tuning.runs if name.startswith("final-")) + 1
    if not check.final_checks or number > FINAL_CHECKS or rng.random() < 0.2:
        return False
    name = f"final-run{number}"
    tuning.runs.append([name, ""])
    check.act("run", "start", "--final", out=name + "\n")
    history = tuning.history()
    stuck = sorted({e.id for e in stuck_difficult(history)})
    others = [case["id"] for case in tuning.selection if case["id"] not in stuck]
    verdict = rng.choices(["PASSED", "CORRECT", "WRONG", "VOID"], [30, 10, 50, 10])[0]
    if verdict == "WRONG" and not others:
        verdict = "PASSED"
    picked = rng.sample(others, min(len(others), rng.randint(1, 3))) if verdict == "WRONG" else []
    reported = rng.sample(stuck, rng.randint(0, len(stuck))) if verdict != "VOID" and stuck else []
    tuning.runs[-1][1] = verdict
    check.act("run", "grade", name, "--verdict", verdict, *(f"--wrong={i}" for i in [*picked, *reported]))
    latest = {e.id: e for e in tuning.difficult or ()}
    for case_id in picked:  # each goes on the list from the final run, as tune next says (none is open or stuck)
        reasons = ("regressed",) if case_id in latest else ("wrong",)
        tuning.difficult = [*(tuning.difficult or []), DifficultEntry(case_id, reasons, name)]
        check.act("difficult", "add", f"--run={name}", f"--reason={reasons[0]}", "--", case_id)
    check.status()
    if verdict == "PASSED":
        return False
    check.failed_finals += bool(picked)
    return True


def probe_odd_output(rng: random.Random, check: Comparison, chosen: dict) -> None:
    """-o to a folder batch.mjs warns about; what it writes is removed again (not part of the history)."""
    number = max(check.tuning.batches, default=0) + 1
    out = rng.choice(["cases.json", "out/cases.json", "finetune/runs/scratch/cases.json",
                      f"finetune/runs/batch{pad(number + rng.randint(1, 3))}-nomem-run1/cases.json",
                      f"finetune/runs/batch{pad(number)}-mem-run1/cases.json", "finetune/runs/x\\y/cases.json"])
    check.next(**chosen, out=out, mirrors=False)
    check.folder.forget(out)
    folder = check.folder.root / Path(out).parent
    if folder != check.folder.root and folder.is_dir() and not any(folder.iterdir()):
        folder.rmdir()


# ---------------------------------------------------------------------------------------------------------
# The tests
# ---------------------------------------------------------------------------------------------------------

def check_import(check: Comparison, workdir: Path) -> None:
    """`batchlog tune import` of the zen folder, then status and next-batch, against batch.mjs on the folder."""
    copy = workdir / "imported"
    check.lay_out()
    shutil.copytree(check.folder.root / "finetune", copy / "finetune")
    with _INVOKE:
        imported = invoke("tune", "import", "finetune", env=CLOCK, cwd=copy)
    check.expect("batchlog tune import", imported.code, 0)
    mirror = Batchlog(copy)
    status, preview = check.node([]), check.node(["next"])
    mirrored_status, mirrored_preview = mirror.tune("status"), mirror.tune("next-batch")
    check.expect("status after import", (mirrored_status.code, mirrored_status.out), (status.code, status.out))
    want = (preview.code, preview.out, in_batchlog_words(preview.err))
    if preview.code == 0:  # where batch.mjs rechecks a case twice, batchlog's plan is the rules' (checked here)
        history = check.tuning.history()
        plan = next_batch(history)
        if check.as_batch_mjs_builds(plan, preview, None, size=None, recheck=None, seed=None) is not plan:
            want = (0, cases_json(plan), "\n".join(summary_lines(plan, None, history.difficult is not None)) + "\n")
    check.expect("next-batch after import", (mirrored_preview.code, mirrored_preview.out), want[:2])
    if preview.code == 0:
        check.expect("next-batch summary after import", mirrored_preview.err, want[2])
    else:
        check.expect("nothing left after import", preview.err.removeprefix("batch.mjs: ") in mirrored_preview.err,
                     True)


@attrs.frozen
class Played:
    histories: int
    node_calls: int
    mirrored: int
    imported: int
    bare_ids: int = 0  # histories whose selection holds a bare {"id": ...} object
    only_in_dataset: int = 0  # histories whose dataset holds ids the selection does not
    readded: int = 0  # histories where a fixed difficult case was added again (a second entry)
    repeats: int = 0  # histories where batch.mjs built a batch with a case twice (batchlog: once)
    failed_finals: int = 0  # histories with a final check that failed on a case, which went on the list
    after_final: int = 0  # histories with a batch built after a failed final check


def play_histories(seeds: range, workdir: Path, mirror_every: int = MIRROR_EVERY, imports: bool = False,
                   one_difficult_per_run: bool = False) -> Played:
    """Play one history per seed on WORKERS threads, each with its own Node driver."""
    def work(worker: int) -> Played:
        calls = mirrored = imported = bare_ids = only_in_dataset = readded = repeats = failed_finals = after_final = 0
        with BatchMjsDriver(workdir / f"driver{worker}") as driver:
            for seed in seeds[worker::WORKERS]:
                rng = random.Random(seed)
                mirrors = bool(mirror_every) and seed % mirror_every == 0
                tuning = generate_tuning(rng, mirrored=mirrors)
                bare_ids += tuning.bare_ids
                only_in_dataset += tuning.only_in_dataset
                mirror = Batchlog.init(workdir / f"b{seed}", tuning) if mirrors else None
                run = run_batch_mjs if seed % PROCESS_EVERY == 0 else driver.run
                check = Comparison(tuning, ZenFolder(workdir / f"h{seed}"), run, mirror, steps=[f"history {seed}"],
                                   one_difficult_per_run=one_difficult_per_run, final_checks=not imports)
                play(rng, check)
                if imports:
                    (workdir / f"i{seed}").mkdir()
                    check_import(check, workdir / f"i{seed}")
                    imported += 1
                calls += check.calls
                mirrored += mirror is not None
                entries = [e.id for e in tuning.difficult or ()]
                readded += len(entries) > len(set(entries))
                repeats += check.repeats > 0
                failed_finals += check.failed_finals > 0
                after_final += check.batches_after_final > 0
        return Played(0, calls, mirrored, imported, bare_ids, only_in_dataset, readded, repeats, failed_finals,
                      after_final)

    for worker in range(WORKERS):
        (workdir / f"driver{worker}").mkdir()
    with ThreadPoolExecutor(WORKERS) as pool:
        parts = list(pool.map(work, range(WORKERS)))
    return Played(len(seeds), sum(p.node_calls for p in parts), sum(p.mirrored for p in parts),
                  sum(p.imported for p in parts), sum(p.bare_ids for p in parts),
                  sum(p.only_in_dataset for p in parts), sum(p.readded for p in parts), sum(p.repeats for p in parts),
                  sum(p.failed_finals for p in parts), sum(p.after_final for p in parts))


@pytest.fixture
def cli_built_once(monkeypatch):
    """Build batchlog's typer app and its click commands once, not on every in-process call.

    Each `batchlog` call builds its command tree (~0.1 s, most of a call's time); the tree is the same on
    every call, so the differential test reuses it to fit in CI. Parsing, commands and errors run as usual.
    """
    import batchlog.cli.app
    import typer.main

    build, get_command = batchlog.cli.app.build, typer.main.get_command
    apps: dict = {}
    commands: dict = {}

    def built(first):
        if first not in apps:
            apps[first] = build(first)
        return apps[first]

    def command_of(typer_app):
        if id(typer_app) not in commands:
            commands[id(typer_app)] = (typer_app, get_command(typer_app))  # holds the app: its id stays its own
        return commands[id(typer_app)][1]

    monkeypatch.setattr(batchlog.cli.app, "build", built)
    monkeypatch.setattr(typer.main, "get_command", command_of)


def test_batch_mjs_rules_and_batchlog_agree_on_generated_histories(tmp_path, cli_built_once):
    played = play_histories(range(HISTORIES), tmp_path)

    assert played.histories >= 300 and played.node_calls > played.histories * 5
    assert played.mirrored >= HISTORIES // MIRROR_EVERY
    assert played.bare_ids >= 0.3 * HISTORIES and played.only_in_dataset >= 0.2 * HISTORIES, played
    assert played.readded >= 0.3 * HISTORIES and played.repeats >= 0.05 * HISTORIES, played
    assert played.failed_finals >= 0.15 * HISTORIES and played.after_final >= 0.1 * HISTORIES, played


def test_tune_import_of_a_zen_folder_continues_as_batch_mjs_would(tmp_path, cli_built_once):
    """With at most one difficult case added per run (the test below adds several in one run)."""
    played = play_histories(range(IMPORT_HISTORIES), tmp_path, mirror_every=0, imports=True,
                            one_difficult_per_run=True)

    assert played.imported == IMPORT_HISTORIES
    assert played.bare_ids >= 0.4 * IMPORT_HISTORIES and played.only_in_dataset >= 0.2 * IMPORT_HISTORIES, played
    assert played.readded >= 0.3 * IMPORT_HISTORIES, played  # difficult.json with several entries for a case


def test_tune_import_keeps_the_order_of_difficult_entries_added_in_one_run(tmp_path, cli_built_once):
    played = play_histories(range(IMPORT_HISTORIES), tmp_path, mirror_every=0, imports=True)

    assert played.imported == IMPORT_HISTORIES
    assert played.bare_ids >= 0.4 * IMPORT_HISTORIES and played.readded >= 0.3 * IMPORT_HISTORIES, played


@pytest.mark.soak
def test_batch_mjs_and_rules_agree_on_many_more_histories(tmp_path, request, cli_built_once):
    if "soak" not in (request.config.getoption("markexpr") or ""):
        pytest.skip("soak run: pytest -m soak")
    played = play_histories(range(HISTORIES, HISTORIES + SOAK_HISTORIES), tmp_path, mirror_every=1)

    assert played.histories == SOAK_HISTORIES
