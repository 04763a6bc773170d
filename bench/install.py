"""The batchlog the process rows run: a wheel built from this clone's working tree, installed in a virtual
environment of its own, as a user installs it. An editable install's finder, imported at every start of its
interpreter, costs every process ~29 ms that an installed batchlog does not pay.

Built once per bench run, in the run's folder, with no download: pip builds the wheel with this interpreter's
setuptools, and the environment sees this interpreter's packages (orjson, attrs, typer ...) through a .pth line
naming their folder. That folder is not a site folder, so its own .pth files (the editable finder's among them)
are never run, and the environment's own batchlog, the wheel's, comes first on the path.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import attrs

ROOT = Path(__file__).resolve().parents[1]
# What the wheel is built from (setup.py maps the layers under `batchlog`): copied out first, so the build leaves
# nothing in the clone and takes uncommitted changes with it.
SOURCES = ("pyproject.toml", "setup.py", "README.md", "batchlog", "engine", "projections", "cli")


@attrs.frozen
class Install:
    """A virtual environment holding batchlog's wheel: its interpreter, its console script, and where `import
    batchlog` resolves in it."""

    venv: Path
    wheel: str
    package: Path

    @property
    def python(self) -> Path:
        return self.venv / "bin" / "python"

    @property
    def batchlog(self) -> Path:
        return self.venv / "bin" / "batchlog"

    def describe(self) -> str:
        return f"{self.wheel} installed in a virtual environment of its own ({self.package})"

    def as_dict(self) -> dict:
        return {"wheel": self.wheel, "venv": str(self.venv), "batchlog": str(self.package)}


def install(folder: Path) -> Install:
    """Build the wheel of the clone and install it in `folder`/venv (made anew)."""
    source, wheels, venv = folder / "source", folder / "wheels", folder / "venv"
    for path in (source, wheels, venv):
        shutil.rmtree(path, ignore_errors=True)
    source.mkdir(parents=True)
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(ROOT / name, source / name)
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check"]
    # Absolute paths: pip takes a bare word for the name of a package to look up in its indexes.
    _run([*pip, "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", str(wheels.absolute()),
          str(source.absolute())])
    (wheel,) = wheels.glob("batchlog-*.whl")
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)])
    python = venv / "bin" / "python"
    _run([*pip, "--python", str(python), "install", "-q", "--no-deps", str(wheel)])
    site = Path(_run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]).strip())
    (site / "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    # From the environment's folder: `python -c` puts its working folder first on the path, and the clone's own
    # batchlog/ must not be the one found.
    package = Path(_run([str(python), "-c", "import batchlog; print(batchlog.__file__)"], cwd=venv).strip()).parent
    return Install(venv, wheel.name, package)


def _run(args: list[str], cwd: Path | None = None) -> str:
    done = subprocess.run(args, capture_output=True, text=True, cwd=cwd)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} exited {done.returncode}: {done.stderr.strip()}")
    return done.stdout
