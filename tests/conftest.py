import os

import pytest
from hypothesis import HealthCheck, settings

# Hypothesis' settings for the whole suite, in one place. The suite must pass on a loaded machine (issue 24 item 11:
# a load of 10 on 2 cores), so nothing may fail for speed: no deadline per example, and neither the health check
# that input generation is slow nor the one that it is large (the fuzz tests generate logs of many lines). Each
# test keeps only what is its own (max_examples, a fixture it knowingly shares between examples).
settings.register_profile(
    "batchlog", deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.load_profile("batchlog")

# Let unexpected exceptions raise in tests instead of becoming one line (batchlog.cli.app).
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


POSTGRES_ENV = "BATCHLOG_TEST_POSTGRES"
REQUIRE_POSTGRES_ENV = "BATCHLOG_REQUIRE_POSTGRES"


def _postgres_unavailable(url: str | None) -> str | None:
    """Why no PostgreSQL server can be used for the tests (None: one can)."""
    if not url:
        return f"no PostgreSQL server: set {POSTGRES_ENV} to the URL of a database the tests may use"
    try:
        import psycopg2
    except ImportError:
        return "psycopg2 is not installed (pip install -e '.[test]')"
    try:
        psycopg2.connect(url, connect_timeout=5).close()
    except psycopg2.Error as exc:
        return f"the PostgreSQL server at {url} cannot be reached: {str(exc).strip().splitlines()[0]}"
    return None


@pytest.fixture(scope="session")
def postgres_url() -> str:
    """The URL of a PostgreSQL database the tests may use freely (every test uses its own log names); a skip when
    there is none, a failure when BATCHLOG_REQUIRE_POSTGRES=1 (CI must not skip them)."""
    url = os.environ.get(POSTGRES_ENV)
    why = _postgres_unavailable(url)
    if why is not None:
        if os.environ.get(REQUIRE_POSTGRES_ENV) == "1":
            pytest.fail(why)
        pytest.skip(why)
    return url


@pytest.fixture
def log_name(request) -> str:
    """A log name of this test's own (unique across runs and workers)."""
    import re
    import uuid

    stem = re.sub(r"[^A-Za-z0-9_.-]", "-", request.node.name)[:80].strip("-.") or "t"
    return f"{stem}-{uuid.uuid4().hex[:12]}"
