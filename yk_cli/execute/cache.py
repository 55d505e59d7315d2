"""A content-keyed cache of evaluation results on disk: one file per key, written atomically, checked when read."""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import tempfile
from pathlib import Path

KEY_SCHEME = b"yk-execute-cache-key/1"
"""Hashed first into every key: a change of how keys are made changes them all."""

MAGIC = b"yk-cache/1\n"
"""The first bytes of every entry, before the sha256 of the value and the value."""

_KEY = re.compile(r"[0-9a-f]{64}")


class Cache:
    """Entries under a directory: DIRECTORY/ab/abcdef... (the key's first two hex digits as a subfolder)."""

    def __init__(self, directory: str | os.PathLike[str]) -> None:
        self.directory = Path(directory)

    @staticmethod
    def key(*parts: bytes | str) -> str:
        """The sha256 (hex) of the parts, each prefixed by its length, so that no two lists of parts share a key;
        a str counts as its UTF-8 bytes."""
        digest = hashlib.sha256(KEY_SCHEME)
        for part in parts:
            data = part.encode("utf-8") if isinstance(part, str) else bytes(part)
            digest.update(len(data).to_bytes(8, "big"))
            digest.update(data)
        return digest.hexdigest()

    def path(self, key: str) -> Path:
        """Where the entry of a key is stored; a ValueError for anything but a key of Cache.key."""
        if not _KEY.fullmatch(key):
            raise ValueError(f"not a cache key (64 lowercase hex digits): {key!r}")
        return self.directory / key[:2] / key

    def get(self, key: str) -> bytes | None:
        """The value stored under the key, or None: missing, unreadable, partial or corrupt entries are misses."""
        try:
            data = self.path(key).read_bytes()
        except OSError:
            return None
        header = len(MAGIC) + hashlib.sha256().digest_size
        if len(data) < header or not data.startswith(MAGIC):
            return None
        value = data[header:]
        if hashlib.sha256(value).digest() != data[len(MAGIC) : header]:
            return None
        return value

    def put(self, key: str, value: bytes) -> None:
        """Store a value: written to a temporary file beside the entry, then renamed over it (readers see the old
        entry or the new one, never a part; a crash may leave an entry that get() rejects by its checksum)."""
        target = self.path(key)
        target.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix=f".{key[:8]}-", suffix=".tmp", dir=target.parent)
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(MAGIC)
                out.write(hashlib.sha256(value).digest())
                out.write(value)
            os.replace(temporary, target)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise
