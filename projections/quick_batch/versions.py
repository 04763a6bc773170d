"""The quick batch's event types and their current versions, as a plain table: what every other loop's commands
read a batch's events with, without importing the quick batch's event classes. No class here (tests/test_catalog.py
checks it against the registry in events.py)."""

PREFIX = "qb."  # every quick-batch event's type starts with it: a log holding another type is another loop's

VERSIONS = {
    "qb.batch_started": 1,
    "qb.target_started": 1,
    "qb.target_recorded": 1,
    "qb.brief_rejected": 1,
    "qb.batch_summarized": 2,
    "qb.summary_written": 1,
}
