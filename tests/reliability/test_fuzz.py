"""Fuzz: the readers get arbitrary bytes and never raise anything but the project's errors, never hang, never write.

Readers: the engine's line reader, checked scan, replay, verify and receipts;
the quick batch's batch-file parser and payload reader (halt.json /
result-context.json); the tuning's dataset reader. A longer run with atheris:
tests/reliability/soak.py.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import EngineError, Receipt, verify
from engine.lines import LineReader
from engine.scan import Scan
from projections.errors import Refused
from tests.reliability import model

FUZZ = settings(max_examples=150, deadline=2000, suppress_health_check=[HealthCheck.function_scoped_fixture])
VALID = [
    b'{"seq":1,"type":"test.noted","v":1,"at":"2026-12-02T16:00:00.000Z","id":"x","data":{},"prev":"' + b"0" * 64 + b'"}',
    b'{"seq":1,"type":"test.claimed","v":9,"at":"","id":"y","data":{"number":"one"},"prev":"' + b"e" * 64 + b'"}',
]


def log_bytes():
    """Arbitrary bytes, and lines that are nearly envelopes (so the checks past JSON get exercised)."""
    line = st.one_of(st.binary(max_size=120), st.sampled_from(VALID),
                     st.builds(lambda v, cut: v[:cut], st.sampled_from(VALID), st.integers(0, 200)),
                     st.dictionaries(st.sampled_from(["seq", "type", "v", "at", "id", "data", "prev"]),
                                     st.one_of(st.integers(-2, 2**62), st.text(max_size=70), st.none(),
                                               st.dictionaries(st.text(max_size=5), st.integers(-9, 9))))
                     .map(orjson.dumps))
    return st.lists(line, max_size=12).map(lambda ls: b"\n".join(ls)) | st.binary(max_size=600)


def in_a_file(data: bytes) -> Path:
    folder = Path(tempfile.mkdtemp(prefix="fuzz-"))
    path = folder / "events.jsonl"
    path.write_bytes(data)
    return path


class TestEngineReaders:
    @FUZZ
    @given(log_bytes(), st.integers(1, 64))
    def test_the_line_reader_gives_back_every_byte(self, data, block):
        path = in_a_file(data)
        reader = LineReader(path, block_bytes=block)

        lines = list(reader)

        assert b"".join(line + b"\n" for line in lines) + data[reader.end:] == data
        assert reader.torn == len(data) - reader.end

    @FUZZ
    @given(log_bytes())
    def test_scan_replay_and_verify_raise_only_engine_errors_and_write_nothing(self, data):
        path = in_a_file(data)
        try:
            list(Scan(path, model.REGISTRY, describe=True, check_ids=True))
            list(Scan(path, model.REGISTRY, decode=False))
            model.open_log(path).replay(model.PROJECTION)
            report = verify(path, model.REGISTRY, since=Receipt(3, "a" * 64, ""))
            orjson.dumps(report.as_dict())
        except EngineError:
            pass

        assert path.read_bytes() == data
        assert sorted(p.name for p in path.parent.iterdir()) == ["events.jsonl"]

    @FUZZ
    @given(st.text(max_size=200) | st.builds(lambda s: "batchlog-receipt:" + s, st.text(max_size=100)))
    def test_a_receipt_parses_or_is_none(self, text):
        receipt = Receipt.parse(text)

        assert receipt is None or Receipt.parse(receipt.render()) == receipt


class TestLoopReaders:
    @FUZZ
    @given(st.binary(max_size=400) | st.text(max_size=300).map(str.encode))
    def test_the_batch_file_parser_raises_only_bad_input(self, data):
        from projections.quick_batch.grammar import parse_bytes

        try:
            parse_bytes(data, "batch.txt")
        except Refused:
            pass

    @FUZZ
    @given(st.binary(max_size=300) | st.recursive(st.none() | st.integers(-99, 99) | st.text(max_size=10),
                                                  lambda inner: st.lists(inner) | st.dictionaries(st.text(max_size=5), inner))
           .map(lambda v: orjson.dumps(v)))
    def test_the_payload_and_dataset_readers_raise_only_bad_input(self, data):
        from cli.quick_batch_io import read_staged
        from cli.tune_io import read_dataset

        path = in_a_file(data)
        for read in (lambda: read_dataset(path), lambda: (path.rename(path.with_name("halt.json")),
                                                          read_staged(path.parent))):
            try:
                read()
            except Refused:
                pass

    @pytest.mark.parametrize("name", [
        "halt.json",
        "result-context.json",
        "dataset.json",
    ])
    def test_deeply_nested_json_is_bad_input_not_a_crash(self, tmp_path, name):
        from cli.quick_batch_io import read_staged
        from cli.tune_io import read_dataset

        (tmp_path / name).write_text("[" * 100_000)

        with pytest.raises(Refused):
            read_dataset(tmp_path / name) if name == "dataset.json" else read_staged(tmp_path)
