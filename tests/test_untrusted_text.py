"""Untrusted text reaching a terminal, a README or a shell command is escaped for that target, each in one place
(issue 23: items 16 and 17, "one door per promise"):

- the terminal: every line batchlog prints goes through cli/terminal.py, which shows control characters as their
  escapes. The test finds every place in cli/ that prints (every call of the door, by the syntax tree; nothing
  else may write to stdout or stderr), drives a tuning, its log commands and a quick batch through hostile text
  (line breaks, marker text, escape sequences, C1 and bidi controls, backticks, `$()`), records which places
  printed, and checks that every place printed at least once and that no output holds a raw control character;
- the README: the text it is given stays on one line and cannot open a marker, HTML, a code span, a link or a
  table cell, so the README splices again and again, with hostile notes, summaries, classes, models and a
  hostile folder above the tuning's (the README's title);
- a shell command: every command batchlog prints parses with shlex into the intended words, one per argument,
  and pasted into bash it runs as printed (no `$()` runs).
"""

from __future__ import annotations

import ast
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from batchlog.cli import terminal
from tests.clirunner import invoke

ROOT = Path(__file__).resolve().parent.parent
CLI = ROOT / "cli"
CLOCK = {"BATCHLOG_CLOCK": "2026-12-02T16:00:00Z"}
DOOR = ("say", "show", "show_json", "json_line")

# Free text: everything a terminal, markdown or a shell could take for something else.
HOSTILE = ("x\n<!-- batchlog:end where -->\n\x1b[31mred\x1b]0;title\x07 `$(touch pwned)` \x9b2J \u202eevil "
           "|cell| *em* _u_ [l](javascript:x) &amp; <b>\r")
# A case id holds no control character (refused: test_a_case_id_with_a_control_character_is_refused), but every
# other character a shell or markdown reads: a leading "-", quotes, `$()`, backticks, a marker.
CASE = "-$(touch pwned) `x` <!-- batchlog:end next --> 'q' \"d\"|*"
# The folder above the tuning's: its name is the README's title, and in every absolute path batchlog prints.
PARENT = "parent\n<!-- batchlog:end where -->\x1b[2J"
FOLDER = "my tune $(touch pwned)"

CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f]")  # what a terminal obeys (Unicode's Cc, but the line end)
SHOWN = re.compile("[\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]")  # shown escaped outside JSON
MARKER = re.compile(r"^[ \t]*<!-- batchlog:(begin|end) ([A-Za-z0-9_-]+) -->[ \t\r]*$", re.M)

# The places that print no text a user or a file supplied, or that only a situation this test does not make
# reaches (each says why); every other place must print in the scenario below.
NOT_REACHED = {
    ("cli/app.py", "Error"): "a typer error without its own text: none of batchlog's raises one",
    ("cli/quick_batch/files.py", "terminal.say(message"): "a lock wait on a summarized batch's archived log",
    ("cli/lane_writer.py", "terminal."): "the fast lane's table writer, run from a clone: no text but its own",
    ("cli/methods_writer.py", "terminal."): "the compiled methods' table writer, run from a clone: no text but its own",
    ("cli/watch.py", "terminal.json_line(line)"): "a watch's line: it follows its loop until it ends "
                                                  "(tests/test_watch_cli.py drives it through a pipe)",
    ("cli/watch.py", "terminal.say(step.note"): "a watch's note of a torn tail (tests/test_watch_cli.py)",
}


def door_calls() -> list[tuple[str, int, str]]:
    """Every call of the terminal's door in cli/: (file, line, the line's text)."""
    found = []
    for path in sorted(CLI.rglob("*.py")):
        if path.name == "terminal.py":
            continue
        source = path.read_text(encoding="utf-8")
        lines = source.splitlines()
        for node in ast.walk(ast.parse(source)):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in DOOR
                    and isinstance(node.func.value, ast.Name) and node.func.value.id == "terminal"):
                found.append((path.relative_to(ROOT).as_posix(), node.lineno, lines[node.lineno - 1].strip()))
    return found


def exempt(call: tuple[str, int, str]) -> bool:
    return any(call[0] == file and part in call[2] for file, part in NOT_REACHED)


class TestOneDoorToTheTerminal:
    def test_nothing_in_cli_writes_to_stdout_or_stderr_but_the_door(self):
        """No print, no sys.stdout / sys.stderr, no echo in cli/ outside cli/terminal.py."""
        found = []
        for path in sorted(CLI.rglob("*.py")):
            if path.name == "terminal.py":
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                name = ast.unparse(node.func) if isinstance(node, ast.Call) else None
                if name in ("print", "typer.echo", "click.echo", "echo") or (
                        isinstance(node, ast.Attribute) and ast.unparse(node) in ("sys.stdout", "sys.stderr")):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node)[:60]}")

        assert found == []

    def test_the_door_shows_control_characters_and_keeps_json_values(self, capsys):
        terminal.say("a\x1b[31mb\nc\u202e\x9b")
        terminal.show("x\ry\n")
        terminal.json_line({"note": "\x1b\x9b\x7f"})

        out = capsys.readouterr().out
        assert out == "a\\x1b[31mb\\nc\\u202e\\x9b\nx\\ry\n" + '{"note":"\\u001b\\u009b\\u007f"}\n'
        assert json.loads(out.splitlines()[-1]) == {"note": "\x1b\x9b\x7f"}


class Scenario:
    """A tuning in FOLDER under PARENT, driven with hostile text; every output kept."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.parent = root / PARENT
        self.folder = self.parent / FOLDER
        self.parent.mkdir()
        self.outputs: list[tuple[tuple[str, ...], str, str]] = []
        self.pasted: list[subprocess.CompletedProcess] = []

    def run(self, *args: str | Path, codes=(0,), cwd: Path | None = None, stdin: str = "") -> tuple[str, str]:
        result = invoke(*args, env=CLOCK, cwd=cwd or self.parent, stdin=stdin)
        assert result.code in codes, (args, result.code, result.err)
        self.outputs.append((tuple(map(str, args)), result.out, result.err))
        return result.out, result.err

    def tune(self, *args: str | Path, codes=(0,)) -> tuple[str, str]:
        return self.run("tune", *args, "--dir", FOLDER, codes=codes)

    def paste(self, command: str) -> None:
        """`command` pasted into bash, run from the folder above the tuning's (where its --dir leads)."""
        path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"
        self.pasted.append(subprocess.run(["bash", "-c", command], cwd=self.parent, capture_output=True, text=True,
                                          timeout=120, env={**os.environ, **CLOCK, "PATH": path}))

    def printed_commands(self) -> list[str]:
        """Every command the outputs hold: `tune next`'s lines, `--json`'s command fields, backticked hints."""
        found = []
        for _, out, err in self.outputs:
            found += [line.strip() for line in out.splitlines() if line.strip().startswith("batchlog ")]
            found += re.findall(r"`(batchlog [^`]*)`", out + err)
            for line in out.splitlines():
                if line.startswith("{") and line.endswith("}"):  # a --json answer (not a pretty JSON file)
                    found += _commands_in(json.loads(line))
        return found


def _commands_in(value: object) -> list[str]:
    if isinstance(value, dict):
        return [text for key, item in value.items() for text in
                ([item] if key in ("command", "template") and isinstance(item, str) else _commands_in(item))]
    if isinstance(value, list):
        return [text for item in value for text in _commands_in(item)]
    return []


def drive_a_tuning(scene: Scenario) -> None:
    """init, views, a batch graded WRONG with a hostile case, its difficult entry added by the pasted command,
    notes, a change, usage, a fix, a regrade, the reports, refusals that echo hostile text."""
    dataset = scene.parent / "dataset.json"
    dataset.write_text(json.dumps({"cases": [{"id": CASE, "class": HOSTILE}, {"id": "b", "class": HOSTILE},
                                             {"id": "c"}, {"id": "d"}]}))
    tune, run1, run2 = scene.tune, "batch01-nomem-run1", "batch01-nomem-run2"
    tune("init", "--dataset", "dataset.json")
    for args in (("status",), ("status", "--json"), ("next",), ("next-batch",), ("next-batch", "--json")):
        tune(*args)
    tune("next-batch", "-o", f"{FOLDER}/runs/{run1}/cases.json")
    tune("run", "grade", run1, "--verdict", "WRONG", "--wrong", CASE, "--note", HOSTILE)
    tune("next")
    tune("next", "--json")
    (add,) = {command for command in scene.printed_commands() if " difficult add " in command}
    scene.paste(add)
    tune("change", run1, "--file", f"prompts/{HOSTILE}.md", "--summary", HOSTILE, "--lines", "1")
    tune("usage", run1, "--model", HOSTILE, "--calls", "3", "--input-tokens", "100", "--output-tokens", "10")
    tune("run", "start", "--batch", "1", "--kind", "nomem")
    tune("run", "grade", run2, "--verdict", "PASSED", "--note", HOSTILE)
    tune("next")
    scene.run("tune", "difficult", "fix", "--run", run2, "--note", HOSTILE, "--dir", FOLDER, "--", CASE)
    tune("run", "regrade", run2, "--verdict", "CORRECT", "--reason", HOSTILE)
    for args in (("difficult",), ("difficult", "--json"), ("readme",), ("readme",), ("readme", "--check"),
                 ("readme", "--stdout"), ("readme", "--json", "--stdout"), ("usage-report",),
                 ("usage-report", "--json", "--check")):
        tune(*args)
    tune("audit", codes=(1,))
    tune("audit", "--json", codes=(1,))
    tune("run", "grade", run2, "--verdict", "PASSED", "--findings", HOSTILE, codes=(1,))  # echoes the path
    tune("run", "grade", run2, "--verdict", "PASSED", "--findings", HOSTILE, "--json", codes=(1,))
    tune("status", f"--bogus{HOSTILE}", codes=(2,))  # typer's usage error
    readme = scene.folder / "README.md"  # the user's own text, outside the markers, on a line of its own
    readme.write_text(readme.read_text() + HOSTILE.replace("\n", " ") + "\n")
    tune("change", run2, "--file", "p.md", "--summary", HOSTILE)
    tune("readme", "--check", codes=(1,))  # a diff of a README that holds hostile text
    scene.run("--version")


def drive_the_log_commands(scene: Scenario) -> None:
    """The log commands on copies of the tuning's log, named by absolute paths (PARENT in them): sound, with a
    newer event, damaged, torn, salvaged, migrated."""
    from batchlog.cli.tune.log import tuning_types
    from batchlog.engine import EventLog, EventType, Projection, Registry
    from batchlog.engine.registry import Raw

    log = scene.folder / "events.jsonl"
    for args in (("show", log), ("show", log, "--json"), ("verify", log), ("verify", log, "--json"),
                 ("verify", log, "--snapshots"), ("head", log), ("head", log, "--json")):
        scene.run("log", *args)
    newer = scene.parent / "newer" / "events.jsonl"
    newer.parent.mkdir()
    shutil.copyfile(log, newer)
    future = Registry([*(t for t in tuning_types().by_name.values() if t.name != "tune.run_graded"),
                       EventType("tune.run_graded", 9, upcasters=(lambda data: data,) * 8)])
    EventLog(newer, future).append(Projection("any", None, lambda state, event: state),
                                   lambda state: [Raw("tune.run_graded", {"run": HOSTILE, "verdict": HOSTILE})])
    scene.run("log", "show", newer)
    scene.run("tune", "status", "--dir", "newer")  # the newer-events warning (cli/loop_log.py)
    damaged = scene.parent / "damaged.jsonl"
    lines = log.read_bytes().splitlines(keepends=True)
    damaged.write_bytes(b"".join(lines[:2]) + b'{"seq":3,"x":"' + HOSTILE.encode() + b'"}\n' + b"".join(lines[3:]))
    scene.run("log", "show", damaged)
    scene.run("log", "show", damaged, "--json")
    scene.run("log", "verify", damaged, codes=(3,))
    audit = scene.parent / "damaged"
    audit.mkdir()
    shutil.copyfile(damaged, audit / "events.jsonl")
    scene.run("tune", "audit", "--dir", "damaged", codes=(3,))
    scene.run("tune", "audit", "--dir", "damaged", "--json", codes=(3,))
    torn = scene.parent / "torn"
    torn.mkdir()
    (torn / "events.jsonl").write_bytes(log.read_bytes() + HOSTILE.replace("\n", " ").encode())  # no line end
    scene.run("tune", "status", "--dir", "torn")  # the torn tail's note (cli/loop_log.py, on_note)
    scene.run("log", "salvage", damaged)
    scene.run("log", "salvage", damaged)  # nothing to cut now
    scene.run("log", "salvage", damaged, "--to", "1", "--json")
    scene.run("log", "migrate", log, scene.parent / "copy.jsonl")
    scene.run("log", "migrate", log, scene.parent / "copy2.jsonl", "--json")
    drive_unfinished_commands(scene, log)


def drive_unfinished_commands(scene: Scenario, log: Path) -> None:
    """The log commands on a copy of the log whose last line is part of a command a writer was killed in, and on
    one whose marker batchlog did not write (its notes name the log's path, PARENT in it)."""
    from tests.marker_stores import leave_unfinished, set_marker

    unfinished = scene.parent / "unfinished.jsonl"
    shutil.copyfile(log, unfinished)
    data = unfinished.read_bytes()
    leave_unfinished(unfinished, data.rindex(b"\n", 0, len(data) - 1) + 1, keep=10)
    for args in (("show", unfinished), ("show", unfinished, "--json"), ("verify", unfinished), ("head", unfinished)):
        scene.run("log", *args)
    scene.run("log", "migrate", unfinished, scene.parent / "copy3.jsonl")  # its note: the part is not copied
    garbled = scene.parent / "garbled.jsonl"
    shutil.copyfile(log, garbled)
    set_marker(garbled, b"\0")
    scene.run("log", "show", garbled)


def drive_a_quick_batch(scene: Scenario) -> None:
    """A quick batch whose targets carry hostile text: parse, start, next, status, a refusal, a torn tail's
    note."""
    targets = scene.parent / "targets.txt"
    targets.write_text(f"alpha {HOSTILE.replace(chr(10), ' ')}\nbeta\n", encoding="utf-8")
    run_dir = scene.parent / "runs" / "skf-quick-skill-1"
    qb = lambda *args, codes=(0,): scene.run("quick-batch", *args, codes=codes)  # noqa: E731
    qb("parse", targets)
    qb("start", targets, "--run-dir", run_dir)
    qb("next", "--run-dir", run_dir)
    qb("status", "--run-dir", run_dir)
    qb("status", "--run-dir", run_dir, "--json")
    qb("record", "--run-dir", run_dir, "--batch", "9", codes=(1,))  # the seed's refusal line
    with (run_dir / "events.jsonl").open("ab") as log:
        log.write(HOSTILE.replace("\n", " ").encode())
    qb("next", "--run-dir", run_dir)  # the torn tail's note (cli/quick_batch/files.py)


@pytest.fixture(scope="module")
def hostile_scene(tmp_path_factory):
    """Every scenario run once, the places of the door each reached."""
    mp = pytest.MonkeyPatch()
    places: set[tuple[str, int]] = set()
    for name in DOOR:
        original = getattr(terminal, name)

        def recorded(*args, _original=original, **kwargs):
            caller = sys._getframe(1)
            path = Path(caller.f_code.co_filename).resolve()
            if path.is_relative_to(CLI) and path.name != "terminal.py":
                places.add((path.relative_to(ROOT).as_posix(), caller.f_lineno))
            return _original(*args, **kwargs)

        mp.setattr(terminal, name, recorded)
    scene = Scenario(tmp_path_factory.mktemp("hostile"))
    try:
        drive_a_tuning(scene)
        drive_the_log_commands(scene)
        drive_a_quick_batch(scene)
    finally:
        mp.undo()
    return scene, places


class TestHostileText:
    def test_every_place_that_prints_printed_in_the_scenario(self, hostile_scene):
        _, places = hostile_scene
        calls = door_calls()

        missed = [call for call in calls if (call[0], call[1]) not in places and not exempt(call)]
        assert missed == [] and len(calls) - len(NOT_REACHED) >= 38, (len(calls), missed)

    def test_no_output_holds_a_raw_control_character(self, hostile_scene):
        scene, _ = hostile_scene

        raw = [(args, CONTROL.findall(out + err)) for args, out, err in scene.outputs if CONTROL.search(out + err)]
        assert raw == []

    def test_bidi_controls_and_separators_are_shown_escaped_but_in_json(self, hostile_scene):
        """JSON keeps them as JSON.stringify writes them (a batch's preview is batch.mjs's, byte for byte)."""
        scene, _ = hostile_scene

        shown = [(args, line) for args, out, err in scene.outputs for line in (out + err).splitlines()
                 if SHOWN.search(line) and not line.lstrip().startswith(("{", '"'))]
        assert shown == []

    def test_the_hostile_text_was_shown_escaped(self, hostile_scene):
        scene, _ = hostile_scene
        everything = "".join(out + err for _, out, err in scene.outputs)

        assert "\\x1b[31mred\\x1b]0;title\\x07" in everything and "\\u202eevil" in everything
        assert "\\u001b[31mred" in everything and "\\u009b2J" in everything  # in JSON

    def test_every_printed_command_parses_into_its_words_each_quoted_once(self, hostile_scene):
        scene, _ = hostile_scene
        commands = scene.printed_commands()

        assert len(commands) > 20
        for command in commands:
            argv = shlex.split(command)
            assert argv[0] == "batchlog" and shlex.join(argv) == command, command
            if argv[1] == "tune" and len(argv) > 3:  # not a command named in prose (`batchlog tune usage`)
                assert argv[argv.index("--dir") + 1] in (FOLDER, "newer", "torn", "damaged"), command

    def test_the_hostile_case_is_one_word_after_double_dash(self, hostile_scene):
        scene, _ = hostile_scene
        naming = [shlex.split(command) for command in scene.printed_commands() if "pwned) `x`" in command]

        assert naming and all(argv[-2:] == ["--", CASE] for argv in naming)

    def test_pasted_into_bash_a_printed_command_runs_as_printed(self, hostile_scene):
        """The scenario pasted the `difficult add` of the hostile case `tune next` printed into bash: it ran, it
        listed that very case, and no `$()` or backtick of it ran."""
        scene, _ = hostile_scene
        (done,) = scene.pasted
        difficult = json.loads(invoke("tune", "difficult", "--dir", FOLDER, "--json", cwd=scene.parent).out)["difficult"]

        assert done.returncode == 0, done.stderr
        assert [row["case"] for row in difficult] == [CASE]
        assert not list(scene.root.rglob("pwned")) and not list(Path.cwd().glob("pwned"))


class TestTheReadmeSplicesAgain:
    def test_the_readme_keeps_one_pair_of_markers_per_section_and_splices_again(self, hostile_scene):
        scene, _ = hostile_scene
        readme = (scene.folder / "README.md").read_text(encoding="utf-8")

        markers = MARKER.findall(readme)
        assert sorted(markers) == sorted((kind, name) for name in {name for _, name in markers}
                                         for kind in ("begin", "end"))
        assert len(markers) == 18
        assert readme.splitlines()[0] == "# Tuning parent \\<!-- batchlog:end where -->\\x1b\\[2J"

    def test_hostile_text_in_the_readme_is_one_line_with_no_raw_control_or_entity(self, hostile_scene):
        scene, _ = hostile_scene
        sections = json.loads(invoke("tune", "readme", "--dir", FOLDER, "--json", "--stdout", env=CLOCK,
                                     cwd=scene.parent).out)["sections"]

        text = "\n".join(sections.values())
        prose = re.sub(r"(`+).+?\1", "", text)  # in a code span an entity is its own characters
        assert not CONTROL.search(text) and not SHOWN.search(text) and not re.search(r"(?<!\\)&#?\w+;", prose)
        assert "\\<b>" in text and "\\[l\\](javascript:x)" in text

    def test_a_hostile_dataset_name_is_a_title_that_splices_again(self, tmp_path):
        dataset = tmp_path / "d.json"
        dataset.write_text(json.dumps({"name": HOSTILE, "cases": [{"id": "a"}]}))
        folder = tmp_path / "t"
        invoke("tune", "init", "--dataset", dataset, "--dir", folder, env=CLOCK)

        first = invoke("tune", "readme", "--dir", folder, env=CLOCK)
        again = invoke("tune", "readme", "--dir", folder, env=CLOCK)

        assert (first.code, again.code, again.out) == (0, 0, f"{folder}/README.md: up to date\n")
        assert len(MARKER.findall((folder / "README.md").read_text(encoding="utf-8"))) == 18


class TestWhatCannotBeNamedInACommand:
    def test_a_folder_with_a_control_character_is_a_usage_error(self, tmp_path):
        result = invoke("tune", "status", "--dir", "a\nb", cwd=tmp_path)
        fast = invoke("tune", "next", "--dir", "a\x1bb", cwd=tmp_path)

        assert result.code == 2 and "the folder's path holds a control character (\\n)" in result.err
        assert fast.code == 2 and "(\\x1b)" in fast.err and not CONTROL.search(fast.err)

    def test_a_case_id_with_a_control_character_is_refused(self, tmp_path):
        dataset = tmp_path / "d.json"
        dataset.write_text(json.dumps({"cases": [{"id": "a"}, {"id": "b\x1b[2J"}]}))

        result = invoke("tune", "init", "--dataset", dataset, "--dir", tmp_path / "t", env=CLOCK)

        assert result.code == 1 and "case 2 has the id 'b\\x1b[2J', which holds a control character (\\x1b)" in result.err
        assert not (tmp_path / "t" / "events.jsonl").exists()


class TestTheWatchScreens:
    """What rich draws for `tune watch` and `quick-batch watch` on a terminal goes through the door's escaping too
    (cli/terminal.py `escaped_values`): the scenario's hostile names, notes and targets, drawn, hold no control
    character a terminal obeys."""

    @staticmethod
    def drawn(renderable) -> str:
        import io

        from rich.console import Console

        console = Console(file=io.StringIO(), width=200, force_terminal=False, color_system=None)
        console.print(renderable)
        return console.file.getvalue()

    def test_the_tunings(self, hostile_scene):
        from batchlog.cli.tune.log import tuning_types
        from batchlog.cli.tune.watch_screen import tuning_screen
        from batchlog.engine.log import EventLog
        from batchlog.projections.tune.decider import TUNE
        from batchlog.projections.tune.views.status import Place
        from batchlog.projections.tune.views.watch import tuning_watch

        scene, _ = hostile_scene
        log = EventLog(scene.folder / "events.jsonl", tuning_types())
        state = log.replay(TUNE).state
        recent = tuple(event for step in log.scan() for event in getattr(step, "events", (step,)))[-8:]

        drawn = self.drawn(tuning_screen(tuning_watch(state, Place(FOLDER, ())), recent, HOSTILE, PARENT))

        assert "touch pwned" in drawn and CONTROL.search(drawn.replace("\n", "")) is None

    def test_the_quick_batchs(self, hostile_scene):
        from batchlog.cli.quick_batch.watch_screen import batch_screen
        from batchlog.engine.log import EventLog
        from batchlog.projections.quick_batch.decider import QUICK_BATCH
        from batchlog.cli.loops import types_for
        from batchlog.projections.quick_batch.watch import batch_watch

        scene, _ = hostile_scene
        run_dir = scene.parent / "runs" / "skf-quick-skill-1"
        log = EventLog(run_dir / "events.jsonl", types_for(QUICK_BATCH))
        state = log.replay(QUICK_BATCH).state

        drawn = self.drawn(batch_screen(batch_watch(state, str(run_dir), "2026-12-02T16:00:00.000Z"), HOSTILE))

        assert "touch pwned" in drawn and CONTROL.search(drawn.replace("\n", "")) is None
