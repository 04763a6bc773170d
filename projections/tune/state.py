"""The folded state of a tuning (`TuneState`) and the small queries views and decisions share.

Pure data: frozen attrs classes (engine/value.py) whose fields are JSON-friendly (str, int, bool,
None, tuples, nested attrs classes), so a snapshot can store them generically.
Its size grows with cases, batches, runs, changes and difficult entries, never
with the number of usage events: usage is kept as running totals per run and model.

Shape (stable: the README and audit views read it):

    TuneState
      settings: TuneSettings | None     None until `tune init`
      cases: tuple[Case, ...]           the dataset, in dataset order
      selection: tuple[str, ...]        selected ids, in the order batches take them
      batches: tuple[Batch, ...]        built batches, by number (1, 2, ...)
      runs: tuple[Run, ...]             every run in the order it was started
      difficult: tuple[Difficult, ...]  difficult entries in the order they were added (a case fixed
                                        earlier and added again has one entry per time), withdrawn ones
                                        included (`difficult_list` leaves them out)
      memories: tuple[KeptMemory, ...]  every `memory keep`; the last is the last good memory
      corrections: tuple[Correction, ...]  every `run regrade`, in log order
      foreign: str | None               type of an event of another loop met in this log

Besides, an index of its runs by half and by batch (`runs_of`, `runs_of_batch`), which is no part of its value.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

import attrs

from batchlog.engine.value import frozen

VERDICTS = ("PASSED", "CORRECT", "WRONG", "VOID")
HALVES = ("nomem", "mem")
FINAL = "final"
RUNS_PER_HALF = 4  # at most this many non-VOID runs in one half of a batch


@frozen
class TuneSettings:
    """The settings in force (batch.mjs's `cfg()` resolution applied) and where the dataset came from.

    `limit` is the limit asked for (None: the whole dataset); `imported_from` the
    zen folder `tune import` read, else None; `name` the dataset's own name, else None.
    """

    dataset: str
    limit: int | None
    min_batch: int
    max_batch: int
    recheck: int
    seed: int
    max_retries: int
    concurrency: int
    imported_from: str | None = None
    name: str | None = None


@frozen
class Case:
    """One dataset case: `class_name` / `complexity` are "" when the case has none.

    `body` is the whole case object as compact JSON text (what cases.json holds).
    """

    id: str
    class_name: str
    complexity: str
    rubric: bool
    body: str


@frozen
class Batch:
    """A built batch: batch.mjs's plan (ids only) and the overrides it was built with.

    `unused_after` / `open_difficult` are None for an imported batch.
    """

    number: int
    size: int
    why: str
    kind: str
    new: tuple[str, ...]
    recheck: tuple[str, ...]
    unused_after: int | None
    open_difficult: int | None
    size_override: int | None
    recheck_override: int | None
    seed_override: int | None
    built_seq: int
    built_at: str

    @property
    def cases(self) -> tuple[str, ...]:
        """The ids of its cases.json: new, then recheck."""
        return self.new + self.recheck


@frozen
class Change:
    """What a run's fix changed in one file."""

    file: str
    summary: str
    lines: int | None
    seq: int


@frozen
class ModelUsage:
    """A run's usage of one model: the latest running totals and how many reports gave them."""

    model: str
    calls: int
    input_tokens: int
    output_tokens: int
    reports: int


@frozen
class Run:
    """One run: `kind` is "nomem", "mem" or "final" (`batch` 0); `verdict` "" until graded."""

    name: str
    batch: int
    kind: str
    number: int
    cases: tuple[str, ...]
    started_seq: int
    started_at: str
    verdict: str = ""
    wrong: tuple[str, ...] = ()
    llm_calls: int | None = None
    tokens: int | None = None
    saved_twice: int | None = None
    findings: str | None = None
    note: str | None = None
    graded_seq: int | None = None
    graded_at: str | None = None
    verdict_seq: int | None = None  # the event that gave the verdict it has: its grade, or the last regrade
    changes: tuple[Change, ...] = ()
    usage: tuple[ModelUsage, ...] = ()

    @property
    def graded(self) -> bool:
        return self.verdict != ""

    @property
    def counts(self) -> bool:
        """Whether it counts toward its half's limit (every run but a VOID one)."""
        return self.verdict != "VOID"


@frozen
class Note:
    """A note on a difficult entry, with the run it was written in."""

    run: str
    text: str


@frozen
class Difficult:
    """A difficult-list entry: reasons (from SEVERITY), the run it was added in, the run that fixed it; and why
    and where it was withdrawn, when a regrade of its run said the case was not wrong there after all."""

    case: str
    reasons: tuple[str, ...]
    added: str
    added_seq: int
    fixed: str | None = None
    fixed_seq: int | None = None
    notes: tuple[Note, ...] = ()
    withdrawn: str | None = None
    withdrawn_seq: int | None = None


@frozen
class KeptMemory:
    """A batch's memory that became the last good memory."""

    batch: int
    nodes: int
    seq: int
    at: str


@frozen
class Correction:
    """A grade corrected by `run regrade`: the verdict before and after, why, and where in the log."""

    run: str
    was: str
    verdict: str
    reason: str
    seq: int
    at: str


class RunIndex(NamedTuple):
    """Where the runs of each half (batch, kind) and of each batch are in a state's `runs`: positions, in order.
    Never changed once made (`with_run` makes another)."""

    halves: dict[tuple[int, str], tuple[int, ...]]
    batches: dict[int, tuple[int, ...]]

    @classmethod
    def of(cls, runs: Iterable[Run]) -> RunIndex:
        halves: dict[tuple[int, str], list[int]] = {}
        batches: dict[int, list[int]] = {}
        for position, run in enumerate(runs):
            halves.setdefault((run.batch, run.kind), []).append(position)
            batches.setdefault(run.batch, []).append(position)
        return cls({key: tuple(found) for key, found in halves.items()},
                   {key: tuple(found) for key, found in batches.items()})

    def with_run(self, position: int, run: Run) -> RunIndex:
        """The index with `run`, at `position` after every other run, added."""
        half = (run.batch, run.kind)
        return RunIndex({**self.halves, half: (*self.halves.get(half, ()), position)},
                        {**self.batches, run.batch: (*self.batches.get(run.batch, ()), position)})


@frozen
class TuneState:
    """Everything the tuning's log says so far (see the module docstring for the shape)."""

    settings: TuneSettings | None = None
    cases: tuple[Case, ...] = ()
    selection: tuple[str, ...] = ()
    batches: tuple[Batch, ...] = ()
    runs: tuple[Run, ...] = ()
    difficult: tuple[Difficult, ...] = ()
    memories: tuple[KeptMemory, ...] = ()
    corrections: tuple[Correction, ...] = ()
    foreign: str | None = None
    # Derived from `runs`, so that finding a half's runs is no scan of every run: no part of the state's value
    # (equality, repr, snapshots, attrs.evolve leave it out), made on first use (`run_index`), handed on by the fold
    # to the state it makes next (`hand_on`), so that a replay asking at every event makes it once.
    _run_index: RunIndex | None = attrs.field(default=None, init=False, eq=False, repr=False)

    @property
    def started(self) -> bool:
        return self.settings is not None

    def run_named(self, name: str) -> Run | None:
        for run in reversed(self.runs):
            if run.name == name:
                return run
        return None

    def batch_numbered(self, number: int) -> Batch | None:
        if 1 <= number <= len(self.batches):
            return self.batches[number - 1]
        return None

    @property
    def last_batch(self) -> Batch | None:
        return self.batches[-1] if self.batches else None

    @property
    def last_run(self) -> Run | None:
        return self.runs[-1] if self.runs else None

    def runs_of(self, batch: int, kind: str) -> tuple[Run, ...]:
        """The runs of one half of a batch (or the final check: batch 0, kind "final"), in order."""
        runs = self.runs
        return tuple(runs[position] for position in self.run_index().halves.get((batch, kind), ()))

    def runs_of_batch(self, batch: int) -> tuple[Run, ...]:
        """Every run of a batch (both its halves), in order."""
        runs = self.runs
        return tuple(runs[position] for position in self.run_index().batches.get(batch, ()))

    def run_index(self) -> RunIndex:
        index = self._run_index
        if index is None:
            index = RunIndex.of(self.runs)
            object.__setattr__(self, "_run_index", index)  # a cache, as functools.cached_property sets one
        return index

    def hand_on(self, later: TuneState) -> TuneState:
        """`later`, the state the fold made of this one with one event (or a stretch of usage reports), given this
        state's run index when it was made: the fold keeps every run in its place, with its batch and kind, and
        starts at most one, after the others."""
        index, known = self._run_index, len(self.runs)
        if index is None or later._run_index is not None:
            return later
        if len(later.runs) == known:
            object.__setattr__(later, "_run_index", index)
        elif len(later.runs) == known + 1:
            object.__setattr__(later, "_run_index", index.with_run(known, later.runs[known]))
        return later

    @property
    def difficult_list(self) -> tuple[Difficult, ...]:
        """The entries the rules count: every entry but the withdrawn ones."""
        return tuple(entry for entry in self.difficult if entry.withdrawn is None)

    def difficult_entry(self, case: str) -> Difficult | None:
        """The case's latest entry not withdrawn (a case fixed earlier that broke again has a newer one), else
        None."""
        for entry in reversed(self.difficult):
            if entry.case == case and entry.withdrawn is None:
                return entry
        return None

    @property
    def last_good_memory(self) -> KeptMemory | None:
        return self.memories[-1] if self.memories else None

    @property
    def used(self) -> frozenset[str]:
        """Ids that some batch holds."""
        return frozenset(case for batch in self.batches for case in batch.cases)
