"""Where a loop's log is kept: `--store URL` (or BATCHLOG_STORE) and `--log NAME`, checked and turned into the
log's address, and the log opened there. The only place where the CLI turns a folder into a log, and the only one
that reads BATCHLOG_STORE. No typer or argparse here: the fast views and `quick-batch` import it.

A store is `file` (the default: the log is FOLDER/events.jsonl, as always), `postgresql://…` (the log NAME on that
server: `postgresql://…/dbname?log=NAME`) or `memory:` (an in-process log, for tests). The loop's other files
(cases.json, plan.json, summaries, payloads) stay in the folder whatever the store.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import attrs

from cli.layout import LOG_NAME
from projections.errors import Refused

if TYPE_CHECKING:
    from engine import EventLog, Registry, Report

STORE_ENV = "BATCHLOG_STORE"
FILE = "file"
MEMORY = "memory:"
POSTGRESQL_SCHEMES = ("postgresql", "postgres")
LOG_NAME_RULE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,127}")
STORE_FORM = "file or postgresql://[user[:password]@]host[:port]/dbname"


class StoreUnavailable(Refused):
    """A store this batchlog cannot open (its engine keeps logs in files only)."""

    code = "store_unavailable"


# ─── checking what the user gave ────────────────────────────────────────────


def check_store(value: str) -> str:
    """`value` as a store (`file`, `memory:` or a PostgreSQL URL without `log=`); ValueError naming the fix."""
    if value in (FILE, MEMORY):
        return value
    scheme = value.partition("://")[0].lower()
    if scheme not in POSTGRESQL_SCHEMES or "://" not in value:
        hint = " (a folder goes to --dir or --run-dir)" if "://" not in value and value not in ("", ".") else ""
        raise ValueError(f"{_masked(value)!r} is not a store: give {STORE_FORM}{hint}")
    problem = _url_problem(value)
    if problem:
        raise ValueError(f"{_masked(value)!r}: {problem}; give {STORE_FORM}")
    return value


def _url_problem(url: str) -> str:
    """What keeps `url` from naming a PostgreSQL database ("" when nothing does)."""
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError for a port that is not a number from 0 to 65535
    except ValueError as error:
        return f"the URL cannot be read ({error})"
    database = parts.path.removeprefix("/")
    if not database or "/" in database:
        return "it names no database (.../dbname)"
    if parts.fragment:
        return "a URL of a database has no #fragment"
    if any(key == "log" for key, _, _ in (pair.partition("=") for pair in parts.query.split("&"))):
        return "name the log with --log NAME, not with log= in --store"
    return ""


def check_log_name(value: str) -> str:
    """`value` as a log's name on a server: a plain name, never a path (paths differ between machines)."""
    if LOG_NAME_RULE.fullmatch(value) is None:
        raise ValueError(f"{value!r} is not a log name: give a plain name of letters, digits, '.', '_' and '-' "
                         "(at most 128, starting with a letter or digit), not a path")
    return value


def _masked(url: str) -> str:
    """`url` with its password hidden, for messages."""
    head, sep, rest = url.partition("://")
    user, at, host = rest.rpartition("@")
    if not (sep and at and ":" in user):
        return url
    return f"{head}://{user.partition(':')[0]}:***@{host}"


# ─── the choice and the address ─────────────────────────────────────────────


@attrs.frozen
class Store:
    """The store a command keeps its log in (`url` None: the file) and the log's name there (None: the name of
    the loop's folder)."""

    url: str | None = None
    log: str | None = None

    @property
    def is_file(self) -> bool:
        return self.url is None

    def file(self, folder: Path) -> Path | None:
        """The file that holds the log of the loop in `folder` (None: the store is not a file)."""
        return folder / LOG_NAME if self.is_file else None

    def address(self, folder: Path) -> str:
        """The address of the log of the loop whose files are in `folder`."""
        return log_address(self.url, self.log, folder)


def chosen(store: str | None = None, log: str | None = None) -> Store:
    """The store the options name (checked by the option parsers), else BATCHLOG_STORE's, else the file.
    BadSetting (a usage error, exit 2) for a BATCHLOG_STORE that names no store, or --log with the file store."""
    from engine import BadSetting

    if store is None:
        store = os.environ.get(STORE_ENV) or None
        if store is not None:
            try:
                check_store(store)
            except ValueError as error:
                raise BadSetting(f"{STORE_ENV}: {error}", setting=STORE_ENV) from None
    if store in (None, FILE):
        if log is not None:
            raise BadSetting(f"--log {log} names a log on a server, and the log is in the file {LOG_NAME} of the "
                             f"loop's folder: drop --log, or give --store postgresql://... (or {STORE_ENV})", log=log)
        return Store()
    return Store(store, log)


def log_address(store: str | None, name: str | None, folder: Path) -> str:
    """The log's address: FOLDER/events.jsonl for the file store (None or `file`); else the store's address of
    the log NAME, by default the folder's name (BadSetting, exit 2, when that name is not a plain name)."""
    if store in (None, FILE):
        return str(folder / LOG_NAME)
    if name is None:
        name = Path(os.path.abspath(folder)).name
        if LOG_NAME_RULE.fullmatch(name) is None:
            from engine import BadSetting

            raise BadSetting(f"the folder {folder} has no name a log on a server can take ({name!r}): give --log "
                             "NAME", folder=str(folder))
    if store == MEMORY:
        return MEMORY + name
    return f"{store}{'&' if urlsplit(store).query else '?'}log={name}"


# ─── the log ────────────────────────────────────────────────────────────────


def open_log(store: Store, folder: Path, registry: Registry, *, on_wait: Any = None, on_note: Any = None) -> EventLog:
    """The log of the loop whose files are in `folder`, in `store`, with snapshots on."""
    import engine

    address = store.address(folder)
    if not store.is_file and not _engine_opens_addresses():
        raise StoreUnavailable(f"this batchlog keeps logs in files only: it cannot open {_masked(address)}; drop "
                               f"--store (and {STORE_ENV}) to keep the log in the loop's folder ({LOG_NAME})",
                               store=_masked(store.url or ""))
    return engine.open_log(address, registry, on_wait=on_wait, on_note=on_note)


def _engine_opens_addresses() -> bool:
    """Whether the engine's `open_log` takes any store's address (`open_log(address, …)`), not a path only."""
    import engine

    code = getattr(engine.open_log, "__code__", None)
    return code is not None and code.co_varnames[:1] == ("address",)


def open_archive(path: Path, registry: Registry, *, on_wait: Any = None) -> EventLog:
    """A log copied to a file of another name (a quick batch's archive beside its summary), to read."""
    from engine import EventLog

    return EventLog(path, registry, on_wait=on_wait)


def read_with(log: EventLog, registry: Registry) -> EventLog:
    """The same log, to read with the event types of `registry`."""
    from engine import EventLog

    path = log_file(log)
    if path is not None:
        return EventLog(path, registry)
    import engine

    return engine.open_log(log.address, registry)


def log_file(log: EventLog) -> Path | None:
    """The file that holds the log (None: a server or memory holds it)."""
    return getattr(log, "path", None)


def shown(log: EventLog) -> str:
    """How messages name the log: its file's path as the user named it (the answers of the file store stay byte for
    byte what they were), else its address (which never shows a password)."""
    path = log_file(log)
    return path.as_posix() if path is not None else log.address


def log_lines(log: EventLog) -> Iterator[bytes]:
    """Every complete line of the log in order, as written (without its newline)."""
    path = log_file(log)
    if path is not None:
        from engine.lines import LineReader

        return iter(LineReader(path))
    return log.lines()  # the recorder's lines, from any store


def verify_log(log: EventLog, registry: Registry) -> Report:
    """`batchlog log verify` of the log: every line checked."""
    from engine import verify

    path = log_file(log)
    return verify(path if path is not None else log.address, registry)
