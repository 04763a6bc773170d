"""A server's URL read as libpq reads it, and the one way an address is shown to people and agents.

`shown_address` is the only renderer of an address: every message, JSON field and printed command that names a
log or a store goes through it (engine/address.py makes a log's `address` with it; cli/store.py the
`--store` a printed command carries). It shows a URL without any secret in any form libpq takes one: a
password in the user part (however it is encoded) and the value of a parameter that holds a secret
(`password`, `sslpassword`, PostgreSQL 18's `oauth_client_secret`; any other whose name says password or
secret, for a libpq to come); the driver then takes a password from PGPASSWORD or ~/.pgpass. Every other part
is kept exactly as given (never re-encoded: libpq does not read `+` as a space). Text that cannot be read as
a URL (a password holding an unencoded `/`, `?`, `#` or `@`) is shown with `***` over every part that may be
a secret, and refused by the parser, so the driver only ever gets URLs it reads as this module does; what
the driver says back is still `scrubbed` of the secrets it was given.

Pure: no I/O, no driver.
"""

from __future__ import annotations

import re
from urllib.parse import unquote

import attrs

from batchlog.engine.value import frozen

SERVER_SCHEMES = ("postgresql", "postgres")
# The parameters libpq takes a secret in: those its PQconndefaults() marks "*" (password, sslpassword; libpq
# 15 and 17, as shipped with psycopg2-binary) and the OAuth client secret of PostgreSQL 18.
SECRET_PARAMETERS = frozenset({"password", "sslpassword", "oauth_client_secret"})
HIDDEN = "***"  # where text that cannot be read as a URL may hold a secret

_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*)://")
_KEYWORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_BAD_PERCENT = re.compile(r"%(?![0-9A-Fa-f]{2})")
ENCODE_SPECIALS = "a password or name holding '/', '?', '#' or '@' must have it percent-encoded (%2F, %3F, %23, %40)"


def scheme_of(text: str) -> str | None:
    """The URL scheme `text` starts with, in lower case (schemes are case-insensitive); None: it has none."""
    found = _SCHEME.match(text)
    return None if found is None else found.group(1).lower()


def is_secret(key: str) -> bool:
    """Whether the parameter `key` (as written, percent-encoded or not) holds a secret."""
    name = unquote(key).lower()
    return name in SECRET_PARAMETERS or "password" in name or "secret" in name


@frozen
class ServerUrl:
    """A URL split as libpq splits one, every part as written: `user` and `password` (None: not given),
    `hosts` (host[:port], or several, comma-separated), `path` ("/dbname" or ""), `query` (name, value pairs)."""

    scheme: str
    user: str | None
    password: str | None
    hosts: str
    path: str
    query: tuple[tuple[str, str], ...]

    def values(self, name: str) -> list[str]:
        """The decoded values of the parameter `name`."""
        return [unquote(value) for key, value in self.query if unquote(key) == name]

    def replaced(self, name: str, value: str | None) -> ServerUrl:
        """This URL with every `name` parameter gone, then `name=value` last (unless None)."""
        kept = tuple(pair for pair in self.query if unquote(pair[0]) != name)
        return attrs.evolve(self, query=kept + (((name, value),) if value is not None else ()))

    def secrets(self) -> set[str]:
        """Every secret this URL holds, as written and decoded."""
        found = [self.password] if self.password else []
        found += [value for key, value in self.query if is_secret(key) and value]
        return {form for secret in found for form in (secret, unquote(secret)) if form}

    def text(self, *, secrets: bool) -> str:
        """The URL, with its secrets (for the driver) or without any (for people and agents)."""
        password = f":{self.password}" if secrets and self.password is not None else ""
        userinfo = f"{self.user}{password}@" if self.user or password else ""
        pairs = [f"{key}={value}" for key, value in self.query if secrets or not is_secret(key)]
        return f"{self.scheme}://{userinfo}{self.hosts}{self.path}" + (f"?{'&'.join(pairs)}" if pairs else "")


def read_url(text: str) -> ServerUrl | str:
    """`text` split as libpq splits a URL; when libpq would read it otherwise than as written (a password
    holding an unencoded `/`, `?`, `#` or `@`), or not at all, what keeps it from being one (words that never
    repeat a part of it)."""
    scheme = scheme_of(text)
    if scheme is None:
        return "it is not a URL (scheme://...)"
    rest = text[_SCHEME.match(text).end():]
    if "#" in rest:
        return f"a URL of a database has no #fragment ({ENCODE_SPECIALS})"
    if _BAD_PERCENT.search(rest):
        return "a '%' is not followed by two hex digits (write a '%' itself as %25)"
    cut = min((at for at in (rest.find("/"), rest.find("?")) if at >= 0), default=len(rest))
    authority, tail = rest[:cut], rest[cut:]
    path, _, query = tail.partition("?")
    if authority.count("@") > 1 or "@" in path:
        return ENCODE_SPECIALS
    userinfo, at, hosts = authority.rpartition("@")
    user, colon, password = userinfo.partition(":")
    pairs = []
    for part in query.split("&") if query else []:
        key, equals, value = part.partition("=")
        if not equals or not _KEYWORD.fullmatch(unquote(key)):
            return f"its parameters are not NAME=VALUE pairs joined by '&' ({ENCODE_SPECIALS})"
        pairs.append((key, value))
    return ServerUrl(scheme, user if at else None, password if at and colon else None, hosts, path, tuple(pairs))


def shown_address(text: str) -> str:
    """`text` (a log address or a store, any text a user gave as one) as messages, JSON and printed commands
    show it: a URL without any secret; text that cannot be read as a URL with `***` over what may be one;
    anything else (a path, `memory:NAME`) as it is."""
    if scheme_of(text) is None:
        return text
    url = read_url(text)
    return url.text(secrets=False) if isinstance(url, ServerUrl) else _hidden(text)


def _hidden(text: str) -> str:
    """Text that starts as a URL but cannot be read as one, with every part that may be a secret hidden: from the
    user's ':' to the last '@' (a password may hold any of `/?#@`), and from the '=' of the first parameter
    that holds a secret to the end (it may hold '&')."""
    start = _SCHEME.match(text).end()
    head, rest = text[:start], text[start:]
    user = re.match(r"[^:/?#@]*:", rest)
    last_at = rest.rfind("@")
    if user is not None and last_at >= user.end():
        rest = rest[: user.end()] + HIDDEN + rest[last_at:]
    for parameter in re.finditer(r"([^?&=#/@]*)=", rest):
        if is_secret(parameter.group(1)):
            rest = rest[: parameter.end()] + HIDDEN
            break
    return head.lower() + rest


def scrubbed(message: str, dsn: str) -> str:
    """`message` (what the driver said, which may repeat what it was given) without the secrets of `dsn`: the
    URL itself becomes its shown form, each secret (as written and decoded) `***`."""
    url = read_url(dsn)
    if not isinstance(url, ServerUrl):
        return message
    message = message.replace(dsn, url.text(secrets=False))
    for secret in sorted(url.secrets(), key=len, reverse=True):
        message = message.replace(secret, HIDDEN)
    return message
