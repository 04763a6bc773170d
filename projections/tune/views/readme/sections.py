"""The README's text sections (`where`, `plan`, `settings`, `difficult`, `results`, `next`), each a function
state -> markdown. Pure: no I/O. The tables are GitHub markdown; text from the log is escaped.
"""

from __future__ import annotations

import posixpath

from batchlog.projections.control_chars import shown
from batchlog.projections.tune.batch_mjs import rules
from batchlog.projections.tune.stage import (
    Half,
    batch_halves,
    batch_passed,
    current_half,
    latest_final,
    to_list_after_final,
)
from batchlog.projections.tune.batch_mjs.run_names import run_name
from batchlog.projections.tune.batch_mjs.inputs import history
from batchlog.projections.tune.views.readme.facts import (
    HALF_WORDS,
    batch_kind_words,
    code,
    growth_sizes,
    kept_batches,
    numbers_text,
    plain,
    plural,
)
from batchlog.projections.tune.state import FINAL, TuneState
from batchlog.projections.tune.printed import DEFAULT_FOLDER, Place
from batchlog.projections.tune.views.status import next_step

NOT_STARTED = "No tuning has been started in this folder yet."


def where(state: TuneState) -> str:
    """"Where we are": the batch, half and run and what it waits for; batches passed; cases used and left."""
    if state.settings is None:
        return NOT_STARTED
    return f"**{_position(state)}**\n{_progress(state)}"


def _position(state: TuneState) -> str:
    now = current_half(state)
    if now.kind == "done":
        passed = next(run for run in state.runs_of(0, FINAL) if run.verdict == "PASSED")
        reported = f" Stuck, reported: {', '.join(passed.wrong)}." if passed.wrong else ""
        return f"Done: the final check passed ({passed.name}).{plain(reported)}"
    if now.kind == "final":
        return "Final check · " + _final_waiting(state)
    if now.kind == "build":
        past = history(state)
        size = rules.next_size(past)
        final = latest_final(state)
        after = (f" After {final.name} ({final.verdict}), batches of the open difficult cases come before the final "
                 "check again." if final is not None else "")
        return f"Batch {now.batch} · not built yet - next size {size.size} ({plain(size.why)}).{after}"
    batch = state.batch_numbered(now.batch)
    head = f"Batch {batch.number} ({batch_kind_words(batch)})"
    if now.kind == "keep":
        return f"{head} · passed both halves - waiting for its memory to be kept."
    runs = state.runs_of(batch.number, now.half)
    return f"{head} · {HALF_WORDS[now.half]} · {_waiting(runs)}"


def _final_waiting(state: TuneState) -> str:
    """What the final check waits for: its grade, its wrong cases on the difficult list, or its next run."""
    final = latest_final(state)
    upcoming = run_name(0, FINAL, len(state.runs_of(0, FINAL)) + 1)
    if final is None:
        return f"not started - waiting for {upcoming}."
    if not final.graded:
        return f"{final.name} - waiting to be graded."
    missing = to_list_after_final(state)
    if missing:
        return (f"{final.name} was {final.verdict} - {plain(', '.join(missing))} "
                f"{'go' if len(missing) > 1 else 'goes'} on the difficult list next, then batches of the open "
                "difficult cases.")
    if final.verdict == "VOID":
        return f"{final.name} was VOID - waiting for {upcoming}."
    return f"{final.name} was {final.verdict} - waiting for a fix and {upcoming}."


def _waiting(runs) -> str:
    """What a half of a batch waits for."""
    if not runs:
        return "not started - waiting for its first run."
    last = runs[-1]
    if not last.graded:
        return f"run {last.number} - waiting to be graded."
    if last.verdict == "VOID":
        return f"run {last.number} was VOID - waiting for run {last.number + 1}."
    if len([run for run in runs if run.counts]) >= 4 and last.verdict != "PASSED":
        return f"run {last.number} was {last.verdict} - this half used its runs."
    return f"run {last.number} was {last.verdict} - waiting for a fix and run {last.number + 1}."


def _progress(state: TuneState) -> str:
    passed = [batch.number for batch in state.batches if batch_passed(state, batch.number)]
    given_up = [batch.number for batch in state.batches
                if Half.GIVEN_UP in batch_halves(state, batch.number)]
    parts = []
    if passed:
        parts.append(f"{'Batch' if len(passed) == 1 else 'Batches'} {numbers_text(passed)} passed, both halves")
    else:
        parts.append("No batch has passed yet")
    if given_up:
        parts.append(f"{'batch' if len(given_up) == 1 else 'batches'} {numbers_text(given_up)} given up")
    past = history(state)
    selected = len(state.selection)
    unused = len(rules.unused_cases(past))
    opened = len(rules.open_difficult(past))
    open_words = f"{plural(opened, 'difficult case')} open" if opened else "no difficult case open"
    return (f"{'; '.join(parts)}. {selected - unused} of {selected} cases used, {unused} to go; "
            f"{open_words}.")


def dataset_path(recorded: str, base: str = "") -> str:
    """The dataset's path from the README's folder: `recorded` is relative to the tuning's folder (`base` leads
    there); a log written before that rule may hold an absolute path, of which only the file name is shown."""
    if recorded.startswith("/") or (len(recorded) > 2 and recorded[1] == ":" and recorded[2] in "/\\"):
        return recorded.replace("\\", "/").rsplit("/", 1)[-1]
    return posixpath.normpath(base + recorded)


def _recorded_dataset(settings) -> str:
    """An imported tuning's log sits in the zen folder beside its dataset.json (the import names it by the
    folder as it was given); `init` records the path relative to the tuning's folder."""
    return "dataset.json" if settings.imported_from is not None else settings.dataset


def plan(state: TuneState, base: str = "") -> str:
    """"The plan": the dataset by class, the selection order in words, the batch arithmetic."""
    settings = state.settings
    if settings is None:
        return NOT_STARTED
    total, selected = len(state.cases), len(state.selection)
    used_words = (f"**all {total}** of them" if selected == total
                  else f"**{selected}** of them (limit {settings.limit} of {total})")
    lines = [
        "### What we are testing against",
        "",
        f"The dataset {code(dataset_path(_recorded_dataset(settings), base))} holds **{plural(total, 'case')}**. This tuning uses "
        f"{used_words}.",
        "",
        _class_table(state),
        "",
        _order_words(state),
        "",
        "### Batches",
        "",
        _arithmetic(selected, settings.min_batch, settings.max_batch),
    ]
    return "\n".join(lines)


def _class_table(state: TuneState) -> str:
    selected = set(state.selection)
    rows: dict[str, list[int]] = {}
    for case in state.cases:
        row = rows.setdefault(case.class_name, [0, 0, 0, 0])
        row[0] += 1
        if case.id in selected:
            row[1] += 1
            row[2] += case.rubric
            row[3] += case.complexity == "complex"
    lines = ["| class | in the dataset | used | with a rubric | complex |",
             "| --- | ---: | ---: | ---: | ---: |"]
    for name, row in rows.items():
        lines.append(f"| {plain(name) or '(none)'} | {row[0]} | {row[1]} | {row[2]} | {row[3]} |")
    sums = [sum(row[i] for row in rows.values()) for i in range(4)]
    lines.append("| **total** | " + " | ".join(f"**{value}**" for value in sums) + " |")
    return "\n".join(lines)


def _order_words(state: TuneState) -> str:
    classes = list(dict.fromkeys(case.class_name for case in state.cases))
    named = ", ".join(plain(name) or "(none)" for name in classes)
    first = ", ".join(code(case) for case in state.selection[:3])
    return (f"\"used\", \"with a rubric\" and \"complex\" count the selected cases. The selection takes the "
            f"classes in turn ({named}), so every kind of case is worked on from the start; inside a class, "
            f"cases with a rubric and complex cases come first. It starts {first}.")


def _arithmetic(total: int, min_batch: int, max_batch: int) -> str:
    """"64 cases growing 3 → 6 → 10 is at least 8 batches: 3 + 6 + 10 × 5 + 5"."""
    sizes = growth_sizes(total, min_batch, max_batch)
    if not sizes:
        return "No case is selected: there is no batch to build."
    growth, size = [], min_batch
    for _ in sizes:  # the sizes the rule gives, before the last batch takes what is left
        if not growth or growth[-1] != size:
            growth.append(size)
        size = min(max_batch, size * 2)
    terms, index = [], 0
    while index < len(sizes):
        run = 1
        while index + run < len(sizes) and sizes[index + run] == sizes[index]:
            run += 1
        terms.append(str(sizes[index]) if run == 1 else f"{sizes[index]} × {run}")
        index += run
    arrows = " → ".join(str(size) for size in growth)
    return (f"{plural(total, 'case')} growing {arrows} is **at least {plural(len(sizes), 'batch', 'batches')}**: "
            f"{' + '.join(terms)}. A batch that does not go smoothly keeps the next one the same size, and "
            "difficult cases can add batches at the end.")


SETTINGS_MEANING = (
    ("limit", "cases taken from the dataset, in selection order"),
    ("minBatch", "new cases in batch 1, the smoke test"),
    ("maxBatch", "the most new cases a batch grows to"),
    ("recheck", "cases from earlier batches re-run in each batch: difficult ones first, then complex ones"),
    ("concurrency", "most cases running at the same time (default min(maxBatch + recheck, 16)); halve it "
                    "after an out-of-memory kill"),
    ("seed", "makes the choice of recheck cases repeatable"),
    ("maxRetries", "later batches an open difficult case gets before it is stuck"),
)


def settings(state: TuneState) -> str:
    """The settings table with the meaning of each."""
    values = state.settings
    if values is None:
        return NOT_STARTED
    limit = (f"{values.limit}" if values.limit is not None and values.limit < len(state.cases)
             else f"{len(state.selection)} (all)")
    shown = {"limit": limit, "minBatch": values.min_batch, "maxBatch": values.max_batch,
             "recheck": values.recheck, "concurrency": values.concurrency, "seed": values.seed,
             "maxRetries": values.max_retries}
    lines = ["| setting | value | meaning |", "| --- | ---: | --- |"]
    lines += [f"| {name} | {shown[name]} | {meaning} |" for name, meaning in SETTINGS_MEANING]
    return "\n".join(lines)


def difficult(state: TuneState) -> str:
    """The difficult list (case, why, status, retries, notes) and the last good memory line."""
    if state.settings is None:
        return NOT_STARTED
    past = history(state)
    # by entry, not by case: a case fixed and added again has a fixed entry and a newer one
    status = {(entry.id, entry.added): "open" for entry in rules.open_difficult(past)}
    status.update({(entry.id, entry.added): "fixed" for entry in rules.fixed_difficult(past)})
    status.update({(entry.id, entry.added): "stuck" for entry in rules.stuck_difficult(past)})

    def status_of(entry) -> str:
        return "withdrawn" if entry.withdrawn is not None else status[entry.case, entry.added]

    order = {"open": 0, "stuck": 1, "fixed": 2, "withdrawn": 3}
    entries = sorted(state.difficult, key=lambda entry: order[status_of(entry)])
    lines = []
    if entries:
        lines += ["| case | why | status | retries | what goes wrong, and what was tried |",
                  "| --- | --- | --- | ---: | --- |"]
        for entry in entries:
            retries = "-" if entry.withdrawn is not None else rules.retries(
                past, rules.DifficultEntry(entry.case, entry.reasons, entry.added, entry.fixed))
            story = _story(entry)
            lines.append(f"| {code(entry.case)} | {plain(', '.join(entry.reasons))} | "
                         f"{status_of(entry)} | {retries} | {plain('; '.join(story))} |")
    else:
        lines.append("No case is on the difficult list.")
    lines += ["", memory_line(state)]
    return "\n".join(lines)


def _story(entry) -> list[str]:
    """"added in RUN: note", the notes written in between, "fixed in RUN: note"."""
    notes = list(entry.notes)
    added = f"added in {entry.added}"
    if notes and notes[0].run == entry.added:
        added += f": {notes.pop(0).text}"
    fixed = None
    if entry.fixed:
        fixed = f"fixed in {entry.fixed}"
        if notes and notes[-1].run == entry.fixed:
            fixed += f": {notes.pop().text}"
    withdrawn = [f"withdrawn at seq {entry.withdrawn_seq}: {entry.withdrawn}"] if entry.withdrawn is not None else []
    return [added, *(f"{note.run}: {note.text}" for note in notes), *([fixed] if fixed else []), *withdrawn]


def memory_line(state: TuneState) -> str:
    kept = state.last_good_memory
    if kept is None:
        return "Last good memory: none yet (no batch has passed with memory)."
    return f"Last good memory: {plural(kept.nodes, 'node')}, from {kept_batches(state)} (kept at seq {kept.seq})."


def next_section(state: TuneState, folder: str | Place = DEFAULT_FOLDER, newer: str | None = None) -> str:
    """What `batchlog tune next` says, in words, then the command (`folder`: where it finds the tuning; the
    optional records are `tune next`'s)."""
    if state.foreign:
        return "This log is not a tuning's."
    step = next_step(state, folder, newer)
    if not step.command:
        return plain(step.words)
    where = " ".join(f"Replace `{word}` with {_meaning(word)}." for word in step.placeholders)
    # a command names no control character where batchlog checks its words (the folder as given, case ids), but
    # the README names the tuning's folder by its own name: one holding a line break must not end the fence
    return f"{plain(step.words)}\n\n```sh\n{shown(step.command)}\n```" + (f"\n\n{where}" if where else "")


def _meaning(placeholder: str) -> str:
    """What a placeholder of a printed template stands for, in words."""
    from batchlog.projections.tune.views.status import PLACEHOLDERS

    meaning = PLACEHOLDERS[placeholder]
    choices = meaning.get("one_of")
    return f"one of {', '.join(choices)}" if isinstance(choices, list) else str(meaning["what"])
