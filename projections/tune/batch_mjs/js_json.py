"""JSON text exactly as JavaScript's `JSON.stringify(value, null, 2) + "\\n"` writes it (pure).

batch.mjs writes cases.json and plan.json that way; the tuning writes the same bytes, so a value read from a
dataset comes back out with JavaScript's number formatting, string escaping and property order.
"""

from __future__ import annotations

import math

_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}
_ARRAY_INDEX_LIMIT = 2**32 - 1  # an object's keys "0".."4294967294" are array indices: listed first, ascending
_EXACT_INT_LIMIT = 2**53


def js_json(value: object) -> str:
    """`JSON.stringify(value, null, 2) + "\\n"` for a value made of dict, list, str, int, float, bool, None."""
    parts: list[str] = []
    _write(value, "", parts)
    parts.append("\n")
    return "".join(parts)


def js_number(number: int | float) -> str:
    """A number as JavaScript's `Number.prototype.toString()` prints it (ints are first made doubles)."""
    if isinstance(number, int) and abs(number) < _EXACT_INT_LIMIT:
        return str(number)
    try:
        double = float(number)
    except OverflowError:  # an integer beyond the doubles: JSON.parse makes it Infinity
        return "null"
    if not math.isfinite(double):
        return "null"  # JSON.stringify writes NaN and Infinity as null
    if double == 0:
        return "0"  # -0 too
    return _format_double(double)


def js_string(text: str) -> str:
    """A string as JSON.stringify quotes it: non-ASCII kept, control characters and lone surrogates escaped."""
    out = ['"']
    i, length = 0, len(text)
    while i < length:
        char = text[i]
        code = ord(char)
        if char in _ESCAPES:
            out.append(_ESCAPES[char])
        elif code < 0x20:
            out.append(f"\\u{code:04x}")
        elif 0xD800 <= code <= 0xDBFF and i + 1 < length and 0xDC00 <= ord(text[i + 1]) <= 0xDFFF:
            # two UTF-16 halves held as two characters form one character, as in JavaScript
            out.append(chr(0x10000 + ((code - 0xD800) << 10) + (ord(text[i + 1]) - 0xDC00)))
            i += 1
        elif 0xD800 <= code <= 0xDFFF:
            out.append(f"\\u{code:04x}")
        else:
            out.append(char)
        i += 1
    out.append('"')
    return "".join(out)


def js_property_order(keys: list[str]) -> list[str]:
    """The order in which JavaScript lists an object's own keys: array indices ascending, then the rest."""
    indices = sorted((key for key in keys if _is_array_index(key)), key=int)
    return indices + [key for key in keys if not _is_array_index(key)]


def _is_array_index(key: str) -> bool:
    if not key or not key.isascii() or not key.isdigit() or (key[0] == "0" and key != "0"):
        return False
    return int(key) < _ARRAY_INDEX_LIMIT


def _write(value: object, indent: str, parts: list[str]) -> None:
    if value is None:
        parts.append("null")
    elif value is True:
        parts.append("true")
    elif value is False:
        parts.append("false")
    elif isinstance(value, str):
        parts.append(js_string(value))
    elif isinstance(value, (int, float)):
        parts.append(js_number(value))
    elif isinstance(value, (list, tuple)):
        _write_array(value, indent, parts)
    elif isinstance(value, dict):
        _write_object(value, indent, parts)
    else:
        raise TypeError(f"not a JSON value: {type(value).__name__}")


def _write_array(items: list | tuple, indent: str, parts: list[str]) -> None:
    if not items:
        parts.append("[]")
        return
    inner = indent + "  "
    parts.append("[")
    for position, item in enumerate(items):
        parts.append(",\n" if position else "\n")
        parts.append(inner)
        _write(item, inner, parts)
    parts.append("\n" + indent + "]")


def _write_object(obj: dict, indent: str, parts: list[str]) -> None:
    if not obj:
        parts.append("{}")
        return
    inner = indent + "  "
    parts.append("{")
    for position, key in enumerate(js_property_order(list(obj))):
        parts.append(",\n" if position else "\n")
        parts.append(inner + js_string(key) + ": ")
        _write(obj[key], inner, parts)
    parts.append("\n" + indent + "}")


def _format_double(double: float) -> str:
    """ECMAScript Number::toString(10) from the shortest round-trip digits (Python's repr gives the same)."""
    sign = "-" if double < 0 else ""
    mantissa, _, exponent_text = repr(abs(double)).partition("e")
    whole, _, fraction = mantissa.partition(".")
    significant = (whole + fraction).lstrip("0")
    digits = significant.rstrip("0")
    # abs(double) == int(digits) * 10**scale, and JavaScript's n is the position of the decimal point
    scale = int(exponent_text or 0) - len(fraction) + (len(significant) - len(digits))
    k = len(digits)
    n = k + scale
    if k <= n <= 21:
        return sign + digits + "0" * (n - k)
    if 0 < n <= 21:
        return sign + digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return sign + "0." + "0" * (-n) + digits
    exponent = n - 1
    exponent_sign = "+" if exponent >= 0 else "-"
    head = digits[0] + ("." + digits[1:] if k > 1 else "")
    return f"{sign}{head}e{exponent_sign}{abs(exponent)}"
