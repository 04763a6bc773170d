"""How batchlog's typer commands show themselves: `App`, a typer app whose groups and commands all take `-h` as
well as `--help`, name their arguments as their metavar (`RUN`, not `{RUN}` or `RUN <str>`) and keep every
`Example:` paragraph of their help on one line, so that it pastes as the command it shows. Every typer app of
batchlog is an `App` (tests/test_help.py walks them).
"""

from __future__ import annotations

import inspect
from typing import Any

import typer
from typer.core import TyperCommand, TyperGroup

HELP_OPTIONS = ["-h", "--help"]
EXAMPLE = "Example: "
NO_REWRAP = "\b"  # click's marker: the paragraph after it is printed as it is written


def _examples_kept(text: str) -> str:
    """`text` with each paragraph that is an example marked to be printed as written (one line each)."""
    paragraphs = text.split("\n\n")
    return "\n\n".join(f"{NO_REWRAP}\n{part}" if part.startswith(EXAMPLE) else part for part in paragraphs)


def _usage_name(param: Any) -> str:
    """An argument in the usage line: its metavar, in brackets when it may be left out."""
    name = param.metavar or param.name.upper()
    if param.nargs != 1:
        name += "..."
    return name if param.required else f"[{name}]"


def _argument_row(param: Any, ctx: Any) -> tuple[str, str]:
    """An argument's row in the help: its metavar and its description (no type: the metavar says what it is)."""
    name = param.metavar or param.name.upper()
    help_text = param.help or ""
    default = None if param.required else param.get_default(ctx, call=False)
    if default not in (None, (), []):
        help_text += f"  [default: {default}]"
    return name, help_text


class _Shown:
    """What batchlog's groups and commands share: the usage line, the argument rows, examples kept whole."""

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        pieces = [self.options_metavar] if self.options_metavar else []  # type: ignore[attr-defined]
        for param in self.get_params(ctx):  # type: ignore[attr-defined]
            if param.param_type_name == "argument":
                pieces.append(_usage_name(param))
        return pieces + self.usage_tail()

    def usage_tail(self) -> list[str]:
        """What the usage line shows after the arguments (a group: its subcommand)."""
        return []

    def format_help_text(self, ctx: Any, formatter: Any) -> None:
        text = inspect.cleandoc(self.help or "").partition("\f")[0]  # type: ignore[attr-defined]
        if text:
            formatter.write_paragraph()
            with formatter.indentation():
                formatter.write_text(_examples_kept(text))

    def format_options(self, ctx: Any, formatter: Any) -> None:
        arguments, options = [], []
        for param in self.get_params(ctx):  # type: ignore[attr-defined]
            if param.param_type_name == "argument":
                arguments.append(_argument_row(param, ctx))
            else:
                record = param.get_help_record(ctx)
                if record is not None:
                    options.append(record)
        for title, rows in (("Arguments", arguments), ("Options", options)):
            if rows:
                with formatter.section(title):
                    formatter.write_dl(rows)


class Command(_Shown, TyperCommand):
    """A batchlog command (see the module's docstring)."""


class Group(_Shown, TyperGroup):
    """A batchlog group of commands (see the module's docstring)."""

    def usage_tail(self) -> list[str]:
        return [self.subcommand_metavar]

    def format_options(self, ctx: Any, formatter: Any) -> None:
        super().format_options(ctx, formatter)
        self.format_commands(ctx, formatter)


class App(typer.Typer):
    """A typer app whose groups are `Group`s and whose commands are `Command`s, with `-h` beside `--help` and plain
    text help (no rich markup)."""

    def __init__(self, **settings: Any) -> None:
        super().__init__(cls=Group, add_completion=False, rich_markup_mode=None,
                         context_settings={"help_option_names": HELP_OPTIONS}, **settings)

    def command(self, name: str | None = None, **settings: Any) -> Any:
        settings.setdefault("cls", Command)
        settings.setdefault("context_settings", {"help_option_names": HELP_OPTIONS})
        return super().command(name, **settings)
