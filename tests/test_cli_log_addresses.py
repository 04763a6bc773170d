"""`batchlog log ...` on log addresses: the same commands on a PostgreSQL log as on a file, `log migrate`
between them, and an address that cannot be used refused in one line with what to do (never a traceback)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import orjson
import pytest

from tests.clirunner import invoke

ROOT = Path(__file__).resolve().parent.parent
FINISHED = ROOT / "fixtures" / "tune-finished" / "events.jsonl"
CLOCK = {"BATCHLOG_CLOCK": "2026-12-02T16:00:00Z"}


@pytest.fixture
def server_log(postgres_url, log_name) -> str:
    """The address of a PostgreSQL log holding the finished fixture."""
    address = f"{postgres_url}{'&' if '?' in postgres_url else '?'}log={log_name}"
    assert invoke("log", "migrate", FINISHED, address).code == 0
    return address


class TestOnAServer:
    def test_verify_reports_as_for_the_file(self, server_log):
        on_server = orjson.loads(invoke("log", "verify", server_log, "--json").out)
        on_file = orjson.loads(invoke("log", "verify", FINISHED, "--json").out)

        assert on_server["trusted"] and {**on_server, "path": None} == {**on_file, "path": None}

    def test_show_and_head_print_what_they_print_for_the_file(self, server_log):
        for command in (["show", "--at", "40"], ["head"], ["show", "--type", "tune.run", "--json"]):
            on_server = invoke("log", command[0], server_log, *command[1:])
            on_file = invoke("log", command[0], FINISHED, *command[1:])

            assert (on_server.code, on_server.out) == (0, on_file.out)

    def test_a_receipt_of_the_file_verifies_on_the_server(self, server_log):
        receipt = invoke("log", "head", FINISHED).out.strip()

        result = invoke("log", "verify", server_log, "--since", receipt)

        assert result.code == 0, result.out

    def test_migrate_file_to_server_to_file_gives_the_same_bytes(self, server_log, tmp_path):
        back = tmp_path / "back" / "events.jsonl"

        result = invoke("log", "migrate", server_log, back, "--json")

        assert result.code == 0, result.err
        assert back.read_bytes() == FINISHED.read_bytes()
        assert orjson.loads(result.out)["events"] == FINISHED.read_bytes().count(b"\n")

    def test_migrate_to_a_log_that_exists_is_refused_and_changes_nothing(self, server_log):
        result = invoke("log", "migrate", FINISHED, server_log)

        assert result.code == 1 and "already holds a log" in result.err and result.out == ""

    def test_salvage_keeps_the_damaged_log_under_a_name_of_its_own(self, server_log, tmp_path):
        import psycopg2

        name = server_log.rpartition("log=")[2]
        with psycopg2.connect(server_log.rpartition("?")[0]) as conn, conn.cursor() as cur:
            cur.execute("UPDATE batchlog.events SET line = 'x' WHERE log = %s AND seq = 50", (name,))

        result = invoke("log", "salvage", server_log, env=CLOCK)

        assert result.code == 0, result.err
        assert "kept events 1..49" in result.out and f"log={name}.damaged-" in result.out
        assert invoke("log", "verify", server_log).code == 0


@pytest.mark.parametrize(("address", "says"), [
    ("postgresql://127.0.0.1:1/db?log=a", "cannot connect to postgresql://127.0.0.1:1/db?log=a"),
    ("postgresql://127.0.0.1:5432/db", "names no log: add ?log=NAME"),
    ("postgresql://127.0.0.1:5432/db?log=../a", "is not a log name"),
    ("postgresql://127.0.0.1:5432/?log=a", "names no database"),
    ("postgresql://u:pw@127.0.0.1:x/db?log=a", "cannot be read"),
    ("mysql://127.0.0.1/db", "is not a store batchlog knows"),
])
def test_an_address_that_cannot_be_used_is_refused_in_one_line(address, says):
    result = invoke("log", "verify", address)

    assert result.code == 1 and says in result.err and result.err.count("\n") == 1
    assert ":pw@" not in result.err


def test_a_user_the_server_refuses_is_named_without_a_traceback(postgres_url):
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(postgres_url)
    host = parts.netloc.rpartition("@")[2]
    address = urlunsplit((parts.scheme, f"no_such_batchlog_user@{host}", parts.path, "log=a", ""))

    result = invoke("log", "head", address)

    assert result.code == 1 and "cannot connect" in result.err and "no_such_batchlog_user" in result.err


def test_without_the_driver_a_server_address_says_how_to_install_it(tmp_path):
    code = ("import sys; sys.modules['psycopg2'] = None; from batchlog.cli.main import main;"
            "sys.exit(main(['log', 'verify', 'postgresql://127.0.0.1/db?log=a']))")

    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                            env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)})

    assert result.returncode == 1 and "pip install 'batchlog[postgresql]'" in result.stderr
    assert "Traceback" not in result.stderr
