"""The quick batch's grammar, decisions and fold, as given / when / then (no files)."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from batchlog.engine import Event
from batchlog.projections.errors import BadInput, Refused
from batchlog.projections.quick_batch import decide, views
from batchlog.projections.quick_batch.commands import (
    ArchiveAndRemove,
    BriefCheck,
    ClearEndedBatch,
    Decision,
    ImportSeedBatch,
    NextTarget,
    PrepareTargetFolder,
    RecordSummaryWritten,
    RecordTarget,
    RemoveTargetFolder,
    Staged,
    StartBatch,
    StartBriefBatch,
    Summarize,
    Unstaged,
)
from batchlog.projections.quick_batch.events import (
    BatchStarted,
    BatchSummarized,
    TargetRecorded,
    TargetStarted,
    number_field,
    number_value,
)
from batchlog.projections.quick_batch.decider import QUICK_BATCH
from batchlog.projections.quick_batch.evolve import evolve
from batchlog.projections.quick_batch.exit_codes import BUILT_IN, codes_for, exit_code_map
from batchlog.projections.quick_batch.seed_import import events_of_seed_lines
from batchlog.projections.quick_batch.grammar import TargetLine, parse_bytes, parse_line, parse_text
from batchlog.projections.quick_batch.state import Batch

MOMENT = datetime(2026, 12, 2, 16, 0, 0, tzinfo=UTC)
STAMP = "2026-12-02T16:00:00Z"
QUICK = BUILT_IN["skf-quick-skill"]


NAMES = st.text("abc/:.@-", min_size=1, max_size=10)
TARGET_TEXT = st.from_regex(r"https://example\.org/[a-z0-9-]{1,12}( language=[a-z]{1,6})?( scope=[a-z/]{1,8})?",
                            fullmatch=True)


@st.composite
def batch_files(draw) -> bytes:
    """A batch file as people write one: targets, blank and comment lines, either line ending."""
    lines = draw(st.lists(TARGET_TEXT | st.sampled_from(["", "  ", "# a comment"]), max_size=12))
    return draw(st.sampled_from(["\n", "\r\n"])).join(lines).encode()


# Entries as skf-quick-batch.py appends them to batch.jsonl (its `_append`).
SEED_ENTRIES = st.one_of(
    st.fixed_dictionaries({"event": st.just("start"), "status": st.just("running"), "input_file": NAMES,
                           "fail_fast": st.booleans(), "started_at": st.just("2026-12-02T16:00:00Z")}),
    st.fixed_dictionaries({"event": st.just("target"), "batch": st.integers(1, 4), "target": NAMES,
                           "language_hint": st.none() | NAMES, "scope_hint": st.none() | NAMES,
                           "status": st.just("pending")}),
    st.fixed_dictionaries({"event": st.just("result"), "batch": st.integers(1, 4), "target": NAMES,
                           "status": st.sampled_from(["success", "error"]), "exit_code": st.integers(0, 9),
                           "skill_package": st.none() | NAMES, "error_code": st.none() | NAMES,
                           "quality_score": st.none() | st.integers(0, 100) | st.floats(0, 100)}),
    st.fixed_dictionaries({"event": st.just("summary"), "status": st.sampled_from(["success", "partial", "failed"]),
                           "timestamp": st.just("2026-12-02T16:00:00Z"), "targets_total": st.integers(0, 4),
                           "succeeded": st.integers(0, 4), "failed": st.integers(0, 4),
                           "fail_fast_triggered": st.booleans(), "exit_code": st.integers(0, 9),
                           "summary_path": st.none() | NAMES, "warnings": st.lists(NAMES, max_size=2)}),
)
SEED_LINES = SEED_ENTRIES.map(lambda entry: json.dumps(entry, separators=(",", ":"), ensure_ascii=True).encode())


@st.composite
def seed_batch_files(draw) -> bytes:
    """A seed batch.jsonl, sometimes with stray bytes among its lines or a last line cut short."""
    lines = draw(st.lists(SEED_LINES, max_size=8))
    for garbage in draw(st.lists(st.binary(max_size=12) | st.text(max_size=12).map(str.encode), max_size=2)):
        lines.insert(draw(st.integers(0, len(lines))), garbage)
    torn = draw(st.none() | SEED_LINES)
    tail = torn[: draw(st.integers(0, len(torn) - 1))] if torn else b""
    return b"".join(line + b"\n" for line in lines) + tail


def given_events(*facts) -> Batch:
    state = QUICK_BATCH.initial
    for seq, fact in enumerate(facts, start=1):
        state = evolve(state, Event(seq, "qb.x", 1, f"2026-12-02T16:00:{seq:02d}.000Z", str(seq), fact))
    return state


def started(*targets: str, fail_fast: bool = False, input_file: str = "/w/t.txt") -> BatchStarted:
    return BatchStarted(workflow="skf-quick-skill", input_file=input_file, input_briefs=None, fail_fast=fail_fast,
                        started_at="2026-12-02T16:00:00Z",
                        targets=tuple(TargetLine(n, t) for n, t in enumerate(targets, start=1)))


def halted(batch: int, target: str, reason: str = "write-failure", code: int = 4) -> TargetRecorded:
    return TargetRecorded(batch=batch, target=target, status="error", exit_code=code, error_code=reason)


def succeeded(batch: int, target: str) -> TargetRecorded:
    return TargetRecorded(batch=batch, target=target, status="success", exit_code=0)


class TestGrammar:
    @pytest.mark.parametrize(("line", "expected"), [
        ("", None),
        ("   \t", None),
        ("# a comment", None),
        ("   #indented comment", None),
        ("cognee@0.5.0", TargetLine(1, "cognee@0.5.0")),
        ("  cognee@0.5.0  ", TargetLine(1, "cognee@0.5.0")),
        ("pkg language=python", TargetLine(1, "pkg", "python")),
        ("pkg LANGUAGE=Rust Scope=src/x", TargetLine(1, "pkg", "Rust", "src/x")),
        ("pkg scope=a=b", TargetLine(1, "pkg", None, "a=b")),
        ("pkg language=a language=b", TargetLine(1, "pkg language=a language=b")),
        ("pkg language=", TargetLine(1, "pkg language=")),
        ("pkg other", TargetLine(1, "pkg other")),
        ("pkg\tlanguage=x\u00a0scope=y", TargetLine(1, "pkg", "x", "y")),
        ("lib#1", TargetLine(1, "lib#1")),
    ])
    def test_a_line_names_a_target_or_nothing(self, line, expected):
        assert parse_line(line, 1) == expected

    def test_targets_are_numbered_from_one_skipping_blank_and_comment_lines(self):
        text = "a\n\n# c\r\nb scope=x\rc"

        assert parse_text(text) == (TargetLine(1, "a"), TargetLine(2, "b", None, "x"), TargetLine(3, "c"))

    def test_a_byte_order_mark_is_no_part_of_the_first_target(self):
        assert parse_bytes(b"\xef\xbb\xbfcognee\r\n", "t.txt") == (TargetLine(1, "cognee"),)

    def test_bytes_that_are_not_utf8_are_refused_naming_the_file(self):
        with pytest.raises(BadInput, match=r"^the batch file t.txt is not UTF-8 text$"):
            parse_bytes(b"ok\n\xff\n", "t.txt")

    @given(st.binary() | batch_files())
    def test_parse_never_raises_anything_but_bad_input_on_any_bytes(self, data):
        try:
            targets = parse_bytes(data, "f")
        except BadInput:
            return
        assert [t.batch for t in targets] == list(range(1, len(targets) + 1))

    @given(st.text())
    def test_parse_of_any_text_gives_targets_without_surrounding_space(self, text):
        for target in parse_text(text):
            assert target.target == target.target.strip() and target.target and target.target[0] != "#"


class TestStart:
    def test_a_new_batch_starts_with_every_target_pending(self):
        targets = (TargetLine(1, "a"), TargetLine(2, "b"))

        decision = decide.decide(StartBatch("r", "/w/t.txt", targets, True, STAMP), Batch())
        events = list(decision.events)

        assert decision.effects == ()
        assert events == [BatchStarted(workflow="skf-quick-skill", input_file="/w/t.txt", input_briefs=None,
                                       fail_fast=True, started_at="2026-12-02T16:00:00Z", targets=targets)]
        assert views.pending(given_events(*events)) == list(targets)

    def test_starting_the_same_file_again_appends_nothing(self):
        state = given_events(started("a"))

        assert decide.decide(StartBatch("r", "/w/./t.txt", (), False, STAMP), state) == Decision()

    def test_another_files_batch_is_refused_as_input_invalid(self):
        state = given_events(started("a"))

        with pytest.raises(Refused) as refused:
            decide.decide(StartBatch("r", "/w/u.txt", (), False, STAMP), state)

        assert refused.value.message == "r holds the batch of /w/t.txt, not /w/u.txt: give this batch a run folder " \
                                        "of its own"
        assert refused.value.fields["halt_reason"] == "input-invalid"

    def test_refused_and_same_name_briefs_are_recorded_at_once_as_failed(self):
        briefs = ("/b/1/skill-brief.yaml", "/b/2/skill-brief.yaml", "/b/3/skill-brief.yaml")
        checks = (BriefCheck(name="alpha"), BriefCheck("brief-malformed", "Brief is empty"), BriefCheck(name="alpha"))

        decision = decide.decide(StartBriefBatch("rr/x", briefs, checks, False, STAMP, "batch-20261202-160000"),
                                 Batch())
        events = decision.events

        assert events[0].batch_id == "batch-20261202-160000"
        assert [(e.batch, e.error_code, e.exit_code) for e in events[1:]] == [(2, "brief-malformed", 2),
                                                                             (3, "brief-invalid", 2)]
        assert "has the name `alpha` of `/b/1/skill-brief.yaml`" in events[2].message
        assert decision.effects == (ClearEndedBatch("rr/x", "skf-create-skill-batch-20261202-160000-"),)

    def test_an_unfinished_batch_of_other_briefs_is_refused_as_write_failed(self):
        state = given_events(BatchStarted(workflow="skf-create-skill", input_file=None, input_briefs=["/a"],
                                          fail_fast=False, started_at="t", batch_id="batch-1"))

        with pytest.raises(Refused) as refused:
            decide.decide(StartBriefBatch("rr/x", ("/b",), (), False, STAMP, "batch-2"), state)

        assert refused.value.fields["halt_reason"] == "write-failed"


class TestNext:
    def test_the_first_pending_target_is_handed_out_once(self):
        state = given_events(started("a", "b"), succeeded(1, "a"))

        line = decide.next_target(state)

        assert line == TargetLine(2, "b")
        first = decide.decide(NextTarget("r", 2, staged=False), state)
        again = decide.decide(NextTarget("r", 2, staged=False),
                              given_events(started("a", "b"), succeeded(1, "a"), TargetStarted(2, "b")))

        assert first == Decision((TargetStarted(2, "b"),), (PrepareTargetFolder("r/r-2"),), "next")
        assert again == Decision((), (PrepareTargetFolder("r/r-2"),), "next")

    def test_a_target_whose_folder_staged_a_payload_is_to_be_recorded_not_run_again(self):
        state = given_events(started("a"), TargetStarted(1, "a"))

        assert decide.decide(NextTarget("r", 1, staged=True), state) == Decision(answer="record")

    def test_a_batch_that_moved_since_the_read_is_stale(self):
        with pytest.raises(decide.Stale):
            decide.decide(NextTarget("r", 1, staged=False), given_events(started("a", "b"), succeeded(1, "a")))

    def test_fail_fast_stops_the_batch_after_a_failure(self):
        state = given_events(started("a", "b", fail_fast=True), halted(1, "a"))

        assert decide.next_target(state) is None
        assert views.done_answer(state) == {"status": "done", "fail_fast_triggered": True}

    def test_a_batch_with_every_target_recorded_is_done_without_fail_fast_triggered(self):
        state = given_events(started("a", fail_fast=True), halted(1, "a"))

        assert views.done_answer(state) == {"status": "done", "fail_fast_triggered": False}


class TestRecord:
    def record(self, state, payload, kind="halt.json"):
        return list(decide.decide(RecordTarget("r", 1, Staged(kind, "r/r-1/" + kind, payload)), state).events)

    def test_a_success_removes_its_run_folder_after_and_a_repeat_asks_again(self):
        command = RecordTarget("r", 1, Staged("result-context.json", "r/r-1/result-context.json", {}))
        first = decide.decide(command, given_events(started("a")))
        again = decide.decide(RecordTarget("r", 1, None), given_events(started("a"), *first.events))

        assert first.effects == again.effects == (RemoveTargetFolder("r/r-1"),) and again.events == ()

    def test_an_unreadable_payload_is_refused_with_its_message(self):
        with pytest.raises(BadInput, match="^r/r-1 staged neither"):
            decide.decide(RecordTarget("r", 1, Unstaged("r/r-1 staged neither", "r/r-1")),
                          given_events(started("a")))

    def test_a_halt_is_recorded_with_the_exit_code_its_reason_maps_to(self):
        events = self.record(given_events(started("a")), {"halt_reason": "finalize-blocked", "skill_package": "p"})

        assert events == [TargetRecorded(batch=1, target="a", status="error", exit_code=7, skill_package="p",
                                         error_code="finalize-blocked")]

    def test_the_maps_code_wins_over_the_payloads_own_for_a_known_reason(self):
        """As the seed's outcome(): a payload's exit_code counts only when the map holds no code for its reason."""
        events = self.record(given_events(started("a")), {"halt_reason": "user-cancelled", "exit_code": 42})

        assert (events[0].error_code, events[0].exit_code) == ("user-cancelled", 6)

    def test_an_unknown_reason_falls_back_to_the_payloads_integer_exit_code(self):
        assert self.record(given_events(started("a")), {"halt_reason": "x", "exit_code": 11})[0].exit_code == 11

    @pytest.mark.parametrize("payload", [{"halt_reason": "x"}, {"halt_reason": "x", "exit_code": True}, {}])
    def test_an_unknown_reason_without_an_integer_exit_code_is_refused(self, payload):
        with pytest.raises(BadInput, match="maps to no exit code"):
            self.record(given_events(started("a")), payload)

    def test_a_success_keeps_its_quality_score(self):
        events = self.record(given_events(started("a")), {"summary": {"quality_score": 92.5}}, "result-context.json")

        assert (events[0].status, events[0].exit_code, events[0].quality_score) == ("success", 0, 92.5)

    def test_recording_twice_appends_nothing(self):
        state = given_events(started("a"), halted(1, "a"))

        assert self.record(state, {"halt_reason": "user-cancelled"}) == []

    def test_a_number_the_batch_does_not_hold_is_refused(self):
        with pytest.raises(BadInput, match="^the batch in r has no target 1$"):
            self.record(given_events(started()), {})

    def test_a_non_string_halt_reason_is_kept_as_given(self):
        events = self.record(given_events(started("a")), {"halt_reason": {"a": [1]}, "exit_code": 3})

        assert views.end_event(events[0]) == {"batch": 1, "target": "a", "status": "fail", "exit": 3,
                                              "error_code": {"a": [1]}}


class TestSummarize:
    def test_pending_targets_refuse_a_summary(self):
        with pytest.raises(Refused, match=r"^1 target\(s\) of the batch are still pending"):
            decide.check_summarizable(given_events(started("a", "b"), succeeded(1, "a")))

    def test_a_partial_batch_ends_with_its_highest_failed_exit_code(self):
        state = given_events(started("a", "b", "c"), succeeded(1, "a"), halted(2, "b"),
                             halted(3, "c", "ecosystem-redirect", 8))

        record = views.summary_record(state, "2026-12-02T16:00:00Z")

        assert (record["status"], record["exit_code"], record["targets_total"]) == ("partial", 8, 3)

    def test_fail_fast_ends_a_batch_with_targets_left(self):
        state = given_events(started("a", "b", fail_fast=True), halted(1, "a"))

        record = views.summary_record(state, "t")

        assert (record["status"], record["fail_fast_triggered"], record["targets_total"]) == ("failed", True, 1)

    def test_a_summarized_batch_is_not_summarized_again(self):
        summary = BatchSummarized(status="success", timestamp="t", targets_total=0, succeeded=0, failed=0,
                                  fail_fast_triggered=False, exit_code=0, summary_path="o/x.json")
        state = given_events(started(), summary)

        assert decide.decide(Summarize("r", "o", False, STAMP), state) == Decision()
        assert views.summary_event(state.summary, state.summary_written)["summary_path"] == "o/x.json"

    def test_a_summary_is_written_after_its_event_and_a_clean_batch_is_archived_after_that(self):
        state = given_events(started("a"), succeeded(1, "a"))

        ended = decide.decide(Summarize("runs/skf-quick-skill-1", "o", False, STAMP), state)
        after = given_events(started("a"), succeeded(1, "a"), *ended.events)
        again = decide.decide(Summarize("runs/skf-quick-skill-1", "o", False, "2027-01-01T00:00:00Z"), after)
        written = decide.decide(RecordSummaryWritten("runs/skf-quick-skill-1", "o/s.json"), after)

        (write,) = ended.effects
        assert (write.output_dir, write.stem, write.stamp) == ("o", "quick-skill-batch", "20261202-160000")
        assert write.record == views.summary_record(state, STAMP) and again.effects == ended.effects
        assert written.effects == (ArchiveAndRemove("runs/skf-quick-skill-1", "o/s.json"),)


class TestFold:
    def test_a_new_start_begins_a_fresh_state(self):
        state = given_events(started("a"), halted(1, "a"), started("b"))

        assert state.results == {} and views.pending(state) == [TargetLine(1, "b")]

    def test_a_replay_leaves_the_initial_state_as_it_was(self):
        given_events(started("a"), halted(1, "a"))

        assert QUICK_BATCH.initial == Batch()
        assert QUICK_BATCH.initial.results == {}

    def test_an_unknown_fact_fails_loudly(self):
        with pytest.raises(TypeError):
            evolve(Batch(), Event(1, "qb.x", 1, "t", "i", object()))


class TestNumbers:
    @pytest.mark.parametrize("value", [3, 2.5, 1 << 70, float("inf"), -float("inf")])
    def test_a_payloads_number_round_trips_through_its_stored_form(self, value):
        assert number_value(number_field(value)) == value


class TestExitCodes:
    def test_an_envelope_schema_gives_its_emitter_map(self):
        schema = {"$defs": {"skf-envelope": {"const": {"exit_codes": {"a": 1}}}}}

        assert exit_code_map(schema, "s.json") == {"a": 1}

    def test_a_plain_object_of_codes_is_a_map(self):
        assert exit_code_map({"a": 1, "b": 2}, "m.json") == {"a": 1, "b": 2}

    @pytest.mark.parametrize("document", [[], {"a": "1"}, {"a": True}, {"$defs": {}}])
    def test_anything_else_is_refused(self, document):
        with pytest.raises(BadInput, match="holds no exit-code map"):
            exit_code_map(document, "m.json")

    def test_without_a_map_the_workflows_built_in_one_is_used(self):
        assert codes_for("skf-create-skill", None)["halted-for-brief-refinement"] == 6
        assert codes_for("skf-quick-skill", {"x": 1}) == {"x": 1}


class TestSeedImport:
    @given(st.binary() | seed_batch_files())
    def test_any_bytes_give_events_or_bad_input(self, data):
        try:
            events = events_of_seed_lines(data, "r")
        except BadInput:
            return
        assert isinstance(events[0], BatchStarted)

    def test_the_last_outcome_of_a_target_counts_and_a_torn_line_is_skipped(self):
        data = (b'{"event":"start","input_file":"/t","fail_fast":true}\n'
                b'{"event":"target","batch":1,"target":"a","language_hint":null,"scope_hint":null}\n'
                b'{"event":"result","batch":1,"target":"a","status":"error","exit_code":3,"error_code":"x"}\n'
                b'{"event":"result","batch":1,"target":"a","status":"success","exit_code":0,"quality_score":9}\n'
                b'{"event":"result","batch":1,"ta')

        state = given_events(*events_of_seed_lines(data, "r"))

        assert views.end_event(state.results["1"]) == {"batch": 1, "target": "a", "status": "done", "exit": 0}
        assert state.started.fail_fast is True

    SEED = (b'{"event":"start","input_file":"/t","fail_fast":false}\n'
            b'{"event":"target","batch":1,"target":"a","language_hint":null,"scope_hint":null}\n'
            b'{"event":"target","batch":2,"target":"b","language_hint":null,"scope_hint":null}\n'
            b'{"event":"result","batch":1,"target":"a","status":"error","exit_code":3,"error_code":"x"}\n')

    def test_an_import_whose_events_begin_the_log_is_a_repeat(self):
        command = ImportSeedBatch("r/events.jsonl", events_of_seed_lines(self.SEED, "r"))

        assert decide.require_same_import(command, command.events) is None
        assert decide.require_same_import(command, (*command.events, TargetStarted(2, "b"))) is None

    @pytest.mark.parametrize("logged", ["nothing", "fewer", "other"])
    def test_an_import_into_a_log_that_begins_otherwise_is_refused(self, logged):
        command = ImportSeedBatch("r/events.jsonl", events_of_seed_lines(self.SEED, "r"))
        other = events_of_seed_lines(self.SEED.replace(b'"target":"b"', b'"target":"c"'), "r")
        events = {"nothing": (), "fewer": command.events[:-1], "other": other}[logged]

        with pytest.raises(Refused, match="r/events.jsonl already exists: this batch was imported or started"):
            decide.require_same_import(command, events)
