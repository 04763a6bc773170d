"""Help that people can read and paste (issue 24, item 9): every command's help, for every command of the app."""

from __future__ import annotations

import functools
import re
import shlex

import pytest
import typer

from batchlog import __version__
from batchlog.cli.app import build
from batchlog.cli.help import Command, Group
from tests.clirunner import invoke
from tests.test_docs import COMMANDS, quick_batch_commands, typer_commands


@functools.cache
def app():
    return typer.main.get_command(build(None))


@functools.cache
def help_of(words: tuple[str, ...]) -> str:
    """`batchlog WORDS --help`, asked once per command."""
    result = invoke(*words, "--help")
    assert result.code == 0, result.err
    return result.out


def click_command(words: tuple[str, ...]):
    """The click command `batchlog WORDS` runs."""
    command = app()
    for word in words:
        command = command.commands[word]
    return command


def examples(words: tuple[str, ...]) -> list[str]:
    return [line.split("Example: ", 1)[1] for line in help_of(words).splitlines() if "Example: " in line]


def commands_of(example: str) -> list[list[str]]:
    """The simple commands of a shell line (`a && b`, `a > FILE`), each as its words: a redirection's file is
    not a word of the command."""
    lexer = shlex.shlex(example, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    commands, words, redirected = [[]], list(lexer), False
    for word in words:
        if redirected:
            redirected = False
        elif word in ("&&", "||", ";", "|"):
            commands.append([])
        elif word in (">", ">>", "<"):
            redirected = True
        else:
            commands[-1].append(word)
    return commands


TYPER_COMMANDS = typer_commands()


class TestEveryCommand:
    @pytest.mark.parametrize("words", COMMANDS, ids=" ".join)
    def test_dash_h_is_help(self, words):
        short = invoke(*words, "-h")

        assert (short.code, short.out) == (0, help_of(words))

    @pytest.mark.parametrize("words", TYPER_COMMANDS, ids=" ".join)
    def test_no_range_noise_and_no_type_tags(self, words):
        shown = help_of(words)

        assert not re.search(r"x[<>]=|<=x|<int|<str>|<path>|<float|\{[A-Z]", shown), shown

    @pytest.mark.parametrize("words", TYPER_COMMANDS, ids=" ".join)
    def test_arguments_show_as_their_name(self, words):
        command = click_command(words)
        names = [param.metavar for param in command.params if param.param_type_name == "argument"]
        shown = help_of(words)
        usage = shown.splitlines()[0]

        assert all(f" {name}" in usage for name in names), usage
        assert all(re.search(rf"^  {name}  \S", shown, re.M) for name in names), shown

    @pytest.mark.parametrize("words", TYPER_COMMANDS, ids=" ".join)
    def test_every_option_and_argument_is_described(self, words):
        command = click_command(words)

        undescribed = [param.name for param in command.params if not (param.help or "").strip()]
        assert undescribed == []

    @pytest.mark.parametrize("words", TYPER_COMMANDS, ids=" ".join)
    def test_is_one_of_batchlogs_command_classes(self, words):
        """App (cli/help.py) gives every command and group its -h and its plain help: none is made otherwise."""
        assert isinstance(click_command(words), (Command, Group))


class TestExamples:
    @pytest.mark.parametrize("words", COMMANDS, ids=" ".join)
    def test_every_example_is_one_line_that_parses_as_a_command_of_that_command(self, words):
        """The example lines are printed as written (not rewrapped at a path's `-`), and each simple command of one
        is a command line its command's parser takes."""
        found = examples(words)

        assert found
        for example in found:
            parts = commands_of(example)
            assert parts[0][: len(words) + 1] == ["batchlog", *words], example
            for argv in parts:
                if argv[0] == "batchlog":
                    self.parse(argv[1:])

    @staticmethod
    def parse(args: list[str]) -> None:
        """Parse `batchlog ARGS` as the command it names would, without running it (a usage error raises)."""
        if args[0] == "quick-batch":
            from batchlog.cli.quick_batch.main import _parser

            assert _parser().parse_args(args[1:]).cmd == args[1]
            return
        command, rest = app(), list(args)
        while rest and rest[0] in getattr(command, "commands", {}):
            command = command.commands[rest.pop(0)]
        command.make_context(" ".join(args[: len(args) - len(rest)]), rest)

    def test_examples_do_not_wrap_even_in_a_narrow_terminal(self):
        shown = invoke("tune", "next-batch", "--help", env={"COLUMNS": "40"}).out

        assert "  Example: batchlog tune next-batch -o finetune/runs/batch01-nomem-run1/cases.json\n" in shown


class TestVersion:
    def test_version_prints_the_packages_version(self):
        result = invoke("--version")

        assert (result.code, result.out, result.err) == (0, f"batchlog {__version__}\n", "")


class TestWholeNumbers:
    @pytest.mark.parametrize("args, said", [
        (("tune", "init", "--dataset", "d.json", "--limit", "9007199254740992"),
         "9007199254740992 is more than 9007199254740991"),
        (("tune", "status", "-m", "0"), "0 is less than 1"),
        (("tune", "next-batch", "-r", "-1"), "-1 is less than 0"),
        (("log", "show", "x.jsonl", "--at", "0"), "0 is less than 1"),
    ])
    def test_a_number_out_of_its_bounds_is_a_usage_error_naming_them(self, tmp_path, args, said):
        result = invoke(*args, cwd=tmp_path)

        assert result.code == 2 and said in result.err and list(tmp_path.iterdir()) == []

    def test_the_bounds_hold_at_the_edge(self, tmp_path):
        (tmp_path / "d.json").write_text('{"cases": [{"id": "a"}]}')

        result = invoke("tune", "init", "--dataset", "d.json", "--seed", "9007199254740991", cwd=tmp_path,
                        env={"BATCHLOG_CLOCK": "2026-12-02T16:00:00Z"})

        assert result.code == 0, result.err


def test_the_quick_batch_parser_is_the_only_one_with_choices_in_braces():
    """argparse's `{parse,start,...}` is the seed's contract; no typer command shows one."""
    assert {words[0] for words in quick_batch_commands()} == {"quick-batch"}
    assert all("{" not in help_of(words).splitlines()[0] for words in TYPER_COMMANDS)
