"""Reaching a PostgreSQL store: the driver (imported here only, when a `postgresql://` log is used), the
connection and its settings, and the `batchlog` schema, created on first use of a database.

Lines are only ever inserted by batchlog; a line changed or removed any other way (SQL, a salvage) moves its
log's `rewrites` count (a trigger), which is what lets a snapshot that was checked against the whole chain
once skip that check while the count stays put (engine/snapshots/stored.py), as a file's snapshot skips
its CRC while the file's inode, size and times stay put.

Driver: psycopg2-binary, chosen by measurement (README, "Many machines"): the fastest to import and to
connect of psycopg2, psycopg 3 and pg8000, which matters when every step is a process of its own.
"""

from __future__ import annotations

from typing import Any

from batchlog.engine.chain import GENESIS
from batchlog.engine.errors import StoreUnavailable

CONNECT_TIMEOUT_S = 10
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
    byte_length bigint NOT NULL DEFAULT 0,
    rewrites bigint NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS batchlog.events (
    log text NOT NULL,
    seq bigint NOT NULL,
    line text NOT NULL,
    PRIMARY KEY (log, seq)
);
CREATE TABLE IF NOT EXISTS batchlog.snapshots (
    log text NOT NULL,
    projection text NOT NULL,
    body bytea NOT NULL,
    PRIMARY KEY (log, projection)
);
ALTER TABLE batchlog.logs ADD COLUMN IF NOT EXISTS rewrites bigint NOT NULL DEFAULT 0;
CREATE OR REPLACE FUNCTION batchlog.count_rewrite() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE batchlog.logs SET rewrites = rewrites + 1 WHERE name = OLD.log;
    RETURN NULL;
END $$;
CREATE OR REPLACE FUNCTION batchlog.count_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE batchlog.logs SET rewrites = rewrites + 1;
    RETURN NULL;
END $$;
DROP TRIGGER IF EXISTS rewritten ON batchlog.events;
CREATE TRIGGER rewritten AFTER UPDATE OR DELETE ON batchlog.events
    FOR EACH ROW EXECUTE FUNCTION batchlog.count_rewrite();
DROP TRIGGER IF EXISTS truncated ON batchlog.events;
CREATE TRIGGER truncated AFTER TRUNCATE ON batchlog.events
    FOR EACH STATEMENT EXECUTE FUNCTION batchlog.count_truncate();
"""

_CHECK = """
SELECT to_regclass('batchlog.logs') IS NOT NULL AND to_regclass('batchlog.events') IS NOT NULL
       AND to_regclass('batchlog.snapshots') IS NOT NULL
       AND to_regprocedure('batchlog.count_truncate()') IS NOT NULL,
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


def first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def connect(dsn: str, shown: str) -> Any:
    """A connection to the database of `dsn`, at READ COMMITTED, the `batchlog` schema in place."""
    psycopg2 = driver()
    try:
        conn = psycopg2.connect(dsn, connect_timeout=CONNECT_TIMEOUT_S, application_name="batchlog")
    except psycopg2.OperationalError as exc:
        raise StoreUnavailable(f"cannot connect to {shown}: {first_line(exc)}: check that the server runs and "
                               "that the host, port, database, user and password are right (a password may "
                               "also come from PGPASSWORD or ~/.pgpass)", address=shown) from None
    except psycopg2.ProgrammingError as exc:  # libpq refused the URL itself (an unknown parameter)
        raise StoreUnavailable(f"cannot use {shown}: {first_line(exc)}", address=shown) from None
    try:
        conn.set_session(isolation_level=psycopg2.extensions.ISOLATION_LEVEL_READ_COMMITTED, autocommit=False)
        conn.set_client_encoding("UTF8")  # lines go and come as their exact UTF-8 bytes, whatever PGCLIENTENCODING says
        with conn.cursor() as cur:
            cur.execute(f"SET idle_in_transaction_session_timeout = {IDLE_IN_TRANSACTION_S * 1000}; {_CHECK}")
            ready, encoding, synchronous = cur.fetchone()
            if encoding != "UTF8":
                raise StoreUnavailable(f"the database of {shown} is encoded in {encoding}: batchlog keeps each line's "
                                       "exact bytes as text, which needs a UTF8 database (CREATE DATABASE ... "
                                       "ENCODING 'UTF8')", address=shown)
            if synchronous == "off":  # an acknowledged event must survive a crash of the server
                cur.execute("SET synchronous_commit = on")
            if not ready:
                cur.execute(SCHEMA)
        conn.commit()
    except psycopg2.Error as exc:
        conn.close()
        raise StoreUnavailable(f"cannot set up the batchlog tables in {shown}: {first_line(exc)}: the user needs "
                               "the right to create a schema in that database (or ask its owner to run batchlog "
                               "once)", address=shown) from None
    except BaseException:
        conn.close()
        raise
    return conn
