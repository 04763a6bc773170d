"""The three stores a log can live in, as the contract suite uses them: an address of the test's own, its
lines and snapshots read back, and the edits only a person with access to the store could make (a file
rewritten, a row changed with SQL), which the log logic must notice."""

from __future__ import annotations

from pathlib import Path

from batchlog.engine.address import parse_address, recorder_for
from batchlog.engine.chain import line_hash
from batchlog.engine.scan import Position
from batchlog.engine.snapshots.file import Snapshots
from batchlog.engine.snapshots.key import key_id

STORES = ("file", "memory", "postgresql")


class Store:
    """One store under test: `address` names a log no other test uses."""

    def __init__(self, kind: str, address: str, folder: Path) -> None:
        self.kind = kind
        self.address = address
        self.folder = folder

    def other(self, suffix: str) -> str:
        """The address of a second log in the same store."""
        if self.kind == "file":
            return str(self.folder / suffix / "events.jsonl")
        return f"{self.address}-{suffix}"  # `log=NAME` is the address's last part

    def lines(self, address: str | None = None) -> list[bytes]:
        recorder = recorder_for(address or self.address)
        return [line for block in recorder.lines(Position(), None).blocks() for line in block]

    def bytes(self, address: str | None = None) -> bytes:
        return b"".join(line + b"\n" for line in self.lines(address))

    def replace_line(self, number: int, line: bytes) -> None:
        """Line `number` (from 1) becomes `line`, behind batchlog's back."""
        if self.kind == "file":
            path = Path(self.address)
            lines = path.read_bytes().split(b"\n")
            lines[number - 1] = line
            path.write_bytes(b"\n".join(lines))
        elif self.kind == "memory":
            recorder_for(self.address).kept.lines[number - 1] = line
        else:
            self._sql("UPDATE batchlog.events SET line = %s WHERE log = %s AND seq = %s",
                      (line.decode(), parse_address(self.address).name, number))

    def add_line(self, line: bytes) -> None:
        """`line` appended behind batchlog's back (e.g. an event of a newer batchlog)."""
        if self.kind == "file":
            with open(self.address, "ab") as fh:
                fh.write(line + b"\n")
        elif self.kind == "memory":
            recorder_for(self.address).kept.lines.append(line)
        else:
            name = parse_address(self.address).name
            self._sql("UPDATE batchlog.logs SET head_seq = head_seq + 1, head_hash = %s, "
                      "byte_length = byte_length + %s WHERE name = %s; "
                      "INSERT INTO batchlog.events (log, seq, line) "
                      "SELECT %s, head_seq, %s FROM batchlog.logs WHERE name = %s",
                      (line_hash(line), len(line) + 1, name, name, line.decode(), name))

    def replace_snapshot(self, projection: str, body: bytes) -> None:
        """The user's snapshot of `projection` becomes `body`, behind batchlog's back."""
        if self.kind == "file":
            self._snapshot_file(projection).write_bytes(body)
        elif self.kind == "memory":
            recorder_for(self.address).kept.snapshots[(projection, key_id())] = body
        else:
            self._sql("UPDATE batchlog.snapshots SET body = %s WHERE log = %s AND projection = %s AND key_id = %s",
                      (body, parse_address(self.address).name, projection, key_id()))

    def snapshot(self, projection: str) -> bytes | None:
        """The user's snapshot of `projection` as the store keeps it (its tag line, then its document)."""
        if self.kind == "file":
            path = self._snapshot_file(projection)
            return path.read_bytes() if path.exists() else None
        return recorder_for(self.address).load_snapshot(projection, key_id())

    def _snapshot_file(self, projection: str) -> Path:
        # the sample domain's names are plain
        return Snapshots.key_folder(Path(self.address), key_id()) / f"{projection}.json"

    def _sql(self, statement: str, params: tuple) -> None:
        recorder = recorder_for(self.address)
        conn = recorder.connection()
        with conn.cursor() as cur:
            cur.execute(statement, params)
        conn.commit()
        recorder.close()


def store_for(kind: str, name: str, folder: Path, postgres_url: str | None) -> Store:
    if kind == "file":
        return Store(kind, str(folder / name / "events.jsonl"), folder)
    if kind == "memory":
        return Store(kind, f"memory:{name}", folder)
    separator = "&" if "?" in postgres_url else "?"
    return Store(kind, f"{postgres_url}{separator}log={name}", folder)
