"""The typer application: command groups are imported only when called, for a fast start."""

from __future__ import annotations

import importlib
import sys
import weakref
from typing import Annotated

import typer

GROUPS = {
    "log": ("batchlog.cli.log.commands", "the log itself: verify, show, head, salvage, migrate (any batchlog log)"),
    "tune": ("batchlog.cli.tune.commands", "the tuning loop (zen-finetune): batches, runs, grading, difficult list, memory"),
}
# Modules that add commands to a group: `register(app)` is called with the group's app, once per app.
EXTENSIONS = {"tune": ("batchlog.cli.tune.reports",)}
# Each group app -> the extensions whose commands are on it already (weak: a group app dropped is forgotten).
_registered: weakref.WeakKeyDictionary[typer.Typer, set[str]] = weakref.WeakKeyDictionary()

HELP = """batchlog: an event-sourced state engine over append-only JSONL for agents' batch loops.

Every action is one event in one log; every view is rebuilt by replaying it.
Exit codes: 0 done, 1 refused (nothing written), 2 usage error, 3 the log cannot be trusted."""


def build(first: str | None) -> typer.Typer:
    """The app with the group `first` names, or every group when it names none (for help)."""
    app = typer.Typer(help=HELP, no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False,
                      rich_markup_mode=None)
    for name, (module, help_text) in GROUPS.items():
        if first in GROUPS and first != name:
            continue
        group = importlib.import_module(module).app
        for extension in EXTENSIONS.get(name, ()):
            # The group is a module's app: registering twice would list each command twice (and every later
            # build in this process would convert them all again).
            done = _registered.setdefault(group, set())
            if extension in done:
                continue
            try:
                importlib.import_module(extension).register(group)
            except ModuleNotFoundError as error:
                if error.name != extension:
                    raise
            done.add(extension)
        app.add_typer(group, name=name, help=help_text)

    @app.command("quick-batch", context_settings={"allow_extra_args": True, "ignore_unknown_options": True},
                 add_help_option=False)
    def quick_batch(args: Annotated[list[str] | None, typer.Argument()] = None) -> int:
        """The skf-quick-batch.py contract on an event log: parse, start, next, record, summarize, status, import."""
        from batchlog.cli.quick_batch.main import main as quick_batch_main

        return quick_batch_main(args or [])

    return app


def run(args: list[str]) -> int:
    """Run the typer app on `args`; every error becomes a message and an exit code."""
    from batchlog.cli.errors import reported

    return reported(lambda: _run_typer(args), "--json" in args)


def _run_typer(args: list[str]) -> int:
    """The typer app on `args`; click's usage errors and exits become exit codes, the rest is raised."""
    from batchlog.cli.errors import EXIT_REFUSED, EXIT_USAGE

    try:
        app = build(args[0] if args else None)
        result = app(args=args, prog_name="batchlog", standalone_mode=False)
    except typer.TyperException as error:  # click's usage errors: bad option, missing value, wrong type
        show = getattr(error, "show", None)
        if show is not None:
            show()
        else:
            print(f"Error: {error.message}", file=sys.stderr)
        return error.exit_code if error.exit_code in (EXIT_USAGE, EXIT_REFUSED) else EXIT_USAGE
    except typer.Exit as error:
        return error.exit_code
    except typer.Abort:
        return EXIT_REFUSED
    return result if isinstance(result, int) else 0
