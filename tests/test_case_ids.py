"""Every case id batchlog reads from a file keeps the dataset's rule (a non-empty string with no control character,
which no command batchlog prints could name on one line), or the command is refused naming the file and the case,
and nothing is written (issue 23, item 15: `tune import` took `null` and numbers from a run's cases.json, and `tune
readme` then failed, `tune status` counted 3 used of 2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.clirunner import invoke

CLOCK = {"BATCHLOG_CLOCK": "2026-12-03T10:00:00Z", "BATCHLOG_DEBUG": ""}
BAD_IDS = {"null": None, "a number": 7, "empty": "", "true": True, "a list": ["a"], "an object": {"id": "a"},
           "a control character": "b\x1b[2J"}
RUN = "batch01-nomem-run1"


def zen(root: Path) -> Path:
    """A zen-finetune folder of three cases, one graded batch and a difficult case."""
    folder = root / "zen"
    (folder / "runs" / RUN).mkdir(parents=True)
    cases = [{"id": "a", "class": "x"}, {"id": "b", "class": "y"}, {"id": "c", "class": "x"}]
    files = {
        "dataset.json": {"cases": cases},
        "selection.json": {"batch": cases},
        "config.json": {"minBatch": 3, "maxBatch": 10},
        "difficult.json": {"cases": [{"id": "a", "reasons": ["wrong"], "added": RUN}]},
        f"runs/{RUN}/cases.json": {"batch": cases},
        f"runs/{RUN}/plan.json": {"batch": 1, "size": 3, "new": ["a", "b", "c"], "recheck": []},
    }
    for name, value in files.items():
        (folder / name).write_text(json.dumps(value), encoding="utf-8")
    (folder / "runs" / RUN / "findings.md").write_text(f"# {RUN}\n\n## WRONG\n", encoding="utf-8")
    return folder


# Each reader of case ids: the file, the list in it, and what the refusal calls an item of that list.
READERS = {
    "dataset.json": ("cases", "case"),
    "selection.json": ("batch", "case"),
    f"runs/{RUN}/cases.json": ("batch", "case"),
    "difficult.json": ("cases", "entry"),
}


class TestEveryReaderOfCaseIds:
    def test_the_unspoilt_folder_imports_and_its_views_answer(self, tmp_path):
        """The control: the folder each case below spoils in one place is imported whole."""
        folder = zen(tmp_path)

        imported = invoke("tune", "import", folder, env=CLOCK)

        assert imported.code == 0, imported.err
        assert invoke("tune", "readme", "--stdout", "--dir", folder, env=CLOCK).code == 0
        assert "used          3" in invoke("tune", "status", "--dir", folder, env=CLOCK).out

    @pytest.mark.parametrize("bad", BAD_IDS)
    @pytest.mark.parametrize("reader", READERS)
    def test_tune_import_refuses_an_id_that_is_not_a_non_empty_string(self, tmp_path, reader, bad):
        folder = zen(tmp_path)
        listed, item = READERS[reader]
        value = json.loads((folder / reader).read_text(encoding="utf-8"))
        value[listed][1 if reader != "difficult.json" else 0] = {**value[listed][0], "id": BAD_IDS[bad]}
        (folder / reader).write_text(json.dumps(value), encoding="utf-8")

        result = invoke("tune", "import", folder, env=CLOCK)

        number = 2 if reader != "difficult.json" else 1
        assert result.code == 1, (result.out, result.err)
        assert result.err.startswith(f"batchlog: {folder}/{reader}: {item} {number} "), result.err
        assert "a case's id is a non-empty string" in result.err and "unexpected error" not in result.err
        assert not (folder / "events.jsonl").exists()

    @pytest.mark.parametrize("bad", BAD_IDS)
    def test_tune_init_refuses_it_in_a_dataset(self, tmp_path, bad):
        dataset = tmp_path / "dataset.json"
        dataset.write_text(json.dumps({"cases": [{"id": "a"}, {"id": BAD_IDS[bad]}]}), encoding="utf-8")

        result = invoke("tune", "init", "--dataset", dataset, "--dir", tmp_path / "t", env=CLOCK)

        assert result.code == 1 and result.err.startswith(f"batchlog: {dataset}: case 2 "), result.err  # as typed
        assert "a case's id is a non-empty string" in result.err
        assert not (tmp_path / "t").exists()

    @pytest.mark.parametrize("reader", [name for name in READERS if name != "difficult.json"])
    def test_an_entry_that_is_not_an_object_is_refused_too(self, tmp_path, reader):
        folder = zen(tmp_path)
        listed, _ = READERS[reader]
        value = json.loads((folder / reader).read_text(encoding="utf-8"))
        value[listed][1] = "b"
        (folder / reader).write_text(json.dumps(value), encoding="utf-8")

        result = invoke("tune", "import", folder, env=CLOCK)

        assert result.code == 1 and f"{folder}/{reader}: case 2 is not a JSON object" in result.err, result.err
        assert not (folder / "events.jsonl").exists()
