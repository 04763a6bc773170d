"""What a recorder is: the keeper of a log's lines, and every capability the engine asks of one.

The log logic (engine/log.py) asks a `Recorder` for lines and, holding its lock (a `Session`), hands it lines
to keep; it knows nothing of JSON, chains or events. Beyond that, the engine asks some recorders for more,
each a capability of its own:

- `KeepsSnapshots`: the recorder keeps the log's snapshots beside its lines and checks the chain of the
  lines a snapshot covers (memory, PostgreSQL; used by engine/snapshots/stored.py);
- `ReadableAtOffsets`: the log is one file of bytes, read at offsets (the file; engine/snapshots/file.py
  checks the bytes a snapshot covers through it);
- `Rewritable`: a session that can keep a copy of the log and cut it back (every recorder; used by
  engine/salvage.py).

Three recorders: `file` (engine/recorders/file.py: the JSONL file, its lock, fsync, torn tail and
`.pending` marker), `memory` (engine/recorders/memory.py: tests) and `postgresql`
(engine/recorders/postgresql.py: many machines, one log). Every recorder keeps the exact bytes of each line, so
a log moves between them byte for byte, and a `Position`'s offset is the byte offset the same lines
have in a file whatever keeps them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable


from batchlog.engine.recorders.wait import OnWait
from batchlog.engine.value import frozen

if TYPE_CHECKING:
    from batchlog.engine.scan import Position

ReadAt = Callable[[int, int], bytes]  # (offset, size) -> up to `size` bytes of the log from `offset`


@frozen
class Marker:
    """What a reader makes of the marker of a command whose append never finished (only a file log can hold part
    of one, engine/recorders/file_pending.py): where that command starts (None: nowhere), how many bytes and
    lines (or pieces of one) of it are there, and why a marker that is there was ignored ("" when it was obeyed,
    harmless or absent)."""

    start: int | None = None
    ignored: str = ""
    bytes: int = 0
    lines: int = 0


class LineSource(Protocol):
    """The log's trusted lines in order, block by block: every complete line up to where a command that was never
    finished begins (engine/recorders/file_reader.py is the file's). After iteration: `end`, the byte offset just
    past the last line given, `torn`, the bytes of an unfinished last line, and `unfinished`, the command never
    finished (a `Marker`)."""

    end: int
    torn: int
    unfinished: Marker

    def blocks(self) -> Iterator[list[bytes]]: ...


class Session(Protocol):
    """A recorder while it holds the log's lock (one append): what the append reads and writes through."""

    def cut_unfinished(self) -> Marker:
        """Cut away the lines of a command whose append died part way (files only); what was found."""

    def lines(self, start: Position, limit: int | None) -> LineSource:
        """The trusted lines after `start`, read under the lock."""

    def unchanged(self, token: Any, last_line_start: int, end: int, last_hash: str) -> bool:
        """Whether the log is exactly as the append that returned `token` left it (its last line, ending at
        `end` and starting at `last_line_start`, hashes to `last_hash`): the append need not read it again."""

    def grown_since(self, token: Any, position: Position) -> bool:
        """Whether the log still holds, unchanged, the line the append that returned `token` ended with (at
        `position`), with lines after it: the append then reads only those (False: it replays)."""

    def write(self, payload: bytes, position: Position, end: int, torn: int) -> Any:
        """Keep `payload` (whole lines, each ending in a newline) after the line of `position` (the log's
        last trusted line, ending at byte `end`; `torn` bytes after it were never acknowledged): all or none,
        durable once the session ends. Returns a token for `unchanged`."""

    def write_blocks(self, blocks: Iterable[bytes], length: int, digest: str) -> None:
        """Keep the bytes of `blocks` (whole lines; `length` bytes in all, whose SHA-256 is `digest`) as the lines
        of this log, which holds none: all or none, durable once the session ends, in the memory of one block
        (what a migration writes)."""


class Rewritable(Session, Protocol):
    """A session that can rewrite the log rather than append to it: what a salvage does, under the lock."""

    def keep_copy(self, suffix: str) -> tuple[str, str]:
        """Keep every byte the log holds, as it is, as a log of its own, named as the log is with `suffix`
        added (a file: beside it); the copy's name and the SHA-256 of its bytes."""

    def cut_back(self, keep: int, kept_bytes: int, line: bytes) -> None:
        """Make the log its first `keep` lines (`kept_bytes` bytes), then `line`: all or none. The snapshots a
        recorder keeps itself (`KeepsSnapshots`) go: they may rest on the lines dropped."""


class Recorder(Protocol):
    """Where a log's lines are kept."""

    address: str  # the log's address as shown in messages (a password never shown)
    path: Path | None  # the file, for the file recorder; None for the others

    def exists(self) -> bool:
        """Whether the log holds anything yet (False: no log); NotALog when it cannot be one."""

    def lines(self, start: Position, limit: int | None) -> LineSource:
        """The trusted lines after `start` (lock-free), up to byte `limit` when given: the one door every reader of
        the log goes through."""

    def locked(self, on_wait: OnWait) -> AbstractContextManager[Session]:
        """Hold the log's lock for one append (waits bounded, announced once through `on_wait`)."""


@runtime_checkable
class KeepsSnapshots(Recorder, Protocol):
    """A recorder that keeps the log's snapshots itself (by projection name and the fingerprint of the key they
    are authenticated with, engine/snapshots/key.py) and checks the lines one covers: a log kept apart from
    files, whose lines a snapshot cannot check by their bytes' digest."""

    def load_snapshot(self, name: str, key_id: str) -> bytes | None:
        """The snapshot of the projection `name` kept under the key `key_id`, as stored (None: none)."""

    def store_snapshot(self, name: str, key_id: str, body: bytes) -> None:
        """Keep `body` as the snapshot of the projection `name` under the key `key_id` (a cache: one that cannot
        be kept is not)."""

    def snapshot_names(self) -> list[tuple[str, str]]:
        """(projection name, key fingerprint) of each snapshot it keeps, in order."""

    def chain_through(self, line: int) -> tuple[int, str] | None:
        """(bytes, hash of line `line`) of the first `line` lines when each line's `prev` is the hash of the
        line before it; None when the log does not hold them so. Checked in full on every call: nothing kept
        beside the lines (a count, a flag) may stand in for it, since whoever edits the lines can set it back."""


class ReadableAtOffsets(Recorder, Protocol):
    """A recorder whose log is one file of bytes: what a file's snapshots check the bytes they cover with."""

    path: Path

    def signature(self) -> tuple[int, ...] | None:
        """What any change of the log's bytes moves (a file's inode, size and times); None: it cannot be read."""

    def reading(self) -> AbstractContextManager[ReadAt]:
        """The log opened for reads at offsets while the body runs (OSError when it cannot be opened)."""
