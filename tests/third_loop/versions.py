"""The tally's event types and their current versions, as a plain table (no class): what the other loops read a
tally's log with. tests/third_loop/test_third_loop.py checks it against the registry in events.py."""

PREFIX = "tally."

VERSIONS = {"tally.counted": 1}
