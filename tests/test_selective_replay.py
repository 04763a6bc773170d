"""Selective replay: a projection that declares the types it folds gets the same answer as a full replay.

The scan still reads, hashes and links every line; it parses only the lines of the declared types.
Checked here on generated logs, whole and with one byte changed anywhere, or cut anywhere: the
events folded, where the scan stopped, and what it counted are those of a full scan; every view of
the tuning that reads the selective projection (status, the next batch, the difficult list) answers as it does
from the full one.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs
import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from batchlog.engine import EventLog, EventType, Projection, Registry
from batchlog.engine.registry import Raw
from batchlog.engine.recorders.file import FileRecorder
from batchlog.engine.scan import Scan
from batchlog.engine.chain import line_hash
from batchlog.engine.envelope import encode_line
from batchlog.cli.loops import all_types
from batchlog.projections.errors import Refused
from batchlog.projections.quick_batch.events import TargetStarted
from batchlog.projections.tune.batch_mjs import rules
from batchlog.projections.tune.events import (
    BatchBuilt,
    ChangeRecorded,
    DifficultAdded,
    DifficultFixed,
    MemoryKept,
    RunGraded,
    RunStarted,
    UsageRecorded,
)
from batchlog.projections.tune.decider import TUNE, without_usage
from batchlog.projections.tune.batch_mjs.inputs import history
from batchlog.projections.tune.views.status import difficult_rows, progress
from tests.tune_helpers import AT, started

REGISTRY = all_types()
CASES = [{"id": f"case-{i}", "class": "c", "complexity": "simple", "input": "q"} for i in range(8)]
IDS = [case["id"] for case in CASES]
RUNS = ["batch01-nomem-run1", "batch01-mem-run1", "batch02-nomem-run1"]
SETTINGS = settings(max_examples=150)

run_names = st.sampled_from(RUNS)
case_ids = st.sampled_from(IDS)
facts = st.one_of(
    st.builds(UsageRecorded, run_names, st.sampled_from(["model-a", "model-b"]), st.integers(0, 99),
              st.integers(0, 9999), st.integers(0, 999)),
    st.builds(UsageRecorded, run_names, st.just("model-a"), st.integers(0, 9), st.integers(0, 9), st.integers(0, 9)),
    st.builds(BatchBuilt, st.integers(1, 3), st.integers(3, 6), st.just("smooth"), st.just("new"),
              st.lists(case_ids, max_size=3), st.lists(case_ids, max_size=2)),
    st.builds(RunStarted, run_names, st.integers(1, 2), st.sampled_from(["nomem", "mem"]), st.integers(1, 3),
              st.lists(case_ids, max_size=3)),
    st.builds(RunGraded, run_names, st.sampled_from(["PASSED", "CORRECT", "WRONG", "VOID"]),
              st.lists(case_ids, max_size=2)),
    st.builds(DifficultAdded, case_ids, st.just(["wrong"]), run_names, st.none() | st.just("a note")),
    st.builds(DifficultFixed, case_ids, run_names),
    st.builds(ChangeRecorded, run_names, st.just("prompt.md"), st.just("fewer steps"), st.none() | st.integers(1, 9)),
    st.builds(MemoryKept, st.integers(1, 2), st.integers(1, 30)),
)
histories = st.tuples(st.lists(facts, max_size=40), st.booleans(), st.booleans())


def write(path: Path, domain_events: list[Any], registry: Registry = REGISTRY) -> bytes:
    """The log of `domain_events` as an append writes it (one pinned time)."""
    prev, lines = line_hash(b""), []
    for seq, domain in enumerate(domain_events, start=1):
        type_, v, data = registry.encode(domain)
        line = encode_line(seq, type_, v, AT, data, prev)
        prev = line_hash(line)
        lines.append(line + b"\n")
    payload = b"".join(lines)
    path.write_bytes(payload)
    return payload


def events_of(draw: tuple[list[Any], bool, bool]) -> list[Any]:
    body, with_start, foreign = draw
    events = ([started(CASES)] if with_start else []) + list(body)
    if foreign and events:
        events.insert(len(events) // 2, TargetStarted(1, "https://example.org/x"))
    return events


def outcome(view, state) -> Any:
    try:
        return ("answered", view(state))
    except (Refused, AssertionError, ValueError, KeyError, IndexError, TypeError) as error:
        return ("raised", type(error), str(error))  # the generated facts need not make sense: both raise alike


VIEWS = {
    "progress": lambda state: progress(state, None),
    "progress -m 5": lambda state: progress(state, 5),
    # `tune next` is not among them: it reads usage (it names `tune usage` for a run that has none)
    "next batch": lambda state: rules.next_batch(history(state)),
    "difficult": difficult_rows,
    "foreign": lambda state: state.foreign,
}


def scan_figures(scan: Scan, only: frozenset[str] | None) -> tuple:
    events = [(e.seq, e.type, e.id, e.data) for e in scan if only is None or e.type in only]
    return events, scan.position, scan.bad, scan.newer, scan.torn, scan.end, scan.lines


class TestTheViewsAnswerAsFromAFullReplay:
    @SETTINGS
    @given(history=histories, at=st.none() | st.integers(1, 45))
    def test_every_view_of_a_generated_tuning(self, tmp_path_factory, history, at):
        path = tmp_path_factory.mktemp("log") / "events.jsonl"
        write(path, events_of(history))
        log = EventLog(path, REGISTRY)

        full = log.replay(TUNE, at=at)
        selective = log.replay(without_usage(REGISTRY.by_name), at=at)

        assert (selective.position, selective.bad, selective.newer, selective.torn, selective.end) == (
            full.position, full.bad, full.newer, full.torn, full.end)
        for name, view in VIEWS.items():
            assert outcome(view, selective.state) == outcome(view, full.state), name
        assert attrs.evolve(full.state, runs=tuple(attrs.evolve(run, usage=()) for run in full.state.runs)) == \
            selective.state


ONLY = without_usage(REGISTRY.by_name).folds


class TestTheScanSeesWhatAFullScanSees:
    @SETTINGS
    @given(history=histories, where=st.floats(0, 1, exclude_max=True), byte=st.integers(0, 255),
           at=st.none() | st.integers(1, 45))
    def test_with_one_byte_changed_anywhere(self, tmp_path_factory, history, where, byte, at):
        path = tmp_path_factory.mktemp("log") / "events.jsonl"
        payload = bytearray(write(path, events_of(history)))
        if payload:
            payload[int(where * len(payload))] = byte
        path.write_bytes(bytes(payload))

        assert scan_figures(Scan(path, REGISTRY, lines=FileRecorder(path).lines, at=at, only=ONLY), ONLY) == \
            scan_figures(Scan(path, REGISTRY, lines=FileRecorder(path).lines, at=at), ONLY)

    @SETTINGS
    @given(history=histories, where=st.floats(0, 1))
    def test_cut_anywhere(self, tmp_path_factory, history, where):
        path = tmp_path_factory.mktemp("log") / "events.jsonl"
        payload = write(path, events_of(history))
        path.write_bytes(payload[: int(where * len(payload))])

        assert scan_figures(Scan(path, REGISTRY, lines=FileRecorder(path).lines, only=ONLY), ONLY) == scan_figures(Scan(path, REGISTRY, lines=FileRecorder(path).lines), ONLY)

    @SETTINGS
    @given(history=histories, first=st.integers(0, 60), second=st.integers(0, 60))
    def test_with_lines_removed_or_swapped(self, tmp_path_factory, history, first, second):
        path = tmp_path_factory.mktemp("log") / "events.jsonl"
        lines = write(path, events_of(history)).splitlines(keepends=True)
        if lines:
            i, j = first % len(lines), second % len(lines)
            lines[i], lines[j] = lines[j], lines[i]
            del lines[(i + j) // 2]
        path.write_bytes(b"".join(lines))

        assert scan_figures(Scan(path, REGISTRY, lines=FileRecorder(path).lines, only=ONLY), ONLY) == scan_figures(Scan(path, REGISTRY, lines=FileRecorder(path).lines), ONLY)

    def test_a_usage_line_is_not_parsed(self, tmp_path, monkeypatch):
        """The point of it: only the lines of the folded types reach orjson.loads (the last line is always parsed)."""
        from batchlog.engine import scan as scan_module

        path = tmp_path / "events.jsonl"
        write(path, [started(CASES), *(UsageRecorded(RUNS[0], "m", k, k, k) for k in range(50)),
                     MemoryKept(1, 2)])
        parsed: list[bytes] = []
        monkeypatch.setattr(scan_module, "orjson", type("CountingOrjson", (), {
            "loads": staticmethod(lambda line: parsed.append(line) or orjson.loads(line)),
            "JSONDecodeError": orjson.JSONDecodeError}))

        events = list(Scan(path, REGISTRY, lines=FileRecorder(path).lines, only=ONLY))

        assert [e.type for e in events] == ["tune.tuning_started", "tune.memory_kept"]
        assert len(parsed) == 2

    @pytest.mark.parametrize("damage", [(b'"calls":7', b'"calls":7x'), (b'"calls":7', b'"callz":7'),
                                        (b'"model":"m"', b'"model":"m\\"')])
    @pytest.mark.parametrize("followed", [False, True])
    def test_a_usage_line_nothing_vouches_for_is_checked_in_full(self, tmp_path, damage, followed):
        """The last line (or one whose next line is not linked to it) gets every check: damage is counted."""
        path = tmp_path / "events.jsonl"
        lines = write(path, [started(CASES), UsageRecorded(RUNS[0], "m", 7, 1, 1), MemoryKept(1, 2)]).splitlines()
        lines[1] = lines[1].replace(*damage)
        path.write_bytes(b"".join(line + b"\n" for line in (lines if followed else lines[:2])))

        selective, full = Scan(path, REGISTRY, lines=FileRecorder(path).lines, only=ONLY), Scan(path, REGISTRY, lines=FileRecorder(path).lines)

        assert scan_figures(selective, ONLY) == scan_figures(full, ONLY)
        assert selective.bad >= 1

    def test_a_type_unknown_to_this_batchlog_is_still_reported_newer(self, tmp_path):
        path = tmp_path / "events.jsonl"
        payload = write(path, [started(CASES), UsageRecorded(RUNS[0], "m", 1, 1, 1), MemoryKept(1, 2)])
        lines = payload.splitlines()
        renamed = encode_line(2, "tune.from_the_future", 1, AT, {}, line_hash(lines[0]))
        path.write_bytes(lines[0] + b"\n" + renamed + b"\n")

        scan = Scan(path, REGISTRY, lines=FileRecorder(path).lines, only=ONLY)
        list(scan)

        assert [problem.code for problem in scan.newer] == ["newer_version"]


# A type whose name the scan's head format must escape, beside the tuning's and the quick batch's.
PERCENT = "test.50%d_off%%"
MIXED = REGISTRY.merged(Registry([EventType(PERCENT, 1)]))
mixed_facts = st.one_of(facts, st.builds(TargetStarted, st.integers(1, 3), st.just("https://example.org/x")),
                        st.builds(lambda n: Raw(PERCENT, {"n": n}), st.integers(0, 12)))


class TestAnySetOfFoldedTypes:
    """Several skipped types, alternating or in runs (the scan tests a run's head in one step)."""

    @SETTINGS
    @given(body=st.lists(mixed_facts, max_size=40), folded=st.sets(st.sampled_from(sorted(MIXED.by_name))),
           where=st.floats(0, 1, exclude_max=True), byte=st.none() | st.integers(0, 255),
           at=st.none() | st.integers(1, 45))
    def test_the_scan_sees_what_a_full_scan_sees(self, tmp_path_factory, body, folded, where, byte, at):
        path = tmp_path_factory.mktemp("log") / "events.jsonl"
        payload = bytearray(write(path, [started(CASES), *body], MIXED))
        if byte is not None:
            payload[int(where * len(payload))] = byte
        path.write_bytes(bytes(payload))
        only = frozenset(folded)

        assert scan_figures(Scan(path, MIXED, lines=FileRecorder(path).lines, at=at, only=only), only) == \
            scan_figures(Scan(path, MIXED, lines=FileRecorder(path).lines, at=at), only)


def test_a_projection_without_folds_sees_every_event(tmp_path):
    path = tmp_path / "events.jsonl"
    write(path, [started(CASES), UsageRecorded(RUNS[0], "m", 1, 1, 1)])
    seen: list[str] = []
    everything = Projection("all", None, lambda state, event: seen.append(event.type))

    EventLog(path, REGISTRY).replay(everything)

    assert seen == ["tune.tuning_started", "tune.usage_recorded"]
