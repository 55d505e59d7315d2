"""The content-keyed cache: keys from length-prefixed parts, hits, misses, and corrupt or partial entries ignored."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from yk_cli.execute import Cache


def test_keys_are_the_content_of_their_parts() -> None:
    key = Cache.key("queues: []", b"workload", "guaranteed=4", "0.1.0")
    assert len(key) == 64 and all(c in "0123456789abcdef" for c in key)
    assert key == Cache.key(b"queues: []", "workload", b"guaranteed=4", "0.1.0")  # str is its UTF-8 bytes
    assert key != Cache.key("queues: []", b"workload", "guaranteed=5", "0.1.0")
    assert key != Cache.key("queues: []", b"workload", "guaranteed=4", "0.2.0")


def test_parts_are_length_prefixed() -> None:
    assert Cache.key("ab", "c") != Cache.key("a", "bc")
    assert Cache.key("abc") != Cache.key("abc", "")
    assert Cache.key() != Cache.key("")


def test_a_miss_then_a_hit(tmp_path: Path) -> None:
    cache = Cache(tmp_path / "cache")
    key = Cache.key("config", "workload", "point 1")
    assert cache.get(key) is None
    cache.put(key, b"\x00result\xff")
    assert cache.get(key) == b"\x00result\xff"
    assert cache.get(Cache.key("config", "workload", "point 2")) is None
    assert Cache(tmp_path / "cache").get(key) == b"\x00result\xff"  # another run reads it


def test_a_put_replaces_and_leaves_no_temporary_file(tmp_path: Path) -> None:
    cache = Cache(tmp_path)
    key = Cache.key("k")
    cache.put(key, b"first")
    cache.put(key, b"second")
    assert cache.get(key) == b"second"
    assert os.listdir(cache.path(key).parent) == [key]


def test_empty_values_are_values(tmp_path: Path) -> None:
    cache = Cache(tmp_path)
    cache.put(Cache.key("empty"), b"")
    assert cache.get(Cache.key("empty")) == b""


@pytest.mark.parametrize(
    "damage",
    [
        lambda data: data[: len(data) // 2],  # a partial write
        lambda data: b"",  # an empty file
        lambda data: data[:-1] + bytes([data[-1] ^ 1]),  # a flipped bit in the value
        lambda data: b"garbage" + data[7:],  # not an entry
        lambda data: data[:20],  # shorter than the header
    ],
)
def test_corrupt_entries_are_misses(tmp_path: Path, damage: Callable[[bytes], bytes]) -> None:
    cache = Cache(tmp_path)
    key = Cache.key("config", "point")
    cache.put(key, b"a result of some length")
    path = cache.path(key)
    path.write_bytes(damage(path.read_bytes()))
    assert cache.get(key) is None
    cache.put(key, b"recomputed")
    assert cache.get(key) == b"recomputed"


def test_an_unreadable_entry_is_a_miss(tmp_path: Path) -> None:
    cache = Cache(tmp_path)
    key = Cache.key("x")
    cache.path(key).mkdir(parents=True)  # a directory where the file should be
    assert cache.get(key) is None


@pytest.mark.parametrize("key", ["../../etc/passwd", "ABC", "0" * 63, "g" * 64])
def test_only_keys_of_the_cache_name_entries(tmp_path: Path, key: str) -> None:
    with pytest.raises(ValueError, match="not a cache key"):
        Cache(tmp_path).get(key)
