"""The release soak: `python -m tests.reliability.soak [SECONDS]`.

Runs the soak tests (`pytest -m soak tests/reliability`: random kills, racing
processes) for SECONDS each (BATCHLOG_SOAK_SECONDS, default 60), then fuzzes the
log reader with atheris for SECONDS when atheris is installed (`pip install
atheris`); else says so and skips that part.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path


def fuzz_one_input(data: bytes) -> None:
    from batchlog.engine import EngineError
    from batchlog.engine.verify import Receipt, verify
    from tests.reliability import model

    path = Path(tempfile.gettempdir()) / f"batchlog-atheris-{os.getpid()}.jsonl"
    path.write_bytes(data)
    try:
        model.open_log(path).replay(model.PROJECTION)
        verify(path, model.REGISTRY, since=Receipt(2, "b" * 64, ""))
    except EngineError:
        pass
    if path.read_bytes() != data:
        raise AssertionError("a reader changed the log")


def main() -> int:
    seconds = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("BATCHLOG_SOAK_SECONDS", "60")
    env = {**os.environ, "BATCHLOG_SOAK_SECONDS": seconds}
    code = subprocess.call([sys.executable, "-m", "pytest", "-m", "soak", "-q", "-s", "tests/reliability"], env=env)
    try:
        import atheris
    except ImportError:
        print("atheris is not installed: the atheris fuzz run is skipped (pip install atheris)")
        return code
    with atheris.instrument_imports():
        import batchlog.engine.scan  # noqa: F401
        import batchlog.engine.verify  # noqa: F401
    atheris.Setup([sys.argv[0], f"-max_total_time={int(float(seconds))}"], fuzz_one_input)
    atheris.Fuzz()
    return code


if __name__ == "__main__":
    sys.exit(main())
