"""The checks of the tuning's options, before anything is read or recorded: each a small value naming what it
checks, called with the option's value (or, for a check of the whole command line, with every value by name) and
raising ValueError with the message. No typer here: the typer commands run them through one adapter (cli/options.py
`Checked`, a usage error, exit 2) and the fast lane (cli/lane.py) calls them as they are, leaving to typer whatever
one refuses. Values, not closures, so that the lane's generated table names them (`NotAPlaceholder('--model')`).
The checks every command shares: cli/checks.py.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from batchlog.cli.lane import Value

PATH_OPTIONS = ("--dataset", "-o")  # a file that exists under a placeholder's name is what the user meant


class NotAPlaceholder(Value):
    """A placeholder of a printed template (VERDICT, DATASET, FILE, PATH, SUMMARY, MODEL) pasted unchanged as the
    value of `option` is refused, naming the choices."""

    __slots__ = ("option",)

    def __init__(self, option: str) -> None:
        self.option = option

    def __call__(self, value: Any) -> Any:
        from batchlog.projections.tune.views.status import placeholder_refusal

        refusal = placeholder_refusal(self.option, str(value))
        if refusal is not None and not (self.option in PATH_OPTIONS and Path(str(value)).exists()):
            raise ValueError(refusal)
        return value


class Count(Value):
    """A count that a printed template holds as a placeholder (NODES, CALLS, INPUT_TOKENS, OUTPUT_TOKENS): the
    placeholder pasted unchanged is refused naming what to give, as is anything but a whole number. The value stays
    text: a negative count is the decision's to refuse, as for every count."""

    __slots__ = ("option",)

    def __init__(self, option: str) -> None:
        self.option = option

    def __call__(self, value: str) -> str:
        from batchlog.cli.tune.views import LARGEST
        from batchlog.projections.tune.views.status import placeholder_refusal

        refusal = placeholder_refusal(self.option, value)
        if refusal is not None:
            raise ValueError(refusal)
        digits = value.removeprefix("-")
        if not (digits.isascii() and digits.isdigit()) or int(value) > LARGEST:
            raise ValueError(f"{value!r} is not a whole number (at most {LARGEST})")
        return value


class Verdict(Value):
    """--verdict: the placeholder VERDICT pasted unchanged is refused naming the choices; a verdict is taken in any
    case (`passed` is PASSED, the seed's word)."""

    __slots__ = ()

    def __call__(self, value: str) -> str:
        from batchlog.projections.tune.views.status import placeholder_refusal

        refusal = placeholder_refusal("--verdict", value)
        if refusal is not None:
            raise ValueError(refusal)
        return value.upper()


class BatchOrFinal(Value):
    """`tune run start`: a half of a batch (--batch and --kind) or the final check (--final), one of the two."""

    __slots__ = ()

    def __call__(self, values: Mapping[str, Any]) -> None:
        final, batch, kind = values["final"], values["batch"], values["kind"]
        if final == (batch is not None or kind is not None) or (not final and (batch is None or kind is None)):
            raise ValueError("give --batch N --kind nomem|mem, or --final alone")


class RecordsNow(Value):
    """`tune next-batch`: -o records a batch, which a view of the past (--at) cannot."""

    __slots__ = ()

    def __call__(self, values: Mapping[str, Any]) -> None:
        if values["out"] is not None and values["at"] is not None:
            raise ValueError("--at shows a past state: it cannot record a batch; drop -o or --at")
