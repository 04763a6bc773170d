"""`locale_compare` and `js_json` against Node 20 itself: the JavaScript that batch.mjs runs."""

from __future__ import annotations

import functools
import json
import random
import subprocess

import pytest

from batchlog.projections.tune.batch_mjs.collation import ROOT_ORDER, is_exact, locale_compare
from batchlog.projections.tune.batch_mjs.js_json import js_json, js_number
from batchlog.projections.tune.batch_mjs.rules import node_dirname
from tests.zenfolder import NODE, NODE_ENV

pytestmark = pytest.mark.usefixtures("needs_node")  # fails, not skips, with BATCHLOG_REQUIRE_SEEDS=1
PRINTABLE = "".join(chr(c) for c in range(0x20, 0x7F))
ID_ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_."


def run_node(script: str, payload: object) -> object:
    """Run `script` in Node with `payload` as JSON on stdin (variable `input`); it prints JSON back."""
    program = f"const input = JSON.parse(require('fs').readFileSync(0, 'utf8'));\n{script}"
    done = subprocess.run([NODE, "-e", program], input=json.dumps(payload), capture_output=True, text=True,
                          env=NODE_ENV, check=True)
    return json.loads(done.stdout)


def random_ids(rng: random.Random, alphabet: str, count: int) -> list[str]:
    ids = [''.join(rng.choice(alphabet) for _ in range(rng.randint(0, 8))) for _ in range(count)]
    # near misses: the same id in another case or with other punctuation
    for base in rng.sample(ids, count // 4):
        ids.append(base.swapcase())
        ids.append(base.replace("-", "_").replace(".", "-"))
    return ids


class TestLocaleCompare:
    def test_root_order_is_node_order_of_printable_ascii(self):
        node_order = run_node("console.log(JSON.stringify([...input].sort((a, b) => a.localeCompare(b)).join('')))",
                              PRINTABLE)

        expected = "".join(c + c.upper() if c.isalpha() else c for c in ROOT_ORDER)
        assert node_order == expected

    @pytest.mark.parametrize("alphabet", [ID_ALPHABET, PRINTABLE, "aAbB-_.09"], ids=["ids", "printable", "tight"])
    def test_sorting_random_ids_matches_node(self, alphabet):
        ids = random_ids(random.Random(len(alphabet)), alphabet, 2000)

        node_sorted = run_node("console.log(JSON.stringify(input.sort((a, b) => a.localeCompare(b))))", ids)

        assert sorted(ids, key=functools.cmp_to_key(locale_compare)) == node_sorted

    def test_pairwise_results_match_node(self):
        rng = random.Random(7)
        pairs = [[a, b] for a, b in zip(random_ids(rng, "aAbB-_.1", 1500), random_ids(rng, "aAbB-_.1", 1500))]
        pairs += [[a, a] for a, _ in pairs[:50]]

        node_results = run_node("console.log(JSON.stringify(input.map(([a, b]) => a.localeCompare(b))))", pairs)

        assert [locale_compare(a, b) for a, b in pairs] == node_results

    def test_lowercase_sorts_before_uppercase_only_when_the_letters_tie(self):
        assert locale_compare("a", "A") == -1
        assert locale_compare("A", "b") == -1
        assert locale_compare("aA", "Aa") == -1
        assert locale_compare("case-1", "case_1") == 1

    def test_only_printable_ascii_is_guaranteed(self):
        assert is_exact("Case-01_b.x y")
        assert not is_exact("café")


class TestJsJson:
    def test_values_a_dataset_can_hold_are_written_as_json_stringify_writes_them(self):
        value = {
            "id": "é\u2028\x7f\"\\/\b\f\n\r\t\x00\x1f\ud800 😀",
            "10": 1, "2": [], "01": {}, "4294967295": 0, "4294967294": None, "-1": True,
            "numbers": [0, -0.0, 1.0, -5, 2**53 - 1, 2**53 + 1, 2**64, 10**21, 10**22, 1e21, 1.5e-7, 1e-6,
                        123456.789, 0.1 + 0.2, 5e-324, 1.7976931348623157e308, 100.0, 1e16, 12345678901234567890,
                        -1.25e-10, 3.0e20],
            "nested": [{"a": [1, [2, {}]]}, [], [[]], False],
        }
        text = js_json(value)

        node_text = run_node("console.log(JSON.stringify(JSON.stringify(input, null, 2) + '\\n'))",
                             json.loads(text))

        assert text == node_text

    def test_random_floats_format_as_javascript_numbers(self):
        rng = random.Random(3)
        numbers = [rng.uniform(-1, 1) * 10 ** rng.randint(-30, 30) for _ in range(3000)]
        numbers += [float(rng.randint(0, 10**6)) * 10 ** rng.randint(-12, 25) for _ in range(1000)]

        node_texts = run_node("console.log(JSON.stringify(input.map(String)))", numbers)

        assert [js_number(n) for n in numbers] == node_texts


class TestNodeDirname:
    def test_random_paths_match_node_path_dirname(self):
        rng = random.Random(5)
        paths = ["", "/", "//", "a", "/a", "a/", "a//b", "//a", "///a/b//", "./x", "../x/y/"]
        paths += ["".join(rng.choice("ab/.\\") for _ in range(rng.randint(0, 9))) for _ in range(1000)]

        node_dirs = run_node("console.log(JSON.stringify(input.map(p => require('path').dirname(p))))", paths)

        assert [node_dirname(p) for p in paths] == node_dirs
