"""`batchlog quick-batch` as an agent calls it: exact lines, exit codes, files, and the log behind them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from batchlog.engine.chain import GENESIS
from batchlog.engine.envelope import encode_line
from tests.clirunner import invoke
from tests.seeds import UPSTREAM_SCRIPTS, VALIDATORS, require

CLOCK = {"BATCHLOG_CLOCK": "2026-12-02T16:00:00Z"}
VALID_BRIEF = """name: {name}
version: 1.2.3
source_repo: https://github.com/x/y
language: python
description: A skill.
forge_tier: Quick
created: "2026-01-02"
created_by: someone
scope: {{type: full-library, include: [], exclude: [], notes: ""}}
"""


@pytest.fixture
def schema():
    """skill-forge's real brief schema: its validator lies beside the schemas folder."""
    require(VALIDATORS["upstream"])
    return UPSTREAM_SCRIPTS / "schemas" / "skill-brief.v1.json"


def qb(*args, cwd, env=None):
    return invoke("quick-batch", *args, env={**CLOCK, **(env or {})}, cwd=cwd)


@pytest.fixture
def batch(tmp_path):
    (tmp_path / "t.txt").write_text("cognee@0.5.0 language=python\nrequests\n", encoding="utf-8")
    result = qb("start", "t.txt", "--run-dir", "runs/skf-quick-skill-1", cwd=tmp_path)
    assert result.code == 0
    return tmp_path


def log_bytes(root: Path, run: str = "runs/skf-quick-skill-1") -> bytes:
    return (root / run / "events.jsonl").read_bytes()


class TestStartNextRecordSummarize:
    def test_start_prints_the_batch_and_writes_its_log(self, tmp_path):
        (tmp_path / "t.txt").write_text("a\n# skip\nb scope=x\n", encoding="utf-8")

        result = qb("start", "t.txt", "--run-dir", "r/skf-quick-skill-1", "--fail-fast", cwd=tmp_path)

        assert (result.code, result.err) == (0, "")
        assert result.out == (f'{{"status":"running","input_file":"{tmp_path}/t.txt","fail_fast":true,'
                              '"targets_total":2,"recorded":0,"resumed":false}\n')
        first = json.loads((tmp_path / "r/skf-quick-skill-1/events.jsonl").read_bytes().splitlines()[0])
        assert (first["type"], first["at"]) == ("qb.batch_started", "2026-12-02T16:00:00.000Z")

    def test_start_again_from_another_folder_resumes_and_appends_nothing(self, batch):
        before = log_bytes(batch)
        (batch / "sub").mkdir()

        result = qb("start", "../t.txt", "--run-dir", "../runs/skf-quick-skill-1", cwd=batch / "sub")

        assert json.loads(result.out)["resumed"] is True
        assert log_bytes(batch) == before

    def test_next_hands_out_a_target_with_its_empty_run_folder_and_start_event(self, batch):
        result = qb("next", "--run-dir", "runs/skf-quick-skill-1", cwd=batch)

        assert result.out == ('{"status":"next","batch":1,"target":"cognee@0.5.0","language_hint":"python",'
                              '"scope_hint":null,"run_dir":"runs/skf-quick-skill-1/skf-quick-skill-1-1"}\n')
        assert result.err == '{"batch":1,"target":"cognee@0.5.0","status":"start"}\n'
        assert list((batch / "runs/skf-quick-skill-1/skf-quick-skill-1-1").iterdir()) == []

    def test_next_again_before_a_record_prints_the_same_and_appends_nothing(self, batch):
        first = qb("next", "--run-dir", "runs/skf-quick-skill-1", cwd=batch)
        before = log_bytes(batch)

        again = qb("next", "--run-dir", "runs/skf-quick-skill-1", cwd=batch)

        assert (again.out, again.err) == (first.out, first.err)
        assert log_bytes(batch) == before

    def test_a_staged_payload_makes_next_ask_for_a_record(self, batch):
        qb("next", "--run-dir", "runs/skf-quick-skill-1", cwd=batch)
        (batch / "runs/skf-quick-skill-1/skf-quick-skill-1-1/halt.json").write_text('{"halt_reason":"user-cancelled"}')

        result = qb("next", "--run-dir", "runs/skf-quick-skill-1", cwd=batch)

        assert (result.out, result.err) == ('{"status":"record","batch":1}\n', "")

    def test_record_prints_the_end_event_once_and_repeats_it(self, batch):
        qb("next", "--run-dir", "runs/skf-quick-skill-1", cwd=batch)
        (batch / "runs/skf-quick-skill-1/skf-quick-skill-1-1/halt.json").write_text('{"halt_reason":"user-cancelled"}')

        first = qb("record", "--run-dir", "runs/skf-quick-skill-1", "--batch", "1", "--target", "stderr", cwd=batch)
        before = log_bytes(batch)
        again = qb("record", "--run-dir", "runs/skf-quick-skill-1", "--batch", "1", cwd=batch)

        line = '{"batch":1,"target":"cognee@0.5.0","status":"fail","exit":6,"error_code":"user-cancelled"}\n'
        assert (first.code, first.out, first.err) == (0, "", line)
        assert (again.out, log_bytes(batch)) == (line, before)

    def test_exit_codes_given_on_record_map_the_halt_reason(self, batch):
        qb("next", "--run-dir", "runs/skf-quick-skill-1", cwd=batch)
        (batch / "runs/skf-quick-skill-1/skf-quick-skill-1-1/halt.json").write_text('{"halt_reason":"odd"}')
        (batch / "codes.json").write_text('{"odd": 42}')

        result = qb("record", "--run-dir", "runs/skf-quick-skill-1", "--batch", "1", "--exit-codes", "codes.json",
                    cwd=batch)

        assert json.loads(result.out)["exit"] == 42

    def test_exit_codes_given_at_start_are_kept_for_the_batch(self, tmp_path):
        (tmp_path / "t.txt").write_text("a\n")
        (tmp_path / "envelope.json").write_text('{"$defs":{"skf-envelope":{"const":{"exit_codes":{"odd":17}}}}}')
        qb("start", "t.txt", "--run-dir", "r", "--exit-codes", "envelope.json", cwd=tmp_path)
        qb("next", "--run-dir", "r", cwd=tmp_path)
        (tmp_path / "r/r-1/halt.json").write_text('{"halt_reason":"odd"}')

        result = qb("record", "--run-dir", "r", "--batch", "1", cwd=tmp_path)

        assert json.loads(result.out)["exit"] == 17

    def test_a_clean_summary_archives_the_log_beside_it_and_removes_the_run_folder(self, batch):
        for number in (1, 2):
            qb("next", "--run-dir", "runs/skf-quick-skill-1", cwd=batch)
            (batch / f"runs/skf-quick-skill-1/skf-quick-skill-1-{number}/result-context.json").write_text(
                '{"summary":{"quality_score":90}}')
            qb("record", "--run-dir", "runs/skf-quick-skill-1", "--batch", str(number), cwd=batch)
        log = log_bytes(batch)

        result = qb("summarize", "--run-dir", "runs/skf-quick-skill-1", "--output-dir", "out", cwd=batch)

        assert result.out == ('{"batch_summary":true,"targets_total":2,"succeeded":2,"failed":0,"status":"success",'
                              '"fail_fast_triggered":false,"exit_code":0,'
                              '"summary_path":"out/quick-skill-batch-20261202-160000.json"}\n')
        assert not (batch / "runs/skf-quick-skill-1").exists()
        archived = (batch / "out/quick-skill-batch-20261202-160000.events.jsonl").read_bytes()
        assert archived.startswith(log) and [json.loads(line)["type"] for line in archived.splitlines()[-2:]] == \
            ["qb.batch_summarized", "qb.summary_written"]
        summary = json.loads((batch / "out/quick-skill-batch-latest.json").read_text())
        assert summary["results"][0]["quality_score"] == 90

    def test_summarize_of_a_removed_run_folder_names_the_latest_summary(self, tmp_path):
        result = qb("summarize", "--run-dir", "gone/skf-quick-skill-9", "--output-dir", "out", cwd=tmp_path)

        assert (result.code, result.out) == (1, "")
        assert result.err == ('{"status": "error", "message": "no batch in gone/skf-quick-skill-9: a batch whose '
                              'targets all succeeded removes its run folder once summarized; its summary is '
                              'out/quick-skill-batch-latest.json"}\n')


class TestRefusals:
    def test_summarize_with_pending_targets_is_refused_and_appends_nothing(self, batch):
        before = log_bytes(batch)

        result = qb("summarize", "--run-dir", "runs/skf-quick-skill-1", "--output-dir", "out", cwd=batch)

        assert (result.code, result.out) == (1, "")
        assert result.err == ('{"status": "error", "message": "2 target(s) of the batch are still pending: run next '
                              'and finish them before summarize"}\n')
        assert log_bytes(batch) == before

    def test_another_files_batch_is_refused_with_its_halt_reason(self, batch):
        (batch / "u.txt").write_text("x\n")

        result = qb("start", "u.txt", "--run-dir", "runs/skf-quick-skill-1", cwd=batch)

        assert result.code == 1
        assert json.loads(result.err)["halt_reason"] == "input-invalid"

    def test_a_run_folder_without_a_batch_says_to_start_first(self, tmp_path):
        result = qb("next", "--run-dir", "nowhere", cwd=tmp_path)

        assert result.err == '{"status": "error", "message": "no batch in nowhere: run start first"}\n'

    def test_a_tuning_log_is_refused_as_another_loops_log(self, tmp_path):
        (tmp_path / "r").mkdir()
        (tmp_path / "r/events.jsonl").write_bytes(encode_line(1, "tune.tuning_started", 1, "t", {}, GENESIS) + b"\n")

        result = qb("next", "--run-dir", "r", cwd=tmp_path)

        assert result.code == 1
        assert "is not a quick batch's log (its first event is tune.tuning_started)" in result.err

    def test_arguments_that_do_not_parse_exit_2_with_usage(self, tmp_path):
        result = qb("record", "--run-dir", "r", "--batch", "x", cwd=tmp_path)

        assert result.code == 2
        assert result.err.endswith("batchlog quick-batch record: error: argument --batch: invalid int value: 'x'\n")


class TestBriefs:
    def test_a_brief_the_schema_refuses_is_named_with_its_field(self, tmp_path, schema):
        (tmp_path / "b").mkdir()
        (tmp_path / "b/skill-brief.yaml").write_text(VALID_BRIEF.format(name="Bad Name"))

        result = qb("start", "--briefs", "b", "--run-root", "rr", "--brief-schema", schema, cwd=tmp_path)

        assert json.loads(result.out)["rejected"][0]["message"] == (
            "Brief validation failed: `name` field `Bad Name` does not match required pattern "
            "`^[a-z0-9]([a-z0-9-]*[a-z0-9])?$`. Update your skill-brief.yaml and re-run.")

    def test_the_validator_can_be_named_itself_and_one_that_cannot_load_is_helper_missing(self, tmp_path):
        require(VALIDATORS["upstream"])
        (tmp_path / "b").mkdir()
        (tmp_path / "b/skill-brief.yaml").write_text("- a list\n")
        (tmp_path / "broken.py").write_text("import no_such_module_anywhere\n")

        named = qb("start", "--briefs", "b", "--run-root", "rr", "--brief-validator", VALIDATORS["upstream"],
                   cwd=tmp_path)
        from_env = qb("start", "--briefs", "b", "--run-root", "r2", cwd=tmp_path,
                      env={"BATCHLOG_BRIEF_VALIDATOR": str(VALIDATORS["upstream"])})
        broken = qb("start", "--briefs", "b", "--run-root", "r3", "--brief-validator", "broken.py", cwd=tmp_path)

        assert json.loads(named.out)["rejected"][0]["message"] == "Brief must be a YAML mapping; got list"
        assert json.loads(from_env.out)["rejected"] == json.loads(named.out)["rejected"]
        assert broken.code == 1 and json.loads(broken.err)["halt_reason"] == "helper-missing"
        assert "ModuleNotFoundError" in json.loads(broken.err)["message"] and not (tmp_path / "r3").exists()

    def briefs(self, root: Path) -> None:
        for place, name in (("b/one", "alpha"), ("b/two", "alpha"), ("b/.hidden", "beta")):
            (root / place).mkdir(parents=True)
            (root / place / "skill-brief.yaml").write_text(VALID_BRIEF.format(name=name))

    def test_without_a_schema_start_briefs_is_refused_as_helper_missing(self, tmp_path, monkeypatch):
        monkeypatch.delenv("BATCHLOG_BRIEF_SCHEMA", raising=False)
        monkeypatch.delenv("BATCHLOG_BRIEF_VALIDATOR", raising=False)
        self.briefs(tmp_path)

        result = qb("start", "--briefs", "b", "--run-root", "rr", cwd=tmp_path)

        assert result.code == 1
        assert json.loads(result.err)["halt_reason"] == "helper-missing"
        assert not (tmp_path / "rr").exists()

    def test_a_same_name_brief_is_recorded_at_once_and_hidden_folders_are_left_out(self, tmp_path, schema):
        self.briefs(tmp_path)

        result = qb("start", "--briefs", "b", "--run-root", "rr", "--brief-schema", schema, cwd=tmp_path)

        answer = json.loads(result.out)
        assert answer["input_briefs"] == [f"{tmp_path}/b/one/skill-brief.yaml", f"{tmp_path}/b/two/skill-brief.yaml"]
        assert [(r["batch"], r["error_code"]) for r in answer["rejected"]] == [(2, "brief-invalid")]
        assert answer["batch_dir"].startswith("rr/skf-create-skill-batch-")

    def test_the_schema_can_come_from_the_environment_and_a_resume_needs_none(self, tmp_path, monkeypatch, schema):
        self.briefs(tmp_path)
        first = qb("start", "--briefs", "b", "--run-root", "rr", cwd=tmp_path,
                   env={"BATCHLOG_BRIEF_SCHEMA": str(schema)})
        monkeypatch.delenv("BATCHLOG_BRIEF_SCHEMA", raising=False)

        again = qb("start", "--briefs", "b", "--run-root", "rr", cwd=tmp_path)

        assert first.code == again.code == 0
        assert json.loads(again.out) == {**json.loads(first.out), "resumed": True}


# A YAML alias bomb (issue 23, item 12): nine aliases a level, nine levels: about 387 million strings once written
# out, in 333 bytes. The brief's `name` must be a string: a validator that expands it never ends its message.
ALIAS_BOMB = "a: &a [lol,lol,lol,lol,lol,lol,lol,lol,lol]\n" + "".join(
    f"{name}: &{name} [{','.join(['*' + prior] * 9)}]\n" for prior, name in zip("abcdefgh", "bcdefghi")) + "name: *i\n"
UNBOUNDED_BRIEFS = {
    "an alias bomb": (ALIAS_BOMB, "stands for more than 10,000 values once its YAML aliases are written out"),
    "an alias inside its own anchor": (VALID_BRIEF.format(name="alpha").replace(
        "scope: {", "scope: &self {").replace("include: []", "include: [*self]"), "inside its own anchor &self"),
    "lists 100 deep": (VALID_BRIEF.format(name="[" * 100 + "]" * 100), "more than 64 deep"),
    "a brief over 64 KiB": (VALID_BRIEF.format(name="alpha") + "notes: " + "x" * (64 << 10) + "\n",
                            "holds more than 64 KiB, the most the brief may hold"),
}
SPY_VALIDATOR = """
def load_brief_text(text):
    raise AssertionError("the validator was given the brief")


def validate_brief(brief):
    raise AssertionError("the validator was given the brief")
"""


class TestBriefBounds:
    """A brief that would keep a validator busy without end is refused as `brief-malformed` before the validator
    sees it (issue 23, item 12); a brief within the bounds, aliases and all, goes to the validator as before."""

    @pytest.mark.parametrize("kind", UNBOUNDED_BRIEFS)
    def test_it_is_rejected_before_the_validator_sees_it(self, tmp_path, kind):
        text, words = UNBOUNDED_BRIEFS[kind]
        (tmp_path / "b").mkdir()
        (tmp_path / "b/skill-brief.yaml").write_text(text)
        (tmp_path / "spy.py").write_text(SPY_VALIDATOR)

        result = qb("start", "--briefs", "b", "--run-root", "rr", "--brief-validator", "spy.py", cwd=tmp_path)

        assert result.code == 0, result.err  # the spy, asked anything, would have made it helper-missing (exit 1)
        (rejected,) = json.loads(result.out)["rejected"]
        assert rejected["error_code"] == "brief-malformed" and words in rejected["message"], rejected
        assert rejected["message"].startswith(f"Brief validation failed: `{tmp_path}/b/skill-brief.yaml` ")

    @pytest.mark.parametrize("kind", UNBOUNDED_BRIEFS)
    def test_skill_forges_validator_is_never_kept_busy_by_it(self, tmp_path, schema, kind):
        """In a child process: before the bounds, the bomb kept this command busy until killed (here: the timeout)."""
        (tmp_path / "b").mkdir()
        (tmp_path / "b/skill-brief.yaml").write_text(UNBOUNDED_BRIEFS[kind][0])

        done = subprocess.run([sys.executable, "-m", "batchlog.cli.main", "quick-batch", "start", "--briefs", "b",
                               "--run-root", "rr", "--brief-schema", str(schema)], cwd=tmp_path, capture_output=True,
                              text=True, timeout=120, env={**os.environ, **CLOCK})

        assert done.returncode == 0, done.stderr
        assert [r["error_code"] for r in json.loads(done.stdout)["rejected"]] == ["brief-malformed"]

    def test_a_brief_with_a_few_aliases_goes_to_the_validator_as_before(self, tmp_path, schema):
        (tmp_path / "b").mkdir()
        (tmp_path / "b/skill-brief.yaml").write_text(VALID_BRIEF.format(name="alpha").replace(
            "include: [], exclude: []", "include: &paths [src, lib], exclude: *paths"))

        result = qb("start", "--briefs", "b", "--run-root", "rr", "--brief-schema", schema, cwd=tmp_path)

        assert result.code == 0 and json.loads(result.out)["rejected"] == [], result.out


class TestNoLockFile:
    """The lock is on the log itself (engine/recorders/file_lock.py): no command leaves a lock file, in a run folder kept after
    a halted summary or beside a removed one (the README's deliberate differences list none)."""

    @pytest.mark.parametrize("halted", [False, True], ids=["clean", "halted"])
    def test_no_command_of_a_batch_leaves_a_lock_file(self, batch, halted):
        run = "runs/skf-quick-skill-1"
        lock_files = []
        for n in (1, 2):
            qb("next", "--run-dir", run, cwd=batch)
            payload = ("halt.json", '{"halt_reason":"user-cancelled"}') if halted and n == 2 else \
                ("result-context.json", "{}")
            (batch / f"{run}/skf-quick-skill-1-{n}" / payload[0]).write_text(payload[1])
            qb("record", "--run-dir", run, "--batch", str(n), cwd=batch)
            qb("status", "--run-dir", run, cwd=batch)
            lock_files += [p for p in batch.rglob("*") if "lock" in p.name]

        summarized = qb("summarize", "--run-dir", run, "--output-dir", "out", cwd=batch)
        status = qb("status", "--run-dir", run, cwd=batch)

        assert summarized.code in (0, 1) and status.code == 0, (summarized, status)
        assert (batch / run).exists() == halted  # a halted batch's run folder is kept, a clean one removed
        assert lock_files + [p for p in batch.rglob("*") if "lock" in p.name] == []


class TestStatusAndImport:
    def test_status_after_a_clean_summary_answers_from_the_archived_log(self, batch):
        for n in (1, 2):
            qb("next", "--run-dir", "runs/skf-quick-skill-1", cwd=batch)
            (batch / f"runs/skf-quick-skill-1/skf-quick-skill-1-{n}/result-context.json").write_text("{}")
            qb("record", "--run-dir", "runs/skf-quick-skill-1", "--batch", str(n), cwd=batch)
        before = json.loads(qb("status", "--run-dir", "runs/skf-quick-skill-1", "--json", cwd=batch).out)
        assert qb("summarize", "--run-dir", "runs/skf-quick-skill-1", "--output-dir", "out", cwd=batch).code == 0

        after = qb("status", "--run-dir", "runs/skf-quick-skill-1", "--json", cwd=batch)
        text = qb("status", "--run-dir", "runs/skf-quick-skill-1", cwd=batch)

        data = json.loads(after.out)
        assert after.code == 0 and not (batch / "runs/skf-quick-skill-1").exists()
        assert data["archived"] == {"summary": "out/quick-skill-batch-20261202-160000.json",
                                    "archive": "out/quick-skill-batch-20261202-160000.events.jsonl"}
        assert data["summarized"] and data["targets"] == before["targets"]
        assert "its log archived as out/quick-skill-batch-20261202-160000.events.jsonl" in text.out
        assert sorted(p.name for p in (batch / "runs").iterdir()) == [".skf-quick-skill-1.summarized.json"]

    def test_status_shows_each_targets_place_and_time(self, batch):
        qb("next", "--run-dir", "runs/skf-quick-skill-1", cwd=batch)

        result = qb("status", "--run-dir", "runs/skf-quick-skill-1", "--json", cwd=batch)

        data = json.loads(result.out)
        assert (data["pending"], data["in_progress"]["batch"]) == (2, 1)
        assert [t["status"] for t in data["targets"]] == ["in_progress", "pending"]
        text = qb("status", "--run-dir", "runs/skf-quick-skill-1", cwd=batch).out
        assert "in progress: 1 cognee@0.5.0 since 2026-12-02T16:00:00.000Z" in text

    def test_status_at_a_seq_shows_the_batch_as_it_stood_then(self, batch):
        qb("next", "--run-dir", "runs/skf-quick-skill-1", cwd=batch)

        data = json.loads(qb("status", "--run-dir", "runs/skf-quick-skill-1", "--json", "--at", "1", cwd=batch).out)

        assert data["in_progress"] is None and data["pending"] == 2

    SEED_BATCH = ('{"event":"start","status":"running","input_file":"/x/t.txt","fail_fast":false,'
                  '"started_at":"2026-12-02T15:00:00Z"}\n'
                  '{"event":"target","batch":1,"target":"a","language_hint":null,"scope_hint":null,"status":"pending"}\n'
                  '{"event":"target","batch":2,"target":"b","language_hint":"go","scope_hint":null,"status":"pending"}\n'
                  '{"event":"result","batch":1,"target":"a","status":"error","exit_code":3,"skill_package":null,'
                  '"error_code":"resolution-failure","quality_score":null}\n')

    def test_import_takes_over_a_seed_batch_torn_line_included(self, tmp_path):
        run = tmp_path / "skf-quick-skill-7"
        run.mkdir()
        (run / "batch.jsonl").write_text(self.SEED_BATCH + '{"event":"result","batch":2,"tar')

        imported = qb("import", "--run-dir", "skf-quick-skill-7", cwd=tmp_path)
        handed = qb("next", "--run-dir", "skf-quick-skill-7", cwd=tmp_path)

        assert imported.code == 0 and json.loads(imported.out)["recorded"] == 1
        assert json.loads(handed.out)["target"] == "b"
        assert invoke("log", "verify", run / "events.jsonl").code == 0

    def test_import_again_answers_as_the_first_did_and_appends_nothing_even_once_the_batch_went_on(self, tmp_path):
        run = tmp_path / "skf-quick-skill-7"
        run.mkdir()
        (run / "batch.jsonl").write_text(self.SEED_BATCH)
        imported = qb("import", "--run-dir", "skf-quick-skill-7", cwd=tmp_path)
        after_import = log_bytes(tmp_path, "skf-quick-skill-7")

        again = qb("import", "--run-dir", "skf-quick-skill-7", cwd=tmp_path)
        qb("next", "--run-dir", "skf-quick-skill-7", cwd=tmp_path)
        after_next = log_bytes(tmp_path, "skf-quick-skill-7")
        later = qb("import", "--run-dir", "skf-quick-skill-7", cwd=tmp_path)

        assert imported.out == ('{"status":"imported","run_dir":"skf-quick-skill-7","log":"skf-quick-skill-7/events.jsonl",'
                                '"events":2,"targets_total":2,"recorded":1,"summarized":false}\n')
        assert (again.code, again.out, again.err) == (0, imported.out, "")
        assert (later.code, later.out, later.err) == (0, imported.out, "")
        assert log_bytes(tmp_path, "skf-quick-skill-7")[: len(after_import)] == after_import
        assert log_bytes(tmp_path, "skf-quick-skill-7") == after_next

    @pytest.mark.parametrize("how", ["the seed went on", "batchlog started it"])
    def test_import_into_a_log_of_another_batch_is_refused_and_appends_nothing(self, tmp_path, how):
        run = tmp_path / "skf-quick-skill-7"
        if how == "the seed went on":
            run.mkdir()
            (run / "batch.jsonl").write_text(self.SEED_BATCH)
            qb("import", "--run-dir", "skf-quick-skill-7", cwd=tmp_path)
            with open(run / "batch.jsonl", "a", encoding="utf-8") as seed:
                seed.write('{"event":"result","batch":2,"target":"b","status":"success","exit_code":0,'
                           '"skill_package":null,"error_code":null,"quality_score":null}\n')
        else:
            (tmp_path / "t.txt").write_text("a\nb\n", encoding="utf-8")
            qb("start", "t.txt", "--run-dir", "skf-quick-skill-7", cwd=tmp_path)
            (run / "batch.jsonl").write_text(self.SEED_BATCH)
        before = log_bytes(tmp_path, "skf-quick-skill-7")

        refused = qb("import", "--run-dir", "skf-quick-skill-7", cwd=tmp_path)

        assert refused.code == 1
        assert json.loads(refused.err)["message"] == (
            "skf-quick-skill-7/events.jsonl already exists: this batch was imported or started with batchlog; go on "
            "with `batchlog quick-batch next --run-dir skf-quick-skill-7`")
        assert log_bytes(tmp_path, "skf-quick-skill-7") == before


class TestNotes:
    """The seed's commands print what skf-quick-batch.py prints on stderr, and nothing of batchlog's notes (a torn
    tail answered past); `status` and `import`, batchlog's own, say them."""

    @pytest.fixture
    def torn(self, batch):
        qb("next", "--run-dir", "runs/skf-quick-skill-1", cwd=batch)
        (batch / "runs/skf-quick-skill-1/skf-quick-skill-1-1/halt.json").write_text('{"halt_reason":"user-cancelled"}')
        with open(batch / "runs/skf-quick-skill-1/events.jsonl", "ab") as log:
            log.write(b'{"seq":3,"type":"qb.tar')  # a write cut short
        return batch

    def test_record_on_a_torn_tail_says_on_stderr_only_what_the_seed_says(self, torn):
        result = qb("record", "--run-dir", "runs/skf-quick-skill-1", "--batch", "1", "--target", "stderr", cwd=torn)

        assert result.code == 0 and result.out == ""
        assert [json.loads(line)["batch"] for line in result.err.splitlines()] == [1]
        assert invoke("log", "verify", torn / "runs/skf-quick-skill-1/events.jsonl").code == 0

    @pytest.mark.parametrize("command", [["next"], ["summarize", "--output-dir", "out"], ["start", "t.txt"]])
    def test_the_other_seed_commands_say_no_note_either(self, torn, command):
        result = qb(command[0], "--run-dir", "runs/skf-quick-skill-1", *command[1:], cwd=torn)

        assert "note" not in result.err

    def test_status_names_the_torn_tail(self, torn):
        result = qb("status", "--run-dir", "runs/skf-quick-skill-1", cwd=torn)

        assert result.code == 0
        assert result.err == ("note: runs/skf-quick-skill-1/events.jsonl ends with 23 byte(s) of a line that was never "
                              "finished: answered without it (the next append removes it)\n")


class TestNewerEvents:
    @pytest.fixture
    def newer(self, batch):
        """The batch's log with a valid `qb.target_started` v9 line appended (one a newer batchlog wrote)."""
        from batchlog.cli.loops import types_for
        from batchlog.engine import EventLog, EventType, Projection, Registry
        from batchlog.engine.registry import Raw
        from batchlog.projections.quick_batch.decider import QUICK_BATCH

        known = types_for(QUICK_BATCH).by_name.values()
        future = Registry([*(t for t in known if t.name != "qb.target_started"),
                           EventType("qb.target_started", 9, upcasters=(lambda data: data,) * 8)])
        EventLog(batch / "runs/skf-quick-skill-1/events.jsonl", future).append(
            Projection("any", None, lambda state, event: state), lambda state: [Raw("qb.target_started", {"batch": 1})])
        return batch

    WARNING = ("batchlog: warning: runs/skf-quick-skill-1/events.jsonl holds 1 event(s) newer than this batchlog (first: "
               "line 2: qb.target_started v9 is newer than v1 to this batchlog): what it shows leaves them out, and "
               "nothing can be recorded in the log (exit 3) until batchlog is upgraded\n")

    def test_status_warns_once_and_shows_the_batch_without_them(self, newer):
        result = qb("status", "--run-dir", "runs/skf-quick-skill-1", cwd=newer)

        assert (result.code, result.err) == (0, self.WARNING)
        assert "in progress: none" in result.out

    def test_status_json_says_so(self, newer):
        result = qb("status", "--run-dir", "runs/skf-quick-skill-1", "--json", cwd=newer)

        assert result.err == self.WARNING
        assert json.loads(result.out)["newer"] == {
            "count": 1, "first": "line 2: qb.target_started v9 is newer than v1 to this batchlog"}


class TestFixture:
    def test_the_bundled_batch_in_progress_shows_its_place(self):
        run = Path(__file__).parents[1] / "fixtures/quick_batch/skf-quick-skill-demo"

        data = json.loads(invoke("quick-batch", "status", "--run-dir", run, "--json").out)

        assert (data["succeeded"], data["failed"], data["pending"]) == (1, 1, 2)
        assert data["in_progress"]["target"] == "https://github.com/foo/bar@2.1.0-beta"
        assert [t["seconds"] for t in data["targets"]] == [216.0, 77.0, None, None]


    def test_the_fixture_records_no_absolute_path_and_rebuilds_the_same_at_another_path(self, tmp_path):
        import shutil
        import subprocess
        import sys

        repo = Path(__file__).parents[1]
        copy = tmp_path / "elsewhere" / "checkout"
        for part in ("cli", "engine", "projections"):
            shutil.copytree(repo / part, copy / part, ignore=shutil.ignore_patterns("__pycache__"))
        (copy / "fixtures/quick_batch").mkdir(parents=True)
        shutil.copy(repo / "fixtures/quick_batch/build.py", copy / "fixtures/quick_batch/build.py")

        built = subprocess.run([sys.executable, "fixtures/quick_batch/build.py"], cwd=copy, capture_output=True)
        fixture = copy / "fixtures/quick_batch"

        def tree(folder: Path) -> dict[str, bytes]:
            """Every file of the fixture as git keeps it (files only: an empty run folder is not committed),
            build.py and caches aside."""
            return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*"))
                    if p.is_file() and p.name != "build.py" and "__pycache__" not in p.parts}

        built_tree = tree(fixture)
        resumed = invoke("quick-batch", "start", "targets.txt", "--run-dir", "skf-quick-skill-demo", cwd=fixture)

        committed = (repo / "fixtures/quick_batch/skf-quick-skill-demo/events.jsonl").read_bytes()
        assert built.returncode == 0, built.stderr
        assert built_tree == tree(repo / "fixtures/quick_batch")  # every file, byte for byte
        assert not any(path.encode() in data for data in tree(repo / "fixtures/quick_batch").values()
                       for path in (str(repo), str(copy), str(Path.home())))
        assert b'"input_file":"../targets.txt"' in committed
        assert resumed.code == 0 and json.loads(resumed.out)["resumed"] is True


class TestConcurrency:
    def test_racing_nexts_hand_the_target_out_once(self, batch):
        import subprocess
        import sys

        command = [sys.executable, "-m", "batchlog.cli.main", "quick-batch", "next", "--run-dir", "runs/skf-quick-skill-1"]
        racers = [subprocess.Popen(command, cwd=batch, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                  for _ in range(4)]
        outs = {racer.communicate(timeout=60)[0] for racer in racers}

        assert len(outs) == 1 and b'"batch":1' in outs.pop()
        types = [json.loads(line)["type"] for line in log_bytes(batch).splitlines()]
        assert types == ["qb.batch_started", "qb.target_started"]


class TestSnapshots:
    def test_a_long_batch_answers_the_same_from_its_snapshot(self, tmp_path):
        (tmp_path / "t.txt").write_text("".join(f"target{n}\n" for n in range(150)))
        qb("start", "t.txt", "--run-dir", "r", cwd=tmp_path)
        for n in range(1, 121):
            qb("next", "--run-dir", "r", cwd=tmp_path)
            (tmp_path / f"r/r-{n}/halt.json").write_text('{"halt_reason":"user-cancelled"}')
            qb("record", "--run-dir", "r", "--batch", str(n), cwd=tmp_path)
        from_snapshot = qb("status", "--run-dir", "r", "--json", cwd=tmp_path).out
        assert list((tmp_path / "r/events.jsonl.snap").iterdir())

        import shutil

        shutil.rmtree(tmp_path / "r/events.jsonl.snap")
        assert qb("status", "--run-dir", "r", "--json", cwd=tmp_path).out == from_snapshot
        assert json.loads(from_snapshot)["failed"] == 120
