"""The typer application: the `log` group and each loop's commands (cli/loops.py), each imported only when called,
for a fast start."""

from __future__ import annotations

import io
from typing import Annotated

import typer

LOG_HELP = "the log itself: verify, show, head, salvage, migrate (any batchlog log)"

HELP = """batchlog: an event-sourced state engine over append-only JSONL for agents' batch loops.

Every action is one event in one log; every view is rebuilt by replaying it.
Exit codes: 0 done, 1 refused (nothing written), 2 usage error, 3 the log cannot be trusted."""


def build(first: str | None) -> typer.Typer:
    """The app with the group `first` names (`log`, or a loop's: cli/loops.py), or every group when it names none
    (for help). A group's module is imported only when its group is built, for a fast start."""
    from batchlog.cli.help import App
    from batchlog.cli.loops import loops

    app = App(help=HELP, no_args_is_help=True, pretty_exceptions_enable=False)

    @app.callback()
    def groups(version: Annotated[bool, typer.Option("--version", is_eager=True, callback=_version,
                                                     help="print batchlog's version and exit")] = False) -> None:
        """A callback keeps the app a group of commands when it holds one (typer runs a lone command as the app)."""

    known = loops()
    everything = first not in ("log", *(loop.name for loop in known))
    if everything or first == "log":
        from batchlog.cli.log.commands import app as log_app

        app.add_typer(log_app, name="log", help=LOG_HELP)
    for loop in known:
        if everything or first == loop.name:
            loop.load_commands()(app, loop)
    return app


def _version(asked: bool) -> None:
    if asked:
        from batchlog import __version__
        from batchlog.cli import terminal

        terminal.say(f"batchlog {__version__}")
        raise typer.Exit(0)


def run(args: list[str]) -> int:
    """Run the typer app on `args`; every error becomes a message and an exit code."""
    from batchlog.cli.errors import reported

    return reported(lambda: _run_typer(args), "--json" in args)


def _run_typer(args: list[str]) -> int:
    """The typer app on `args`; click's usage errors and exits become exit codes, the rest is raised."""
    from batchlog.cli import terminal
    from batchlog.cli.errors import EXIT_REFUSED, EXIT_USAGE

    try:
        app = build(args[0] if args else None)
        result = app(args=args, prog_name="batchlog", standalone_mode=False)
    except typer.TyperException as error:  # click's usage errors: bad option, missing value, wrong type
        show = getattr(error, "show", None)
        if show is not None:
            shown = io.StringIO()
            show(shown)
            terminal.show(shown.getvalue(), err=True)
        else:
            terminal.say(f"Error: {error.message}", err=True)
        return error.exit_code if error.exit_code in (EXIT_USAGE, EXIT_REFUSED) else EXIT_USAGE
    except typer.Exit as error:
        return error.exit_code
    except typer.Abort:
        return EXIT_REFUSED
    return result if isinstance(result, int) else 0
