"""Writers enforce every bound readers enforce (issue 23, item 7): what a reader would refuse is never acknowledged.

The bound is kept in one place, the engine's encode (engine/log.py), which every append goes through: a line
longer than the reader takes (16 MiB), JSON nested deeper or numbers wider than the log's JSON carries, text
that is not UTF-8, data that would not read back as its type. Tested by class: an event of each command that
carries what a user gives (targets, a dataset, a note, a summary, a model name) through the CLI, refused with
exit 1 and nothing written; and a property: whatever the engine acknowledges, a reader accepts.
"""

from __future__ import annotations

import math
import shutil
from pathlib import Path

import attrs
import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from batchlog.engine import EventLog, EventType, Projection, Registry
from batchlog.engine.errors import CannotEncode
from batchlog.engine.lines import MAX_LINE_BYTES
from batchlog.engine.registry import Raw
from batchlog.engine.verify import verify
from tests.clirunner import invoke

ROOT = Path(__file__).resolve().parent.parent
ENV = {"BATCHLOG_CLOCK": "2026-12-03T00:00:00Z", "BATCHLOG_DEBUG": ""}
TOO_LONG = "x" * (MAX_LINE_BYTES + 1)
READER_WORDS = "longer than 16 MiB, the most a line may hold: nothing was recorded"

ANY = Registry([EventType("test.any", 1)])
KEEP = Projection("test.keep", (), lambda state, event: (*state, event.data))


def appended(path: Path, data: dict):
    return EventLog(path, ANY).append(KEEP, lambda state: [Raw("test.any", data)])


class TestTheLineBound:
    def test_a_line_of_exactly_the_bound_is_written_and_read_back(self, tmp_path):
        path = tmp_path / "events.jsonl"
        probe = tmp_path / "probe.jsonl"
        appended(probe, {"text": ""})
        room = MAX_LINE_BYTES - (len(probe.read_bytes()) - 1)

        appended(path, {"text": "x" * room})

        assert len(path.read_bytes()) == MAX_LINE_BYTES + 1
        assert verify(path, ANY).trusted and EventLog(path, ANY).replay(KEEP).state[0]["text"] == "x" * room

    def test_one_byte_more_is_refused_in_the_reader_s_words_and_nothing_is_written(self, tmp_path):
        path = tmp_path / "events.jsonl"
        appended(path, {"text": "before"})
        before = path.read_bytes()
        probe = tmp_path / "probe.jsonl"
        appended(probe, {"text": ""})
        room = MAX_LINE_BYTES - (len(probe.read_bytes()) - 1)

        with pytest.raises(CannotEncode, match=READER_WORDS):
            appended(path, {"text": "x" * (room + 1)})

        assert path.read_bytes() == before


@attrs.frozen
class Measured:
    """A domain event whose reader refuses what JSON writes for a number it has no form for (NaN -> null)."""

    value: float = attrs.field(converter=float)


def test_data_that_would_not_read_back_as_its_type_is_refused(tmp_path):
    path = tmp_path / "events.jsonl"
    registry = Registry([EventType("test.measured", 1, Measured)])

    with pytest.raises(CannotEncode, match="read back, its data would not fit test.measured v1"):
        EventLog(path, registry).append(KEEP, lambda state: [Measured(math.nan)])

    assert not path.exists()


# -- the property: whatever the engine acknowledges, a reader accepts ---------------------------------------------

_scalars = (st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=True, allow_infinity=True)
            | st.text(st.characters(), max_size=20))
_json = st.recursive(_scalars, lambda inner: st.lists(inner, max_size=4)
                     | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=30)


def _deep(depth: int):
    value: object = 1
    for _ in range(depth):
        value = [value]
    return value


@settings(max_examples=300)
@given(value=_json | st.integers(240, 300).map(_deep) | st.text(st.characters(), max_size=30))
def test_whatever_the_engine_acknowledges_a_reader_accepts(tmp_path_factory, value):
    path = tmp_path_factory.mktemp("log") / "events.jsonl"
    appended(path, {"value": "before"})
    before = path.read_bytes()

    try:
        appended(path, {"value": value})
    except CannotEncode:
        assert path.read_bytes() == before  # refused: nothing written
        return

    report = verify(path, ANY)
    assert report.trusted and report.events == 2 and report.torn_bytes == 0
    assert len(EventLog(path, ANY).replay(KEEP).state) == 2


# -- through the CLI: every command that carries what a user gives --------------------------------------------------


@pytest.fixture
def tuning(tmp_path) -> Path:
    folder = tmp_path / "finetune"
    shutil.copytree(ROOT / "fixtures" / "tune-in-progress", folder)
    return folder


def _refused_and_unchanged(result, log: Path, before: bytes) -> None:
    assert result.code == 1, (result.out, result.err)
    assert READER_WORDS in result.err and "Traceback" not in result.err
    assert log.read_bytes() == before


@pytest.mark.parametrize("command", [
    ("difficult", "add", "extraction-invoice-total", "--reason", "wrong", "--run", "batch03-nomem-run1", "--note", TOO_LONG),
    ("change", "batch03-nomem-run1", "--file", "agents/p.md", "--summary", TOO_LONG, "--lines", "3"),
    ("usage", "batch03-nomem-run1", "--model", TOO_LONG, "--calls", "1", "--input-tokens", "1",
     "--output-tokens", "1"),
], ids=["a difficult case's note", "a change's summary", "a usage's model name"])
def test_a_tune_command_whose_event_would_exceed_the_line_bound_is_refused(tuning, command):
    log = tuning / "events.jsonl"
    before = log.read_bytes()

    result = invoke("tune", *command, "--dir", tuning, env=ENV)

    _refused_and_unchanged(result, log, before)


def test_a_tuning_whose_dataset_is_too_large_for_one_line_is_refused(tmp_path):
    """A dataset the opener takes (16 MiB at most, engine/files.py), whose event, the dataset and the envelope
    and settings around it, is longer than a line may be."""
    dataset = tmp_path / "dataset.json"
    dataset.write_bytes(orjson.dumps({"cases": [{"id": "a", "class": "x", "rubric": "x" * (MAX_LINE_BYTES - 100)}]}))
    assert dataset.stat().st_size <= MAX_LINE_BYTES

    result = invoke("tune", "init", "--dataset", dataset, "--dir", tmp_path / "finetune", env=ENV)

    assert result.code == 1 and READER_WORDS in result.err, (result.out, result.err)
    assert not (tmp_path / "finetune").exists()


def test_a_quick_batch_whose_targets_are_too_many_for_one_line_is_refused(tmp_path):
    """Old main wrote an 18 MB line for 200,000 targets and exited 0; the next command exited 3 for good."""
    targets = tmp_path / "targets.txt"
    targets.write_text("".join(f"target-{n:07d}-of-a-long-list-of-targets\n" for n in range(250_000)))
    run = tmp_path / "run"

    result = invoke("quick-batch", "start", targets, "--run-dir", run, env=ENV)

    assert result.code == 1, (result.out, result.err)
    assert orjson.loads(result.out or result.err)["message"].endswith(READER_WORDS + "; give it less (fewer or "
                                                                      "shorter items)")
    assert not (run / "events.jsonl").exists() and list(run.iterdir()) == []  # the seed's folder, made first
