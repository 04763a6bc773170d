"""A test hook: the process kills itself (SIGKILL) at a named point of the engine.

Off unless the environment variable BATCHLOG_CRASH_AT names the point; only the
reliability tests (tests/reliability/) set it. Points:
  append.before_write   under the lock, events decided, nothing written yet
  append.mid_write      BATCHLOG_CRASH_BYTES bytes of the payload written (default half), then killed
  append.after_write    the whole payload written, not yet fsynced
  append.after_fsync    written and fsynced, not yet returned to the caller
  effect.temp_written   an output file's temporary copy written, not yet fsynced (engine/files.py)
  effect.before_rename  the temporary copy fsynced, not yet renamed or linked into place
  effect.after_rename   the output file in place
"""

from __future__ import annotations

import os

CRASH_ENV = "BATCHLOG_CRASH_AT"
CRASH_BYTES_ENV = "BATCHLOG_CRASH_BYTES"


def crash_point(name: str) -> None:
    """Die here, at once and without cleanup, when BATCHLOG_CRASH_AT is `name`."""
    if os.environ.get(CRASH_ENV) == name:
        _die()


def crash_mid_write(fd: int, payload: bytes) -> None:
    """At `append.mid_write`: write part of `payload` (what a kill during a long write leaves), then die."""
    if os.environ.get(CRASH_ENV) == "append.mid_write":
        cut = int(os.environ.get(CRASH_BYTES_ENV) or len(payload) // 2)
        os.write(fd, payload[:cut])
        _die()


def _die() -> None:
    import signal  # here: a command that does not crash need not import it

    os.kill(os.getpid(), signal.SIGKILL)
