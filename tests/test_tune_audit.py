"""The audit of a tuning: every check holds on the finished fixture, each fails on a hand-edited log that
the engine re-chained (so only the audit can catch it), and any tampered line makes it exit 3."""

from __future__ import annotations

from pathlib import Path

import attrs
import orjson
import pytest

from batchlog.engine import EventLog, Projection
from batchlog.engine.verify import verify
from batchlog.cli.loops import all_types
from batchlog.projections.tune.batch_mjs import rules
from batchlog.projections.tune.views.audit import CHECKS, LogReport, audit
from batchlog.projections.tune.decider import TUNE
from batchlog.projections.tune.events import BatchBuilt, ChangeRecorded, DifficultAdded, MemoryKept, RunGraded
from batchlog.cli.tune.reports import audit_command
from tests.clirunner import invoke

ROOT = Path(__file__).resolve().parent.parent
FINISHED = ROOT / "fixtures" / "tune-finished"
IN_PROGRESS = ROOT / "fixtures" / "tune-in-progress"
SOUND = LogReport(True, "trusted")


def fixture_events(folder: Path = FINISHED) -> list:
    return list(EventLog(folder / "events.jsonl", all_types()).scan())


def rechain(events: list, folder: Path, monkeypatch) -> Path:
    """Write `events` (their times and data) as a new log through the engine: a sound chain."""
    folder.mkdir(parents=True, exist_ok=True)
    log = EventLog(folder / "events.jsonl", all_types())
    nothing = Projection("nothing", None, lambda state, event: state)
    for event in events:
        monkeypatch.setenv("BATCHLOG_CLOCK", event.at)
        log.append(nothing, lambda _state, data=event.data: [data])
    return folder


def audited(folder: Path) -> tuple[int, dict]:
    result = invoke("tune", "audit", "--dir", folder, "--json")
    return result.code, orjson.loads(result.out)


def failing(body: dict) -> set[str]:
    return {check["name"] for check in body["checks"] if not check["holds"]}


def index_of(events: list, predicate) -> int:
    return next(i for i, event in enumerate(events) if predicate(event.data))


class TestFinishedTuning:
    def test_every_check_holds_on_the_finished_fixture(self):
        result = invoke("tune", "audit", "--dir", FINISHED)

        assert result.code == 0, result.out
        assert result.out.startswith(f"audit of {FINISHED / 'events.jsonl'}: every check holds\n")
        for name, promise in CHECKS:
            assert f"  ✔ {name}: {promise}\n" in result.out
        assert "  duration  5 d 22 h 21 min\n" in result.out
        assert "  runs      21 (2 CORRECT, 17 PASSED, 1 WRONG, 1 VOID)\n" in result.out

    def test_evidence_names_the_seq_numbers(self):
        code, body = audited(FINISHED)

        checks = {check["name"]: check for check in body["checks"]}
        assert code == 0 and body["holds"] is True
        assert "seq 107: the final check's grade is the last event" in checks["nothing_after_final"]["evidence"]
        assert any(line.startswith("seq 22: billing-invoice-copy added in batch02-nomem-run1; fixed in "
                                   "batch02-nomem-run2 at seq 29; held by batch 2 (seq 17)")
                   for line in checks["difficult_settled"]["evidence"])
        assert any("extraction-warranty-terms" in line and "; stuck; held by" in line
                   for line in checks["difficult_settled"]["evidence"])
        assert body["timeline"]["batches"] == 8 and body["timeline"]["events"] == 107

    def test_a_tuning_in_progress_fails_with_exit_1(self):
        code, body = audited(IN_PROGRESS)

        assert code == 1
        assert failing(body) == {"selection_covered", "halves_in_order", "difficult_settled", "final_check",
                                 "nothing_after_final"}

    def test_a_missing_log_is_refused(self, tmp_path):
        result = invoke("tune", "audit", "--dir", tmp_path)

        assert result.code == 1 and "no tuning log at" in result.err


def edit_selection(events):
    first = events[0].data
    extra = {"id": "billing-extra-case", "class": "billing"}
    events[0] = attrs.evolve(events[0], data=attrs.evolve(first, cases=(*first.cases, extra),
                                                           selection=(*first.selection, extra["id"])))


def edit_verdict_of_a_passed_half(events):
    i = index_of(events, lambda d: isinstance(d, RunGraded) and d.run == "batch04-nomem-run1")
    events[i] = attrs.evolve(events[i], data=attrs.evolve(events[i].data, verdict="CORRECT"))


def grade_twice(events):
    i = index_of(events, lambda d: isinstance(d, RunGraded) and d.run == "batch05-nomem-run1")
    events.insert(i + 1, events[i])


def leave_a_case_open(events):
    i = index_of(events, lambda d: isinstance(d, RunGraded) and d.run == "batch08-nomem-run1")
    events.insert(i + 1, attrs.evolve(events[i], data=DifficultAdded("planning-office-move", ("flaky",),
                                                                      "batch08-nomem-run1")))


def keep_memory_too_early(events):
    i = index_of(events, lambda d: isinstance(d, MemoryKept) and d.batch == 4)
    j = index_of(events, lambda d: isinstance(d, RunGraded) and d.run == "batch04-mem-run1")
    events.insert(j, events.pop(i))


def fail_the_final_check(events):
    i = index_of(events, lambda d: isinstance(d, RunGraded) and d.run == "final-run1")
    events[i] = attrs.evolve(events[i], data=attrs.evolve(events[i].data, verdict="WRONG",
                                                          wrong=("planning-weekly-review",)))


def event_after_the_final_check(events):
    events.append(attrs.evolve(events[-1], data=ChangeRecorded("batch08-mem-run1", "notes.md", "late", 1)))


def reorder_rechecks(events):
    i = index_of(events, lambda d: isinstance(d, BatchBuilt) and d.number == 4)
    data = events[i].data
    events[i] = attrs.evolve(events[i], data=attrs.evolve(data, recheck=tuple(reversed(data.recheck))))


def edit_why(events):
    i = index_of(events, lambda d: isinstance(d, BatchBuilt) and d.number == 6)
    events[i] = attrs.evolve(events[i], data=attrs.evolve(events[i].data, why="because I said so"))


class TestHandEditedLogs:
    """Each log is edited, then re-chained by the engine: `log verify` trusts it, the audit does not."""

    @pytest.mark.parametrize("edit, check", [
        (edit_selection, "selection_covered"),
        (edit_verdict_of_a_passed_half, "halves_in_order"),
        (grade_twice, "graded_once"),
        (leave_a_case_open, "difficult_settled"),
        (keep_memory_too_early, "memory_complete"),
        (fail_the_final_check, "final_check"),
        (event_after_the_final_check, "nothing_after_final"),
        (reorder_rechecks, "decisions_match_rules"),
        (edit_why, "decisions_match_rules"),
    ])
    def test_the_audit_catches_what_verify_cannot(self, tmp_path, monkeypatch, edit, check):
        events = fixture_events()
        edit(events)
        folder = rechain(events, tmp_path / "edited", monkeypatch)

        trusted = verify(folder / "events.jsonl", all_types()).trusted
        code, body = audited(folder)

        assert trusted
        assert code == 1
        assert check in failing(body)

    def test_an_unedited_re_chained_log_passes(self, tmp_path, monkeypatch):
        folder = rechain(fixture_events(), tmp_path / "same", monkeypatch)

        assert (folder / "events.jsonl").read_bytes() == (FINISHED / "events.jsonl").read_bytes()
        assert audited(folder)[0] == 0

    def test_a_change_in_the_rules_shows(self, monkeypatch):
        original = rules.next_size

        def changed(history, override=None):
            size = original(history, override)
            return rules.Size(size.size, size.why.replace("smoothly", "well"))

        monkeypatch.setattr(rules, "next_size", changed)
        result = audit(fixture_events(), SOUND)

        decisions = next(check for check in result.checks if check.name == "decisions_match_rules")
        assert not decisions.holds
        assert decisions.evidence[0].startswith("seq 17: batch 2 differs from the rules: why: recorded "
                                                "'batch 1 went smoothly")


class TestTampering:
    """Any one line of the finished log changed by hand, without re-chaining: the audit exits 3 and names it."""

    LINES = (FINISHED / "events.jsonl").read_bytes().splitlines(keepends=True)

    def tamper(self, folder: Path, number: int) -> None:
        line = self.LINES[number - 1]
        edited = line.replace(b'"at":"2026-12-0', b'"at":"2026-12-1', 1)
        assert edited != line
        (folder / "events.jsonl").write_bytes(b"".join([*self.LINES[: number - 1], edited, *self.LINES[number:]]))

    def test_every_edited_line_is_named(self, tmp_path, capsys):
        """The command's own function for each of the 107 lines (the typer parsing costs ~0.1 s a call)."""
        missed = []
        for number in range(1, len(self.LINES) + 1):
            self.tamper(tmp_path, number)

            code = audit_command(folder=tmp_path, as_json=False)

            out = capsys.readouterr().out
            if code != 3 or f"line {number} " not in out:
                missed.append((number, code, out[-300:]))
        assert missed == []

    @pytest.mark.parametrize("number", [1, 53, 107])
    def test_an_edited_line_is_named_by_the_cli(self, tmp_path, number):
        self.tamper(tmp_path, number)

        result = invoke("tune", "audit", "--dir", tmp_path)

        assert result.code == 3
        assert result.out.startswith(f"{tmp_path / 'events.jsonl'}: 107 line(s)")
        assert f"  ✘ line {number} (seq {number}): " in result.out

    @pytest.mark.parametrize("number", [1, 2, 50, 106])
    def test_a_deleted_line_is_named(self, tmp_path, number):
        (tmp_path / "events.jsonl").write_bytes(b"".join(self.LINES[: number - 1] + self.LINES[number:]))

        result = invoke("tune", "audit", "--dir", tmp_path, "--json")

        body = orjson.loads(result.out)
        assert result.code == 3 and body["trusted"] is False
        assert f"line {number}" in " ".join(body["problems"])

    def test_a_cut_last_line_leaves_a_sound_log_that_fails_the_final_check(self, tmp_path):
        """Only a receipt (`log verify --since`, tests/test_receipts.py) shows a cut; the audit sees a tuning
        whose final check never passed."""
        (tmp_path / "events.jsonl").write_bytes(b"".join(self.LINES[:-1]))

        code, body = audited(tmp_path)

        assert code == 1 and failing(body) == {"final_check", "nothing_after_final"}

    def test_swapped_lines_are_named(self, tmp_path):
        lines = list(self.LINES)
        lines[40], lines[41] = lines[41], lines[40]
        (tmp_path / "events.jsonl").write_bytes(b"".join(lines))

        result = invoke("tune", "audit", "--dir", tmp_path)

        assert result.code == 3 and "line 41" in result.out


def zen_folder_of_the_finished_tuning(target: Path) -> Path:
    """The finished fixture as zen-finetune keeps it on disk: runs/ (cases, plan, findings), dataset,
    selection, difficult list and config."""
    import shutil

    state = EventLog(FINISHED / "events.jsonl", all_types()).replay(TUNE).state
    shutil.copytree(FINISHED / "runs", target / "runs")
    bodies = {case.id: orjson.loads(case.body) for case in state.cases}
    (target / "dataset.json").write_bytes(orjson.dumps({"cases": list(bodies.values())}))
    (target / "selection.json").write_bytes(orjson.dumps({"batch": [bodies[i] for i in state.selection]}))
    entries = [{"id": e.case, "reasons": list(e.reasons), "added": e.added, **({"fixed": e.fixed} if e.fixed else {})}
               for e in state.difficult]
    (target / "difficult.json").write_bytes(orjson.dumps({"cases": entries}))
    (target / "config.json").write_bytes(orjson.dumps({"minBatch": 3, "maxBatch": 10, "recheck": 3}))
    return target


class TestImportedTuning:
    def test_readme_usage_and_audit_work_on_a_log_tune_import_made(self, tmp_path):
        folder = zen_folder_of_the_finished_tuning(tmp_path / "finetune")

        imported = invoke("tune", "import", folder)
        readme = invoke("tune", "readme", "--dir", folder, "--stdout")
        usage = invoke("tune", "usage-report", "--dir", folder)
        code, body = audited(folder)

        assert imported.code == 0, imported.err
        assert readme.code == 0 and "**Done: the final check passed (final-run1).**" in readme.out
        assert usage.code == 0
        assert code == 0, [check for check in body["checks"] if not check["holds"]]


class TestTheLogsOwnHistory:
    """A salvage or a cut (`log salvage --to N`) leaves a sound log: only its `log.salvaged` event says what it
    lost, and the audit names it as a failed check."""

    def cut(self, tmp_path: Path, to: int) -> Path:
        import shutil

        folder = tmp_path / "finetune"
        shutil.copytree(FINISHED, folder)
        result = invoke("log", "salvage", folder / "events.jsonl", "--to", str(to),
                        env={"BATCHLOG_CLOCK": "2026-12-08T10:00:00Z"})
        assert result.code == 0, result.err
        return folder

    def test_a_cut_of_a_sound_log_fails_naming_the_seq_range_and_the_event_types(self, tmp_path):
        folder = self.cut(tmp_path, 62)
        dropped = [orjson.loads(line)["type"] for line in (FINISHED / "events.jsonl").read_bytes().splitlines()[62:]]
        counts = {name: dropped.count(name) for name in dict.fromkeys(dropped)}

        code, body = audited(folder)

        whole = next(check for check in body["checks"] if check["name"] == "log_whole")
        assert code == 1 and not whole["holds"]
        assert whole["evidence"] == [
            "seq 63: cut after seq 62 on request (--to 62): dropped 45 line(s), seq 63-107 of the original ("
            + ", ".join(f"{count} {name}" for name, count in counts.items())
            + "); the original is kept as events.jsonl.cut-20261208T100000000Z"]
        assert (folder / "events.jsonl.cut-20261208T100000000Z").read_bytes() == \
            (FINISHED / "events.jsonl").read_bytes()

    def test_the_salvage_event_is_no_step_of_the_tuning(self, tmp_path):
        code, body = audited(self.cut(tmp_path, 106))

        assert code == 1 and failing(body) == {"log_whole", "final_check", "nothing_after_final"}

    def test_a_salvage_of_a_damaged_log_names_the_unreadable_line(self, tmp_path):
        import shutil

        folder = tmp_path / "finetune"
        shutil.copytree(FINISHED, folder)
        lines = (folder / "events.jsonl").read_bytes().splitlines(keepends=True)
        (folder / "events.jsonl").write_bytes(b"".join([*lines[:104], b"not json\n", *lines[105:]]))
        salvaged = invoke("log", "salvage", folder / "events.jsonl", env={"BATCHLOG_CLOCK": "2026-12-08T10:00:00Z"})
        assert salvaged.code == 0

        whole = next(check for check in audited(folder)[1]["checks"] if check["name"] == "log_whole")

        assert whole["evidence"] == [
            "seq 105: damaged: line 105 is not JSON: dropped 3 line(s), seq 105-107 of the original (1 (unreadable), "
            "1 tune.usage_recorded, 1 tune.run_graded); the original is kept as "
            "events.jsonl.damaged-20261208T100000000Z"]

    def test_a_salvage_recorded_before_the_types_were_kept_says_so(self, tmp_path, monkeypatch):
        from batchlog.engine.registry import Raw

        events = fixture_events()[:62]
        folder = rechain(events, tmp_path / "old", monkeypatch)
        v1 = {"kept_through_seq": 62, "dropped_lines": 45, "dropped_bytes": 9000, "reason": "cut after seq 62 on "
              "request (--to 62)", "damaged_copy": "events.jsonl.damaged-x", "damaged_sha256": "0" * 64}
        old_engine = all_types()
        old_engine.by_name["log.salvaged"] = attrs.evolve(old_engine.by_name["log.salvaged"], version=1,
                                                          upcasters=())
        EventLog(folder / "events.jsonl", old_engine).append(Projection("nothing", None, lambda s, e: s),
                                                             lambda _state: [Raw("log.salvaged", v1)])

        whole = next(check for check in audited(folder)[1]["checks"] if check["name"] == "log_whole")

        assert whole["evidence"] == ["seq 63: cut after seq 62 on request (--to 62): dropped 45 line(s), seq 63-107 "
                                     "of the original (event types not recorded (a salvage by batchlog before the "
                                     "types were kept)); the original is kept as events.jsonl.damaged-x"]
