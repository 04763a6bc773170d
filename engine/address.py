"""Log addresses, parsed in one place: where a log's lines are kept, and the one way to open a log there.

- a file path, or `file:PATH`: the JSONL file (the embedded default);
- `memory:NAME`: a log in this process's memory (tests);
- `postgresql://[user[:password]@]host[:port]/dbname?log=NAME` (or `postgres://`): the log NAME in the
  database; `log` is taken out before connecting, every other query parameter goes to the driver.

A log name on a server is a plain name (letters, digits, `.`, `_`, `-`), never a machine path: paths
differ between machines, names do not.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from batchlog.engine.errors import BadAddress

if TYPE_CHECKING:
    from batchlog.engine.log import EventLog
    from batchlog.engine.recorders.protocols import Recorder

LOG_FILE_NAME = "events.jsonl"
LOG_NAME_MAX = 200
_LOG_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*")
_SCHEMES = ("postgresql://", "postgres://")


@attrs.frozen
class Address:
    """A parsed log address. `store`: "file", "memory" or "postgresql"; `path` (file), `name` (memory and
    PostgreSQL), `dsn` (PostgreSQL: the URL the driver gets, without `log`); `shown`: for messages, without
    any password."""

    store: str
    shown: str
    path: Path | None = None
    name: str | None = None
    dsn: str | None = None


def is_server_address(text: str) -> bool:
    return text.startswith(_SCHEMES)


def check_log_name(name: str) -> str:
    """`name` when it is a plain log name; BadAddress saying what a log name may be otherwise."""
    if not (0 < len(name) <= LOG_NAME_MAX and _LOG_NAME.fullmatch(name)):
        raise BadAddress(f"{name!r} is not a log name: a log on a server is named by a plain name of letters, "
                         "digits, '.', '_' and '-' (at most 200, not starting with '.' or '-'), never a path; "
                         "e.g. --log my-tuning", log=name)
    return name


def parse_address(text: str | os.PathLike) -> Address:
    """The address `text` names; BadAddress when it cannot be one."""
    if isinstance(text, os.PathLike):
        return Address("file", str(text), path=Path(text))
    if not text:
        raise BadAddress("an empty log address: give a path (events.jsonl), memory:NAME or "
                         "postgresql://host/dbname?log=NAME")
    if text.startswith("memory:"):
        name = check_log_name(text[len("memory:"):])
        return Address("memory", text, name=name)
    if is_server_address(text):
        return _server_address(text)
    if text.startswith("file:"):
        text = text[len("file:"):]
        if not text:
            raise BadAddress("file: names no file: give file:PATH, e.g. file:finetune/events.jsonl")
    elif re.match(r"[A-Za-z][A-Za-z0-9+.-]*://", text):
        raise BadAddress(f"{text.split('://')[0]}:// is not a store batchlog knows: give a path (events.jsonl), "
                         "memory:NAME or postgresql://host/dbname?log=NAME", address=text)
    return Address("file", text, path=Path(text))


def _server_address(text: str) -> Address:
    from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit  # here: a file command never needs it

    try:
        parts = urlsplit(text)
        parts.port  # noqa: B018 - raises ValueError on a port that is not a number
    except ValueError as exc:
        raise BadAddress(f"{hide_password(text)} is not a PostgreSQL URL ({exc}): write "
                         "postgresql://[user[:password]@]host[:port]/dbname?log=NAME") from None
    query = parse_qsl(parts.query, keep_blank_values=True)
    names = [value for key, value in query if key == "log"]
    rest = [(key, value) for key, value in query if key != "log"]
    shown = hide_password(text)
    if not names:
        raise BadAddress(f"{shown} names no log: add ?log=NAME (a plain name, e.g. ?log=my-tuning)", address=shown)
    if len(names) > 1:
        raise BadAddress(f"{shown} names more than one log: give ?log=NAME once", address=shown)
    if not parts.path.strip("/"):
        raise BadAddress(f"{shown} names no database: write postgresql://host/dbname?log=NAME", address=shown)
    name = check_log_name(names[0])
    dsn = urlunsplit((parts.scheme, parts.netloc, parts.path, urlencode(rest), parts.fragment))
    return Address("postgresql", shown, name=name, dsn=dsn)


def hide_password(text: str) -> str:
    """The URL with its password (if any) replaced by `***`."""
    return re.sub(r"^(postgres(?:ql)?://[^:@/?#]*):[^@/?#]*@", r"\1:***@", text)


def log_address(store: str | None, log_name: str | None, folder: str | os.PathLike) -> str:
    """The address of a loop's log: store `file` (or None) -> FOLDER/events.jsonl; `memory` or `memory:` ->
    memory:NAME; a PostgreSQL URL -> that URL with log=NAME. NAME defaults to the folder's own name."""
    folder = Path(folder)
    if store in (None, "", "file"):
        return str(folder / LOG_FILE_NAME)
    name = check_log_name(log_name if log_name is not None else (folder.resolve().name or "log"))
    if store in ("memory", "memory:"):
        return f"memory:{name}"
    if is_server_address(store):
        from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

        parts = urlsplit(store)
        query = [(key, value) for key, value in parse_qsl(parts.query, keep_blank_values=True) if key != "log"]
        address = urlunsplit((parts.scheme, parts.netloc, parts.path, urlencode([*query, ("log", name)]), ""))
        _server_address(address)  # refused now, with the message, rather than at the first use
        return address
    raise BadAddress(f"{store!r} is not a store: give file, or postgresql://[user[:password]@]host[:port]/dbname",
                     store=store)


def recorder_for(address: str | os.PathLike | Address, *, on_wait: Any = None) -> Recorder:
    """The recorder that keeps the log at `address` (the PostgreSQL driver is imported only for a server);
    `on_wait`: where its reads say they wait for a lock (only a server's reads ever wait)."""
    parsed = address if isinstance(address, Address) else parse_address(address)
    if parsed.store == "memory":
        from batchlog.engine.recorders.memory import MemoryRecorder

        return MemoryRecorder(parsed.name)
    if parsed.store == "postgresql":
        from batchlog.engine.recorders.postgresql import PostgresRecorder

        return PostgresRecorder(parsed.dsn, parsed.name, parsed.shown, on_wait)
    from batchlog.engine.recorders.file import FileRecorder

    return FileRecorder(parsed.path)


def open_log(address: str | os.PathLike, registry: Any, *, on_wait: Any = None, on_note: Any = None) -> EventLog:
    """The log at `address`, snapshots on: what the CLI's views and commands open, whatever the store
    (`on_wait`: where a lock wait is announced; `on_note`: where a reader's notes go, each said once)."""
    from batchlog.engine.log import EventLog
    from batchlog.engine.recorders.protocols import KeepsSnapshots

    recorder = recorder_for(address, on_wait=on_wait)
    said: set[str] = set()

    def note_once(text: str) -> None:
        if on_note is not None and text not in said:
            said.add(text)
            on_note(text)

    if isinstance(recorder, KeepsSnapshots):
        from batchlog.engine.snapshots.stored import StoredSnapshots

        snapshots: Any = StoredSnapshots(on_note=note_once)
    else:
        from batchlog.engine.snapshots.file import Snapshots

        snapshots = Snapshots(on_note=note_once)
    return EventLog(recorder, registry, on_wait=on_wait, snapshots=snapshots, on_note=note_once)
