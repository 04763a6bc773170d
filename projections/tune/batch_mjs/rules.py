"""batch.mjs's rules, from a `History` (what batch.mjs reads under `finetune/`): the next batch's size, its new
cases and rechecks, the difficult list's open / fixed / stuck entries, and the exact text batch.mjs prints and
writes (status lines, stderr summary, cases.json, plan.json). Pure: no I/O; the caller reads and writes files.
"""

from __future__ import annotations

import functools
import itertools
import math
import re
from typing import NamedTuple

import attrs

from batchlog.projections.fields import as_tuple
from batchlog.projections.errors import Refused
from batchlog.projections.tune.batch_mjs.collation import locale_compare
from batchlog.projections.tune.batch_mjs.js_json import js_json, js_number
from batchlog.projections.tune.batch_mjs.run_names import FINAL, RunName, parse_run_name
from batchlog.engine.value import frozen

SEVERITY = ("wrong", "regressed", "flaky", "memory", "costly")
# The summary's words that name batch.mjs or zen-finetune's files, which a batchlog user has neither of: batchlog
# says them its own way, the figures and their order kept (tests/test_tune_differential.py maps batch.mjs's
# words to these before it compares).
SUMMARY_LABEL = "next-batch"
NO_DIFFICULT_LIST = "(no difficult list yet)"
NOT_A_RUN_FOLDER = "a run's folder is named after its run"
SMOOTH_RUNS = 2  # a batch that needed more non-VOID runs than this, in either half, does not grow the next
_LEHMER_MODULUS = 2147483647
_LEHMER_MULTIPLIER = 48271


@frozen
class DifficultEntry:
    id: str
    reasons: tuple[str, ...] = attrs.field(converter=as_tuple)  # from SEVERITY
    added: str  # name of the run it was added in, e.g. "batch03-nomem-run2"
    fixed: str | None = None  # name of the run it was fixed in


@frozen
class Settings:
    """Resolved values: batch.mjs's cfg() rules already applied (see `settings_from_config`)."""

    min_batch: int = 3
    max_batch: int = 10  # already max(min_batch, maxBatch)
    recheck: int = 3
    seed: int = 1
    max_retries: int = 3


@frozen
class History:
    selection: tuple[dict, ...] = attrs.field(converter=as_tuple)  # selection.json "batch": whole cases, in order
    complexity: dict[str, str]  # dataset.json id -> complexity ("" when none)
    settings: Settings
    batches: dict[int, tuple[str, ...]]  # built batch number -> ids of its batchNN-nomem-run1/cases.json
    sizes: dict[int, int]  # built batch number -> "size" of its plan.json
    runs: tuple[tuple[str, str], ...] = attrs.field(converter=as_tuple)  # every run folder (name, verdict or "")
    difficult: tuple[DifficultEntry, ...] | None = None  # None when no difficult.json exists
    # What the rules look up in the fields above, made on first use (`_used_ids`, `_selected`), as one decision reads
    # each several times; no part of the value (equality, repr and attrs.evolve leave them out). The look-up of the
    # selection is handed on to a later history of the same selection (`hand_on`).
    _used: dict[str, None] | None = attrs.field(default=None, init=False, eq=False, repr=False)
    _selected: _Selected | None = attrs.field(default=None, init=False, eq=False, repr=False)

    def hand_on(self, later: History) -> History:
        """`later` given this history's look-up of the selection when it reads the same one (the one tuple, as a
        walk over a log reads the dataset once per tuning start): a walk asking at every batch makes it once."""
        if later.selection is self.selection and later._selected is None:
            object.__setattr__(later, "_selected", self._selected)
        return later


class _Selected(NamedTuple):
    """The selection looked up: each case's id, in selection order, and each case by its id."""

    ids: tuple[str, ...]
    by_id: dict[str, dict]


@frozen
class Size:
    size: int
    why: str


@frozen
class BatchPlan:
    number: int
    size: int
    why: str
    kind: str  # "new" | "difficult"
    new: tuple[dict, ...]
    recheck: tuple[dict, ...]
    unused_after: int  # batch.mjs's `left`
    open_difficult: int  # batch.mjs's open.length


class NothingLeft(Refused):
    """No unused case and no open difficult one: the tuning goes to the final check (batch.mjs exits 1)."""

    code = "nothing_left"


def batch_of(run: str) -> int:
    """The batch number in a run name; 0 for a name that is not a batch run (e.g. final-run1)."""
    parts = parse_run_name(run)
    return parts.batch if parts else 0


def pad(number: int) -> str:
    return f"{number:02d}"


def next_number(history: History) -> int:
    return max(history.batches, default=0) + 1


def used_ids(history: History) -> list[str]:
    """Every id some batch held, first-seen order, batches in number order (as batch.mjs reads run folders)."""
    return list(_used_ids(history))


def unused_cases(history: History) -> list[dict]:
    used = _used_ids(history)
    return [case for case, case_id in zip(history.selection, _selected(history).ids) if case_id not in used]


def retries(history: History, entry: DifficultEntry) -> int:
    """How many batches after the one it was added in have held it; `max_retries` of them is stuck."""
    since = batch_of(entry.added)
    return sum(1 for number, ids in history.batches.items() if number > since and entry.id in ids)


def open_difficult(history: History) -> list[DifficultEntry]:
    """Open entries, worst reason first, then fewest retries, then id as localeCompare orders (batch.mjs)."""
    listed = history.difficult or ()
    entries = [e for e in listed if not e.fixed and retries(history, e) < history.settings.max_retries]
    return sorted(entries, key=functools.cmp_to_key(lambda a, b: _open_order(history, a, b)))


def fixed_difficult(history: History) -> list[DifficultEntry]:
    return [e for e in history.difficult or () if e.fixed]


def stuck_difficult(history: History) -> list[DifficultEntry]:
    return [e for e in history.difficult or () if not e.fixed and retries(history, e) >= history.settings.max_retries]


def next_size(history: History, override: int | None = None) -> Size:
    """The next batch's size and why: -m, else batch 1 = minBatch, else double after a smooth batch."""
    if override is not None:
        return Size(override, f"set by -m {override}")
    settings = history.settings
    number = next_number(history)
    if number == 1:
        return Size(settings.min_batch, f"batch 1 is the smoke test: minBatch {settings.min_batch}")
    prev = number - 1
    was = history.sizes.get(prev) or settings.min_batch
    nomem, mem = _counted_runs(history, prev)
    added = sum(1 for e in history.difficult or () if not e.fixed and _of_batch(e.added, prev))
    if nomem <= SMOOTH_RUNS and mem <= SMOOTH_RUNS and added == 0:
        grown = min(settings.max_batch, was * 2)
        if grown > was:
            why = (f"batch {prev} went smoothly ({nomem} no-memory + {mem} with-memory runs, "
                   f"no new difficult case): {was} -> {grown}")
        else:
            why = f"batch {prev} went smoothly; already at maxBatch {settings.max_batch}"
        return Size(grown, why)
    return Size(was, f"batch {prev} did not go smoothly ({nomem} no-memory + {mem} with-memory runs, "
                     f"{added} difficult case(s) added and open): stays at {was}")


def next_batch(history: History, *, size: int | None = None, recheck: int | None = None,
               seed: int | None = None) -> BatchPlan:
    """The next batch: new cases in selection order (or open difficult ones once the selection is used up),
    then the rechecks. Raises NothingLeft when there is neither."""
    number = next_number(history)
    planned = next_size(history, size)
    by_id = _selected(history).by_id
    unused = unused_cases(history)
    opened = open_difficult(history)
    if unused:
        fresh, kind = unused[: planned.size], "new"
    else:
        # sliced before dropping ids the selection lacks, as batch.mjs does; a case with two open entries (an
        # imported list) goes in once, the next open one taking its place (a deliberate difference)
        fresh = [by_id[i] for i in _once(e.id for e in opened)[: planned.size] if i in by_id]
        kind = "difficult"
    if not fresh:
        stuck = len(stuck_difficult(history))
        raise NothingLeft("nothing left: no unused cases and no open difficult ones"
                          + (f" ({stuck} stuck)" if stuck else "") + " - run the final check")
    rechecks = _rechecks(history, number, fresh, opened,
                         history.settings.recheck if recheck is None else recheck,
                         history.settings.seed if seed is None else seed)
    return BatchPlan(
        number=number, size=planned.size, why=planned.why, kind=kind,
        new=tuple(fresh), recheck=tuple(by_id[i] for i in rechecks),
        unused_after=len(unused) - len(fresh) if kind == "new" else 0,
        open_difficult=len(opened),
    )


def lehmer_keys(start: int, count: int) -> list[int]:
    """`count` successive Lehmer values s * 48271 mod 2^31-1 (exact in a double, so exact here too)."""
    keys, state, multiplier, modulus = [], start, _LEHMER_MULTIPLIER, _LEHMER_MODULUS  # locals: a draw's hot loop
    for _ in range(count):
        state = state * multiplier % modulus
        keys.append(state)
    return keys


def draw_start(seed: int, number: int) -> int:
    """The Lehmer start of batch `number`: ((seed * 7919 + number * 104729) % 2147483646) + 1.

    Computed with JavaScript's doubles, which are exact below seed ~1.1e12 and round above it; matching the
    rounding keeps huge seeds drawing what batch.mjs draws.
    """
    total = float(seed) * 7919.0 + float(number) * 104729.0
    return int(math.fmod(total, 2147483646.0)) + 1


def progress_lines(history: History, size: int | None = None) -> list[str]:
    """What batch.mjs prints with no argument (status), line by line."""
    planned = next_size(history, size)
    unused = unused_cases(history)
    opened = open_difficult(history)
    ahead = -(-len(unused) // history.settings.max_batch)
    return [
        f"selection     {len(history.selection)} cases",
        f"used          {len(used_ids(history))}, {len(unused)} not yet in any batch",
        f"batches       {len(history.batches)} built",
        f"next size     {planned.size} - {planned.why}",
        f"difficult     {len(opened)} open · {len(fixed_difficult(history))} fixed · "
        f"{len(stuck_difficult(history))} stuck",
        f"ahead         at least {ahead} more batch(es) for new cases"
        + (f", plus what the {len(opened)} open difficult case(s) need" if opened else ""),
    ]


def summary_lines(plan: BatchPlan, out: str | None, difficult_exists: bool) -> list[str]:
    """The stderr lines batch.mjs prints after a batch, its leading empty line and warnings included, in
    batchlog's words where batch.mjs names itself or its files (SUMMARY_LABEL and the two after it).

    `out` is the -o path as given (None or "" for a preview, shown as "-").
    """
    new_ids = " ".join(_id_text(c) for c in plan.new)
    recheck_ids = " ".join(_id_text(c) for c in plan.recheck) if plan.recheck else "(none - nothing used yet)"
    lines = [
        "",
        f"{SUMMARY_LABEL}: batch {plan.number} -> {out or '-'}",
        f"  size      {plan.size} - {plan.why}",
        f"  {'new      ' if plan.kind == 'new' else 'difficult'} {new_ids}",
        f"  recheck   {recheck_ids}",
        f"  after it: {plan.unused_after} unused case(s), {plan.open_difficult} difficult open"
        + ("" if difficult_exists else f" {NO_DIFFICULT_LIST}"),
    ]
    if out:
        folder = node_dirname(out)
        last = re.split(r"[\\/]", folder)[-1]
        parts = run_folder_of(out)
        if parts is None or parts.kind == FINAL:
            lines.append(f"  warning: {folder} is not named batch<NN>-nomem-run1 - {NOT_A_RUN_FOLDER}")
        elif last != f"batch{pad(plan.number)}-nomem-run1":
            lines.append(f"  warning: this is batch {plan.number}; write it to batch{pad(plan.number)}-nomem-run1/")
    return lines


def cases_json(plan: BatchPlan) -> str:
    """batch.mjs's cases.json (and preview on stdout): the new cases then the rechecks, whole."""
    return js_json({"batch": [*plan.new, *plan.recheck]})


def plan_json(plan: BatchPlan) -> str:
    """batch.mjs's plan.json, written beside cases.json."""
    return js_json({
        "batch": plan.number,
        "size": plan.size,
        "why": plan.why,
        "kind": plan.kind,
        "new": [c.get("id") for c in plan.new],
        "recheck": [c.get("id") for c in plan.recheck],
    })


def run_folder_of(out: str) -> RunName | None:
    """The run a -o file's folder is named after, as batch.mjs reads it (the last part of its folder, either slash
    separating), None when that folder is named after no run."""
    return parse_run_name(re.split(r"[\\/]", node_dirname(out))[-1])


def node_dirname(path: str) -> str:
    """Node's path.dirname (POSIX): trailing slashes ignored, "." when there is no folder part."""
    if not path:
        return "."
    has_root = path[0] == "/"
    end, matched_slash = -1, True
    for i in range(len(path) - 1, 0, -1):
        if path[i] == "/":
            if not matched_slash:
                end = i
                break
        else:
            matched_slash = False
    if end == -1:
        return "/" if has_root else "."
    if has_root and end == 1:
        return "//"
    return path[:end]


def _used_ids(history: History) -> dict[str, None]:
    """`used_ids` as the keys of a dict: in order, and a look-up."""
    used = history._used
    if used is None:
        ordered = (history.batches[number] for number in sorted(history.batches))
        used = dict.fromkeys(itertools.chain.from_iterable(ordered))
        object.__setattr__(history, "_used", used)  # a cache, as TuneState's run index is
    return used


def _selected(history: History) -> _Selected:
    selected = history._selected
    if selected is None:
        ids = tuple(case.get("id") for case in history.selection)
        selected = _Selected(ids, dict(zip(ids, history.selection)))
        object.__setattr__(history, "_selected", selected)
    return selected


def _of_batch(run: str, number: int) -> bool:
    """Whether `run` is a run of batch `number` (>= 1): `batch_of(run) == number`, its name's prefix tested before
    parsing it (the grammar's batch is two digits: no other name starts so)."""
    return run.startswith(f"batch{pad(number)}-") and batch_of(run) == number


def _counted_runs(history: History, number: int) -> tuple[int, int]:
    """Runs of each half of a batch (no memory, with memory) that count: every run folder but the VOID ones
    (ungraded ones count)."""
    prefix = f"batch{pad(number)}-"  # what their names start with: a test cheaper than parsing every name
    counted = {"nomem": 0, "mem": 0}
    for name, verdict in history.runs:
        if verdict != "VOID" and name.startswith(prefix):
            parts = parse_run_name(name)
            if parts is not None:
                counted[parts.kind] += 1
    return counted["nomem"], counted["mem"]


def _rechecks(history: History, number: int, fresh: list[dict], opened: list[DifficultEntry],
              limit: int, seed: int) -> list[str]:
    """Ids to recheck: open difficult, then fixed difficult, then complex, then the rest; seeded order."""
    in_batch = {c.get("id") for c in fresh}
    used, selected = _used_ids(history), _selected(history).by_id

    def pooled(case_id: str) -> bool:  # what may be rechecked: a used case of the selection, not in the batch
        return case_id in used and case_id in selected and case_id not in in_batch

    # A case with several entries (fixed, then added again) is rechecked once, the next candidate taking the
    # place batch.mjs gives its repeat: a deliberate difference (README), a batch holds a case once.
    first = _once(e.id for e in [*opened, *fixed_difficult(history)] if pooled(e.id))
    if 0 <= limit <= len(first):
        return first[:limit]  # the difficult cases fill the rechecks: the seeded draw of the pool would change nothing
    pool = [i for i in used if pooled(i)]
    order = dict(zip(pool, lehmer_keys(draw_start(seed, number), len(pool))))
    firsts = set(first)
    rest = [i for i in pool if i not in firsts]
    kept = len(range(len(pool))[:limit])  # how many `[:limit]` keeps of first + rest (a negative limit as slice())
    return [*first, *_first_drawn(rest, order, history.complexity, max(0, kept - len(first)))][:kept]


def _first_drawn(ids: list[str], order: dict[str, int], complexity: dict[str, str], count: int) -> list[str]:
    """The first `count` of `ids` put in order complex ones first, each group in its seeded `order`: what
    `sorted(ids, key=lambda i: (complexity.get(i) != "complex", order[i]))[:count]` gives, with whole numbers for
    keys so that the sort compares no tuples (no two cases of a draw draw the same number: 48271 is a primitive
    root of 2^31 - 1)."""
    later = _LEHMER_MODULUS  # added to the draw of a case that is not complex: above every draw, it sorts after them
    keyed = {order[i] + (0 if complexity.get(i) == "complex" else later): i for i in ids}
    return [keyed[key] for key in sorted(keyed)[:count]]


def _once(ids) -> list[str]:
    """`ids` in order, each once (its first place)."""
    return list(dict.fromkeys(ids))


def _open_order(history: History, a: DifficultEntry, b: DifficultEntry) -> int:
    # worst(a) - worst(b) || retries(a) - retries(b) || localeCompare; NaN (Infinity - Infinity) counts as a tie
    difference = _worst(a) - _worst(b)
    if difference and not math.isnan(difference):
        return -1 if difference < 0 else 1
    return (retries(history, a) - retries(history, b)) or locale_compare(a.id, b.id)


def _worst(entry: DifficultEntry) -> float:
    """Index of the most severe reason; -1 for an unknown one (indexOf), Infinity for none (Math.min())."""
    return min((SEVERITY.index(r) if r in SEVERITY else -1 for r in entry.reasons), default=math.inf)


def _id_text(case: dict) -> str:
    """An id as JavaScript's Array.join prints it (ids are strings in practice)."""
    value = case.get("id")
    if value is None or isinstance(value, str):
        return value or ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return js_number(value) if isinstance(value, (int, float)) else str(value)
