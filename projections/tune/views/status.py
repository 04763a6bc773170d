"""The tuning's views: progress (batch.mjs's status), the next step, the difficult list. Pure.

A view takes a `TuneState` and returns data or lines; it never writes.
"""

from __future__ import annotations

import shlex

import attrs

from batchlog.projections.tune.batch_mjs import rules
from batchlog.projections.tune.decide.refusals import require_tuning
from batchlog.projections.tune.printed import DEFAULT_FOLDER, Place, tune, with_case
from batchlog.projections.tune.stage import (
    Half,
    batch_halves,
    current_half,
    latest_final,
    reported_cases,
    to_list_after_final,
    unlisted_wrong,
)
from batchlog.projections.tune.batch_mjs.run_names import run_name
from batchlog.projections.tune.batch_mjs.inputs import history
from batchlog.projections.tune.state import FINAL, RUNS_PER_HALF, Run, TuneState
from batchlog.engine.value import frozen

HALF_WORDS = {"nomem": "without memory", "mem": "with memory"}


def progress(state: TuneState, size: int | None = None) -> list[str]:
    """batch.mjs's status lines, same figures (`size`: its -m, which the next size line then shows)."""
    require_tuning(state)
    return rules.progress_lines(history(state), size)


def progress_figures(state: TuneState, size: int | None = None) -> dict[str, object]:
    """The figures of the status lines as fields, for `tune status --json` (the lines come beside them)."""
    require_tuning(state)
    past = history(state)
    planned = rules.next_size(past, size)
    unused = rules.unused_cases(past)
    return {
        "selection": len(past.selection), "used": len(rules.used_ids(past)), "unused": len(unused),
        "batches_built": len(past.batches), "next_size": planned.size, "next_size_why": planned.why,
        "difficult": {"open": len(rules.open_difficult(past)), "fixed": len(rules.fixed_difficult(past)),
                      "stuck": len(rules.stuck_difficult(past))},
        "batches_ahead": -(-len(unused) // past.settings.max_batch),
        "lines": rules.progress_lines(past, size),
    }


# The placeholders a printed command may hold: bare upper-case words with no shell metacharacter, so a command
# pasted unchanged is one simple command that batchlog refuses (exit 2, naming the choices), never a pipe.
PLACEHOLDERS: dict[str, dict[str, object]] = {
    "VERDICT": {"option": "--verdict", "one_of": ["PASSED", "CORRECT", "WRONG", "VOID"]},
    "NODES": {"option": "--nodes", "what": "a whole number: the nodes in the batch's memory"},
    "DATASET": {"option": "--dataset", "what": "the path of the dataset file ({\"cases\": [...]})"},
    "FILE": {"option": "-o", "what": "the path cases.json is written at (plan.json goes beside it)"},
    "PATH": {"option": "--file", "what": "the path of the file the fix changed"},
    "SUMMARY": {"option": "--summary", "what": "what changed, in words"},
    "MODEL": {"option": "--model", "what": "the model's name"},
    "CALLS": {"option": "--calls", "what": "a whole number: the run's model calls so far"},
    "INPUT_TOKENS": {"option": "--input-tokens", "what": "a whole number: the run's input tokens so far"},
    "OUTPUT_TOKENS": {"option": "--output-tokens", "what": "a whole number: the run's output tokens so far"},
}


@frozen
class NextStep:
    """The one next thing to do: `step` names it for machines, `words` for people, `command` to run (a template
    when it holds placeholders: `choices` says what each stands for; "" when there is none to run). `optional`:
    the records the loop expects around it when they apply (a difficult case to add or fix, a change, usage),
    each a step of its own."""

    step: str
    words: str
    command: str
    optional: tuple[NextStep, ...] = ()

    @property
    def placeholders(self) -> tuple[str, ...]:
        return tuple(word for word in shlex.split(self.command) if word in PLACEHOLDERS)

    def as_json(self) -> dict[str, object]:
        """The step and its `optional` ones, each with `command` when it runs as it stands (null: nothing to
        run), else `template` and a `choices` object per placeholder."""
        return {**self._own_json(), "optional": [step._own_json() for step in self.optional]}

    def _own_json(self) -> dict[str, object]:
        held = self.placeholders
        if not held:
            return {"step": self.step, "words": self.words, "command": self.command or None}
        return {"step": self.step, "words": self.words, "template": self.command,
                "choices": {word: PLACEHOLDERS[word] for word in held}}

    def lines(self) -> list[str]:
        """As `tune next` prints it: the words, the command, then the optional steps."""
        lines = [self.words] + (["", f"    {self.command}"] if self.command else [])
        if self.optional:
            lines += ["", "Also, when it applies:"]
            for step in self.optional:
                lines += [f"  - {step.words}", f"      {step.command}"]
        return lines


def placeholder_refusal(option: str, value: str) -> str | None:
    """What to say when `value`, given to `option`, is a placeholder pasted unchanged (None: it is not one)."""
    meaning = PLACEHOLDERS.get(value)
    if meaning is None or meaning["option"] != option:
        return None
    choices = meaning.get("one_of")
    wanted = f"one of {', '.join(choices)}" if isinstance(choices, list) else meaning["what"]
    return f"{value} is a placeholder: replace it with {wanted}"


def next_step(state: TuneState, folder: str | Place = DEFAULT_FOLDER, newer: str | None = None) -> NextStep:
    """The next step of the loop, for every state from the empty log to done, with the optional records around
    it (`folder`: where the printed commands find the tuning; `newer`: what the log holds that is newer than
    this batchlog, which then can only read it)."""
    place = folder if isinstance(folder, Place) else Place(folder)
    if newer is not None:
        return NextStep("upgrade", f"This log holds events newer than this batchlog ({newer}): it reads the log "
                        "but records nothing in it, so every command that records would be refused (exit 3). "
                        "Upgrade batchlog, then ask again.", "")
    if state.settings is None and not state.foreign:
        return NextStep("init", "Start the tuning: read the dataset, record the settings and the selection.",
                        _command(place, "init", "--dataset", "DATASET"))
    require_tuning(state)
    return attrs.evolve(_required(state, place), optional=tuple(_optional(state, place)))


def _required(state: TuneState, place: Place) -> NextStep:
    last = state.last_run
    if last is not None and not last.graded:
        return _grade(state, last, place)
    now = current_half(state)
    if now.kind == "done":
        passed = next(run for run in state.runs_of(0, FINAL) if run.verdict == "PASSED")
        return NextStep("done", f"Done: the final check passed in {passed.name} and the tuning is closed. The last "
                        "good memory is the one to ship; run the audit, which replays the log and checks "
                        "every promise of a finished tuning.", _command(place, "audit"))
    missing = to_list_after_final(state)
    if missing:
        final = state.runs_of(0, FINAL)[-1]
        others = f" ({len(missing) - 1} more after it)" if len(missing) > 1 else ""
        return NextStep("difficult_add", f"{final.name} was {final.verdict}: every case it got wrong goes on the "
                        f"difficult list from that run, so that batches of the open difficult cases retry it. "
                        f"Add {missing[0]}{others}.",
                        with_case(("difficult", "add"), missing[0],
                                  ("--reason", _reason(state, missing[0]), "--run", final.name)).text(place))
    if now.kind == "half":
        return _run_again(state, now.batch, now.half, place)
    if now.kind == "keep":
        return NextStep("keep_memory", f"Batch {now.batch} passed both halves: its memory becomes the "
                        "last good memory. Count its nodes and keep it.",
                        _command(place, "memory", "keep", "--batch", now.batch, "--nodes", "NODES"))
    if now.kind == "final":
        return _final(state, place)
    return _build(state, place)


def _grade(state: TuneState, run: Run, place: Place) -> NextStep:
    words = (f"Grade {_describe(run)}: check it was not killed for memory, read every trajectory, then record the "
             "verdict and the figures.")
    stuck = sorted(reported_cases(state, run))
    if stuck:
        words += (f" Stuck cases are reported, not failed on ({' '.join(stuck)}): name any it got wrong with "
                  "--wrong; it is WRONG only when another case was wrong.")
    return NextStep("grade", words, _command(place, "run", "grade", run.name, "--verdict", "VERDICT"))


def _reason(state: TuneState, case: str) -> str:
    """The reason `tune next` suggests for a wrong case: it regressed when it was fixed before."""
    entry = state.difficult_entry(case)
    return "regressed" if entry is not None and entry.fixed is not None else "wrong"


def _build(state: TuneState, place: Place) -> NextStep:
    try:
        plan = rules.next_batch(history(state))
    except rules.NothingLeft:
        return _final(state, place)
    given_up = ""
    if state.last_batch is not None and Half.GIVEN_UP in batch_halves(state, state.last_batch.number):
        given_up = (f"Batch {state.last_batch.number} is given up (a half used its {RUNS_PER_HALF} runs without "
                    "passing). ")
    final = latest_final(state)
    if final is not None:
        given_up = (f"{final.name} was {final.verdict} and the cases it got wrong are on the difficult list: "
                    "batches of the open difficult cases retry them before the final check runs again. ")
    out = f"{place.folder}/runs/{run_name(plan.number, 'nomem', 1)}/cases.json"
    what = f"{len(plan.new)} {'new' if plan.kind == 'new' else 'difficult'}" + (
        f" + {len(plan.recheck)} recheck" if plan.recheck else "")
    return NextStep("build_batch", f"{given_up}Build batch {plan.number} ({what}; size {plan.size} - {plan.why}) "
                    "and run it without memory.", _command(place, "next-batch", "-o", out))


def _final(state: TuneState, place: Place) -> NextStep:
    """The final check, first or again: the whole selection at once, with the last good memory."""
    finals = state.runs_of(0, FINAL)
    name = run_name(0, FINAL, len(finals) + 1)
    stuck = [entry.id for entry in rules.stuck_difficult(history(state))]
    reported = f" Stuck cases are reported, not retried: {' '.join(stuck)}." if stuck else ""
    final = latest_final(state)
    if final is None:
        words = (f"Every case has been in a batch and no difficult case is open: run the final check ({name}), "
                 f"all {len(state.selection)} cases at once, with the last good memory and nothing changed.")
    elif final.verdict == "VOID":
        words = f"{final.name} was VOID: run the final check again as {name}."
    else:
        listed = " and the cases it got wrong are on the difficult list, none open" if final.wrong else ""
        words = (f"{final.name} was {final.verdict}{listed}: fix what it found, record the change, then run the "
                 f"final check again as {name}.")
    return NextStep("final", words + reported, _command(place, "run", "start", "--final"))


def _run_again(state: TuneState, batch: int, kind: str, place: Place) -> NextStep:
    runs = state.runs_of(batch, kind)
    number = len(runs) + 1
    counted = sum(1 for run in runs if run.counts)
    command = _command(place, "run", "start", "--batch", batch, "--kind", kind)
    limit = f"run {counted + 1} of at most {RUNS_PER_HALF} that count"
    if not runs:
        words = (f"Run batch {batch} {HALF_WORDS[kind]}"
                 + (": each case gets its own copy of the last good memory plus this batch's." if kind == "mem"
                    else ".") + f" It will be {run_name(batch, kind, number)}.")
        return NextStep("run", words, command)
    last = runs[-1]
    if last.verdict == "VOID":
        return NextStep("run", f"{last.name} was VOID and does not count: run batch {batch} {HALF_WORDS[kind]} "
                        f"again as {run_name(batch, kind, number)} ({limit}).", command)
    fix = "fix the memory rules" if kind == "mem" else "fix the prompts, skills or rules its findings point at"
    why = "got cases wrong" if last.verdict == "WRONG" else "was right but left something to cut"
    return NextStep("fix_and_run", f"{last.name} {why} ({last.verdict}): {fix}, record the change, then run "
                    f"batch {batch} {HALF_WORDS[kind]} again as {run_name(batch, kind, number)} ({limit}).",
                    command)


def _optional(state: TuneState, place: Place) -> list[NextStep]:
    """The records the loop expects around the last run when they apply: the difficult entries its grade calls
    for (an add per wrong case not listed, a fix per listed case it got right), its change and its usage; once
    the tuning is done, the usage of every run that has none (usage is a report, accepted at any time)."""
    run = state.last_run
    if run is None:
        return []
    done = current_half(state).kind == "done"
    steps: list[NextStep] = []
    if run.graded and not done and run.kind != FINAL:  # a failed final check's adds are the required step
        steps += [NextStep("difficult_add", f"{run.name} got {case} wrong: if it is a difficult case (wrong again "
                           "after a fix, regressed, flaky, costly), put it on the difficult list; later batches "
                           "recheck it first.",
                           with_case(("difficult", "add"), case,
                                     ("--reason", _reason(state, case), "--run", run.name)).text(place))
                  for case in unlisted_wrong(state, run)]
    if run.graded and run.counts and not done:
        steps += [NextStep("difficult_fix", f"{run.name} got {entry.case} right: mark its difficult entry fixed.",
                           with_case(("difficult", "fix"), entry.case, ("--run", run.name)).text(place))
                  for entry in _fixable(state, run)]
    if run.graded and (not done or run.kind == FINAL):
        steps.append(NextStep("change", f"If files changed after {run.name} (a fix of prompts, skills or rules), "
                              "record each change.",
                              _command(place, "change", run.name, "--file", "PATH", "--summary", "SUMMARY")))
    without = [r for r in state.runs if not r.usage] if done else [run] if not run.usage else []
    steps += [NextStep("usage", f"When {r.name}'s model usage is known, record it (running totals per model: a "
                       "later report replaces an earlier one).",
                       _command(place, "usage", r.name, "--model", "MODEL", "--calls", "CALLS", "--input-tokens",
                                "INPUT_TOKENS", "--output-tokens", "OUTPUT_TOKENS"))
              for r in without]
    return steps


def _fixable(state: TuneState, run: Run) -> list:
    """The entries still open (or stuck) whose case `run` held and got right, added in an earlier run."""
    order = [r.name for r in state.runs]
    return [entry for entry in state.difficult_list
            if entry.fixed is None and entry.case in run.cases and entry.case not in run.wrong
            and entry.added in order and order.index(entry.added) < order.index(run.name)]


def _describe(run: Run) -> str:
    if run.kind == FINAL:
        return f"the final check ({run.name})"
    return f"batch {run.batch}'s run {run.number} {HALF_WORDS[run.kind]} ({run.name})"


def _command(place: Place, *words: str | int) -> str:
    return tune(*words).text(place)


@frozen
class DifficultRow:
    """One difficult entry as `tune difficult` lists it."""

    case: str
    reasons: tuple[str, ...]
    status: str
    retries: int
    added: str
    fixed: str | None
    notes: tuple[str, ...]


def difficult_rows(state: TuneState) -> list[DifficultRow]:
    """Every entry: open ones in batch.mjs's order, then fixed, then stuck, then the withdrawn ones (a regrade
    said their case was not wrong in their run after all; the rules count them no more)."""
    require_tuning(state)
    past = history(state)
    groups = (("open", rules.open_difficult(past)), ("fixed", rules.fixed_difficult(past)),
              ("stuck", rules.stuck_difficult(past)))
    notes = {(entry.case, entry.added): _notes(entry) for entry in state.difficult_list}
    return [DifficultRow(entry.id, entry.reasons, status, rules.retries(past, entry), entry.added, entry.fixed,
                         notes[entry.id, entry.added])
            for status, entries in groups for entry in entries] + [
        DifficultRow(entry.case, entry.reasons, "withdrawn", 0, entry.added, None,
                     (*_notes(entry), f"withdrawn at seq {entry.withdrawn_seq}: {entry.withdrawn}"))
        for entry in state.difficult if entry.withdrawn is not None]


def _notes(entry) -> tuple[str, ...]:
    return tuple(f"{note.run}: {note.text}" for note in entry.notes)
