"""The CLI's one error boundary: every front end (the typer app, the fast lane, `quick-batch`) runs its command
through `guarded`, which turns the layers' named errors into one message and one exit code.

Exit codes: 0 done; 1 refused (nothing written); 2 usage; 3 the log cannot be trusted. No traceback reaches
the user: an unexpected error is one line, exit 1 (tests set BATCHLOG_DEBUG=1 to let it raise). Only the
message's shape differs by front end: batchlog's own (`batchlog: ...` or a JSON object with --json) or the
seed's (one JSON line, as skf-quick-batch.py prints a refusal).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable

EXIT_OK, EXIT_REFUSED, EXIT_USAGE, EXIT_UNTRUSTED = 0, 1, 2, 3

Render = Callable[[BaseException, int], None]


def exit_code(error: BaseException) -> int:
    """The documented exit code of `error`: a log that cannot be trusted 3, a bad setting 2, the rest 1."""
    from batchlog.engine.errors import BadSetting, LogError

    if isinstance(error, LogError):
        return EXIT_UNTRUSTED
    if isinstance(error, BadSetting):
        return EXIT_USAGE
    return EXIT_REFUSED


def guarded(command: Callable[[], int], render: Render) -> int:
    """Run `command`; every error it raises is rendered on stderr and becomes its exit code (the one place). The
    words a refusal's hint gets are the ones this command remembered (cli/printed.py), never an earlier one's."""
    from batchlog.cli.printed import this_command
    from batchlog.engine.errors import EngineError
    from batchlog.projections.errors import Refused

    with this_command():
        try:
            return command()
        except (EngineError, Refused) as error:
            code = exit_code(error)
            render(error, code)
            return code
        except BrokenPipeError:  # the reader went away: nothing more can be said to it
            return EXIT_REFUSED
        except Exception as error:  # a bug: one line for users, a traceback for tests
            if os.environ.get("BATCHLOG_DEBUG"):
                raise
            render(error, EXIT_REFUSED)
            return EXIT_REFUSED


def reported(command: Callable[[], int], as_json: bool) -> int:
    """`guarded` with batchlog's own messages: `batchlog: MESSAGE`, or one JSON object with --json."""
    return guarded(command, lambda error, code: _batchlog_message(error, code, as_json))


def seed_reported(command: Callable[[], int]) -> int:
    """`guarded` with the seed's messages: `{"status": "error", "message": ..., "halt_reason": ...}`."""
    return guarded(command, _seed_message)


def _named(error: BaseException) -> tuple[str, str, dict[str, object]]:
    """(code, message, fields) of a named error; an unnamed one is a bug and says so."""
    from batchlog.cli.printed import completed, completed_fields
    from batchlog.engine.errors import EngineError
    from batchlog.projections.errors import Refused

    if isinstance(error, (EngineError, Refused)):
        return error.code, completed(error.message), completed_fields(error.fields)
    return "internal_error", f"unexpected error: {type(error).__name__}: {error}", {}


def _batchlog_message(error: BaseException, code: int, as_json: bool) -> None:
    import orjson

    from batchlog.cli import terminal

    kind, message, fields = _named(error)
    if as_json:
        body: dict[str, object] = {"error": kind, "message": message, "exit_code": code}
        body.update({k: v for k, v in fields.items() if k not in body})
        try:
            text = orjson.dumps(body, default=str).decode()
        except TypeError:  # a whole number past 64 bits, which orjson refuses (`--at 18446744073709551616`)
            text = json.dumps(body, default=str, ensure_ascii=False, separators=(",", ":"))
        terminal.show_json(text + "\n", err=True)
    else:
        terminal.say(f"batchlog: {message}", err=True)


def _seed_message(error: BaseException, code: int) -> None:
    """The seed's refusal line (json.dumps' default separators, as the seed prints it)."""
    from batchlog.cli import terminal

    _, message, fields = _named(error)
    body = {"status": "error", "message": message}
    if fields.get("halt_reason"):
        body["halt_reason"] = fields["halt_reason"]
    terminal.show_json(json.dumps(body) + "\n", err=True)
