"""The tuning's views: progress (batch.mjs's status), the next step, the difficult list. Pure.

A view takes a `TuneState` and returns data or lines; it never writes.
"""

from __future__ import annotations

import shlex

import attrs

from batchlog.projections.tune.batch_mjs import rules
from batchlog.projections.tune.decide.refusals import require_tuning
from batchlog.projections.tune.stage import Half, batch_halves, current_half, half
from batchlog.projections.tune.batch_mjs.run_names import run_name
from batchlog.projections.tune.batch_mjs.inputs import history
from batchlog.projections.tune.state import FINAL, RUNS_PER_HALF, Run, TuneState

DEFAULT_FOLDER = "finetune"
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
}


@attrs.frozen
class NextStep:
    """The one next thing to do: `step` names it for machines, `words` for people, `command` to run (a template
    when it holds placeholders: `choices` says what each stands for)."""

    step: str
    words: str
    command: str

    @property
    def placeholders(self) -> tuple[str, ...]:
        return tuple(word for word in shlex.split(self.command) if word in PLACEHOLDERS)

    def as_json(self) -> dict[str, object]:
        """`command` when it runs as it stands, else `template` and a `choices` object per placeholder."""
        held = self.placeholders
        if not held:
            return {"step": self.step, "words": self.words, "command": self.command}
        return {"step": self.step, "words": self.words, "template": self.command,
                "choices": {word: PLACEHOLDERS[word] for word in held}}


def placeholder_refusal(option: str, value: str) -> str | None:
    """What to say when `value`, given to `option`, is a placeholder pasted unchanged (None: it is not one)."""
    meaning = PLACEHOLDERS.get(value)
    if meaning is None or meaning["option"] != option:
        return None
    choices = meaning.get("one_of")
    wanted = f"one of {', '.join(choices)}" if isinstance(choices, list) else meaning["what"]
    return f"{value} is a placeholder: replace it with {wanted}"


@attrs.frozen
class Place:
    """Where a printed command finds the tuning: its folder, and the options that name its log elsewhere than in
    the folder (`--store URL --log NAME`, as the command that printed it was given them)."""

    folder: str = DEFAULT_FOLDER
    log_options: tuple[str, ...] = ()

    def options(self) -> str:
        words = (() if self.folder == DEFAULT_FOLDER else ("--dir", self.folder)) + self.log_options
        return "".join(f" {shlex.quote(word)}" for word in words)


def next_step(state: TuneState, folder: str | Place = DEFAULT_FOLDER) -> NextStep:
    """The next step of the loop, for every state from the empty log to done (`folder`: where the printed
    command finds the tuning)."""
    place = folder if isinstance(folder, Place) else Place(folder)
    if state.settings is None and not state.foreign:
        return NextStep("init", "Start the tuning: read the dataset, record the settings and the selection.",
                        _command("init --dataset DATASET", place))
    require_tuning(state)
    last = state.last_run
    if last is not None and not last.graded:
        return NextStep("grade", f"Grade {_describe(last)}: check it was not killed for memory, read every "
                        "trajectory, then record the verdict and the figures.",
                        _command(f"run grade {last.name} --verdict VERDICT", place))
    finals = state.runs_of(0, FINAL)
    if finals:
        return _after_final(finals, place)
    now = current_half(state)
    if now.kind == "half":
        return _run_again(state, now.batch, now.half, place)
    if now.kind == "keep":
        return NextStep("keep_memory", f"Batch {now.batch} passed both halves: its memory becomes the "
                        "last good memory. Count its nodes and keep it.",
                        _command(f"memory keep --batch {now.batch} --nodes NODES", place))
    return _build(state, place)


def _build(state: TuneState, place: Place) -> NextStep:
    try:
        plan = rules.next_batch(history(state))
    except rules.NothingLeft:
        return NextStep("final", f"Every case has been in a batch and no difficult case is open: run the final "
                        f"check, all {len(state.selection)} cases at once, with the last good memory and nothing "
                        "changed.", _command("run start --final", place))
    given_up = ""
    if state.last_batch is not None and Half.GIVEN_UP in batch_halves(state, state.last_batch.number):
        given_up = (f"Batch {state.last_batch.number} is given up (a half used its {RUNS_PER_HALF} runs without "
                    "passing). ")
    out = f"{place.folder}/runs/{run_name(plan.number, 'nomem', 1)}/cases.json"
    what = f"{len(plan.new)} {'new' if plan.kind == 'new' else 'difficult'}" + (
        f" + {len(plan.recheck)} recheck" if plan.recheck else "")
    return NextStep("build_batch", f"{given_up}Build batch {plan.number} ({what}; size {plan.size} - {plan.why}) "
                    "and run it without memory.", _command(f"next-batch -o {shlex.quote(out)}", place))


def _run_again(state: TuneState, batch: int, kind: str, place: Place) -> NextStep:
    runs = state.runs_of(batch, kind)
    number = len(runs) + 1
    counted = sum(1 for run in runs if run.counts)
    command = _command(f"run start --batch {batch} --kind {kind}", place)
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


def _after_final(finals: tuple[Run, ...], place: Place) -> NextStep:
    last = finals[-1]
    if half(finals) is Half.PASSED:
        return NextStep("done", f"Done: the final check passed in {last.name} and the tuning is closed. The last "
                        "good memory is the one to ship; run the audit, which replays the log and checks "
                        "every promise of a finished tuning.", _command("audit", place))
    number = len(finals) + 1
    if last.verdict == "VOID":
        words = f"{last.name} was VOID: run the final check again as final-run{number}."
    else:
        words = (f"{last.name} was {last.verdict}: fix what it found, record the change, then run the final "
                 f"check again as final-run{number}.")
    return NextStep("final", words, _command("run start --final", place))


def _describe(run: Run) -> str:
    if run.kind == FINAL:
        return f"the final check ({run.name})"
    return f"batch {run.batch}'s run {run.number} {HALF_WORDS[run.kind]} ({run.name})"


def _command(rest: str, place: Place) -> str:
    return f"batchlog tune {rest}{place.options()}"


@attrs.frozen
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
    """Every entry: open ones in batch.mjs's order, then fixed, then stuck."""
    require_tuning(state)
    past = history(state)
    groups = (("open", rules.open_difficult(past)), ("fixed", rules.fixed_difficult(past)),
              ("stuck", rules.stuck_difficult(past)))
    notes = {(entry.case, entry.added): tuple(f"{note.run}: {note.text}" for note in entry.notes)
             for entry in state.difficult}
    return [DifficultRow(entry.id, entry.reasons, status, rules.retries(past, entry), entry.added, entry.fixed,
                         notes[entry.id, entry.added])
            for status, entries in groups for entry in entries]
