"""``gpuoff cache info`` and ``gpuoff cache clear``: what is in the disk cache, and emptying it.

Only what gpuoff writes there is counted and removed (compiled entries ``*.bin``, the host
key files, temporary files of interrupted writes, and gpuoff's own subfolders), so a
``GPUOFF_CACHE_DIR`` pointed at a folder that holds other files never loses them.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from pathlib import Path

from gpuoff.runtime.cache import cache_dir

FILE_PATTERNS = ("*.bin", "host-*.key", ".*.tmp")
FOLDERS = ("bench", "opencl", "opencl-probe", "opencl-vendors", "peers")
"""Subfolders gpuoff's parts write: the bench's scratch builds, OpenCL program binaries and
driver probes, the ICD files it shows the loader, the peers' (Numba, Warp, Taichi) caches."""


@dataclass
class CacheContents:
    """What ``gpuoff cache info`` prints."""

    folder: Path | None
    entries: int = 0
    bytes: int = 0
    folders: dict[str, int] = field(default_factory=dict)
    """Bytes in each of gpuoff's subfolders that exists."""
    foreign: list[str] = field(default_factory=list)
    """Names in the folder gpuoff did not write (left alone by ``clear``)."""


def _size(path: Path) -> int:
    if path.is_file():
        return path.stat().st_size
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def _ours(folder: Path) -> tuple[list[Path], list[Path], list[str]]:
    files = sorted({p for pattern in FILE_PATTERNS for p in folder.glob(pattern) if p.is_file()})
    dirs = [folder / name for name in FOLDERS if (folder / name).is_dir()]
    known = {p.name for p in files} | {p.name for p in dirs}
    foreign = sorted(p.name for p in folder.iterdir() if p.name not in known)
    return files, dirs, foreign


def contents() -> CacheContents:
    """The cache folder and what gpuoff keeps in it (nothing when it does not exist yet)."""
    folder = cache_dir()
    out = CacheContents(folder)
    if folder is None or not folder.is_dir():
        return out
    files, dirs, out.foreign = _ours(folder)
    out.entries = sum(p.suffix == ".bin" for p in files)
    out.bytes = sum(_size(p) for p in files)
    out.folders = {d.name: _size(d) for d in dirs}
    return out


def clear() -> CacheContents:
    """Remove everything gpuoff wrote to the cache folder; what it held before."""
    before = contents()
    folder = before.folder
    if folder is None or not folder.is_dir():
        return before
    files, dirs, _ = _ours(folder)
    for path in files:
        path.unlink(missing_ok=True)
    for path in dirs:
        shutil.rmtree(path, ignore_errors=True)
    return before
