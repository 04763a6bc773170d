"""The tuning's event types and their current versions, as a plain table: what every other loop's commands read a
tuning's events with, without importing the tuning's event classes. No class here (tests/test_catalog.py checks it
against the registry in events.py)."""

PREFIX = "tune."  # every tuning event's type starts with it: a log holding another type is another loop's

VERSIONS = {
    "tune.tuning_started": 2,
    "tune.batch_built": 1,
    "tune.run_started": 1,
    "tune.run_graded": 1,
    "tune.run_regraded": 1,
    "tune.difficult_added": 1,
    "tune.difficult_fixed": 1,
    "tune.difficult_withdrawn": 1,
    "tune.change_recorded": 1,
    "tune.memory_kept": 1,
    "tune.usage_recorded": 1,
}
