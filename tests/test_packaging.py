"""The installed distribution claims one import name, `batchlog`: its wheel holds no top-level `cli`, `engine`,
`projections`, `bench` or `tests`, and a `batchlog` installed beside other packages named `cli` and `engine` (common
names) runs as it does from the repository."""

from __future__ import annotations

import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """A wheel built from the repository's tracked files, copied out first so the build writes nothing into it."""
    source = tmp_path_factory.mktemp("source")
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    for name in filter(None, tracked.decode().split("\0")):
        if (ROOT / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
                    "--disable-pip-version-check", "-w", str(out), str(source)], check=True, capture_output=True)
    (built,) = out.glob("batchlog-*.whl")
    return built


@pytest.fixture(scope="module")
def venv_beside_a_cli_package(tmp_path_factory, wheel) -> Path:
    """A fresh virtual environment holding the wheel, and packages named `cli` and `engine` that are not ours
    (commands run in it from its own folder: the repository's cli/ and engine/ are not on the path).
    Its dependencies (orjson, attrs, typer, ...) are this interpreter's: a .pth line puts their folder on the
    path (no network), and, not being a site folder, that folder's own .pth files (the editable install's
    finder among them) are not run."""
    venv = tmp_path_factory.mktemp("venv")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    site = Path(subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps",
                    "--disable-pip-version-check", str(wheel)], check=True, capture_output=True)
    (site / "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    for name in ("cli", "engine"):
        (site / name).mkdir()
        (site / name / "__init__.py").write_text(f"WHOSE = 'another distribution named {name}'\n")
    return venv


def test_the_wheel_installs_one_import_name(wheel):
    with zipfile.ZipFile(wheel) as archive:
        tops = {name.split("/")[0] for name in archive.namelist()}

    assert {top for top in tops if not top.endswith(".dist-info")} == {"batchlog"}


def test_the_wheel_holds_every_layer_and_no_bench(wheel):
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())

    assert {"batchlog/__init__.py", "batchlog/engine/log.py", "batchlog/projections/tune/evolve.py",
            "batchlog/cli/main.py"} <= names
    assert not any(name.startswith(("batchlog/bench", "bench/", "tests/", "batchlog/tests")) for name in names)


def test_batchlog_runs_beside_packages_named_cli_and_engine(venv_beside_a_cli_package):
    venv = venv_beside_a_cli_package
    python = venv / "bin" / "python"

    status = subprocess.run([python, "-m", "batchlog.cli.main", "tune", "status", "--dir",
                             str(ROOT / "fixtures" / "tune-in-progress")], capture_output=True, text=True, cwd=venv)
    theirs = subprocess.run([python, "-c", "import cli, engine, batchlog.engine.log as ours; "
                             "print(cli.WHOSE, engine.WHOSE, ours.__file__, sep='|')"],
                            capture_output=True, text=True, check=True, cwd=venv).stdout.strip().split("|")

    assert status.returncode == 0, status.stderr
    assert "cases" in status.stdout
    assert theirs[:2] == ["another distribution named cli", "another distribution named engine"]
    assert Path(theirs[2]).is_relative_to(venv)


def test_the_console_script_runs_beside_them(venv_beside_a_cli_package):
    venv = venv_beside_a_cli_package

    audit = subprocess.run([venv / "bin" / "batchlog", "tune", "audit", "--dir", str(ROOT / "fixtures" / "tune-finished")],
                           capture_output=True, text=True, cwd=venv)

    assert audit.returncode == 0, audit.stderr
    assert venv.as_posix() in (venv / "bin" / "batchlog").read_text().splitlines()[0]
