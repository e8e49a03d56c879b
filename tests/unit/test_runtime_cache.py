"""Disk cache keys and entries (runtime/cache.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

import gpuoff as go
from gpuoff import Array, Borrow
from gpuoff.frontend import parse_signature
from gpuoff.runtime import cache

T = go.f32
LIMIT = 4


def kern(x: Borrow[Array[T]], n: go.i32) -> None:
    if n < LIMIT:
        pass


def test_source_hash_follows_captured_constants(monkeypatch: pytest.MonkeyPatch) -> None:
    before = cache.source_hash(kern)
    assert cache.source_hash(kern) == before
    monkeypatch.setitem(kern.__globals__, "LIMIT", 5)
    assert cache.source_hash(kern) != before


def test_signature_key_follows_annotation_aliases(monkeypatch: pytest.MonkeyPatch) -> None:
    before = cache.signature_key(kern, "kern")
    monkeypatch.setitem(kern.__globals__, "T", go.f64)
    assert cache.signature_key(kern, "kern") != before


def test_decls_roundtrip_and_bad_entries(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GPUOFF_CACHE_DIR", str(tmp_path))
    decls = parse_signature(kern)
    key = cache.signature_key(kern, "kern")
    assert cache.load_decls(key) is None
    cache.store_decls(key, decls)
    loaded = cache.load_decls(key)
    assert loaded is not None
    assert [(d.name, d.dtype, d.access, d.is_array) for d in loaded] == [
        (d.name, d.dtype, d.access, d.is_array) for d in decls
    ]
    (tmp_path / f"{key}.bin").write_bytes(b"garbage")
    assert cache.load_decls(key) is None
    assert cache.load(key) is None


def test_disabled_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GPUOFF_CACHE_DIR", "")
    assert cache.cache_dir() is None
    cache.store_decls("k", [])
    assert cache.load_decls("k") is None
