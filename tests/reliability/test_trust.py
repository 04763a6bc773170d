"""Issue 15, items 1-4 and 9-11: the holes an attack from outside the suite found, each closed.

One lock per file whatever path reached it; an edited last line never joins the chain; a `.pending`
marker that does not belong is never obeyed; a forged snapshot never changes an answer; views refuse a
damaged log; only regular files are logs, lines are bounded; hostile inputs get a clear error.
Races are driven by handshakes (a holder says it holds the lock), never by timers.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from batchlog.engine import EventLog
from batchlog.engine.errors import LockTimeout, LogDamaged, NotALog
from batchlog.engine.verify import verify
from batchlog.engine.chain import line_hash
from batchlog.engine.recorders.file_pending import Pending
from batchlog.engine.lines import LineReader, MAX_LINE_BYTES, OVERLONG
from batchlog.engine.snapshots.file import Snapshots
from batchlog.engine.snapshots.key import key_id
from tests.clirunner import invoke
from tests.marker_stores import STORES, set_marker, use_store
from tests.reliability.workers import fork, hold_lock
from tests.sample_domain import COUNT, REGISTRY, Count, NoteAdded

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "fixtures" / "tune-in-progress"
USER_ENV = {"BATCHLOG_DEBUG": "", "BATCHLOG_CLOCK": "2026-12-03T00:00:00Z", "BATCHLOG_LOCK_TIMEOUT": "5"}
REFUSED, USAGE, UNTRUSTED = 1, 2, 3


def add(log: EventLog, *texts: str):
    return log.append(COUNT, lambda state: [NoteAdded(text) for text in texts])


def tuning(tmp_path: Path) -> Path:
    folder = tmp_path / "finetune"
    shutil.copytree(FIXTURE, folder)
    return folder


def lines_of(path: Path) -> list[bytes]:
    return path.read_bytes().splitlines(keepends=True)


def held_elsewhere(path: Path) -> int:
    """A forked process holding the lock through `path`, once it says so; its pid."""
    read_end, write_end = os.pipe()
    pid = fork(hold_lock, path, write_end, False)
    os.close(write_end)
    assert os.read(read_end, 1) == b"x"
    os.close(read_end)
    return pid


def release(pid: int) -> None:
    os.kill(pid, 9)
    os.waitpid(pid, 0)


# -- item 1: one lock per file ------------------------------------------------------------------------------


def _symlink(log: Path) -> Path:
    other = log.parent / "elsewhere"
    other.mkdir()
    (other / "link.jsonl").symlink_to(log)
    return other / "link.jsonl"


def _hard_link(log: Path) -> Path:
    os.link(log, log.parent / "hard.jsonl")
    return log.parent / "hard.jsonl"


def _dot_dot(log: Path) -> Path:
    (log.parent / "sub").mkdir()
    return log.parent / "sub" / ".." / log.name


class TestOneLockPerFile:
    @pytest.mark.parametrize("other_path", [_symlink, _hard_link, _dot_dot], ids=["symlink", "hard-link", "a/../b"])
    def test_the_log_reached_by_another_path_is_the_same_lock(self, tmp_path, monkeypatch, other_path):
        """Old main locked `<path as given>.lock`: two commands on one log both appended (same seq)."""
        log_path = tmp_path / "events.jsonl"
        add(EventLog(log_path, REGISTRY), "first")
        other = other_path(log_path)
        before = log_path.read_bytes()
        pid = held_elsewhere(log_path)
        monkeypatch.setenv("BATCHLOG_LOCK_TIMEOUT", "0")
        try:
            with pytest.raises(LockTimeout):
                add(EventLog(other, REGISTRY), "second")
        finally:
            release(pid)

        assert log_path.read_bytes() == before
        add(EventLog(other, REGISTRY), "second")
        assert verify(log_path, REGISTRY).trusted and verify(log_path, REGISTRY).last_seq == 2

    def test_no_lock_file_is_left_beside_the_log(self, tmp_path):
        log_path = tmp_path / "events.jsonl"
        add(EventLog(log_path, REGISTRY), "a")

        assert sorted(p.name for p in tmp_path.iterdir()) == ["events.jsonl"]


# -- item 2: an edited last line -----------------------------------------------------------------------------


class TestEditedLastLine:
    def test_an_append_refuses_an_edited_last_line_and_writes_nothing(self, tmp_path):
        path = tmp_path / "events.jsonl"
        log = EventLog(path, REGISTRY)
        add(log, "one")
        add(log, "two")
        path.write_bytes(path.read_bytes().replace(b'"text":"two"', b'"text":"TWO"'))
        before = path.read_bytes()

        with pytest.raises(LogDamaged, match=r"line 2 \(seq 2\), the last: id is not the hash") as raised:
            add(EventLog(path, REGISTRY), "three")

        assert path.read_bytes() == before and raised.value.fields["line"] == 2

    def test_a_tuning_whose_last_verdict_was_edited_is_refused_by_commands_and_views(self, tmp_path):
        """The attack: a hand-edited last verdict was acted on, and salvage then dropped what came after."""
        folder = tuning(tmp_path)
        lines = lines_of(folder / "events.jsonl")
        last = orjson.loads(lines[-1])
        edited = lines[-1].replace(b'"batch":' + str(last["data"].get("batch", "")).encode(), b'"batch":77', 1)
        if edited == lines[-1]:
            edited = lines[-1].replace(b'"data":{', b'"data":{"x":1,', 1)  # an edit that keeps JSON valid
        (folder / "events.jsonl").write_bytes(b"".join(lines[:-1]) + edited)
        before = (folder / "events.jsonl").read_bytes()

        for command in (["tune", "status", "--dir", folder], ["tune", "next", "--dir", folder],
                        ["tune", "memory", "keep", "--batch", "1", "--nodes", "3", "--dir", folder]):
            result = invoke(*command, env=USER_ENV)
            assert result.code == UNTRUSTED, (command, result.out, result.err)
            assert f"line {len(lines)}" in result.err and "log salvage" in result.err
        assert (folder / "events.jsonl").read_bytes() == before


# -- item 3: markers that prove they belong ------------------------------------------------------------------


def _log_of(tmp_path: Path, name: str, texts: list[list[str]]) -> Path:
    path = tmp_path / name / "events.jsonl"
    log = EventLog(path, REGISTRY)
    for command in texts:
        add(log, *command)
    return path


class TestPendingMarkers:
    @pytest.mark.parametrize("store", STORES)
    @pytest.mark.parametrize("shape", ["old-format", "garbled", "from-another-log"])
    def test_a_marker_that_does_not_belong_never_cuts_the_log(self, tmp_path, monkeypatch, store, shape):
        """Old main obeyed any `END LENGTH` marker whose range held the log's size: a 28 KB log cut to 100 bytes."""
        use_store(store, monkeypatch, tmp_path)
        path = _log_of(tmp_path, "mine", [["a"], ["b", "c"], ["d"]])
        other = _log_of(tmp_path, "other", [["x"]])
        acknowledged = path.read_bytes()
        cut_at = len(lines_of(path)[0])
        length = len(acknowledged) - cut_at + 10  # a range that holds the log's size: old main cut at `cut_at`
        marker = {"old-format": f"{cut_at} {length}".encode(), "garbled": b"\xff\0 pending",
                  "from-another-log": Pending(3, "pending", cut_at, length, line_hash(lines_of(other)[-1][:-1]),
                                              "0" * 64).encoded()}[shape]
        set_marker(path, marker)
        notes: list[str] = []
        log = EventLog(path, REGISTRY, on_note=notes.append)

        seen = log.replay(COUNT).state
        add(log, "e")

        assert seen == Count(4)
        assert path.read_bytes().startswith(acknowledged) and verify(path, REGISTRY).last_seq == 5
        assert any("marker" in note and "ignored" in note for note in notes), notes

    def test_a_sidecar_marker_that_is_a_symlink_is_never_followed(self, tmp_path, monkeypatch):
        use_store("sidecar", monkeypatch, tmp_path)
        path = _log_of(tmp_path, "mine", [["a"], ["b"]])
        elsewhere = tmp_path / "planted"
        elsewhere.write_bytes(Pending(1, "pending", 0, path.stat().st_size + 10, "0" * 64, "0" * 64).encoded())
        (path.parent / "events.jsonl.pending").symlink_to(elsewhere)
        acknowledged = path.read_bytes()

        add(EventLog(path, REGISTRY), "c", "d")

        assert path.read_bytes().startswith(acknowledged) and elsewhere.read_bytes().startswith(b"1 pending")
        assert verify(path, REGISTRY).last_seq == 4

    def test_a_sidecar_marker_that_is_a_folder_is_named_and_nothing_is_written(self, tmp_path, monkeypatch):
        use_store("sidecar", monkeypatch, tmp_path)
        path = _log_of(tmp_path, "mine", [["a"]])
        (path.parent / "events.jsonl.pending").mkdir()
        before = path.read_bytes()

        with pytest.raises(NotALog, match=r"events\.jsonl\.pending is a folder"):
            add(EventLog(path, REGISTRY), "b", "c")

        assert path.read_bytes() == before

    @pytest.mark.parametrize("kind", ["fifo", "dev-zero"])
    def test_a_sidecar_marker_that_is_a_special_file_is_never_read(self, tmp_path, monkeypatch, kind):
        """Opened without following links and without blocking: a FIFO or a device is ignored, named, never read."""
        use_store("sidecar", monkeypatch, tmp_path)
        path = _log_of(tmp_path, "mine", [["a"]])
        marker = path.parent / "events.jsonl.pending"
        if kind == "fifo":
            os.mkfifo(marker)
        else:
            marker.symlink_to("/dev/zero")
        notes: list[str] = []
        log = EventLog(path, REGISTRY, on_note=notes.append)

        seen = log.replay(COUNT).state
        add(log, "b", "c")

        assert seen == Count(1) and verify(path, REGISTRY).last_seq == 3
        assert any(str(marker) in note and "ignored" in note for note in notes), notes

    def test_an_attribute_marker_is_the_file_s_own_so_a_sidecar_beside_it_is_never_read(self, tmp_path,
                                                                                      monkeypatch):
        use_store("attribute", monkeypatch, tmp_path)
        path = _log_of(tmp_path, "mine", [["a"], ["b"]])
        (path.parent / "events.jsonl.pending").write_bytes(b"0 99999 " + b"0" * 64 + b" " + b"0" * 64)

        add(EventLog(path, REGISTRY), "c")

        assert verify(path, REGISTRY).last_seq == 3

    def test_a_refused_tune_init_leaves_no_folder_and_no_lock_file(self, tmp_path):
        """A dataset the log cannot carry (nested 300 deep) is refused after the lock was taken."""
        dataset = tmp_path / "deep.json"
        dataset.write_bytes(b'{"cases": [{"id": "a", "class": "x", "complexity": "simple", "deep": '
                            + b"[" * 300 + b"]" * 300 + b"}]}")
        target = tmp_path / "new" / "finetune"

        result = invoke("tune", "init", "--dir", target, "--dataset", dataset, env=USER_ENV)

        assert result.code == REFUSED, (result.out, result.err)
        assert "unexpected error" not in result.err and "255" in result.err
        assert sorted(p.name for p in tmp_path.iterdir()) == ["deep.json"]


# -- item 4: forged snapshots --------------------------------------------------------------------------------


def _snapshotted(tmp_path: Path) -> tuple[Path, Path]:
    path = tmp_path / "events.jsonl"
    log = EventLog(path, REGISTRY, snapshots=Snapshots(every=3))
    for n in range(5):
        add(log, f"n{n}")
    snapshot = Snapshots.key_folder(path, key_id()) / "sample.count.json"
    assert snapshot.is_file()
    return path, snapshot


def _forge(snapshot: Path, notes: int) -> None:
    """What the attack did: edit the state, and recompute the checksum as a plain SHA-256 of the body."""
    from hashlib import sha256

    body = snapshot.read_bytes().partition(b"\n")[2]
    doc = orjson.loads(body)
    doc["state"]["notes"] = notes
    forged = orjson.dumps(doc)
    snapshot.write_bytes(sha256(forged).hexdigest().encode() + b"\n" + forged)


class TestForgedSnapshots:
    def test_a_forged_snapshot_is_ignored_with_a_note_and_a_full_replay(self, tmp_path):
        path, snapshot = _snapshotted(tmp_path)
        _forge(snapshot, 1000)
        notes: list[str] = []

        replayed = EventLog(path, REGISTRY, snapshots=Snapshots(on_note=notes.append)).replay(COUNT)

        assert replayed.state == Count(5)
        assert len(notes) == 1 and "not authentic" in notes[0] and str(snapshot) in notes[0]

    def test_a_snapshot_made_under_another_key_is_not_used(self, tmp_path, monkeypatch):
        """Snapshots written by another user (another key) are simply not used."""
        path, snapshot = _snapshotted(tmp_path)
        monkeypatch.setenv("BATCHLOG_SNAPSHOT_KEY", "another-users-key")
        folded: list[int] = []
        counting = COUNT.__class__(COUNT.name, COUNT.initial, lambda s, e: folded.append(e.seq) or COUNT.evolve(s, e),
                                   COUNT.version, COUNT.state_type)

        assert EventLog(path, REGISTRY, snapshots=Snapshots()).replay(counting).state == Count(5)
        assert folded == [1, 2, 3, 4, 5]

    def test_the_key_is_made_once_outside_the_folder_with_mode_0600(self, tmp_path, monkeypatch):
        from batchlog.engine.snapshots import key as snapshot_key

        monkeypatch.delenv("BATCHLOG_SNAPSHOT_KEY")
        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
        monkeypatch.setattr(snapshot_key, "_cached", {})

        first = snapshot_key.snapshot_key()
        snapshot_key._cached.clear()
        again = snapshot_key.snapshot_key()

        key_file = tmp_path / "cache" / "batchlog" / "snapshot.key"
        assert first == again and len(first) == 64
        assert key_file.stat().st_mode & 0o777 == 0o600

    def test_a_forged_tuning_snapshot_changes_no_answer_and_log_verify_names_it(self, tmp_path):
        """The attack: a run dropped from the snapshot's state, its plain checksum recomputed: `tune next`
        advised the wrong step on old main while `log verify` said trusted."""
        folder = long_tuning(tmp_path)
        truth = invoke("tune", "next", "--dir", folder, "--json", env=USER_ENV)
        snapshots = sorted(Snapshots.key_folder(folder / "events.jsonl", key_id()).glob("*.json"))
        assert truth.code == 0 and snapshots, "a view of a long tuning writes a snapshot"
        for snapshot in snapshots:
            _forge_tuning(snapshot)

        # verified first: `tune next` (which folds the whole tuning) writes an authentic snapshot over the forged one
        verified = invoke("log", "verify", folder / "events.jsonl", "--snapshots", env=USER_ENV)
        after = invoke("tune", "next", "--dir", folder, "--json", env=USER_ENV)

        assert (after.code, after.out) == (0, truth.out)
        assert "not authentic" in after.err
        assert verified.code == UNTRUSTED and all(str(s) in verified.out for s in snapshots), verified.out

    def test_log_verify_snapshots_says_an_authentic_one_agrees(self, tmp_path):
        folder = long_tuning(tmp_path)
        assert invoke("tune", "status", "--dir", folder, env=USER_ENV).code == 0

        verified = invoke("log", "verify", folder / "events.jsonl", "--snapshots", env=USER_ENV)

        assert verified.code == 0 and "agrees with a replay" in verified.out, verified.out


def long_tuning(tmp_path: Path) -> Path:
    """The fixture tuning with 250 usage reports on top: long enough for its views to write snapshots."""
    from batchlog.cli.tune.log import tune_log
    from batchlog.projections.tune.events import UsageRecorded
    from batchlog.projections.tune.decider import TUNE

    folder = tuning(tmp_path)
    run = orjson.loads(lines_of(folder / "events.jsonl")[-1])["data"].get("run") or "batch01-nomem-run1"
    tune_log(folder).append(TUNE, lambda state: [UsageRecorded(run, "m", k, k, k) for k in range(1, 251)])
    return folder


def _forge_tuning(snapshot: Path) -> None:
    from hashlib import sha256

    doc = orjson.loads(snapshot.read_bytes().partition(b"\n")[2])
    doc["state"]["runs"] = doc["state"]["runs"][:-2]
    forged = orjson.dumps(doc)
    snapshot.write_bytes(sha256(forged).hexdigest().encode() + b"\n" + forged)


# -- item 9: views refuse a damaged log ----------------------------------------------------------------------


def _delete_middle(lines: list[bytes]) -> list[bytes]:
    return lines[:4] + lines[5:]


def _bom(lines: list[bytes]) -> list[bytes]:
    return [b"\xef\xbb\xbf" + lines[0], *lines[1:]]


def _crlf(lines: list[bytes]) -> list[bytes]:
    return [line.replace(b"\n", b"\r\n") for line in lines]



# CRLF: every line ends in a CR, which JSON reads as white space: line 2 is the first whose `prev` is not the
# hash of the line before, and its message names line 1 as the changed one.
DAMAGE = {"deleted-middle-event": (_delete_middle, 5), "bom": (_bom, 1), "crlf": (_crlf, 2)}
VIEWS = [["tune", "status"], ["tune", "next"], ["tune", "readme", "--stdout"], ["tune", "difficult"]]


class TestViewsRefuseADamagedLog:
    @pytest.mark.parametrize("damage", sorted(DAMAGE))
    @pytest.mark.parametrize("view", VIEWS, ids=[" ".join(v) for v in VIEWS])
    def test_a_tune_view_exits_3_naming_the_first_damaged_line(self, tmp_path, damage, view):
        folder = tuning(tmp_path)
        change, line = DAMAGE[damage]
        (folder / "events.jsonl").write_bytes(b"".join(change(lines_of(folder / "events.jsonl"))))
        readme = (folder / "README.md").read_bytes() if (folder / "README.md").exists() else None

        result = invoke(*view, "--dir", folder, env=USER_ENV)

        assert result.code == UNTRUSTED, (result.out, result.err)
        assert f"line {line}" in result.err and "log verify" in result.err and "log salvage" in result.err
        assert ((folder / "README.md").read_bytes() if (folder / "README.md").exists() else None) == readme

    def test_tune_readme_writes_no_readme_from_a_damaged_log(self, tmp_path):
        folder = tuning(tmp_path)
        (folder / "events.jsonl").write_bytes(b"".join(_delete_middle(lines_of(folder / "events.jsonl"))))
        target = tmp_path / "README.md"

        result = invoke("tune", "readme", "--dir", folder, "--file", target, env=USER_ENV)

        assert result.code == UNTRUSTED and not target.exists()

    @pytest.mark.parametrize("damage", sorted(DAMAGE))
    def test_quick_batch_status_exits_3(self, tmp_path, damage):
        run = quick_batch_run(tmp_path)
        handed_out(run)
        assert record(run, '{"status": "ok"}').code == 0
        handed_out(run)
        change, line = DAMAGE[damage]
        lines = lines_of(run / "events.jsonl")
        assert len(lines) == 4
        damaged = change(lines) if damage != "deleted-middle-event" else lines[:1] + lines[2:]
        (run / "events.jsonl").write_bytes(b"".join(damaged))

        result = invoke("quick-batch", "status", "--run-dir", run, env=USER_ENV)

        assert result.code == UNTRUSTED, (result.out, result.err)
        assert f"line {line if damage != 'deleted-middle-event' else 2}" in result.err and "log salvage" in result.err

    def test_a_torn_tail_is_answered_past_with_one_note(self, tmp_path):
        folder = tuning(tmp_path)
        truth = invoke("tune", "status", "--dir", folder, env=USER_ENV)
        with open(folder / "events.jsonl", "ab") as fh:
            fh.write(b'{"seq":99,"type":"tune.half')

        result = invoke("tune", "status", "--dir", folder, env=USER_ENV)

        assert (result.code, result.out) == (0, truth.out)
        assert result.err.count("note:") == 1 and "never finished" in result.err

    def test_log_show_keeps_showing_and_marks_the_damaged_line(self, tmp_path):
        folder = tuning(tmp_path)
        lines = lines_of(folder / "events.jsonl")
        lines[3] = b"not json\n"
        (folder / "events.jsonl").write_bytes(b"".join(lines))

        result = invoke("log", "show", folder / "events.jsonl", env=USER_ENV)

        assert result.code == 0
        assert "DAMAGED  line 4" in result.out and len(result.out.splitlines()) >= len(lines)
        assert "log salvage" in result.err


def quick_batch_run(tmp_path: Path) -> Path:
    batch = tmp_path / "batch.txt"
    batch.write_text("one\ntwo\nthree\n")
    run = tmp_path / "run"
    assert invoke("quick-batch", "start", batch, "--run-dir", run, env=USER_ENV).code == 0
    return run


def handed_out(run: Path) -> Path:
    """`quick-batch next`: the target's run folder."""
    handed = invoke("quick-batch", "next", "--run-dir", run, env=USER_ENV)
    assert handed.code == 0, handed.err
    return Path(orjson.loads(handed.out.splitlines()[-1])["run_dir"])


def record(run: Path, payload: str):
    """Stage `payload` as the handed-out target's result-context.json and record it."""
    target = handed_out(run)
    (target / "result-context.json").write_text(payload)
    return invoke("quick-batch", "record", "--run-dir", run, "--batch", target.name.rsplit("-", 1)[-1], env=USER_ENV)


# -- item 10: files that are not logs; the line bound ----------------------------------------------------------


def _run_cli(*args: str | Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    """The CLI in a child process: a command that would hang on a FIFO fails this test by its timeout guard."""
    return subprocess.run([sys.executable, "-m", "batchlog.cli.main", *map(str, args)], cwd=ROOT, capture_output=True,
                          text=True, env={**os.environ, **env}, timeout=120)


class TestOnlyRegularFilesAreLogs:
    @pytest.mark.parametrize("command", [["tune", "status"], ["tune", "next"],
                                         ["tune", "memory", "keep", "--batch", "1", "--nodes", "2"]])
    def test_a_fifo_as_the_log_is_refused_not_waited_on(self, tmp_path, command):
        folder = tmp_path / "finetune"
        folder.mkdir()
        os.mkfifo(folder / "events.jsonl")

        result = _run_cli(*command, "--dir", folder, env=USER_ENV)

        assert result.returncode == REFUSED, (result.stdout, result.stderr)
        assert "not a regular file" in result.stderr

    def test_a_log_linked_to_dev_zero_is_refused_before_a_byte_is_read(self, tmp_path):
        folder = tmp_path / "finetune"
        folder.mkdir()
        (folder / "events.jsonl").symlink_to("/dev/zero")

        for command in (["tune", "status"], ["tune", "next"]):
            result = _run_cli(*command, "--dir", folder, env=USER_ENV)
            assert result.returncode == REFUSED and "not a regular file" in result.stderr, result.stderr
        result = _run_cli("log", "show", folder / "events.jsonl", env=USER_ENV)
        assert result.returncode == REFUSED and "not a regular file" in result.stderr

    def test_a_line_longer_than_16_mib_is_damage_read_in_bounded_memory(self, tmp_path):
        path = tmp_path / "events.jsonl"
        add(EventLog(path, REGISTRY), "a")
        with open(path, "ab") as fh:
            fh.write(b"x" * (MAX_LINE_BYTES + 1) + b"\n")
        add_after = EventLog(path, REGISTRY)

        lines = list(LineReader(path))
        with pytest.raises(LogDamaged, match="longer than 16 MiB"):
            add_after.replay(COUNT)

        assert lines[1] is OVERLONG and len(lines) == 2

    @settings(max_examples=25)
    @given(sizes=st.lists(st.integers(0, 3 * 2048), min_size=1, max_size=6), bound=st.integers(64, 2048))
    def test_the_reader_cuts_exactly_the_lines_past_the_bound(self, tmp_path_factory, sizes, bound):
        """Property: with a small bound and smaller blocks (as 16 MiB and 64 KiB are), every line longer than
        the bound comes out OVERLONG, every other line as it is."""
        from batchlog.engine import lines as lines_module

        path = tmp_path_factory.mktemp("bound") / "log"
        path.write_bytes(b"".join(b"y" * size + b"\n" for size in sizes))

        with pytest.MonkeyPatch.context() as patch:  # undone after each example (a fixture would span them all)
            patch.setattr(lines_module, "MAX_LINE_BYTES", bound)
            read = list(LineReader(path, block_bytes=64))

        assert read == [OVERLONG if size > bound else b"y" * size for size in sizes]


# -- item 11: inputs that reached "unexpected error" ----------------------------------------------------------


class TestHostileInputs:
    @pytest.mark.parametrize("depth", [255, 256, 300, 512, 1000, 1023])
    def test_a_dataset_nested_deep_is_refused_and_writes_nothing(self, tmp_path, depth):
        dataset = tmp_path / "deep.json"
        dataset.write_bytes(b'{"cases": [{"id": "a", "class": "x", "complexity": "simple", "deep": '
                            + b"[" * depth + b"]" * depth + b"}]}")

        result = invoke("tune", "init", "--dir", tmp_path / "t", "--dataset", dataset, env=USER_ENV)

        assert result.code == REFUSED and "unexpected error" not in result.err, result.err
        assert not (tmp_path / "t").exists()

    @pytest.mark.parametrize("digits", [20, 400, 4300, 5000, 20_000])
    def test_a_huge_number_in_a_staged_payload_gets_a_clear_answer(self, tmp_path, digits):
        run = quick_batch_run(tmp_path)
        handed_out(run)
        before = (run / "events.jsonl").read_bytes()

        result = record(run, '{"status": "ok", "n": ' + "7" * digits + "}")

        assert "unexpected error" not in result.err and "Traceback" not in result.err, result.err
        assert result.code in (0, REFUSED), (result.out, result.err)
        if result.code == REFUSED:
            assert (run / "events.jsonl").read_bytes() == before and "result-context.json" in result.err

    @pytest.mark.parametrize("value", ["nan", "inf", "-inf", "-1", "soon", "1e999"])
    def test_a_lock_timeout_that_is_not_a_finite_number_is_a_usage_error(self, tmp_path, value):
        folder = tuning(tmp_path)
        before = (folder / "events.jsonl").read_bytes()

        result = invoke("tune", "memory", "keep", "--batch", "1", "--nodes", "3", "--dir", folder,
                        env={**USER_ENV, "BATCHLOG_LOCK_TIMEOUT": value})

        assert result.code == USAGE, (result.out, result.err)
        assert "BATCHLOG_LOCK_TIMEOUT" in result.err and "a number from 0 to 2147483" in result.err
        assert (folder / "events.jsonl").read_bytes() == before
