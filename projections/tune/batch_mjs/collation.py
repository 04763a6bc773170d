"""JavaScript's `a.localeCompare(b)` in Node 20 (ICU root collation, the default for en, und and C), pure.

Exact for ids made of printable ASCII (space to `~`): ICU's root order gives each such character one
collation element, punctuation and symbols before digits before letters (non-ignorable), and a letter's
case only matters at the third level (lowercase first) once the whole strings tie at the first. Outside
that alphabet the order is a stable approximation: other characters sort after it by code point.
"""

from __future__ import annotations

# Printable ASCII in ICU root primary order (read off Node 20's localeCompare; see tests/test_collation.py);
# a letter's two cases share one place.
ROOT_ORDER = " _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$0123456789abcdefghijklmnopqrstuvwxyz"
_PRIMARY = {char: rank for rank, char in enumerate(ROOT_ORDER)}
_OUTSIDE = len(ROOT_ORDER)


def is_exact(text: str) -> bool:
    """Whether `locale_compare` is guaranteed to order `text` as Node does (printable ASCII only)."""
    return all(" " <= char <= "~" for char in text)


def collation_key(text: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A sort key: first-level weights (case-blind), then third-level ones (uppercase after lowercase)."""
    primary = tuple(_PRIMARY.get(char.lower() if char.isascii() else char, _OUTSIDE + ord(char)) for char in text)
    tertiary = tuple(1 if char.isascii() and char.isupper() else 0 for char in text)
    return primary, tertiary


def locale_compare(a: str, b: str) -> int:
    """-1, 0 or 1, as `a.localeCompare(b)` gives in Node 20 under a root-collation locale."""
    key_a, key_b = collation_key(a), collation_key(b)
    return (key_a > key_b) - (key_a < key_b)
