"""`batchlog log salvage`: a damaged log cut back to its trusted part, the damaged file kept, the cut recorded."""

from __future__ import annotations

import random
import shutil

import orjson
import pytest

from batchlog.engine.errors import LogDamaged
from batchlog.engine.verify import verify
from batchlog.engine.salvage import salvage
from batchlog.cli.loops import all_types
from tests.clirunner import invoke
from tests.reliability import model
from tests.reliability.test_tamper import FIXTURE, finished_log, first_changed_line, tamperings, test_types  # noqa: F401


def damaged_copies(folder):
    return sorted(folder.glob("events.jsonl.damaged-*"))


def assert_salvaged(path, original: bytes, tampered: bytes, registry) -> None:
    """The new log: the untouched lines before the damage, then log.salvaged; the damaged file kept as it was."""
    keep = first_changed_line(original.split(b"\n"), tampered.split(b"\n")) - 1
    lines = path.read_bytes().split(b"\n")[:-1]
    assert lines[:-1] == original.split(b"\n")[:keep]
    salvaged = orjson.loads(lines[-1])
    assert salvaged["type"] == "log.salvaged" and salvaged["seq"] == keep + 1
    assert salvaged["data"]["kept_through_seq"] == keep
    assert "damaged" in salvaged["data"]["reason"]
    (copy,) = damaged_copies(path.parent)
    assert copy.read_bytes() == tampered
    assert salvaged["data"]["damaged_copy"] == copy.name
    assert sum(salvaged["data"]["dropped_types"].values()) == salvaged["data"]["dropped_lines"]
    assert verify(path, registry).trusted


class TestSalvage:
    def test_salvage_repairs_every_kind_of_damage_the_tamper_suite_makes(self, tmp_path, test_types):  # noqa: F811
        (tmp_path / "source").mkdir()
        original = finished_log(tmp_path / "source").read_bytes()
        tried = 0
        for n, (why, tampered) in enumerate(tamperings(original, random.Random(5), byte_changes=60)):
            folder = tmp_path / f"case{n}"
            folder.mkdir()
            path = folder / "events.jsonl"
            path.write_bytes(tampered)

            result = invoke("log", "salvage", path)

            assert result.code == 0, (why, result.err)
            assert_salvaged(path, original, tampered, test_types)
            tried += 1
        assert tried > 80

    def test_appends_to_a_damaged_log_are_refused_until_salvage_then_go_on(self, tmp_path):
        path = finished_log(tmp_path)
        lines = path.read_bytes().split(b"\n")
        path.write_bytes(b"\n".join(lines[:3] + [b"garbage"] + lines[3:]))
        log = model.open_log(path)
        with pytest.raises(LogDamaged):
            log.append(model.PROJECTION, model.note(1, 1))

        salvage(path, model.REGISTRY)
        appended = log.append(model.PROJECTION, model.claim_next("after"))

        assert [e.seq for e in appended.events] == [5]
        assert log.replay(model.PROJECTION).state.events == 4  # log.salvaged is the engine's: never folded

    def test_to_seq_keeps_the_events_through_seq_only(self, tmp_path, test_types):  # noqa: F811
        path = finished_log(tmp_path)
        original = path.read_bytes()

        result = invoke("log", "salvage", path, "--to", "4", "--json")

        assert result.code == 0
        body = orjson.loads(result.out)
        assert body["kept_through_seq"] == 4 and body["dropped_lines"] == 8
        assert path.read_bytes().split(b"\n")[:4] == original.split(b"\n")[:4]
        assert not damaged_copies(tmp_path)  # nothing was damaged: the original is kept as a cut
        (copy,) = tmp_path.glob("events.jsonl.cut-*")
        assert copy.read_bytes() == original and body["damaged_copy"] == copy.name
        assert verify(path, test_types).trusted
        salvaged = orjson.loads(path.read_bytes().split(b"\n")[-2])
        assert (salvaged["v"], salvaged["data"]["dropped_types"]) == (2, {"test.noted": 4, "test.claimed": 4})

    def test_to_seq_past_the_damage_is_refused_and_changes_nothing(self, tmp_path, test_types):  # noqa: F811
        path = finished_log(tmp_path)
        lines = path.read_bytes().split(b"\n")
        path.write_bytes(b"\n".join(lines[:5] + lines[6:]))
        before = path.read_bytes()

        result = invoke("log", "salvage", path, "--to", "9")

        assert result.code == 1
        assert "line 6 is damaged, so the last event that can be kept is seq 5" in result.err
        assert path.read_bytes() == before and not damaged_copies(tmp_path)

    def test_a_trusted_log_has_nothing_to_salvage(self, tmp_path, test_types):  # noqa: F811
        path = finished_log(tmp_path)
        before = path.read_bytes()
        with open(path, "ab") as fh:
            fh.write(b'{"seq":13,"ty')  # a torn tail is not damage
        result = invoke("log", "salvage", path)

        assert result.code == 0
        assert "nothing to salvage" in result.out
        assert path.read_bytes() == before + b'{"seq":13,"ty' and not damaged_copies(tmp_path)

    @pytest.mark.parametrize("bad", ["folder", "missing"])
    def test_salvage_of_a_folder_or_a_missing_file_says_so(self, tmp_path, bad):
        path = tmp_path if bad == "folder" else tmp_path / "nope.jsonl"

        result = invoke("log", "salvage", path)

        assert result.code == 1
        assert str(path) in result.err


@pytest.mark.skipif(not FIXTURE.exists(), reason="the tuning fixture is not there yet")
class TestSalvagedTuning:
    def test_a_salvaged_tuning_takes_commands_again(self, tmp_path):
        """`log.salvaged` is the engine's event: the tuning's fold never sees it, its commands go on."""
        folder = tmp_path / "finetune"
        shutil.copytree(FIXTURE.parent, folder)
        path = folder / "events.jsonl"
        with open(path, "ab") as fh:
            fh.write(b'{"seq":35,"type":"tune.run_graded"}\n')  # a damaged last line
        grade = ("tune", "run", "grade", "batch03-nomem-run1", "--verdict", "VOID", "--dir", folder)
        refused = invoke(*grade)

        salvaged = invoke("log", "salvage", path)
        graded = invoke(*grade)

        assert refused.code == 3 and "batchlog log salvage" in refused.err
        assert salvaged.code == 0
        assert graded.code == 0, graded.err
        assert invoke("tune", "status", "--dir", folder).code == 0
        assert verify(path, all_types()).trusted
