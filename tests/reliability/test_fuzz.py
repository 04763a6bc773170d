"""Fuzz: the readers get arbitrary bytes and never raise anything but the project's errors, never hang, never write.

Readers: the engine's line reader, checked scan, replay, verify and receipts;
the quick batch's batch-file parser and payload reader (halt.json /
result-context.json); the tuning's dataset reader. A longer run with atheris:
tests/reliability/soak.py.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import orjson
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from batchlog.engine import EngineError
from batchlog.engine.verify import Receipt, verify
from batchlog.engine.lines import LineReader
from batchlog.engine.recorders.file import FileRecorder
from batchlog.engine.scan import Scan
from batchlog.projections.errors import Refused
from tests.reliability import model

FUZZ = settings(max_examples=150)
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


HEX64 = st.text("0123456789abcdef", min_size=64, max_size=64)
ONE_LINE = st.text(st.characters(exclude_characters="\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"), max_size=60)
OTHER_DIGITS = (st.text(st.characters(categories=["Nd", "No"]).filter(str.isdigit), min_size=1, max_size=6)
                .filter(lambda s: not s.isascii()))


def receipt_text(seq: str, hash: str, at: str) -> str:
    return f"batchlog-receipt:{seq}:{hash}:{at}"


@contextmanager
def in_a_file(data: bytes) -> Iterator[Path]:
    """`data` as a log in a folder of its own, removed afterwards."""
    with tempfile.TemporaryDirectory(prefix="fuzz-") as folder:
        path = Path(folder) / "events.jsonl"
        path.write_bytes(data)
        yield path


class TestEngineReaders:
    @FUZZ
    @given(log_bytes(), st.integers(1, 64))
    def test_the_line_reader_gives_back_every_byte(self, data, block):
        with in_a_file(data) as path:
            reader = LineReader(path, block_bytes=block)

            lines = list(reader)

        assert b"".join(line + b"\n" for line in lines) + data[reader.end:] == data
        assert reader.torn == len(data) - reader.end

    @FUZZ
    @given(log_bytes())
    def test_scan_replay_and_verify_raise_only_engine_errors_and_write_nothing(self, data):
        with in_a_file(data) as path:
            # One try per reader: an error from one must not skip the others.
            for read in (lambda: list(Scan(path, model.REGISTRY, lines=FileRecorder(path).lines, describe=True, check_ids=True)),
                         lambda: list(Scan(path, model.REGISTRY, lines=FileRecorder(path).lines, decode=False)),
                         lambda: model.open_log(path).replay(model.PROJECTION),
                         lambda: orjson.dumps(verify(path, model.REGISTRY, since=Receipt(3, "a" * 64, "")).as_dict())):
                try:
                    read()
                except EngineError:
                    pass

            assert path.read_bytes() == data
            assert sorted(p.name for p in path.parent.iterdir()) == ["events.jsonl"]

    @FUZZ
    @given(st.text(max_size=200) | st.builds(lambda s: "batchlog-receipt:" + s, st.text(max_size=100))
           | st.builds(receipt_text, st.integers(min_value=0).map(str), HEX64, ONE_LINE))
    def test_a_receipt_parses_or_is_none(self, text):
        receipt = Receipt.parse(text)

        assert receipt is None or Receipt.parse(receipt.render()) == receipt

    @FUZZ
    @given(st.integers(min_value=0), HEX64, ONE_LINE)
    def test_a_valid_receipt_parses_and_round_trips(self, seq, hash, at):
        """Parse strips the line, so trailing blanks of the time are not kept."""
        receipt = Receipt.parse(receipt_text(str(seq), hash, at))

        assert receipt == Receipt(seq, hash, at.rstrip())
        assert Receipt.parse(receipt.render()) == receipt

    @FUZZ
    @example("²", "0" * 64, "")
    @example("١٢", "0" * 64, "")
    @given(OTHER_DIGITS, HEX64, ONE_LINE)
    def test_a_seq_in_other_digits_is_not_a_receipt(self, seq, hash, at):
        """int() takes "١٢" as 12 and refuses "²": only ASCII digits render back the same."""
        assert Receipt.parse(receipt_text(seq, hash, at)) is None


class TestLoopReaders:
    @FUZZ
    @given(st.binary(max_size=400) | st.text(max_size=300).map(str.encode))
    def test_the_batch_file_parser_raises_only_bad_input(self, data):
        from batchlog.projections.quick_batch.grammar import parse_bytes

        try:
            parse_bytes(data, "batch.txt")
        except Refused:
            pass

    @FUZZ
    @given(st.binary(max_size=300) | st.recursive(st.none() | st.integers(-99, 99) | st.text(max_size=10),
                                                  lambda inner: st.lists(inner) | st.dictionaries(st.text(max_size=5), inner))
           .map(lambda v: orjson.dumps(v)))
    def test_the_payload_and_dataset_readers_raise_only_bad_input(self, data):
        from batchlog.cli.quick_batch.files import read_staged
        from batchlog.cli.tune.files import read_dataset

        with in_a_file(data) as path:
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
        from batchlog.cli.quick_batch.files import read_staged
        from batchlog.cli.tune.files import read_dataset

        (tmp_path / name).write_text("[" * 100_000)

        if name == "dataset.json":
            with pytest.raises(Refused):
                read_dataset(tmp_path / name)
        else:
            from batchlog.projections.quick_batch.commands import Unstaged

            unstaged = read_staged(tmp_path)
            assert isinstance(unstaged, Unstaged) and "holds no JSON object" in unstaged.message


# Hostile classes (issue 15.11): nesting at generated depths across the parsers' limits, numbers past orjson's
# 64 bits and Python's 4,300 digits, and the floats JSON has no room for, in every JSON document a command reads.
DEPTH = st.integers(1, 3000) | st.sampled_from([254, 255, 256, 1023, 1024])
NUMBER = st.one_of(st.integers(2**63 - 2, 2**64 + 2).map(str), st.integers(-(2**64) - 2, -(2**63) + 2).map(str),
                   st.integers(4290, 4400).map(lambda n: "9" * n), st.sampled_from(["1e400", "-1e400", "NaN",
                                                                                    "Infinity", "-Infinity", "1e-400"]))
HOSTILE = st.one_of(DEPTH.map(lambda d: "[" * d + "]" * d), DEPTH.map(lambda d: '{"a":' * d + "1" + "}" * d), NUMBER)
DOCUMENTS = {
    "dataset": '{{"cases": [{{"id": "a", "class": "x", "complexity": "simple", "extra": {}}}]}}',
    "halt.json": '{{"halt_reason": "user-cancelled", "extra": {}}}',
    "result-context.json": '{{"extra": {}}}',
    "exit codes": '{{"user-cancelled": {}}}',
}


class TestHostileValues:
    @FUZZ
    @given(st.sampled_from(sorted(DOCUMENTS)), HOSTILE)
    def test_every_json_reader_answers_a_hostile_value_with_bad_input_or_a_value(self, document, value):
        """Never a traceback, a hang or an unexpected error class: the value, or the readers' own refusal."""
        from batchlog.cli.quick_batch.files import read_json_file, read_staged
        from batchlog.cli.tune.files import read_dataset
        from batchlog.projections.quick_batch.commands import Unstaged

        with in_a_file(DOCUMENTS[document].format(value).encode()) as path:
            try:
                if document == "dataset":
                    read_dataset(path)
                elif document == "exit codes":
                    read_json_file(path, "exit-code map")
                else:
                    path.rename(path.with_name(document))
                    staged = read_staged(path.parent)
                    assert not isinstance(staged, Unstaged) or document in staged.message
            except Refused:
                pass
