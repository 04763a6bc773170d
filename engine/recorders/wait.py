"""Waiting for a log's lock, the same for every recorder and for every wait (an append's; on PostgreSQL a read's
too, behind another session's lock on the tables): at once when it is free; else the wait is said once
(through the command's `on_wait`) and bounded by BATCHLOG_LOCK_TIMEOUT, read and checked here only (one range
for every store), after which the command gives up with LockTimeout and writes nothing.

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
# The longest wait any store can be asked for: PostgreSQL's lock_timeout is a number of milliseconds of at most
# 2^31 - 1 (about 24.8 days). One range for every store, so a setting that works on one works on all.
LOCK_TIMEOUT_MAX_S = (2**31 - 1) // 1000
LOCK_NOTICE_S = 1.0  # a wait shorter than this is not worth a line on the terminal
APPENDING = "another batchlog command is appending to it"  # who holds a lock only batchlog takes

OnWait = Callable[[str], None] | None  # where a command says, once, that it waits
TryFor = Callable[[float], bool]  # take the lock within so many seconds (0: only if it is free now): taken?


def lock_timeout_s() -> float:
    """BATCHLOG_LOCK_TIMEOUT in seconds (default 60); BadSetting (a usage error) unless a number from 0 to
    LOCK_TIMEOUT_MAX_S, whatever the store."""
    raw = os.environ.get(LOCK_TIMEOUT_ENV)
    if not raw:
        return LOCK_TIMEOUT_S
    try:
        value = float(raw)
    except ValueError:
        value = math.nan
    if not 0 <= value <= LOCK_TIMEOUT_MAX_S:  # NaN fails it too
        raise BadSetting(f"{LOCK_TIMEOUT_ENV}={raw!r} is not a number of seconds batchlog can wait: give a number "
                         f"from 0 to {LOCK_TIMEOUT_MAX_S} (about 24 days, the longest PostgreSQL waits for a lock), "
                         f"or unset it for {LOCK_TIMEOUT_S:g}", setting=LOCK_TIMEOUT_ENV)
    return value


class LockWait:
    """One command's wait for the lock of the log at `address` (`held_by`: who may hold it, as messages say):
    the timeout is read (and a bad one refused) when the wait is made, before the first try, so it is refused
    whether or not the lock is free."""

    def __init__(self, address: str, on_wait: OnWait, *, notice_s: float = LOCK_NOTICE_S,
                 held_by: str = APPENDING) -> None:
        self.address = address
        self.on_wait = on_wait
        self.held_by = held_by
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
            self.on_wait(f"waiting for the lock on {self.address}: {self.held_by} (giving up after {self.timeout:g}s)")
        left = self.timeout - (time.monotonic() - began)
        if left > 0 and try_for(left):
            return
        raise LockTimeout(f"the lock on {self.address} was held for more than {self.timeout:g}s ({self.held_by}): "
                          f"retry, or raise {LOCK_TIMEOUT_ENV}", path=self.address)
