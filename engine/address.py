"""Log addresses, parsed in one place: where a log's lines are kept, and the one way to open a log there.

- a file path, or `file:PATH`: the JSONL file (the embedded default);
- `memory:NAME`: a log in this process's memory (tests);
- `postgresql://[user[:password]@]host[:port]/dbname?log=NAME` (or `postgres://`, in any case): the log NAME
  in the database; `log` is taken out before connecting, every other query parameter goes to the driver
  exactly as written.

A log name on a server is a plain name (letters, digits, `.`, `_`, `-`), never a machine path: paths
differ between machines, names do not. A log's address is shown (messages, JSON, printed commands) only as
engine/server_url.py's `shown_address` renders it: without any secret.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any


from batchlog.engine.errors import BadAddress
from batchlog.engine.server_url import SERVER_SCHEMES, ServerUrl, read_url, scheme_of, shown_address
from batchlog.engine.value import frozen

if TYPE_CHECKING:
    from batchlog.engine.log import EventLog
    from batchlog.engine.recorders.protocols import Recorder

LOG_FILE_NAME = "events.jsonl"
LOG_NAME_MAX = 200
_LOG_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*")
URL_FORM = "postgresql://[user[:password]@]host[:port]/dbname?log=NAME"


@frozen
class Address:
    """A parsed log address. `store`: "file", "memory" or "postgresql"; `path` (file), `name` (memory and
    PostgreSQL), `dsn` (PostgreSQL: the URL the driver gets, without `log`); `shown`: the address as people
    and agents see it, without any secret (`shown_address`)."""

    store: str
    shown: str
    path: Path | None = None
    name: str | None = None
    dsn: str | None = None


def is_server_address(text: str) -> bool:
    return scheme_of(text) in SERVER_SCHEMES


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
        raise BadAddress(f"an empty log address: give a path (events.jsonl), memory:NAME or {URL_FORM}")
    if text.startswith("memory:"):
        name = check_log_name(text[len("memory:"):])
        return Address("memory", text, name=name)
    if is_server_address(text):
        return _server_address(text)
    if text.startswith("file:"):
        text = text[len("file:"):]
        if not text:
            raise BadAddress("file: names no file: give file:PATH, e.g. file:finetune/events.jsonl")
    elif scheme_of(text) is not None:
        raise BadAddress(f"{shown_address(text)} is not a store batchlog knows ({scheme_of(text)}://): give a path "
                         f"(events.jsonl), memory:NAME or {URL_FORM}", address=shown_address(text))
    return Address("file", text, path=Path(text))


def _server_address(text: str) -> Address:
    shown = shown_address(text)
    url = read_url(text)
    if isinstance(url, str):
        raise BadAddress(f"{shown} is not a PostgreSQL URL: {url}: write {URL_FORM}", address=shown)
    problem = _server_problem(url)
    if problem:
        raise BadAddress(f"{shown} {problem}", address=shown)
    name = check_log_name(url.values("log")[0])
    return Address("postgresql", shown, name=name, dsn=url.replaced("log", None).text(secrets=True))


def _server_problem(url: ServerUrl) -> str:
    """What keeps `url` from naming a log in a database ("" when nothing does)."""
    names = url.values("log")
    if not names:
        return "names no log: add ?log=NAME (a plain name, e.g. ?log=my-tuning)"
    if len(names) > 1:
        return "names more than one log: give ?log=NAME once"
    problem = database_problem(url)
    return f"cannot be used: {problem}: write {URL_FORM}" if problem else ""


def database_problem(url: ServerUrl) -> str:
    """What keeps `url` from naming one PostgreSQL database ("" when nothing does): the `--store` check too."""
    for host in url.hosts.split(","):  # libpq takes several, host[:port] each ([v6 address][:port] too)
        port = host.rpartition("]")[2].partition(":")[2] if host.startswith("[") else host.partition(":")[2]
        if port and not (port.isascii() and port.isdigit() and int(port) <= 65535):
            return f"the URL cannot be read (the port {port!r} is not a number from 0 to 65535)"
    database = url.path.removeprefix("/")
    if not database or "/" in database:
        return "it names no database (.../dbname)"
    return ""


def log_address(store: str | None, log_name: str | None, folder: str | os.PathLike) -> str:
    """The address of a loop's log: store `file` (or None) -> FOLDER/events.jsonl; `memory` or `memory:` ->
    memory:NAME; a PostgreSQL URL -> that URL with log=NAME (its other parameters as written). NAME defaults
    to the folder's own name."""
    folder = Path(folder)
    if store in (None, "", "file"):
        return str(folder / LOG_FILE_NAME)
    name = check_log_name(log_name if log_name is not None else (folder.resolve().name or "log"))
    if store in ("memory", "memory:"):
        return f"memory:{name}"
    if is_server_address(store):
        url = read_url(store)
        address = store if isinstance(url, str) else url.replaced("log", name).text(secrets=True)
        _server_address(address)  # refused now, with the message, rather than at the first use
        return address
    raise BadAddress(f"{shown_address(store)!r} is not a store: give file, or "
                     "postgresql://[user[:password]@]host[:port]/dbname", store=shown_address(store))


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
