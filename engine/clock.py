"""The one clock: every `at` an event carries comes from here.

`BATCHLOG_CLOCK` (an ISO-8601 time) pins it for tests and fixtures, so a pinned
run writes the same bytes every time (event ids are content hashes).
"""

from __future__ import annotations

import os
from datetime import UTC, datetime

from batchlog.engine.errors import ClockError

CLOCK_ENV = "BATCHLOG_CLOCK"


def _pinned() -> datetime | None:
    raw = os.environ.get(CLOCK_ENV)
    if not raw:
        return None
    try:
        moment = datetime.fromisoformat(raw.replace("Z", "+00:00"))
        moment = (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).astimezone(UTC)
    except (ValueError, OverflowError):  # OverflowError: a time whose UTC falls before year 1 or after 9999
        raise ClockError(
            f"{CLOCK_ENV}={raw!r} is not an ISO-8601 time from year 1 to 9999 in UTC: set it like "
            "2026-12-02T16:00:00Z, or unset it",
            variable=CLOCK_ENV,
        ) from None
    return moment


def now_datetime() -> datetime:
    """The current time in UTC (pinned by BATCHLOG_CLOCK when set)."""
    return (_pinned() or datetime.now(UTC)).astimezone(UTC)


def format_at(moment: datetime) -> str:
    """An event's `at`: UTC with milliseconds, e.g. 2026-12-02T16:00:00.123Z; the year always in four digits
    (strftime's %Y writes year 1 as "1" on glibc, which is no ISO-8601 time)."""
    moment = moment.astimezone(UTC)
    return f"{moment.year:04d}-" + moment.strftime("%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def now() -> str:
    """The `at` of an event appended now."""
    return format_at(now_datetime())

