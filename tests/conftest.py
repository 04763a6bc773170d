import os

import pytest

# Let unexpected exceptions raise in tests instead of becoming one line (cli.app).
os.environ.setdefault("BATCHLOG_DEBUG", "1")


@pytest.fixture
def pinned_clock(monkeypatch):
    monkeypatch.setenv("BATCHLOG_CLOCK", "2026-12-02T16:00:00Z")
    return "2026-12-02T16:00:00.000Z"


@pytest.fixture
def needs_node():
    """Node.js, or a skip (a failure when BATCHLOG_REQUIRE_SEEDS is set: CI must not skip the JavaScript checks)."""
    from tests.seeds import require_node

    return require_node()
