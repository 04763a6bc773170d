"""Options shared by many commands, so that every flag reads the same everywhere; the one adapter from a typer-free
check to a typer callback (`Checked`); and how a typer command names the typer-free body it runs (`runs`)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Annotated, Any

import typer

from batchlog.cli import store
from batchlog.cli.checks import FOLDER, Within, check_store_url


class Checked:
    """`callback`, a typer callback, runs `check`, a typer-free check (a value, e.g. cli/checks.py's, or a module's
    function, e.g. cli/store.py's): its ValueError is a usage error (exit 2) naming the fix, before anything is read;
    `hint` names the option in that message instead of click. The fast lane's table is generated from the typer app:
    it finds `check` through the callback (`__self__`) and calls it itself (cli/lane_writer.py). (A bound method, not
    the object: typer reads a callback's signature, which it takes only from a function or method.)"""

    def __init__(self, check: Callable[[Any], Any], hint: str | None = None) -> None:
        self.check, self.hint = check, hint

    def callback(self, value: Any) -> Any:
        if value is None:
            return None
        try:
            return self.check(value)
        except ValueError as error:
            raise typer.BadParameter(str(error), param_hint=self.hint) from None


def runs(body: Callable[..., int], check: Callable[[Mapping[str, Any]], None] | None = None,
         hint: str | None = None) -> Callable[[Callable[..., Any]], Callable[..., int]]:
    """Make the decorated function, a typer command's declaration (its parameters, their options and checks, its
    help), call `body`, a typer-free function taking the same parameters (tests/test_lane.py holds them equal):
    the typer app and the fast lane (cli/lane.py) run the same body. `check`, of every value by name, refuses a
    combination of options (a usage error, `hint` naming the option). A group's callback runs its body only when
    the group is called without a command (`ctx`: typer's context, passed to the declaration alone)."""

    def declare(declaration: Callable[..., Any]) -> Callable[..., int]:
        @functools.wraps(declaration)
        def command(**values: Any) -> int:
            ctx = values.pop("ctx", None)
            if ctx is not None and ctx.invoked_subcommand is not None:
                return 0
            if check is not None:
                try:
                    check(values)
                except ValueError as error:
                    raise typer.BadParameter(str(error), param_hint=hint) from None
            return body(**values)

        command.body, command.check = body, check  # type: ignore[attr-defined]
        return command

    return declare


def whole(name: str, help: str, *, metavar: str = "N", least: int | None = None, largest: int | None = None,
          **settings: object) -> typer.models.OptionInfo:
    """An option holding a whole number, its bounds checked by `Within` (cli/checks.py), its metavar plain (`N`, not
    `<int>`)."""
    return typer.Option(name, metavar=metavar, help=help, callback=Checked(Within(least, largest)).callback,
                        **settings)


Json = Annotated[bool, typer.Option("--json", help="one JSON object on stdout (errors: one on stderr)")]
At = Annotated[int | None, whole("--at", "the view as the log stood after event SEQ", metavar="SEQ", least=1)]


def log_address(metavar: str, help_text: str) -> typer.models.ArgumentInfo:
    """A `log ...` command's log address argument (a memory log refused: a usage error, exit 2)."""
    return typer.Argument(metavar=metavar, show_default=False, callback=Checked(store.check_log_address).callback,
                          help=help_text)


Dir = Annotated[Path, typer.Option("--dir", metavar="DIR", callback=Checked(FOLDER).callback,
                                   help="the tuning's folder (its files; its log DIR/events.jsonl unless --store)")]
Store = Annotated[
    str | None,
    typer.Option("--store", metavar="URL", callback=Checked(check_store_url).callback, show_default=False,
                 help=store.store_help("the log is DIR/events.jsonl")),
]
LogName = Annotated[
    str | None,
    typer.Option("--log", metavar="NAME", callback=Checked(store.check_log_name).callback, show_default=False,
                 help=store.log_help("the folder's name")),
]
