"""The engine's exceptions: one base, a named subclass for each failure.

`LogError` and its subclasses mean the log cannot be trusted (the CLI exits 3); `BadSetting` is a usage error
(exit 2); the others mean the engine could not do what it was asked and wrote nothing (exit 1). The mapping
is the CLI's, in one place (cli/errors.py).
"""

from __future__ import annotations


class EngineError(Exception):
    """Base of every error the engine raises. `fields` go into `--json` errors."""

    code = "engine_error"

    def __init__(self, message: str, **fields: object) -> None:
        super().__init__(message)
        self.message = message
        self.fields = fields


class LogError(EngineError):
    """The log cannot be trusted: nothing may be appended to it."""

    code = "log_untrusted"


class NewerVersion(LogError):
    """The log holds an event type or version newer than this code knows."""

    code = "newer_version"


class LogDamaged(LogError):
    """The log has bad lines in the middle; a person must salvage it first."""

    code = "log_damaged"


class WriteFailed(EngineError):
    """The disk refused the append (full, read-only, I/O error); the log is as it was."""

    code = "write_failed"


class LockTimeout(EngineError):
    """Another command held the log's lock for longer than the wait allows."""

    code = "lock_timeout"


class NotALog(EngineError):
    """The path is missing, a folder, or unreadable."""

    code = "not_a_log"


class UnreadableFile(EngineError):
    """A file a command reads (a dataset, a brief, a payload, ...) is missing, is not a regular file (a folder, a
    FIFO, a device, a socket, a link to nothing or a loop), cannot be read, or holds more than its kind may
    (engine/files.py's `read_user_file`). Nothing was read or written. `reason`: the cause in a plain open's
    words where it has them ("No such file or directory"), for messages that must say it as another program
    does. `missing`: nothing at all is at the path (not even a link to nothing)."""

    code = "unreadable_file"

    def __init__(self, path: object, what: str, reason: str, message: str, *, errno: int | None = None,
                 missing: bool = False) -> None:
        super().__init__(message, path=str(path), what=what)
        self.path = str(path)
        self.reason = reason
        self.errno = errno
        self.missing = missing

    def python_words(self) -> str:
        """The cause as Python's OSError says it (`[Errno 2] No such file or directory: 'x'`) when it was one, for
        messages that must match another program's word for word; else `reason`."""
        return f"[Errno {self.errno}] {self.reason}: {self.path!r}" if self.errno is not None else self.reason


class CannotEncode(EngineError):
    """The decided events hold a value the log's JSON cannot carry (nested deeper than 255 levels, a whole number
    past 64 bits): refused, nothing written."""

    code = "cannot_encode"


class BadSetting(EngineError):
    """An environment setting (e.g. BATCHLOG_LOCK_TIMEOUT) holds a value it cannot take: a usage error (exit 2)."""

    code = "bad_setting"


class ClockError(EngineError):
    """BATCHLOG_CLOCK holds something that is not an ISO-8601 time."""

    code = "bad_clock"


class BadAddress(NotALog):
    """A log address batchlog cannot read: not a path, `memory:NAME` or `postgresql://…?log=NAME`, or a log name
    that is not a plain name."""

    code = "bad_address"


class StoreUnavailable(NotALog):
    """The store that keeps the log cannot be reached: the server is down or refuses the user, or its driver is
    not installed. Nothing was read or written."""

    code = "store_unavailable"
