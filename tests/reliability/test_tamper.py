"""Tamper: any single-byte change, deletion, insertion or reordering of a finished log is named at the right line.

The right line is the first line of the file that is not what was written there:
the engine's ids are content hashes, so an edited line is named itself; a deleted
line is named at the line after the gap (it now sits where the deleted one was);
an inserted or moved line is named where it stands. Two things leave a log that
still reads as whole, and only a receipt (`log head`, `log verify --since`)
shows them: the deletion of the very last line, and a cut inside the last line
(which reads as a torn tail). A forged line with a correct chain and id is
named at the line after it (it is indistinguishable from a real one).
"""

from __future__ import annotations

import random
from hashlib import sha256
from pathlib import Path

import pytest

import batchlog.cli.log.commands
from batchlog.engine.verify import verify
from batchlog.engine.envelope import encode_line
from batchlog.cli.loops import all_types
from tests.clirunner import invoke
from tests.reliability import model

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "tune-in-progress" / "events.jsonl"
GARBAGE = [b"", b"{}", b"not json", b'{"seq":3}', "é\u2028".encode(), b"\xff\xfe", b"[1,2]", b"null"]


def finished_log(folder: Path, events: int = 12) -> Path:
    path = folder / "events.jsonl"
    log = model.open_log(path)
    rnd = random.Random(7)
    for n in range(events):
        decide = model.claim_next(f"agent{n % 3}") if n % 2 else model.note(n % 4, n, 1, rnd.randrange(30))
        log.append(model.PROJECTION, decide)
    return path


def first_changed_line(original: list[bytes], tampered: list[bytes]) -> int:
    for number, (a, b) in enumerate(zip(original, tampered), start=1):
        if a != b:
            return number
    return min(len(original), len(tampered)) + 1


def tamperings(data: bytes, rnd: random.Random, byte_changes: int):
    """(name, tampered bytes) for each kind of damage."""
    lines = data.split(b"\n")[:-1]
    whole = lambda ls: b"".join(line + b"\n" for line in ls)  # noqa: E731
    for _ in range(byte_changes):
        at = rnd.randrange(len(data) - 1)  # the final newline is its own case
        new = rnd.choice([rnd.randrange(256), ord("\n"), ord(" "), ord("0"), data[at] ^ 1])
        if new != data[at]:
            yield f"byte {at} -> {new}", data[:at] + bytes([new]) + data[at + 1:]
    for k in range(len(lines) - 1):
        yield f"delete line {k + 1}", whole(lines[:k] + lines[k + 1:])
    for k in range(len(lines) + 1):
        inserted = rnd.choice(GARBAGE + [lines[rnd.randrange(len(lines))]])
        yield f"insert {inserted[:20]!r} at {k + 1}", whole(lines[:k] + [inserted] + lines[k:])
    for k in range(len(lines) - 1):
        yield f"swap lines {k + 1},{k + 2}", whole(lines[:k] + [lines[k + 1], lines[k]] + lines[k + 2:])
    for _ in range(4):
        a, b = sorted(rnd.sample(range(len(lines)), 2))
        yield f"move line {b + 1} to {a + 1}", whole(lines[:a] + [lines[b]] + lines[a:b] + lines[b + 1:])


@pytest.fixture
def test_types(monkeypatch):
    """`batchlog log verify` reading with the test domain's types too."""
    registry = all_types().merged(model.REGISTRY)
    monkeypatch.setattr(batchlog.cli.log.commands, "all_types", lambda: registry)
    return registry


def assert_named_at(path: Path, registry, expected_line: int, why: str) -> None:
    report = verify(path, registry)
    assert not report.trusted, why
    assert report.problems[0].line == expected_line, (why, [p.message for p in report.problems])


class TestTamperIsNamedAtTheRightLine:
    def test_every_kind_of_damage_to_a_generated_log_is_named_at_its_line(self, tmp_path, test_types, pinned_clock):
        path = finished_log(tmp_path)  # the clock pinned: the same bytes, so the same tamperings, every run
        data = path.read_bytes()
        tried = 0
        for why, tampered in tamperings(data, random.Random(11), byte_changes=400):
            path.write_bytes(tampered)
            assert_named_at(path, test_types, first_changed_line(data.split(b"\n"), tampered.split(b"\n")), why)
            tried += 1
        assert tried > 430, tried  # 400 byte changes (those that change nothing left out) and 39 moves of lines

    def test_the_cli_names_the_line_and_exits_3(self, tmp_path, test_types):
        path = finished_log(tmp_path)
        lines = path.read_bytes().split(b"\n")
        path.write_bytes(b"\n".join(lines[:4] + lines[5:]))

        result = invoke("log", "verify", path)

        assert result.code == 3
        assert "NOT trusted" in result.out
        assert "problem line 5 (seq 6)" in result.out

    @pytest.mark.skipif(not FIXTURE.exists(), reason="the tuning fixture is not there yet")
    def test_every_kind_of_damage_to_the_tuning_fixture_is_named_at_its_line(self, tmp_path):
        path = tmp_path / "events.jsonl"
        data = FIXTURE.read_bytes()
        for why, tampered in tamperings(data, random.Random(12), byte_changes=150):
            path.write_bytes(tampered)
            assert_named_at(path, all_types(), first_changed_line(data.split(b"\n"), tampered.split(b"\n")), why)
        path.write_bytes(data)
        assert invoke("log", "verify", path).code == 0

    def test_a_forged_line_with_a_correct_chain_is_named_at_the_line_after_it(self, tmp_path, test_types):
        path = finished_log(tmp_path)
        lines = path.read_bytes().split(b"\n")[:-1]
        forged = encode_line(6, "test.claimed", 1, "2026-01-01T00:00:00.000Z", {"number": 99, "by": "mallory"},
                             sha256(lines[4]).hexdigest())
        path.write_bytes(b"".join(line + b"\n" for line in lines[:5] + [forged] + lines[5:]))

        assert_named_at(path, test_types, 7, "forged line at 6")


class TestOnlyAReceiptShowsACutAtTheEnd:
    @pytest.mark.parametrize("cut", ["last line deleted", "final newline removed", "cut inside the last line"])
    def test_a_cut_at_the_end_reads_whole_but_fails_against_a_receipt(self, tmp_path, test_types, cut):
        path = finished_log(tmp_path)
        receipt = invoke("log", "head", path).out.strip()
        data = path.read_bytes()
        last_start = data[:-1].rfind(b"\n") + 1
        path.write_bytes({"last line deleted": data[:last_start], "final newline removed": data[:-1],
                          "cut inside the last line": data[: last_start + 40]}[cut])

        plain = invoke("log", "verify", path)
        checked = invoke("log", "verify", path, "--since", receipt)

        assert plain.code == 0
        assert checked.code == 3
        assert "the log was changed, cut or reordered since the receipt" in checked.out \
            or "it was cut since the receipt" in checked.out


class TestEveryReaderNamesTheSameLine:
    """Whatever the damage, `log verify`, `log show` and the views (a replay, as every view and append makes it)
    name the same first damaged line: an edited line itself, not the line after it whose link it broke."""

    @staticmethod
    def named_by_a_view(path: Path, registry) -> int | None:
        from batchlog.engine.errors import LogDamaged
        from batchlog.engine.log import EventLog, Projection

        try:
            EventLog(path, registry).replay(Projection("count", 0, lambda count, event: count + 1), notes=False)
        except LogDamaged as refused:
            return refused.fields["line"]
        return None

    @staticmethod
    def named_by_show(path: Path) -> int | None:
        import json

        shown = invoke("log", "show", path, "--json")
        lines = [json.loads(row)["damaged_line"] for row in shown.out.splitlines() if '"damaged_line"' in row]
        return min(lines, default=None)

    def test_verify_show_and_the_views_name_the_same_line_for_every_kind_of_damage(self, tmp_path, test_types,
                                                                                   pinned_clock):
        path = finished_log(tmp_path)
        data = path.read_bytes()
        differ = []
        for why, tampered in tamperings(data, random.Random(13), byte_changes=40):
            path.write_bytes(tampered)
            report = verify(path, test_types)
            by_verify = report.problems[0].line if report.problems else None
            named = (by_verify, self.named_by_show(path), self.named_by_a_view(path, test_types))
            if len(set(named)) != 1:
                differ.append((why, named))

        assert differ == []

    def test_an_edit_of_a_lines_data_is_named_at_that_line_by_every_reader(self, tmp_path, test_types):
        path = finished_log(tmp_path)
        lines = path.read_bytes().split(b"\n")
        lines[3] = lines[3].replace(b'"data":{', b'"data":{"x":1,', 1)
        path.write_bytes(b"\n".join(lines))

        shown = invoke("log", "show", path)

        assert verify(path, test_types).problems[0].line == 4
        assert self.named_by_show(path) == 4 and self.named_by_a_view(path, test_types) == 4
        assert "DAMAGED  line 4:" in shown.out and "DAMAGED  line 5" not in shown.out
