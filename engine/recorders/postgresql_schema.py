"""Reaching a PostgreSQL store: the driver (imported here only, when a `postgresql://` log is used), the
connection and its settings, the one way a statement waits for a lock another session holds (`waited`:
bounded and announced, as an append's wait), and the `batchlog` schema, created on first use of a database.

Lines are only ever inserted by batchlog. Nothing beside them records whether they were changed: whoever can
edit the rows could set such a record back in the same transaction, so a snapshot's lines are checked by
their chain on every use (engine/snapshots/stored.py).

Driver: psycopg2-binary, chosen by measurement (README, "Many machines"): the fastest to import and to
connect of psycopg2, psycopg 3 and pg8000, which matters when every step is a process of its own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from batchlog.engine.chain import GENESIS
from batchlog.engine.errors import StoreUnavailable
from batchlog.engine.recorders.wait import LockWait, OnWait
from batchlog.engine.server_url import scrubbed

T = TypeVar("T")

CONNECT_TIMEOUT_S = 10
# Who may hold a lock a statement waits for, as the announcement says it.
HELD_BY = "another session holds a lock on it (a batchlog append, or LOCK TABLE, VACUUM FULL, REINDEX)"
# A client that froze (or was stopped) inside an append frees the log's lock after this long: the server
# ends its session, which rolls back what it had not committed.
IDLE_IN_TRANSACTION_S = 30

# Safe when two processes run it at once: the advisory lock orders them (a bare CREATE ... IF NOT EXISTS
# can fail with a duplicate key when two sessions race).
SCHEMA = f"""
SELECT pg_advisory_xact_lock(4242013);
CREATE SCHEMA IF NOT EXISTS batchlog;
CREATE TABLE IF NOT EXISTS batchlog.logs (
    name text PRIMARY KEY,
    head_seq bigint NOT NULL DEFAULT 0,
    head_hash text NOT NULL DEFAULT '{GENESIS}',
    byte_length bigint NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS batchlog.events (
    log text NOT NULL,
    seq bigint NOT NULL,
    line text NOT NULL,
    PRIMARY KEY (log, seq)
);
DO $$ BEGIN
    -- Snapshots kept before each key had its own are of an older format, so stale: the cache starts afresh.
    IF to_regclass('batchlog.snapshots') IS NOT NULL AND NOT EXISTS (
            SELECT 1 FROM pg_attribute WHERE attrelid = to_regclass('batchlog.snapshots') AND attname = 'key_id'
            AND NOT attisdropped) THEN
        DROP TABLE batchlog.snapshots;
    END IF;
END $$;
CREATE TABLE IF NOT EXISTS batchlog.snapshots (
    log text NOT NULL,
    projection text NOT NULL,
    key_id text NOT NULL,
    body bytea NOT NULL,
    PRIMARY KEY (log, projection, key_id)
);
-- The count of rewrites an older batchlog kept to skip the chain check: an editor could set it back.
DROP TRIGGER IF EXISTS rewritten ON batchlog.events;
DROP TRIGGER IF EXISTS truncated ON batchlog.events;
DROP FUNCTION IF EXISTS batchlog.count_rewrite();
DROP FUNCTION IF EXISTS batchlog.count_truncate();
ALTER TABLE batchlog.logs DROP COLUMN IF EXISTS rewrites;
"""

# Ready: the tables are there, snapshots kept per key.
_CHECK = """
SELECT to_regclass('batchlog.logs') IS NOT NULL AND to_regclass('batchlog.events') IS NOT NULL
       AND EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = to_regclass('batchlog.snapshots')
                   AND attname = 'key_id' AND NOT attisdropped),
       pg_encoding_to_char(encoding), current_setting('synchronous_commit')
FROM pg_database WHERE datname = current_database()
"""


def driver() -> Any:
    """The psycopg2 module; StoreUnavailable saying how to install it when it is missing."""
    try:
        import psycopg2
        import psycopg2.errors  # noqa: F401 - the named errors (LockNotAvailable) checked below
        import psycopg2.extensions  # noqa: F401
    except ImportError:
        raise StoreUnavailable("a postgresql:// log needs the PostgreSQL driver, which is not installed: run "
                               "`pip install 'batchlog[postgresql]'` (it installs psycopg2-binary)") from None
    return psycopg2


def first_line(exc: BaseException, dsn: str) -> str:
    """The first line of what the driver or the server said, without a secret of `dsn` (libpq repeats what it
    was given in some of its errors)."""
    text = str(exc).strip()
    return scrubbed(text.splitlines()[0], dsn) if text else type(exc).__name__


def lock_timeout_ms(seconds: float) -> int:
    """`seconds` as PostgreSQL's lock_timeout: whole milliseconds, at least 1 (0 would mean no bound at all)."""
    return max(1, int(seconds * 1000))


def waited(conn: Any, wait: LockWait, statement: Callable[[Any], T]) -> T:
    """`statement(conn)`, run in a transaction of its own (not yet committed), its lock waits bounded and said
    through `wait` as an append's are (engine/recorders/wait.py). The session waits for no lock (`connect` sets
    lock_timeout to 1 ms), so the first try runs at once; when a lock another session holds is in the way, the
    try is rolled back and run again, the transaction's lock_timeout set to what is left of the wait."""
    psycopg2 = driver()
    done: list[T] = []

    def within(seconds: float) -> bool:
        try:
            if seconds > 0:
                with conn.cursor() as cur:
                    cur.execute(f"SET LOCAL lock_timeout = {lock_timeout_ms(seconds)}")
            done.append(statement(conn))
        except psycopg2.errors.LockNotAvailable:
            conn.rollback()
            return False
        return True

    wait.take(within)
    return done[-1]


def connect(dsn: str, shown: str, on_wait: OnWait = None) -> Any:
    """A connection to the database of `dsn`, at READ COMMITTED, waiting for no lock unless a statement asks
    (`waited`, an append's lock), the `batchlog` schema in place (its setting up waited for as any statement)."""
    psycopg2 = driver()
    wait = LockWait(shown, on_wait, held_by=HELD_BY)  # BATCHLOG_LOCK_TIMEOUT checked before anything is done
    try:
        conn = psycopg2.connect(dsn, connect_timeout=CONNECT_TIMEOUT_S, application_name="batchlog")
    except psycopg2.OperationalError as exc:
        raise StoreUnavailable(f"cannot connect to {shown}: {first_line(exc, dsn)}: check that the server runs and "
                               "that the host, port, database, user and password are right (a password may "
                               "also come from PGPASSWORD or ~/.pgpass)", address=shown) from None
    except psycopg2.ProgrammingError as exc:  # libpq refused the URL itself (an unknown parameter)
        raise StoreUnavailable(f"cannot use {shown}: {first_line(exc, dsn)}", address=shown) from None
    try:
        conn.set_session(isolation_level=psycopg2.extensions.ISOLATION_LEVEL_READ_COMMITTED, autocommit=False)
        conn.set_client_encoding("UTF8")  # lines go and come as their exact UTF-8 bytes, whatever PGCLIENTENCODING says
        with conn.cursor() as cur:
            # Only pg_catalog on the search path: no function or operator put in another schema (by whoever may
            # edit the tables, e.g. with ALTER ROLE ... SET search_path) can stand in for sha256, lag or `=` in
            # the checks the server runs; every table batchlog names is named with its schema.
            cur.execute(f"SET idle_in_transaction_session_timeout = {IDLE_IN_TRANSACTION_S * 1000}; "
                        f"SET lock_timeout = {lock_timeout_ms(0)}; SET search_path = pg_catalog")
        conn.commit()
        waited(conn, wait, lambda conn: _set_up(conn, shown))
        conn.commit()
    except psycopg2.Error as exc:
        conn.close()
        raise StoreUnavailable(f"cannot set up the batchlog tables in {shown}: {first_line(exc, dsn)}: the user needs "
                               "the right to create a schema in that database (or ask its owner to run batchlog "
                               "once)", address=shown) from None
    except BaseException:
        conn.close()
        raise
    return conn


def _set_up(conn: Any, shown: str) -> None:
    """Check the database, and create the `batchlog` schema when it is not there yet."""
    with conn.cursor() as cur:
        cur.execute(_CHECK)
        ready, encoding, synchronous = cur.fetchone()
        if encoding != "UTF8":
            raise StoreUnavailable(f"the database of {shown} is encoded in {encoding}: batchlog keeps each line's "
                                   "exact bytes as text, which needs a UTF8 database (CREATE DATABASE ... "
                                   "ENCODING 'UTF8')", address=shown)
        if synchronous == "off":  # an acknowledged event must survive a crash of the server
            cur.execute("SET synchronous_commit = on")
        if not ready:
            cur.execute(SCHEMA)
