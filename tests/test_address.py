"""Log addresses, parsed in one place: a path, `file:PATH`, `memory:NAME` or
`postgresql://[user[:password]@]host[:port]/dbname?log=NAME`; and the address of a loop's log."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from batchlog.engine.address import check_log_name, log_address, parse_address
from batchlog.engine.errors import BadAddress

NAMES = st.from_regex(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,40}", fullmatch=True)


class TestParse:
    @pytest.mark.parametrize(("text", "path"), [
        ("finetune/events.jsonl", "finetune/events.jsonl"),
        ("file:finetune/events.jsonl", "finetune/events.jsonl"),
        ("/abs/path/events.jsonl", "/abs/path/events.jsonl"),
        ("C:events.jsonl", "C:events.jsonl"),
    ])
    def test_a_path_is_a_file_log(self, text, path):
        address = parse_address(text)

        assert (address.store, address.path) == ("file", Path(path))

    def test_memory_names_a_log_in_this_process(self):
        assert (parse_address("memory:abc").store, parse_address("memory:abc").name) == ("memory", "abc")

    def test_the_log_parameter_is_taken_out_and_the_others_go_to_the_driver(self):
        address = parse_address("postgresql://u:secret@db.example:5433/logs?sslmode=require&log=t-1")

        assert (address.store, address.name) == ("postgresql", "t-1")
        assert address.dsn == "postgresql://u:secret@db.example:5433/logs?sslmode=require"
        assert address.shown == "postgresql://u@db.example:5433/logs?sslmode=require&log=t-1"

    def test_postgres_is_a_scheme_of_the_same_store(self):
        assert parse_address("postgres://h/db?log=a").store == "postgresql"

    @given(NAMES, st.text(min_size=1, max_size=12))
    def test_a_password_is_never_shown(self, name, password):
        from urllib.parse import quote

        address = parse_address(f"postgresql://user:{quote(password, safe='')}@h/db?log={name}")

        assert address.shown == f"postgresql://user@h/db?log={name}"

    @pytest.mark.parametrize(("text", "says"), [
        ("", "an empty log address"),
        ("file:", "names no file"),
        ("memory:", "is not a log name"),
        ("memory:../x", "is not a log name"),
        ("postgresql://h/db", "names no log"),
        ("postgresql://h/db?log=a&log=b", "more than one log"),
        ("postgresql://h/?log=a", "names no database"),
        ("postgresql://h:99999999/db?log=a", "cannot be read"),
        ("postgresql://u:pa/ss@h/db?log=a", "must have it percent-encoded"),
        ("postgresql://h/db?log=a#x", "no #fragment"),
        ("postgresql://h/db?log=a/b", "is not a log name"),
        ("postgresql://h/db?log=", "is not a log name"),
        ("sqlite:///x.db", "is not a store batchlog knows"),
    ])
    def test_an_address_that_cannot_be_one_is_refused_with_what_to_write(self, text, says):
        with pytest.raises(BadAddress, match=says):
            parse_address(text)


class TestLogAddress:
    def test_the_file_store_is_the_folders_events_jsonl(self, tmp_path):
        assert log_address(None, None, tmp_path / "t") == str(tmp_path / "t" / "events.jsonl")
        assert log_address("file", "ignored", tmp_path / "t") == str(tmp_path / "t" / "events.jsonl")

    def test_a_server_log_is_named_by_the_folders_name_by_default(self, tmp_path):
        assert log_address("postgresql://h/db", None, tmp_path / "finetune") == "postgresql://h/db?log=finetune"

    def test_a_given_name_replaces_any_log_in_the_url_and_keeps_the_rest(self, tmp_path):
        address = log_address("postgresql://u@h/db?log=old&sslmode=require", "new", tmp_path)

        assert address == "postgresql://u@h/db?sslmode=require&log=new"
        assert parse_address(address).name == "new"

    @pytest.mark.parametrize("name", ["../x", "a/b", "/abs", ".hidden", "-flag", "", "a b", "é"])
    def test_a_name_that_is_a_path_or_not_plain_is_refused(self, name, tmp_path):
        with pytest.raises(BadAddress, match="never a path"):
            log_address("postgresql://h/db", name, tmp_path)

    def test_a_store_that_is_none_batchlog_knows_is_refused(self, tmp_path):
        with pytest.raises(BadAddress, match="is not a store"):
            log_address("mysql://h/db", "a", tmp_path)

    @given(NAMES)
    def test_every_plain_name_round_trips_through_an_address(self, name):
        assert check_log_name(name) == name
        assert parse_address(log_address("postgresql://h/db", name, Path("."))).name == name
        assert parse_address(log_address("memory", name, Path("."))).name == name
