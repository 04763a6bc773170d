"""The PostgreSQL recorder: many machines, one log. One row per log (the lock anchor and the head), one row
per line holding its exact bytes as text (never jsonb: it would reorder keys and rewrite numbers, breaking
ids and the chain), snapshots beside them.

An append is one transaction at READ COMMITTED: batchlog's tables are locked against those who would lock
them whole (LOCK TABLE, VACUUM FULL, REINDEX) and the log's row is locked (`SELECT ... FOR UPDATE`), first
NOWAIT, then announced and waited for, bounded by `lock_timeout`; the lines after the state this process
has are read (each statement after the lock sees every append committed before it), the decision is
taken, its lines inserted with seq computed under the lock (no sequence: gapless, in commit order; the
primary key is a backstop), the head updated, a notification sent on the log's channel (`notify_channel`:
delivered when, and only if, the transaction commits, so a follower (engine/follow.py) is woken exactly when the
lines are there to read), and the transaction committed. Reads stream in seq order through a server-side cursor
into the same checks as a file's lines. Every statement outside an append waits for a lock as an append does
(`waited`, engine/recorders/postgresql_schema.py): at once, else announced through the recorder's `on_wait` and
bounded by BATCHLOG_LOCK_TIMEOUT.
"""

from __future__ import annotations

import io
import itertools
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from hashlib import sha256
from typing import Any

from batchlog.engine.chain import GENESIS, line_hash
from batchlog.engine.errors import LogDamaged, StoreUnavailable, WriteFailed
from batchlog.engine.recorders.postgresql_schema import HELD_BY, connect, driver, first_line, lock_timeout_ms, waited
from batchlog.engine.recorders.protocols import Marker
from batchlog.engine.recorders.stored_lines import StoredLines, bytes_digest, split_payload
from batchlog.engine.recorders.wait import LockWait, OnWait
from batchlog.engine.scan import Position

FETCH_ROWS = 5000
COPY_FROM_LINES = 64  # more lines than this (a migration) go in by COPY: one stream instead of one long INSERT
_cursors = itertools.count(1)

NOTIFY_PREFIX = "batchlog_"


def notify_channel(name: str) -> str:
    """The channel an append to the log `name` notifies: a hash of the name, since a channel is an identifier of at
    most 63 bytes and a log name may hold 200 characters (lower-case hex: LISTEN takes it unquoted)."""
    return NOTIFY_PREFIX + sha256(name.encode()).hexdigest()[:40]


_HEAD = "SELECT head_seq, head_hash, byte_length FROM batchlog.logs WHERE name = %s FOR UPDATE"
# Taken with the row lock: no later statement of the append then waits for a whole-table lock (ROW EXCLUSIVE
# conflicts with none another append takes).
_TABLES = "LOCK TABLE batchlog.logs, batchlog.events, batchlog.snapshots IN ROW EXCLUSIVE MODE"

# The first `n` lines, each linked to the one before it: their count, bytes, broken links, and the last's hash,
# computed by the server from the lines themselves on every call (nothing kept beside them decides it). Read in
# seq order from the primary key; only the few columns the links need go through the window.
_CHAIN = """
SELECT count(*), coalesce(sum(size), 0), count(*) FILTER (WHERE tail IS DISTINCT FROM ',"prev":"' || before || '"}'),
       max(hash) FILTER (WHERE seq = %(n)s)
FROM (SELECT seq, size, tail, hash, lag(hash, 1, %(genesis)s) OVER (ORDER BY seq) AS before
      FROM (SELECT seq, octet_length(line) + 1 AS size, right(line, 75) AS tail,
                   encode(sha256(convert_to(line, 'UTF8')), 'hex') AS hash
            FROM batchlog.events WHERE log = %(log)s AND seq BETWEEN 1 AND %(n)s ORDER BY seq) AS kept) AS linked
"""


class PostgresRecorder:
    """The log `name` in the database `dsn` reaches (`shown`: the address, without its password); it keeps its
    snapshots (`KeepsSnapshots`). `on_wait`: where a read says that it waits for a lock (an append's wait is
    said where `locked` is told)."""

    path = None

    def __init__(self, dsn: str, name: str, shown: str, on_wait: OnWait = None) -> None:
        self.dsn = dsn
        self.name = name
        self.address = shown
        self.on_wait = on_wait
        self._connection: Any = None
        self._in_session = False

    # -- the connection ------------------------------------------------------------------------

    def connection(self) -> Any:
        if self._connection is None or self._connection.closed:
            self._connection = connect(self.dsn, self.address, self.on_wait)
        return self._connection

    def _wait(self) -> LockWait:
        return LockWait(self.address, self.on_wait, held_by=HELD_BY)

    def close(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None

    def _lost(self, exc: BaseException) -> StoreUnavailable:
        self.close()
        return StoreUnavailable(f"{self.address} cannot be read: {first_line(exc, self.dsn)}: check the server, then "
                                "run the command again", address=self.address)

    def query(self, sql: str, params: Any = None, *, rows: bool = False) -> Any:
        """One statement's first row (all rows with `rows`); a read outside an append ends its transaction."""
        psycopg2 = driver()
        conn = self.connection()

        def run(conn: Any) -> Any:
            with conn.cursor() as cur:
                cur.execute(sql, params)
                return cur.fetchall() if rows else (cur.fetchone() if cur.description else None)

        try:
            if self._in_session:  # the append's locks are held: it waits for none (`_TABLES`)
                return run(conn)
            found = waited(conn, self._wait(), run)
            conn.commit()
        except psycopg2.Error as exc:
            if self._in_session:
                raise
            raise self._lost(exc) from None
        return found

    # -- reading -------------------------------------------------------------------------------

    def exists(self) -> bool:
        found = self.query("SELECT EXISTS (SELECT 1 FROM batchlog.events WHERE log = %s)", (self.name,))
        return bool(found[0])

    def lines(self, start: Position, limit: int | None) -> StoredLines:
        return StoredLines(self._rows(start.line), start, limit)

    def _rows(self, after: int) -> Iterator[bytes]:
        """The lines after line `after`, in order, through a server-side cursor (memory stays flat)."""
        psycopg2 = driver()
        conn = self.connection()
        in_session = self._in_session

        def declared(conn: Any) -> Any:
            cur = conn.cursor(name=f"batchlog_lines_{next(_cursors)}")
            cur.itersize = FETCH_ROWS
            cur.execute("SELECT line FROM batchlog.events WHERE log = %s AND seq > %s ORDER BY seq",
                        (self.name, after))
            return cur

        try:
            cur = declared(conn) if in_session else waited(conn, self._wait(), declared)
            try:
                for (line,) in cur:
                    yield line.encode()
            finally:
                if not conn.closed:
                    try:
                        cur.close()
                        if not in_session:
                            conn.rollback()
                    except psycopg2.Error:
                        self.close()
        except psycopg2.Error as exc:
            if in_session:
                raise
            raise self._lost(exc) from None

    def head(self) -> tuple[int, str, int] | None:
        """(seq, hash, bytes) of the log's head row; None: no such log."""
        return self.query("SELECT head_seq, head_hash, byte_length FROM batchlog.logs WHERE name = %s", (self.name,))

    def chain_through(self, line: int) -> tuple[int, str] | None:
        count, size, broken, last = self.query(_CHAIN, {"log": self.name, "n": line, "genesis": GENESIS})
        return (int(size), last) if count == line and broken == 0 and last is not None else None

    # -- snapshots -----------------------------------------------------------------------------

    def load_snapshot(self, projection: str, key_id: str) -> bytes | None:
        found = self.query("SELECT body FROM batchlog.snapshots WHERE log = %s AND projection = %s AND key_id = %s",
                           (self.name, projection, key_id))
        return None if found is None else bytes(found[0])

    def store_snapshot(self, projection: str, key_id: str, body: bytes) -> None:
        """Keep a snapshot (a cache: one that cannot be stored is simply not kept)."""
        psycopg2 = driver()
        try:
            self.query("INSERT INTO batchlog.logs (name) VALUES (%(log)s) ON CONFLICT DO NOTHING;"
                       "INSERT INTO batchlog.snapshots (log, projection, key_id, body) "
                       "VALUES (%(log)s, %(p)s, %(k)s, %(b)s) "
                       "ON CONFLICT (log, projection, key_id) DO UPDATE SET body = EXCLUDED.body",
                       {"log": self.name, "p": projection, "k": key_id, "b": psycopg2.Binary(body)})
        except StoreUnavailable:
            pass

    def snapshot_names(self) -> list[tuple[str, str]]:
        return [(projection, key_id) for projection, key_id in self.query(
            "SELECT projection, key_id FROM batchlog.snapshots WHERE log = %s ORDER BY projection, key_id",
            (self.name,), rows=True)]

    # -- the lock ------------------------------------------------------------------------------

    @contextmanager
    def locked(self, on_wait: OnWait) -> Iterator[PostgresSession]:
        psycopg2 = driver()
        conn = self.connection()
        try:
            conn.rollback()
            head = self._lock(conn, on_wait)
        except psycopg2.Error as exc:
            raise self._lost(exc) from None
        self._in_session = True
        committed = False
        try:
            yield PostgresSession(self, conn, head)
            self._in_session = False
            try:
                conn.commit()
            except psycopg2.Error as exc:
                self.close()
                raise WriteFailed(f"cannot append to {self.address}: {first_line(exc, self.dsn)}: the command may or "
                                  "may not have been recorded; run it again (a repeat appends nothing when it was)",
                                  path=self.address) from None
            committed = True
        except psycopg2.Error as exc:  # from the body: the transaction never committed
            self.close()
            raise WriteFailed(f"cannot append to {self.address}: {first_line(exc, self.dsn)}: nothing was recorded; "
                              "check the server, then run the command again", path=self.address) from None
        finally:
            self._in_session = False
            if not committed and not conn.closed:  # a refusal, or a failure: nothing is kept
                try:
                    conn.rollback()
                except psycopg2.Error:
                    self.close()

    def _lock(self, conn: Any, on_wait: OnWait) -> tuple[int, str, int]:
        """Lock batchlog's tables and the log's row (made first when missing) and return its head: NOWAIT first,
        then said at once and waited for on the server (a wait cut in two would lose its place in the row's
        queue), at most BATCHLOG_LOCK_TIMEOUT."""
        psycopg2 = driver()
        wait = LockWait(self.address, on_wait, notice_s=0, held_by=HELD_BY)
        heads: list[tuple[int, str, int] | None] = []

        def lock_within(seconds: float) -> bool:
            # The bound holds for every wait of the transaction (the INSERT below may wait on another's too).
            bound = f"SET LOCAL lock_timeout = {lock_timeout_ms(seconds or wait.timeout)};"
            nowait = "" if seconds else " NOWAIT"
            with conn.cursor() as cur:
                try:
                    cur.execute(bound + _TABLES + nowait + ";" + _HEAD + nowait, (self.name,))
                except psycopg2.errors.LockNotAvailable:
                    conn.rollback()
                    return False
                heads.append(cur.fetchone())
            return True

        wait.take(lock_within)
        head = heads[-1]
        if head is None:
            with conn.cursor() as cur:
                cur.execute("INSERT INTO batchlog.logs (name) VALUES (%s) ON CONFLICT DO NOTHING;" + _HEAD,
                            (self.name, self.name))
                head = cur.fetchone()
        return head


class PostgresSession:
    """The log's row locked, in the append's transaction."""

    def __init__(self, recorder: PostgresRecorder, conn: Any, head: tuple[int, str, int]) -> None:
        self.recorder = recorder
        self.conn = conn
        self.head = head

    def cut_unfinished(self) -> Marker:
        return Marker()

    def lines(self, start: Position, limit: int | None) -> StoredLines:
        return self.recorder.lines(start, limit)

    def unchanged(self, token: Any, last_line_start: int, end: int, last_hash: str) -> bool:
        return token == (self.head[0], self.head[1], self.head[2]) and self.head[1] == last_hash

    def grown_since(self, token: Any, position: Position) -> bool:
        """The head moved on from the token's, and the token's last line is still there, unchanged."""
        if self.head[0] <= token[0]:
            return False
        with self.conn.cursor() as cur:
            cur.execute("SELECT line FROM batchlog.events WHERE log = %s AND seq = %s", (self.recorder.name, token[0]))
            found = cur.fetchone()
        return found is not None and line_hash(found[0].encode()) == position.hash == token[1]

    def write(self, payload: bytes, position: Position, end: int, torn: int) -> tuple[int, str, int]:
        head_seq, head_hash, length = self.head
        if (position.line, position.hash, end) != (head_seq, head_hash, length):
            import shlex  # only when a log is refused

            raise LogDamaged(f"{self.recorder.address}: its head (seq {head_seq}) is not its last line (line "
                             f"{position.line}): its rows were changed outside batchlog; run `batchlog log verify "
                             f"{shlex.quote(self.recorder.address)}`", path=self.recorder.address)
        lines = split_payload(payload)
        new_head = (position.line + len(lines), line_hash(lines[-1]), end + len(payload))
        self.insert(lines, position.line, new_head)
        self.head = new_head
        return new_head

    def write_blocks(self, blocks: Iterable[bytes], length: int, digest: str) -> None:
        """Each block inserted in the session's transaction: committed whole with it, or not at all."""
        for block in blocks:
            lines = split_payload(block)
            after, _, size = self.head
            self.head = (after + len(lines), line_hash(lines[-1]), size + len(block))
            self.insert(lines, after, self.head)

    def insert(self, lines: list[bytes], after: int, head: tuple[int, str, int]) -> None:
        """Insert `lines` as lines `after + 1`... and move the head (seq, hash, bytes) there."""
        name = self.recorder.name
        # In the same statements as the head, so in the same transaction: followers hear of it at its commit.
        moved = ("UPDATE batchlog.logs SET head_seq = %s, head_hash = %s, byte_length = %s WHERE name = %s;"
                 "SELECT pg_notify(%s, %s)")
        moved_values = (*head, name, notify_channel(name), str(head[0]))
        with self.conn.cursor() as cur:
            if len(lines) > COPY_FROM_LINES:
                cur.copy_expert("COPY batchlog.events (log, seq, line) FROM STDIN", _copy_rows(name, after, lines))
                # The planner's figures brought up to date at once: the chain check a snapshot rests on reads the
                # rows in seq order from the primary key, which a planner counting the table as it was would
                # sort on disk instead (5x slower on a million rows).
                cur.execute(moved + "; ANALYZE batchlog.events", moved_values)
                return
            rows = b",".join(cur.mogrify("(%s,%s,%s)", (name, after + number, line.decode("utf-8")))
                             for number, line in enumerate(lines, start=1))
            cur.execute(b"INSERT INTO batchlog.events (log, seq, line) VALUES " + rows + b";"
                        + cur.mogrify(moved, moved_values))

    # -- salvage: the damaged lines kept as a log of their own, the log cut back ------------------

    def keep_copy(self, suffix: str) -> tuple[str, str]:
        """Copy every line of the log, as it is, to the new log of its name + `suffix`."""
        name = f"{self.recorder.name}{suffix}"
        with self.conn.cursor() as cur:
            cur.execute("INSERT INTO batchlog.logs (name, head_seq, head_hash, byte_length) "
                        "SELECT %(copy)s, head_seq, head_hash, byte_length FROM batchlog.logs WHERE name = %(log)s;"
                        "INSERT INTO batchlog.events (log, seq, line) "
                        "SELECT %(copy)s, seq, line FROM batchlog.events WHERE log = %(log)s",
                        {"copy": name, "log": self.recorder.name})
        return name, bytes_digest(self.lines(Position(), None))

    def cut_back(self, keep: int, kept_bytes: int, line: bytes) -> None:
        """Keep lines 1..`keep`, then `line` (line n holds seq n); the log's snapshots go."""
        head = (keep + 1, line_hash(line), kept_bytes + len(line) + 1)
        with self.conn.cursor() as cur:
            cur.execute("DELETE FROM batchlog.events WHERE log = %(log)s AND seq > %(keep)s;"
                        "DELETE FROM batchlog.snapshots WHERE log = %(log)s",
                        {"log": self.recorder.name, "keep": keep})
        self.insert([line], keep, head)
        self.head = head


def _copy_rows(name: str, after: int, lines: list[bytes]) -> io.BytesIO:
    """`lines` in COPY's text format: a backslash doubled, and a tab, newline or carriage return (which no JSON
    line holds raw, but a copy must not depend on it) escaped; a log name is plain, a seq a number."""
    prefix = name.encode() + b"\t"
    rows = (prefix + b"%d\t" % (after + number)
            + line.replace(b"\\", b"\\\\").replace(b"\t", b"\\t").replace(b"\n", b"\\n").replace(b"\r", b"\\r")
            for number, line in enumerate(lines, start=1))
    return io.BytesIO(b"\n".join(rows) + b"\n")
