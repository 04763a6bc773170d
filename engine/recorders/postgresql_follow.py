"""Following a log on a PostgreSQL server: woken by the notification every append sends on the log's channel
from its own transaction (engine/recorders/postgresql.py `notify_channel`), so the lines are committed, and
readable, when the follower wakes. The listening connection is one of its own, in autocommit (a notification
reaches a session only between its transactions); the lines are read through the recorder's. Reads only.
"""

from __future__ import annotations

import select
from typing import Any

from batchlog.engine.errors import StoreUnavailable
from batchlog.engine.recorders.postgresql import PostgresRecorder, notify_channel
from batchlog.engine.recorders.postgresql_schema import connect, driver, first_line
from batchlog.engine.recorders.stored_lines import StoredLines
from batchlog.engine.scan import Position


class ReadingServer:
    """The PostgreSQL recorder as a follower uses it: its lines, and its snapshots with what vouches for the lines
    one covers (`KeepsSnapshots`), read; a snapshot the fold would store is not stored, and nothing locks."""

    path = None

    def __init__(self, recorder: PostgresRecorder) -> None:
        self.server = recorder
        self.address = recorder.address

    def exists(self) -> bool:
        return self.server.exists()

    def lines(self, start: Position, limit: int | None) -> StoredLines:
        return self.server.lines(start, limit)

    def load_snapshot(self, name: str, key_id: str) -> bytes | None:
        return self.server.load_snapshot(name, key_id)

    def store_snapshot(self, name: str, key_id: str, body: bytes) -> None:
        return None  # a follower writes nothing

    def snapshot_names(self) -> list[tuple[str, str]]:
        return self.server.snapshot_names()

    def chain_through(self, line: int) -> tuple[int, str] | None:
        return self.server.chain_through(line)


class ServerTail:
    """A log on a server followed: `recorder` reads it, `wait` returns once an append to it has committed."""

    def __init__(self, recorder: PostgresRecorder) -> None:
        self.recorder = ReadingServer(recorder)
        self._dsn = recorder.dsn
        self._psycopg2 = driver()
        self._conn: Any = connect(recorder.dsn, recorder.address)
        try:
            self._conn.autocommit = True
            with self._conn.cursor() as cur:
                cur.execute(f"LISTEN {notify_channel(recorder.name)}")  # a hash in hex: a plain identifier
        except self._psycopg2.Error as exc:
            self.close()
            raise self._lost(exc) from None

    def wait(self, timeout_s: float | None) -> bool:
        """Block until a notification came on the log's channel (True) or `timeout_s` passed (False; None: no
        timeout). Anything else the server sends wakes it too, which costs one read that finds nothing."""
        conn = self._conn
        try:
            if not conn.notifies:
                if not select.select([conn], [], [], timeout_s)[0]:
                    return False
                conn.poll()
            conn.notifies.clear()
        except self._psycopg2.Error as exc:
            raise self._lost(exc) from None
        return True

    def gone(self) -> bool:
        return False  # a log on a server is never removed by batchlog

    def close(self) -> None:
        self._conn.close()

    def _lost(self, exc: BaseException) -> StoreUnavailable:
        return StoreUnavailable(f"{self.recorder.address} cannot be followed: {first_line(exc, self._dsn)}: check the "
                                "server, then watch again", address=self.recorder.address)
