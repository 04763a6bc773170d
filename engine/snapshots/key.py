"""The per-user key that authenticates snapshots: HMAC-SHA256 over a snapshot's bytes, kept as a tag on the
snapshot's first line (`sealed`), checked before a byte of it is believed (`opened`); and the key's
fingerprint (`key_id`), which snapshots are kept under.

A plain checksum can be recomputed by anyone who can write the log's folder; an HMAC needs the key, which
lives outside that folder: `BATCHLOG_SNAPSHOT_KEY` (tests), else a file in the user's cache folder
(`$XDG_CACHE_HOME/batchlog/snapshot.key`, or `~/.cache/...`), made on first use with mode 0600. A key file
that is not the user's own, or that others may read or write, is not used, and no snapshot is then either:
a snapshot only ever saves time.

Machines (or users) sharing one log each have a key of their own: each keeps its snapshots under its key's
fingerprint and reads only those, so one never takes another's snapshot for a forgery, and they never
overwrite each other's. Machines given the same key (the same BATCHLOG_SNAPSHOT_KEY, or one key file copied
to each) share their snapshots. A fingerprint is an HMAC of a fixed text under the key: it names the key and
tells nothing of it that a snapshot's own tag does not already.
"""

from __future__ import annotations

import os
from pathlib import Path

from batchlog.engine.errors import UnreadableFile
from batchlog.engine.files import read_user_file, write_file

SNAPSHOT_KEY_ENV = "BATCHLOG_SNAPSHOT_KEY"
KEY_FILE_NAME = "snapshot.key"
KEY_BYTES = 32
KEY_ID_CHARS = 16  # hex digits of a key's fingerprint: 64 bits, so two machines' keys never share one by chance

_cached: dict[str, bytes | None] = {}


def key_file() -> Path | None:
    """Where the user's key is kept: the user's cache folder (None: the user has no home to keep it in)."""
    base = os.environ.get("XDG_CACHE_HOME")
    if not base:
        home = os.path.expanduser("~")
        if home == "~" or not home:
            return None
        base = os.path.join(home, ".cache")
    return Path(base) / "batchlog" / KEY_FILE_NAME


def snapshot_key() -> bytes | None:
    """The key snapshots are authenticated with, made on first use; None: no usable key (snapshots off)."""
    given = os.environ.get(SNAPSHOT_KEY_ENV)
    if given:
        return given.encode()
    path = key_file()
    if path is None:
        return None
    where = str(path)
    if where not in _cached:
        _cached[where] = _read_key(path) or _make_key(path)
    return _cached[where]


def _read_key(path: Path) -> bytes | None:
    """The key in `path`, when it is a regular file of this user's that nobody else may read or write."""
    try:
        content = read_user_file(path, "snapshot key", 4 * KEY_BYTES, private=True).strip()
    except UnreadableFile:
        return None
    return content if len(content) == 2 * KEY_BYTES else None


def _make_key(path: Path) -> bytes | None:
    """A new random key, written aside and linked into place (never over a key another command made meanwhile)."""
    import secrets

    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        write_file(path, secrets.token_hex(KEY_BYTES).encode(), new=True, mode=0o600)
    except FileExistsError:
        pass
    except OSError:
        return None
    return _read_key(path)


def key_id() -> str | None:
    """The fingerprint of the user's key, which the user's snapshots are kept under (None: no key, no snapshots)."""
    key = snapshot_key()
    if key is None:
        return None
    import hmac
    from hashlib import sha256

    return hmac.new(key, b"batchlog snapshot key fingerprint", sha256).hexdigest()[:KEY_ID_CHARS]


def authenticate_snapshot(key: bytes, body: bytes) -> bytes:
    """The tag a snapshot file starts with: HMAC-SHA256 of its body under the user's key, in hex."""
    import hmac
    from hashlib import sha256

    return hmac.new(key, body, sha256).hexdigest().encode()


def snapshot_is_authentic(key: bytes, body: bytes, tag: bytes) -> bool:
    import hmac

    return hmac.compare_digest(authenticate_snapshot(key, body), tag)


def sealed(body: bytes) -> bytes | None:
    """A snapshot as it is kept: the tag of `body` under the user's key, a newline, `body`; None when there is no
    key (a snapshot could then not be trusted, so none is kept)."""
    key = snapshot_key()
    return None if key is None else authenticate_snapshot(key, body) + b"\n" + body


def opened(kept: bytes) -> bytes | None:
    """The body of a snapshot as kept, when its tag verifies under the user's key; None otherwise (edited,
    forged, written by another user, or no key to check it with)."""
    tag, newline, body = kept.partition(b"\n")
    key = snapshot_key() if newline else None
    return body if key is not None and snapshot_is_authentic(key, body, tag) else None
