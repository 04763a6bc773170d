"""The audit of a tuning: replay its events and check what a finished tuning promises, each check with its
evidence (seq numbers), and a timeline summary. Pure: the events and the engine's verify report come in.

Every recorded batch decision is recomputed by the rules from the state just before it, so a hand-edited
log (re-chained or not) or a change in the rules' code shows.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

import attrs

from batchlog.engine.envelope import Event
from batchlog.engine.own_types import REGISTRY as ENGINE_TYPES
from batchlog.projections.tune.batch_mjs import rules
from batchlog.projections.errors import Refused
from batchlog.projections.tune.events import (
    BatchBuilt,
    ChangeRecorded,
    DifficultWithdrawn,
    MemoryKept,
    RunGraded,
    RunRegraded,
    RunStarted,
    TuningStarted,
    UsageRecorded,
)
from batchlog.projections.tune.evolve import evolve, evolve_all
from batchlog.projections.tune.stage import Half, half, latest_final, to_list_after_final
from batchlog.projections.tune.batch_mjs.inputs import Dataset, dataset, history
from batchlog.projections.tune.views.readme.facts import run_calls, run_tokens
from batchlog.projections.tune.decide.regrade import RegradeRun, regrade_run
from batchlog.projections.tune.state import FINAL, TuneState
from batchlog.engine.value import frozen

CHECKS = (
    ("log_sound", "the chain and envelope of every line are sound (log verify)"),
    ("log_whole", "no event was cut away from the log (no `log salvage`, with or without --to)"),
    ("selection_covered", "every selected case was in a batch"),
    ("halves_in_order", "every batch's halves each ended PASSED or at the run limit, in order"),
    ("graded_once", "no run was graded twice"),
    ("corrections", "every corrected grade was corrected, with its reason, before anything was decided on it, and "
                    "every difficult entry it made false was withdrawn"),
    ("difficult_settled", "every difficult case was fixed, is stuck or was withdrawn, with each batch that held it"),
    ("memory_complete", "the last good memory was only replaced by a complete one"),
    ("final_check", "each final check ran with every case used and none open, a failed one's wrong cases went on "
                    "the difficult list, and the last one passed (stuck cases reported)"),
    ("nothing_after_final", "no event came after the final check (but usage and the final runs' changes)"),
    ("decisions_match_rules", "every batch built is the one the rules give from the state just before it"),
)


@frozen
class LogReport:
    """What `log verify` said, for the first check: sound or not, in words, and the lines at fault."""

    sound: bool
    summary: str
    problems: tuple[str, ...] = ()


@frozen
class Check:
    name: str
    promise: str
    holds: bool
    evidence: tuple[str, ...]  # "seq 12: ..." lines: what shows it holds, or where it fails

    def as_dict(self) -> dict:
        return {"name": self.name, "promise": self.promise, "holds": self.holds, "evidence": list(self.evidence)}


@frozen
class Timeline:
    first_at: str | None
    last_at: str | None
    duration: str
    events: int
    batches: int
    runs: int
    verdicts: dict[str, int]
    llm_calls: int
    tokens: int
    without_usage: tuple[str, ...] = ()  # the runs no `tune usage` was recorded for

    def lines(self) -> list[str]:
        verdicts = ", ".join(f"{count} {verdict}" for verdict, count in self.verdicts.items()) or "none graded"
        return [
            f"from      {self.first_at or '-'}",
            f"to        {self.last_at or '-'}",
            f"duration  {self.duration}",
            f"events    {self.events}",
            f"batches   {self.batches}",
            f"runs      {self.runs} ({verdicts})",
            f"llm calls {self.llm_calls:,}",
            f"tokens    {self.tokens:,}",
            f"usage     recorded for {self.runs - len(self.without_usage)} of {self.runs} run(s)"
            + (f"; none for {', '.join(self.without_usage)}" if self.without_usage else ""),
        ]


@frozen
class Audit:
    checks: tuple[Check, ...]
    timeline: Timeline

    @property
    def holds(self) -> bool:
        return all(check.holds for check in self.checks)

    def as_dict(self) -> dict:
        return {"holds": self.holds, "checks": [check.as_dict() for check in self.checks],
                "timeline": attrs.asdict(self.timeline)}


class _Walk:
    """What the replay collects on its way for the checks that need the order of events."""

    def __init__(self) -> None:
        self.state = TuneState()
        self.dataset: Dataset | None = None  # what the rules read of the dataset, once per tuning start
        self.past: rules.History | None = None  # the last history the rules were asked of, handed on to the next
        self.reports: list[Event] = []  # usage reports met since: folded into `state` as one stretch (evolve_all)
        self.order_faults: list[str] = []
        self.grades: dict[str, list[int]] = {}
        self.corrections: list[tuple[bool, str]] = []
        self.decisions: list[tuple[bool, str]] = []
        self.memory: list[tuple[bool, str]] = []
        self.final_started: list[tuple[bool, str]] = []
        self.final_passed_seq: int | None = None
        self.after_final: list[int] = []
        self.salvages: list[str] = []
        self.correcting: str | None = None  # the run of the regrade the events since belong to
        self.events = 0
        self.first_at: str | None = None
        self.last_at: str | None = None


def audit(events: Iterable[Event], log_report: LogReport) -> Audit:
    """Replay `events` (the log's trusted events, in order) and check every promise."""
    walk = _Walk()
    for event in events:
        _step(walk, event)
    state = _folded(walk)
    checks = [
        Check("log_sound", CHECKS[0][1], log_report.sound, (log_report.summary, *log_report.problems)),
        Check("log_whole", dict(CHECKS)["log_whole"], not walk.salvages,
              tuple(walk.salvages) or ("no log.salvaged event: the log holds every event it was given",)),
        _selection_covered(state),
        _halves_in_order(state, walk.order_faults),
        _graded_once(walk.grades),
        _listed("corrections", walk.corrections, "no grade was corrected"),
        _difficult_settled(state),
        _listed("memory_complete", walk.memory, "no memory was kept"),
        _final_check(state, walk),
        _nothing_after_final(walk),
        _listed("decisions_match_rules", walk.decisions, "no batch was built"),
    ]
    return Audit(tuple(checks), _timeline(walk))


def _step(walk: _Walk, event: Event) -> None:
    walk.events += 1
    walk.first_at = walk.first_at or event.at
    walk.last_at = event.at
    fact = event.data
    if event.type in ENGINE_TYPES.by_name:  # the engine's own event, log.salvaged: what the log lost, no step
        walk.salvages.append(_salvaged(event))
        return
    if isinstance(fact, UsageRecorded):
        # most of a log: a report decides nothing and changes no verdict (nothing to check here, nor is the final
        # check passed by it), so reports are folded together, when the next event needs the state
        walk.correcting = None
        walk.reports.append(event)
        return
    before = _folded(walk)
    # a withdrawal belongs to the correction it follows (one command): one that closed the tuning brings it along
    withdrawn_by_it = isinstance(fact, DifficultWithdrawn) and walk.correcting == fact.run
    walk.correcting = fact.run if isinstance(fact, RunRegraded) else walk.correcting if withdrawn_by_it else None
    if walk.final_passed_seq is not None and not (_closing_record(before, fact) or withdrawn_by_it):
        walk.after_final.append(event.seq)
    if before.settings is not None:
        match fact:
            case BatchBuilt():
                walk.decisions.append(_decision(_history(walk, before), fact, event.seq))
                _check_batch_order(walk, before, fact, event.seq)
            case RunStarted():
                _check_run_order(walk, before, fact, event.seq)
            case RunGraded():
                walk.grades.setdefault(fact.run, []).append(event.seq)
            case RunRegraded():
                walk.corrections.append(_correction(before, fact, event.seq))
            case DifficultWithdrawn():
                walk.corrections.append(_withdrawal(before, fact, event.seq))
            case MemoryKept():
                walk.memory.append(_memory(before, fact, event.seq))
    walk.state = evolve(before, event)
    if isinstance(fact, TuningStarted):
        walk.dataset = None
    if walk.final_passed_seq is None and half(walk.state.runs_of(0, FINAL)) is Half.PASSED:
        walk.final_passed_seq = event.seq


def _history(walk: _Walk, before: TuneState) -> rules.History:
    """The rules' history of the state before an event."""
    if walk.dataset is None:
        walk.dataset = dataset(before)
    walk.past = history(before, walk.dataset, walk.past)
    return walk.past


def _folded(walk: _Walk) -> TuneState:
    """The walk's state with the usage reports met since folded in."""
    if walk.reports:
        walk.state, walk.reports = evolve_all(walk.state, walk.reports), []
    return walk.state


def _closing_record(state: TuneState, fact: object) -> bool:
    """What may still be recorded once the tuning is done: usage of any run (a report, not a decision), and the
    final runs' changes."""
    if isinstance(fact, UsageRecorded):
        return True
    if not isinstance(fact, ChangeRecorded):
        return False
    run = state.run_named(fact.run)
    return run is not None and run.kind == FINAL


def _salvaged(event: Event) -> str:
    """What a `log.salvaged` event says was dropped: the seq range, the event types when it recorded them."""
    data = event.data
    kept, dropped = data["kept_through_seq"], data["dropped_lines"]
    lines = f"seq {kept + 1}" if dropped == 1 else f"seq {kept + 1}-{kept + dropped}"
    types = data.get("dropped_types")
    what = ("event types not recorded (a salvage by batchlog before the types were kept)" if types is None
            else ", ".join(f"{count} {name}" for name, count in types.items()) or "no complete line")
    return (f"seq {event.seq}: {data['reason']}: dropped {dropped} line(s), {lines} of the original ({what}); "
            f"the original is kept as {data['damaged_copy']}")


def _correction(before: TuneState, fact: RunRegraded, seq: int) -> tuple[bool, str]:
    run = before.run_named(fact.run)
    was = run.verdict if run is not None else "?"
    said = f"seq {seq}: {fact.run} regraded {was} -> {fact.verdict}: {fact.reason}"
    try:
        regrade_run(before, RegradeRun(fact.run, fact.verdict, fact.reason, fact.wrong, fact.llm_calls,
                                       fact.tokens, fact.saved_twice))
    except Refused as refusal:
        return False, f"{said} (not allowed then: {refusal})"
    return True, said


def _withdrawal(before: TuneState, fact: DifficultWithdrawn, seq: int) -> tuple[bool, str]:
    """A difficult entry withdrawn: right when its run's grade, as corrected, no longer has the case wrong."""
    said = f"seq {seq}: the difficult entry of {fact.case} added in {fact.run} withdrawn: {fact.reason}"
    run = before.run_named(fact.run)
    if run is None or fact.case in run.wrong or not any(c.run == fact.run for c in before.corrections):
        return False, f"{said} (but {fact.run}'s grade, as corrected, does not say it was not wrong there)"
    return True, said


def _decision(past: rules.History, fact: BatchBuilt, seq: int) -> tuple[bool, str]:
    try:
        plan = rules.next_batch(past, size=fact.size_override, recheck=fact.recheck_override,
                                seed=fact.seed_override)
    except rules.NothingLeft as refusal:
        return False, f"seq {seq}: batch {fact.number} was recorded, but the rules build none here ({refusal})"
    expected = (plan.number, plan.size, plan.why, plan.kind, tuple(c.get("id") for c in plan.new),
                tuple(c.get("id") for c in plan.recheck))
    recorded = (fact.number, fact.size, fact.why, fact.kind, fact.new, fact.recheck)
    fields = ("number", "size", "why", "kind", "new cases", "recheck cases")
    differ = [f"{name}: recorded {got!r}, the rules give {want!r}"
              for name, got, want in zip(fields, recorded, expected) if got != want]
    if fact.unused_after is not None and fact.unused_after != plan.unused_after:
        differ.append(f"unused after: recorded {fact.unused_after}, the rules give {plan.unused_after}")
    if differ:
        return False, f"seq {seq}: batch {fact.number} differs from the rules: " + "; ".join(differ)
    return True, f"seq {seq}: batch {fact.number} ({plan.size}, {len(plan.new)} {plan.kind} + " \
                 f"{len(plan.recheck)} recheck) is what the rules give"


def _check_batch_order(walk: _Walk, before: TuneState, fact: BatchBuilt, seq: int) -> None:
    last = before.last_batch
    if last is not None:
        nomem, mem = _halves(before, last.number)
        if mem is not Half.PASSED and Half.GIVEN_UP not in (nomem, mem):
            walk.order_faults.append(f"seq {seq}: batch {fact.number} was built before batch {last.number} "
                                     "passed or was given up")
        imported = fact.unused_after is None  # a batch a zen folder had, taken over by `tune import`
        if mem is Half.PASSED and not imported and not any(kept.batch == last.number for kept in before.memories):
            walk.memory.append((False, f"seq {seq}: batch {fact.number} was built before batch {last.number}'s "
                                       "memory was kept"))
    final = latest_final(before)
    if final is not None and (not final.graded or final.verdict == "PASSED"):
        walk.order_faults.append(f"seq {seq}: batch {fact.number} was built after {final.name} started, which "
                                 f"had {'not failed' if final.graded else 'no grade'}")
    elif to_list_after_final(before):
        walk.order_faults.append(f"seq {seq}: batch {fact.number} was built before the case(s) {final.name} got "
                                 f"wrong went on the difficult list ({' '.join(to_list_after_final(before))})")


def _check_run_order(walk: _Walk, before: TuneState, fact: RunStarted, seq: int) -> None:
    last = before.last_run
    if last is not None and not last.graded:
        walk.order_faults.append(f"seq {seq}: {fact.run} started while {last.name} was not graded")
    runs = before.runs_of(fact.batch, fact.kind)
    if fact.number != len(runs) + 1:
        walk.order_faults.append(f"seq {seq}: {fact.run} is run {fact.number}, after {len(runs)} run(s) of its half")
    if fact.kind == FINAL:
        walk.final_started.append(_final_ready(_history(walk, before), before, fact, seq))
        return
    if before.last_batch is None or fact.batch != before.last_batch.number:
        walk.order_faults.append(f"seq {seq}: {fact.run} is not a run of the last batch built")
        return
    nomem, mem = _halves(before, fact.batch)
    standing = nomem if fact.kind == "nomem" else mem
    if standing in (Half.PASSED, Half.GIVEN_UP):
        walk.order_faults.append(f"seq {seq}: {fact.run} started after its half had {standing.value}")
    if fact.kind == "mem" and nomem is not Half.PASSED:
        walk.order_faults.append(f"seq {seq}: {fact.run} (with memory) started before the no-memory half passed")


def _final_ready(past: rules.History, before: TuneState, fact: RunStarted, seq: int) -> tuple[bool, str]:
    unused, opened = rules.unused_cases(past), rules.open_difficult(past)
    unfinished = [batch.number for batch in before.batches
                  if not (_halves(before, batch.number)[1] is Half.PASSED
                          or Half.GIVEN_UP in _halves(before, batch.number))]
    unlisted = to_list_after_final(before)
    if unused or opened or unfinished or unlisted:
        return False, (f"seq {seq}: {fact.run} started with {len(unused)} unused case(s), {len(opened)} open "
                       f"difficult case(s), unfinished batch(es) {unfinished or 'none'}"
                       + (f" and the case(s) the last final check got wrong not listed ({' '.join(unlisted)})"
                          if unlisted else ""))
    return True, f"seq {seq}: {fact.run} started after every batch, with every case used and none open"


def _memory(before: TuneState, fact: MemoryKept, seq: int) -> tuple[bool, str]:
    mem_runs = before.runs_of(fact.batch, "mem")
    passed = [run for run in mem_runs if run.verdict == "PASSED"]
    if not passed:
        return False, f"seq {seq}: batch {fact.batch}'s memory was kept before its with-memory half passed"
    return True, (f"seq {seq}: batch {fact.batch}'s memory ({fact.nodes} nodes) kept after {passed[0].name} "
                  f"passed at seq {passed[0].verdict_seq}")


def _halves(state: TuneState, number: int) -> tuple[Half, Half]:
    return half(state.runs_of(number, "nomem")), half(state.runs_of(number, "mem"))


def _listed(name: str, results: list[tuple[bool, str]], none: str) -> Check:
    promise = dict(CHECKS)[name]
    if not results:
        return Check(name, promise, True, (none,))
    return Check(name, promise, all(ok for ok, _ in results),
                 tuple(text for ok, text in results if not ok) or tuple(text for _, text in results))


def _selection_covered(state: TuneState) -> Check:
    promise = dict(CHECKS)["selection_covered"]
    if state.settings is None:
        return Check("selection_covered", promise, False, ("no tuning was started in this log",))
    first_batch: dict[str, tuple[int, int]] = {}
    for batch in state.batches:
        for case in batch.cases:
            first_batch.setdefault(case, (batch.number, batch.built_seq))
    missing = [case for case in state.selection if case not in first_batch]
    if missing:
        return Check("selection_covered", promise, False,
                     (f"{len(missing)} selected case(s) in no batch: {', '.join(missing[:10])}"
                      + (" …" if len(missing) > 10 else ""),))
    evidence = [f"seq {batch.built_seq}: batch {batch.number} took "
                f"{sum(1 for case in batch.new if first_batch[case][0] == batch.number)} new case(s)"
                for batch in state.batches]
    return Check("selection_covered", promise, True,
                 (f"all {len(state.selection)} selected cases were in a batch", *evidence))


def _halves_in_order(state: TuneState, faults: list[str]) -> Check:
    promise = dict(CHECKS)["halves_in_order"]
    evidence = list(faults)
    ok = not faults
    for batch in state.batches:
        nomem_runs, mem_runs = state.runs_of(batch.number, "nomem"), state.runs_of(batch.number, "mem")
        nomem, mem = half(nomem_runs), half(mem_runs)
        ended = {Half.PASSED, Half.GIVEN_UP}
        if nomem not in ended or (mem not in ended and not (nomem is Half.GIVEN_UP and mem is Half.NOT_STARTED)):
            ok = False
            evidence.append(f"batch {batch.number}: no memory {nomem.value}, with memory {mem.value}")
            continue
        if not faults:
            evidence.append(f"batch {batch.number}: no memory {nomem.value} at seq {_end_seq(nomem_runs)}, "
                            f"with memory {mem.value}" + (f" at seq {_end_seq(mem_runs)}" if mem_runs else ""))
    if not state.batches:
        evidence.append("no batch was built")
    return Check("halves_in_order", promise, ok, tuple(evidence))


def _end_seq(runs) -> int | None:
    """The seq of the event that gave the half its end: the verdict of its passing run, else of its last run."""
    for run in runs:
        if run.verdict == "PASSED":
            return run.verdict_seq
    return runs[-1].verdict_seq if runs else None


def _graded_once(grades: dict[str, list[int]]) -> Check:
    promise = dict(CHECKS)["graded_once"]
    twice = [f"{run} graded at seq {', '.join(map(str, seqs))}" for run, seqs in grades.items() if len(seqs) > 1]
    if twice:
        return Check("graded_once", promise, False, tuple(twice))
    return Check("graded_once", promise, True, (f"{len(grades)} run(s), one grade each",))


def _difficult_settled(state: TuneState) -> Check:
    promise = dict(CHECKS)["difficult_settled"]
    if state.settings is None:
        return Check("difficult_settled", promise, False, ("no tuning was started in this log",))
    past = history(state)
    stuck = {(entry.id, entry.added) for entry in rules.stuck_difficult(past)}
    ok, evidence = True, []
    for entry in state.difficult:
        held = [f"batch {batch.number} (seq {batch.built_seq})" for batch in state.batches
                if entry.case in batch.cases]
        if entry.withdrawn is not None:
            status = f"withdrawn at seq {entry.withdrawn_seq}: {entry.withdrawn}"
        elif entry.fixed:
            status = f"fixed in {entry.fixed} at seq {entry.fixed_seq}"
        elif (entry.case, entry.added) in stuck:
            status = "stuck"
        else:
            ok, status = False, "still open"
        evidence.append(f"seq {entry.added_seq}: {entry.case} added in {entry.added}; {status}; held by "
                        f"{', '.join(held) or 'no batch'}")
    if not state.difficult:
        evidence.append("no case was put on the difficult list")
    return Check("difficult_settled", promise, ok, tuple(evidence))


def _final_check(state: TuneState, walk: _Walk) -> Check:
    promise = dict(CHECKS)["final_check"]
    finals = state.runs_of(0, FINAL)
    if not finals:
        return Check("final_check", promise, False, ("the final check never ran",))
    ok = all(good for good, _ in walk.final_started)
    verdicts = [(failed.verdict_seq or failed.started_seq, f"seq {failed.verdict_seq}: {failed.name} "
                 f"{failed.verdict or 'not graded'}" + (f", wrong: {' '.join(failed.wrong)}" if failed.wrong else ""))
                for failed in finals[:-1]]
    starts = [(run.started_seq, text) for run, (_, text) in zip(finals, walk.final_started)]
    evidence = [text for _, text in sorted(starts + verdicts)]  # each start, then its verdict
    last = finals[-1]
    if last.verdict == "PASSED" and set(last.cases) >= set(state.selection):
        reported = f", reporting the stuck case(s) it got wrong: {' '.join(last.wrong)}" if last.wrong else ""
        evidence.append(f"seq {last.verdict_seq}: {last.name} PASSED on all {len(last.cases)} cases{reported}")
    else:
        ok = False
        evidence.append(f"{last.name}: {last.verdict or 'not graded'}"
                        + ("" if set(last.cases) >= set(state.selection) else ", not on every selected case"))
    return Check("final_check", promise, ok, tuple(evidence))


def _nothing_after_final(walk: _Walk) -> Check:
    promise = dict(CHECKS)["nothing_after_final"]
    if walk.final_passed_seq is None:
        return Check("nothing_after_final", promise, False, ("no final check passed",))
    if walk.after_final:
        seqs = ", ".join(map(str, walk.after_final[:10])) + (" …" if len(walk.after_final) > 10 else "")
        return Check("nothing_after_final", promise, False,
                     (f"{len(walk.after_final)} event(s) after the final check (seq {walk.final_passed_seq}): "
                      f"seq {seqs}",))
    return Check("nothing_after_final", promise, True,
                 (f"seq {walk.final_passed_seq}: the final check's grade is the last event",))


def _timeline(walk: _Walk) -> Timeline:
    state = walk.state
    verdicts: dict[str, int] = {}
    for run in state.runs:
        if run.graded:
            verdicts[run.verdict] = verdicts.get(run.verdict, 0) + 1
    return Timeline(
        first_at=walk.first_at, last_at=walk.last_at, duration=_duration(walk.first_at, walk.last_at),
        events=walk.events, batches=len(state.batches), runs=len(state.runs), verdicts=verdicts,
        llm_calls=sum(run_calls(run) or 0 for run in state.runs),
        tokens=sum(run_tokens(run) or 0 for run in state.runs),
        without_usage=tuple(run.name for run in state.runs if not run.usage),
    )


def _duration(first: str | None, last: str | None) -> str:
    if not first or not last:
        return "-"
    try:
        seconds = int((_time(last) - _time(first)).total_seconds())
    except ValueError:
        return "-"
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    return (f"{days} d " if days else "") + f"{hours} h {minutes:02d} min"


def _time(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))

