"""One renderer of a store's address for people and agents (issue 23, items 5, 14 and 17's `POSTGRESQL://`).

Every message, JSON field, printed command and driver error names a log or a store through
engine/server_url.py's `shown_address`: no secret in any form libpq takes one (a password in the user part,
encoded or not, `?password=`, `?sslpassword=`, `?oauth_client_secret=`, a parameter name written
percent-encoded), every other part passed to the driver exactly as written, the scheme in any case. The test
lists every place in the code that shows an address (a new one fails until it is listed, with why it is
safe), then feeds every command that takes an address a URL with a secret in each form.
"""

from __future__ import annotations

import ast
import json
import shutil
from pathlib import Path
from urllib.parse import unquote

import pytest

from batchlog.engine.address import parse_address, recorder_for
from batchlog.engine.server_url import read_url, scrubbed, shown_address
from tests.clirunner import invoke

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
FINISHED = FIXTURES / "tune-finished" / "events.jsonl"
CLOCK = {"BATCHLOG_CLOCK": "2026-12-02T16:00:00Z"}

# Each form: (user part, query parameters, the secrets it holds, whether libpq reads it as written).
FORMS = {
    "userinfo": ("postgres:S3cretUser1@", "", ["S3cretUser1"], True),
    "userinfo, encoded": ("postgres:S3c%2Fr%40t%3F2@", "", ["S3c%2Fr%40t%3F2", "S3c/r@t?2"], True),
    "userinfo, an unencoded /": ("postgres:S3c/retSlash7@", "", ["S3c/retSlash7", "S3c", "retSlash7"], False),
    "?password=": ("postgres@", "password=S3cretQuery3&", ["S3cretQuery3"], True),
    "?sslpassword=": ("postgres@", "sslpassword=S3cretSsl4&", ["S3cretSsl4"], True),
    "?pass%77ord=": ("postgres@", "pass%77ord=S3cretKey5&", ["S3cretKey5"], True),
    "?oauth_client_secret=": ("postgres@", "oauth_client_secret=S3cretOauth8&", ["S3cretOauth8"], True),
}


def server_parts(postgres_url: str) -> tuple[str, str, str]:
    """(scheme, host[:port], /dbname) of the test server's URL."""
    parsed = read_url(postgres_url)
    return parsed.scheme, parsed.hosts, parsed.path


def with_secret(postgres_url: str, form: str, *, scheme: str | None = None) -> str:
    """The test server's URL (no `log=`) holding the secret of `form`."""
    userinfo, query, _, _ = FORMS[form]
    own_scheme, hosts, path = server_parts(postgres_url)
    return f"{scheme or own_scheme}://{userinfo}{hosts}{path}" + (f"?{query.rstrip('&')}" if query else "")


def secrets_of(form: str) -> list[str]:
    return FORMS[form][2]


# ─── the renderer ─────────────────────────────────────────────────────────────


class TestTheRenderer:
    @pytest.mark.parametrize("form", sorted(FORMS))
    @pytest.mark.parametrize("scheme", ["postgresql", "POSTGRESQL", "Postgres"])
    def test_no_secret_of_any_form_is_shown(self, form, scheme):
        url = with_secret("postgresql://h:5432/db", form, scheme=scheme)

        shown = shown_address(url + ("&" if "?" in url else "?") + "log=t")

        assert not any(secret in shown for secret in secrets_of(form)), shown
        assert shown.startswith(scheme.lower() + "://") and shown.endswith("log=t")

    def test_every_other_part_is_kept_as_written(self):
        url = ("postgresql://agent:pw@h1:5432,h2/db?options=-c%20statement_timeout%3D5000&sslmode=require"
               "&application_name=a+b@c&log=t")

        assert shown_address(url) == ("postgresql://agent@h1:5432,h2/db?options=-c%20statement_timeout%3D5000"
                                      "&sslmode=require&application_name=a+b@c&log=t")
        assert parse_address(url).dsn == ("postgresql://agent:pw@h1:5432,h2/db?options=-c%20statement_timeout"
                                          "%3D5000&sslmode=require&application_name=a+b@c")

    def test_what_the_driver_says_back_is_scrubbed_of_every_secret_it_was_given(self):
        dsn = "postgresql://u:S%2Fx@h/db?sslpassword=Ssl9&password=Pw9"
        said = f'could not parse "{dsn}": password "S/x" and "Pw9", key "Ssl9", u:S%2Fx'

        assert scrubbed(said, dsn) == ('could not parse "postgresql://u@h/db": password "***" and "***", '
                                       'key "***", u:***')


# ─── every place that shows an address ──────────────────────────────────────


RENDERED = "rendered"  # the engine's rendered address: a log's or a recorder's `address`, `shown(log)`, or
#                        `shown_address(...)` itself (engine/address.py makes `address` with it)
NOT_SHOWN = "not shown"  # an address handed on to be opened, not shown (a Store object, the raw address)
NOT_AN_ADDRESS = "not an address"  # a file's path (a payload, a dataset) or a constant: never a URL
# The names, attributes and calls that may hold an address; an expression of one of them shown in an f-string,
# a keyword argument, a dict's value, a print or an error's arguments is a place.
NAMES = {"address", "dsn", "url", "shown", "store", "source", "destination", "given", "text", "value"}
ATTRIBUTES = {"address", "dsn", "url", "shown", "source", "destination"}
CALLS = {"shown", "shown_address", "log_address"}

PLACES = {
    ("cli/log/commands.py", "_existing", "log.address"): RENDERED,
    ("cli/log/commands.py", "migrate_command", "done.destination"): RENDERED,  # Migrated: the engine's addresses
    ("cli/log/commands.py", "migrate_command", "done.source"): RENDERED,
    ("cli/log/commands.py", "salvage_command", "log.address"): RENDERED,
    ("cli/log/commands.py", "show_command", "log.address"): RENDERED,
    ("cli/log/commands.py", "summary", "shown"): NOT_AN_ADDRESS,  # an event's data
    ("cli/quick_batch/files.py", "_read_payload", "shown"): NOT_AN_ADDRESS,  # a payload file's path
    ("cli/quick_batch/status.py", "import_seed_batch", "shown(log)"): RENDERED,
    ("cli/store.py", "check_store", "shown"): RENDERED,  # shown_address(value)
    ("cli/store.py", "check_log_address", "value"): NOT_AN_ADDRESS,  # refused only when it is memory:NAME
    ("cli/tune/actions.py", "import_command", "shown(log)"): RENDERED,
    ("cli/tune/actions.py", "import_command", "source"): NOT_AN_ADDRESS,  # the zen folder's path
    ("cli/tune/reports.py", "audit_command", "shown(log)"): RENDERED,
    ("cli/tune/reports.py", "readme_command", "store"): NOT_SHOWN,
    ("cli/tune/reports.py", "usage_report_command", "shown"): NOT_AN_ADDRESS,  # the usage figures
    ("cli/tune/reports.py", "usage_report_command", "store"): NOT_SHOWN,
    ("cli/tune/views.py", "next_command", "store"): NOT_SHOWN,
    ("engine/address.py", "_server_address", "shown"): RENDERED,
    ("engine/address.py", "_server_address", "url"): NOT_AN_ADDRESS,  # read_url's problem, in words
    ("engine/address.py", "log_address", "shown_address(store)"): RENDERED,
    ("engine/address.py", "parse_address", "shown_address(text)"): RENDERED,
    ("engine/log.py", "_refuse_untrusted", "self.address"): RENDERED,
    ("engine/log.py", "replay", "self.address"): RENDERED,
    ("engine/log.py", "scan", "self.address"): RENDERED,
    ("engine/log.py", "fold", "self.address"): RENDERED,
    ("engine/log.py", "refuse_if_damaged", "self.address"): RENDERED,
    ("engine/migrate.py", "migrate", "dst.address"): RENDERED,
    ("engine/migrate.py", "migrate", "src.address"): RENDERED,
    ("engine/migrate.py", "_verified", "src.address"): RENDERED,
    ("cli/log/commands.py", "head_command", "log.address"): RENDERED,
    # The marker's own store (an attribute of a log file, or the sidecar beside it) and its place: a file's path.
    ("engine/recorders/file_pending.py", "cut_unfinished_command", "store"): NOT_AN_ADDRESS,
    ("engine/recorders/file_pending.py", "begin_marked", "held.store.shown"): NOT_AN_ADDRESS,
    ("engine/recorders/file_pending.py", "obeyed", "store.shown"): NOT_AN_ADDRESS,
    ("engine/recorders/memory.py", "locked", "self.address"): RENDERED,
    ("engine/recorders/postgresql.py", "_lost", "self.address"): RENDERED,
    ("engine/recorders/postgresql.py", "_wait", "self.address"): RENDERED,
    ("engine/recorders/postgresql.py", "_lock", "self.address"): RENDERED,
    ("engine/recorders/postgresql.py", "locked", "self.address"): RENDERED,
    ("engine/recorders/postgresql.py", "write", "self.recorder.address"): RENDERED,
    ("engine/recorders/postgresql_schema.py", "_set_up", "shown"): RENDERED,  # the recorder's address
    ("engine/recorders/postgresql_schema.py", "connect", "shown"): RENDERED,
    ("engine/recorders/wait.py", "take", "self.address"): RENDERED,  # a recorder's, or a file's path
    ("engine/salvage.py", "_lines_to_keep", "address"): RENDERED,  # the recorder's address, as `shown`
    ("engine/salvage.py", "_refuse_missing", "recorder.address"): RENDERED,
    ("engine/salvage.py", "salvage", "shown"): RENDERED,
    ("engine/salvage.py", "_first_damage", "address"): RENDERED,
    ("engine/snapshots/check.py", "_another_key", "shown"): RENDERED,
    ("engine/snapshots/check.py", "_stored_verdict", "recorder.address"): RENDERED,
    ("engine/snapshots/check.py", "_verdict_of", "shown"): RENDERED,
    ("engine/snapshots/check.py", "check_snapshots", "recorder.address"): RENDERED,
    ("engine/snapshots/stored.py", "_load", "log.address"): RENDERED,
    ("engine/verify.py", "verify", "log.address"): RENDERED,
    ("cli/lane.py", "read", "text"): NOT_AN_ADDRESS,  # an option's value made a Path
    ("cli/lane_writer.py", "of", "value"): NOT_AN_ADDRESS,  # a default written as the Path it is
    ("cli/log/commands.py", "_say", "text"): NOT_AN_ADDRESS,  # a wait's or a note's words, made with `address`
    ("cli/loop_log.py", "_say", "text"): NOT_AN_ADDRESS,
    ("cli/loop_log.py", "read_state", "stores.shown(log)"): RENDERED,
    ("cli/tune/log.py", "tuning_state", "store"): NOT_SHOWN,
    ("cli/quick_batch/briefs.py", "expand_briefs", "given"): NOT_AN_ADDRESS,  # a brief's path
    ("cli/quick_batch/commands.py", "hand_out", "shown"): NOT_AN_ADDRESS,  # the run folder's path
    ("cli/quick_batch/commands.py", "record_target", "given"): NOT_AN_ADDRESS,  # an exit-code map
    ("cli/quick_batch/commands.py", "record_target", "shown"): NOT_AN_ADDRESS,
    ("cli/quick_batch/commands.py", "start_batch", "given"): NOT_AN_ADDRESS,
    ("cli/quick_batch/commands.py", "start_batch", "shown"): NOT_AN_ADDRESS,
    ("cli/store.py", "chosen", "store"): NOT_SHOWN,  # the Store the command opens its log with
    ("cli/tune/checks.py", "__call__", "value"): NOT_AN_ADDRESS,  # an option's value, refused when a placeholder
    ("engine/address.py", "parse_address", "text"): RENDERED,  # a path or memory:NAME, which shows as itself
    ("engine/address.py", "recorder_for", "parsed.dsn"): NOT_SHOWN,  # what the driver connects with
    ("engine/address.py", "recorder_for", "parsed.shown"): RENDERED,
    ("engine/fold_version.py", "code_version", "source"): NOT_AN_ADDRESS,  # a module's file
    ("engine/server_url.py", "text", "value"): RENDERED,  # the renderer itself: a parameter's value
    ("projections/quick_batch/grammar.py", "parse_line", "text"): NOT_AN_ADDRESS,  # projections see no address
    ("projections/tune/decide/loop.py", "init_tuning", "value"): NOT_AN_ADDRESS,
    ("projections/tune/decide/refusals.py", "check_count", "value"): NOT_AN_ADDRESS,
    ("projections/tune/views/readme/batches.py", "_changed", "text"): NOT_AN_ADDRESS,
    ("projections/tune/views/readme/sections.py", "_class_table", "value"): NOT_AN_ADDRESS,
    ("projections/tune/views/status.py", "placeholder_refusal", "value"): NOT_AN_ADDRESS,
    ("projections/tune/views/usage.py", "_bold", "value"): NOT_AN_ADDRESS,
    ("projections/quick_batch/progress.py", "progress_text", "source"): NOT_AN_ADDRESS,  # a batch file's path
    ("projections/tune/batch_mjs/selection.py", "check_cases", "source"): NOT_AN_ADDRESS,  # a dataset's path
    ("projections/tune/batch_mjs/selection.py", "check_listed_cases", "source"): NOT_AN_ADDRESS,
    ("projections/tune/zen_import.py", "_with_difficult", "source"): NOT_AN_ADDRESS,  # difficult.json's path
    ("engine/files.py", "_os_refusal", "shown"): NOT_AN_ADDRESS,  # the path of a file besides the logs
    ("engine/files.py", "_refuse_unless_regular", "shown"): NOT_AN_ADDRESS,
    # The watches (engine/follow.py and its recorders' tails, cli/watch.py's screens).
    ("cli/loop_log.py", "warn_newer", "stores.shown(log)"): RENDERED,
    ("cli/tune/watch_screen.py", "tuning_screen", "address"): RENDERED,  # shown(log), from cli/tune/watch.py
    ("cli/quick_batch/watch_screen.py", "batch_screen", "view.source"): NOT_AN_ADDRESS,  # the targets file's path
    ("projections/quick_batch/watch.py", "batch_watch", "source"): NOT_AN_ADDRESS,
    ("engine/follow.py", "follow", "log.address"): RENDERED,
    ("engine/follow.py", "tail_of", "log.address"): RENDERED,
    ("engine/follow.py", "_note", "reader.address"): RENDERED,  # the follower's recorder's: the log's own
    ("engine/recorders/postgresql_follow.py", "_lost", "self.recorder.address"): RENDERED,
    ("cli/checks.py", "__call__", "value"): NOT_AN_ADDRESS,  # a whole number out of its bounds
    ("cli/lane_writer.py", "main", "source"): NOT_AN_ADDRESS,  # the lane's table as Python source
    ("cli/methods_writer.py", "main", "source"): NOT_AN_ADDRESS,  # the table of compiled methods as Python source
    # click's usage text, printed through the terminal's door: a store in it is in cli/store.py's words, rendered
    ("cli/app.py", "_run_typer", "shown"): RENDERED,
    # `tune next`'s command with its control characters escaped: its --store is `Store.printed`'s, rendered
    ("projections/tune/views/readme/sections.py", "next_section", "shown(step.command)"): RENDERED,
}


TERMINAL = ("say", "show", "show_json", "json_line")  # cli/terminal.py's: every line batchlog prints


def _is_place(expression: ast.expr) -> bool:
    if isinstance(expression, ast.Attribute):
        return expression.attr in ATTRIBUTES
    if isinstance(expression, ast.Name):
        return expression.id in NAMES
    if isinstance(expression, ast.Call):
        callee = expression.func
        return (callee.attr if isinstance(callee, ast.Attribute) else getattr(callee, "id", None)) in CALLS
    return False


def _shown_in(node: ast.AST) -> list[ast.expr]:
    """The expressions `node` shows: an f-string's values, keyword arguments, a dict's values, and the arguments
    of a print (cli/terminal.py's, `TERMINAL`), an error or another object a message is made from (a call of a
    capitalised name)."""
    if isinstance(node, ast.FormattedValue):
        return [node.value]
    if isinstance(node, ast.Dict):
        return [value for value in node.values if value is not None]
    if isinstance(node, ast.Call):
        callee = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
        named = [keyword.value for keyword in node.keywords if keyword.arg]
        messages = callee == "print" or callee[:1].isupper() or callee in (
            *TERMINAL, "refuse_damaged", "unacknowledged_note", "require_within_log")
        return named + (list(node.args) if messages else [])
    return []


def places() -> set[tuple[str, str, str]]:
    found = set()
    for layer in ("engine", "projections", "cli"):
        for path in sorted((ROOT / layer).rglob("*.py")):
            def visit(node: ast.AST, function: str) -> None:
                if isinstance(node, ast.FunctionDef):
                    function = node.name
                for expression in _shown_in(node):
                    if _is_place(expression):
                        found.add((path.relative_to(ROOT).as_posix(), function, ast.unparse(expression)))
                for child in ast.iter_child_nodes(node):
                    visit(child, function)

            visit(ast.parse(path.read_text(encoding="utf-8")), "")
    return found


def test_every_place_that_shows_an_address_is_listed():
    assert places() == set(PLACES)


def test_every_recorder_address_is_the_renderers():
    """What RENDERED rests on: a log's and a recorder's `address` is `shown_address` of the address given."""
    for form in FORMS:
        url = with_secret("postgresql://h:5432/db", form) + "&log=t".replace("&", "&" if FORMS[form][1] else "?")
        if not FORMS[form][3] or "/retSlash7" in url:
            continue
        recorder = recorder_for(url)

        assert recorder.address == shown_address(url)
        assert not any(secret in recorder.address for secret in secrets_of(form))


# ─── every command that takes an address, fed each form ─────────────────────


@pytest.fixture
def tuning_on_server(postgres_url, log_name, tmp_path) -> tuple[Path, str]:
    """A copy of the finished tuning, its log on the test server (migrated there), its folder without one."""
    folder = tmp_path / "finetune"
    shutil.copytree(FIXTURES / "tune-finished", folder)
    address = f"{postgres_url}{'&' if '?' in postgres_url else '?'}log={log_name}"
    assert invoke("log", "migrate", folder / "events.jsonl", address).code == 0
    (folder / "events.jsonl").unlink()
    return folder, log_name


def _log_commands(address: str, folder: Path) -> list[list[str]]:
    return [["log", "verify", address], ["log", "verify", address, "--json"], ["log", "verify", address, "--snapshots"],
            ["log", "show", address, "--at", "2"], ["log", "head", address], ["log", "salvage", address],
            ["log", "show", address, "--at", "999"], ["log", "migrate", address, str(folder / "copy.jsonl"), "--json"],
            ["log", "migrate", str(FINISHED), address]]


def _loop_commands(store: str, name: str, folder: Path) -> list[tuple[list[str], dict[str, str]]]:
    options = ["--dir", str(folder), "--store", store, "--log", name]
    env = {"BATCHLOG_STORE": store}
    return [(["tune", "status", *options], {}), (["tune", "next", "--json", *options], {}),
            (["tune", "next", "--dir", str(folder), "--log", name], env),
            (["tune", "readme", "--stdout", *options], {}), (["tune", "audit", "--json", *options], {}),
            (["tune", "status", "--dir", str(folder), "--store", store, "--log", "nothing-here"], {}),
            (["tune", "status", "--at", "999", *options], {}),
            (["quick-batch", "status", "--run-dir", str(folder), "--store", store, "--log", name, "--json"], {})]


@pytest.mark.parametrize("form", sorted(FORMS))
def test_no_command_shows_a_secret_of_any_form(tuning_on_server, postgres_url, form):
    folder, name = tuning_on_server
    store = with_secret(postgres_url, form)
    address = f"{store}{'&' if '?' in store else '?'}log={name}"
    runs = [(words, {}) for words in _log_commands(address, folder)] + _loop_commands(store, name, folder)
    secrets = secrets_of(form)

    results = [(words, invoke(*words, env={**CLOCK, **env})) for words, env in runs]

    for words, result in results:
        said = result.out + result.err
        assert not any(secret in said or unquote(secret) in said for secret in secrets), (words, said)
        assert "Traceback" not in said
    if FORMS[form][3] and form != "?oauth_client_secret=":  # the driver takes these: every command works
        assert [result.code for _, result in results[:3]] == [0, 0, 0], [r.err for _, r in results[:3]]
        assert json.loads(results[1][1].out)["path"] == shown_address(address)
    else:  # refused, as a usage error or a connection that cannot be made, and said so
        assert all(result.code in (1, 2) and result.err for _, result in results)


def test_a_parameter_reaches_the_driver_as_written(tuning_on_server, postgres_url):
    """`options=-c%20statement_timeout%3D5000` was re-encoded with `+`, which libpq does not read as a space."""
    _, name = tuning_on_server
    separator = "&" if "?" in postgres_url else "?"
    address = f"{postgres_url}{separator}options=-c%20statement_timeout%3D5000&log={name}"

    verified = invoke("log", "verify", address)
    timeout = recorder_for(address).query("SHOW statement_timeout")[0]

    assert verified.code == 0, verified.err
    assert timeout == "5s"


def test_a_scheme_in_upper_case_is_the_same_store(tuning_on_server, postgres_url):
    _, name = tuning_on_server
    upper = postgres_url.replace("postgresql://", "POSTGRESQL://").replace("postgres://", "POSTGRES://")

    verified = invoke("log", "verify", f"{upper}{'&' if '?' in upper else '?'}log={name}")

    assert verified.code == 0, verified.err


def test_a_driver_error_that_repeats_the_url_is_scrubbed(monkeypatch):
    import psycopg2

    url = "postgresql://agent:S3cretEcho@db.example:5432/tunings?sslpassword=S3cretEcho2&log=t"

    def refuse(dsn, **_):
        raise psycopg2.OperationalError(f'could not connect with "{dsn}": bad password S3cretEcho')

    monkeypatch.setattr(psycopg2, "connect", refuse)

    result = invoke("log", "head", url)

    assert result.code == 1 and "cannot connect" in result.err
    assert "S3cretEcho" not in result.err and "postgresql://agent@db.example:5432/tunings" in result.err
