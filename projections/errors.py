"""`Refused`: a rule said no. Raised by `decide` functions, before anything is written."""

from __future__ import annotations


class Refused(Exception):
    """A command the rules refuse; the message names what was wrong and what to do.

    `fields` go into `--json` errors (e.g. run, case, seq).
    """

    code = "refused"

    def __init__(self, message: str, **fields: object) -> None:
        super().__init__(message)
        self.message = message
        self.fields = fields


class BadInput(Refused):
    """An input file or value the command cannot use (not JSON, not UTF-8, unknown id)."""

    code = "bad_input"


class WrongLog(Refused):
    """A log of another kind (a quick-batch log given to `tune`, or the reverse)."""

    code = "wrong_log"
