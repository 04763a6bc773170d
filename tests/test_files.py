"""batchlog.engine.files' writer: output files are whole or absent, under unique temporary names, at every crash
point. (The doors themselves, opener and writer, against planted and special files: tests/test_file_doors.py.)"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from batchlog.engine.files import write_file

CRASH_POINTS = ("effect.temp_written", "effect.before_rename", "effect.after_rename")

_WRITER = """
import sys
from pathlib import Path
from batchlog.engine.files import write_file
target = Path(sys.argv[2])
write_file(target, b"new contents\\n", new=sys.argv[1] == "claim")
"""


def _run_writer(mode: str, target: Path, crash_at: str | None) -> int:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    env.pop("BATCHLOG_CRASH_AT", None)
    if crash_at:
        env["BATCHLOG_CRASH_AT"] = crash_at
    return subprocess.run([sys.executable, "-c", _WRITER, mode, str(target)], env=env).returncode


class TestWriteFile:
    def test_replaces_the_file_and_leaves_no_temporary_file(self, tmp_path: Path) -> None:
        target = tmp_path / "cases.json"
        target.write_bytes(b"old\n")

        write_file(target, b"new\n")

        assert target.read_bytes() == b"new\n"
        assert os.listdir(tmp_path) == ["cases.json"]

    def test_a_failed_write_leaves_the_old_file_and_no_temporary_file(self, tmp_path: Path) -> None:
        target = tmp_path / "missing-folder" / "cases.json"

        with pytest.raises(OSError):
            write_file(target, b"new\n")

        assert os.listdir(tmp_path) == []

    @pytest.mark.parametrize("point", CRASH_POINTS)
    def test_a_kill_at_any_point_leaves_the_old_or_the_new_file_and_the_next_write_cleans_up(
            self, tmp_path: Path, point: str) -> None:
        target = tmp_path / "cases.json"
        target.write_bytes(b"old\n")

        code = _run_writer("write", target, point)

        assert code == -9
        assert target.read_bytes() in (b"old\n", b"new contents\n")
        assert target.read_bytes() == (b"new contents\n" if point == "effect.after_rename" else b"old\n")
        write_file(target, b"again\n")
        assert os.listdir(tmp_path) == ["cases.json"]
        assert target.read_bytes() == b"again\n"

    def test_a_live_writers_temporary_file_is_left_alone(self, tmp_path: Path) -> None:
        target = tmp_path / "cases.json"
        live = tmp_path / f".cases.json.{os.getppid()}-abcdef01.tmp"
        live.write_bytes(b"being written")

        write_file(target, b"new\n")

        assert live.read_bytes() == b"being written"


class TestWriteNewFile:
    def test_claims_a_free_name(self, tmp_path: Path) -> None:
        claimed = write_file(tmp_path / "b.json", b"mine\n", new=True)

        assert claimed == tmp_path / "b.json"
        assert claimed.read_bytes() == b"mine\n"
        assert os.listdir(tmp_path) == ["b.json"]

    def test_a_taken_name_is_an_error_and_leaves_the_file_and_nothing_else(self, tmp_path: Path) -> None:
        (tmp_path / "a.json").write_bytes(b"taken\n")

        with pytest.raises(FileExistsError):
            write_file(tmp_path / "a.json", b"mine\n", new=True)

        assert os.listdir(tmp_path) == ["a.json"]
        assert (tmp_path / "a.json").read_bytes() == b"taken\n"

    @pytest.mark.parametrize("point", CRASH_POINTS)
    def test_a_kill_at_any_point_never_leaves_an_empty_claimed_name(self, tmp_path: Path, point: str) -> None:
        target = tmp_path / "a.json"

        code = _run_writer("claim", target, point)

        assert code == -9
        left = {name: (tmp_path / name).read_bytes() for name in os.listdir(tmp_path) if not name.startswith(".")}
        assert left == ({"a.json": b"new contents\n"} if point == "effect.after_rename" else {})
        write_file(tmp_path / "a.json", b"again\n")
        assert not [name for name in os.listdir(tmp_path) if name.startswith(".")]
