"""A test hook: the process kills itself (SIGKILL) or stops itself (SIGSTOP) at a named point of the engine.

Off unless the environment names the point; only the reliability tests set it. BATCHLOG_CRASH_AT names the
point to die at. Points:
  append.before_write   under the lock, events decided, nothing written yet
  append.mid_write      BATCHLOG_CRASH_BYTES bytes of the payload written (default half), then killed
  append.after_write    the whole payload written, not yet fsynced
  append.after_fsync    written and fsynced, not yet returned to the caller
  effect.temp_written   an output file's temporary copy written, not yet fsynced (engine/files.py)
  effect.before_rename  the temporary copy fsynced, not yet renamed or linked into place
  effect.after_rename   the output file in place

BATCHLOG_PAUSE_AT names points (comma-separated) to stop at, once each: the test sees the stop (waitpid with
WUNTRACED), does what it must while the process is held exactly there, and lets it go on (SIGCONT): a handshake,
never a sleep. Besides the points above (`append.mid_write`: the part written, stopped, then the rest written):
  read.marker_read      a reader has read the unfinished-command marker, not yet the file's size
  read.before_recheck   a reader has read the size, the tail and the marker's meaning, not the marker again
  read.settled          a reader has settled what it will read, and read no line yet
"""

from __future__ import annotations

import os

CRASH_ENV = "BATCHLOG_CRASH_AT"
CRASH_BYTES_ENV = "BATCHLOG_CRASH_BYTES"
PAUSE_ENV = "BATCHLOG_PAUSE_AT"


def crash_point(name: str) -> None:
    """Die here, at once and without cleanup, when BATCHLOG_CRASH_AT is `name`; stop here when paused at it."""
    if os.environ.get(CRASH_ENV) == name:
        _die()
    pause_point(name)


def pause_point(name: str) -> None:
    """Stop here (SIGSTOP) the first time, when BATCHLOG_PAUSE_AT names `name`."""
    points = os.environ.get(PAUSE_ENV)
    if points and name in points.split(","):
        os.environ[PAUSE_ENV] = ",".join(point for point in points.split(",") if point != name)
        import signal

        os.kill(os.getpid(), signal.SIGSTOP)


def written_mid_write(fd: int, payload: bytes) -> int:
    """At `append.mid_write`: write part of `payload` (what a kill during a long write leaves), then die, or
    stop and return how much was written (the caller writes the rest). 0 when off."""
    crash = os.environ.get(CRASH_ENV) == "append.mid_write"
    if not crash and "append.mid_write" not in (os.environ.get(PAUSE_ENV) or "").split(","):
        return 0
    cut = int(os.environ.get(CRASH_BYTES_ENV) or len(payload) // 2)
    os.write(fd, payload[:cut])
    if crash:
        _die()
    pause_point("append.mid_write")
    return cut


def _die() -> None:
    import signal  # here: a command that does not crash need not import it

    os.kill(os.getpid(), signal.SIGKILL)
