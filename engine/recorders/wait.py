"""Waiting for a log's lock, the same for every recorder: at once when it is free; else the wait is said once
(through the command's `on_wait`) and bounded by BATCHLOG_LOCK_TIMEOUT, read and checked here only, after
which the command gives up with LockTimeout and writes nothing.

Each recorder says how it takes its lock within a given time (`TryFor`: a file polls its `flock`, a memory
log waits on its thread lock, PostgreSQL asks the server to wait); this module decides how long, when to
say so, and when to give up.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable

from batchlog.engine.errors import BadSetting, LockTimeout

LOCK_TIMEOUT_ENV = "BATCHLOG_LOCK_TIMEOUT"
LOCK_TIMEOUT_S = 60.0
LOCK_NOTICE_S = 1.0  # a wait shorter than this is not worth a line on the terminal

OnWait = Callable[[str], None] | None  # where a command says, once, that it waits
TryFor = Callable[[float], bool]  # take the lock within so many seconds (0: only if it is free now): taken?


def lock_timeout_s() -> float:
    """BATCHLOG_LOCK_TIMEOUT in seconds (default 60); BadSetting (a usage error) unless a finite number >= 0."""
    raw = os.environ.get(LOCK_TIMEOUT_ENV)
    if not raw:
        return LOCK_TIMEOUT_S
    try:
        value = float(raw)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value < 0:
        raise BadSetting(f"{LOCK_TIMEOUT_ENV}={raw!r} is not a number of seconds: give a finite number >= 0 "
                         f"(or unset it for {LOCK_TIMEOUT_S:g})", setting=LOCK_TIMEOUT_ENV)
    return value


class LockWait:
    """One command's wait for the lock of the log at `address`: the timeout is read (and a bad one refused)
    when the wait is made, before the first try, so it is refused whether or not the lock is free."""

    def __init__(self, address: str, on_wait: OnWait, *, notice_s: float = LOCK_NOTICE_S) -> None:
        self.address = address
        self.on_wait = on_wait
        self.timeout = lock_timeout_s()
        self.notice = min(notice_s, self.timeout)

    def take(self, try_for: TryFor) -> None:
        """Take the lock through `try_for`: at once when it is free; else say so once through `on_wait` after
        `notice_s` of waiting, and raise LockTimeout once the timeout has passed."""
        began = time.monotonic()
        if try_for(0):
            return
        left = self.notice - (time.monotonic() - began)
        if left > 0 and try_for(left):
            return
        if self.on_wait is not None:
            self.on_wait(f"waiting for the lock on {self.address}: another batchlog command is appending to it "
                         f"(giving up after {self.timeout:g}s)")
        left = self.timeout - (time.monotonic() - began)
        if left > 0 and try_for(left):
            return
        raise LockTimeout(f"the lock on {self.address} was held for more than {self.timeout:g}s by another "
                          f"command: retry, or raise {LOCK_TIMEOUT_ENV}", path=self.address)
