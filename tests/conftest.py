import os

import pytest

# Let unexpected exceptions raise in tests instead of becoming one line (cli.app).
os.environ.setdefault("BATCHLOG_DEBUG", "1")
# Snapshots are authenticated with a per-user key; tests use a key of their own, never the user's cache folder.
os.environ.setdefault("BATCHLOG_SNAPSHOT_KEY", "batchlog-tests-snapshot-key")


@pytest.fixture
def pinned_clock(monkeypatch):
    monkeypatch.setenv("BATCHLOG_CLOCK", "2026-12-02T16:00:00Z")
    return "2026-12-02T16:00:00.000Z"


@pytest.fixture
def needs_node():
    """Node.js, or a skip (a failure when BATCHLOG_REQUIRE_SEEDS is set: CI must not skip the JavaScript checks)."""
    from tests.seeds import require_node

    return require_node()
