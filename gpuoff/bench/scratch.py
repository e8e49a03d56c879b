"""The bench run's scratch folder: C libraries built at bench time, the cold-start caches.

One folder per process, ``run-<pid>-<random>``, under ``bench/`` of gpuoff's cache folder
(``gpuoff.runtime.cache.cache_dir``), or under the system's temporary folder when the disk
cache is disabled (``GPUOFF_CACHE_DIR=""``). It is removed when the process exits normally
(``atexit``) and by :func:`cleanup`, which the CLI calls before its timeout path ends the
process with ``os._exit`` (no ``atexit`` then). A run killed outright leaves its folder behind;
the next run removes every ``run-<pid>-*`` folder whose process is gone, so nothing piles up.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

PREFIX = "run-"

_current: Path | None = None


def scratch_root() -> Path:
    """Where the runs' folders live: ``<cache>/bench`` or ``<tmp>/gpuoff-bench``."""
    from gpuoff.runtime.cache import cache_dir

    base = cache_dir()
    if base is None:
        return Path(tempfile.gettempdir()) / f"gpuoff-bench-{os.getuid()}"
    return base / "bench"


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process: alive
        return True
    return True


def _sweep(root: Path) -> None:
    """Remove the folders of runs whose process no longer exists."""
    try:
        entries = list(root.iterdir())
    except OSError:
        return
    for entry in entries:
        parts = entry.name.split("-")
        if not entry.name.startswith(PREFIX) or len(parts) < 3 or not parts[1].isdigit():
            continue
        if int(parts[1]) != os.getpid() and not _pid_alive(int(parts[1])):
            shutil.rmtree(entry, ignore_errors=True)


def scratch_dir(kind: str) -> Path:
    """This run's folder for ``kind`` (``"c"``, ``"coldstart"``, ...), created on first use."""
    global _current
    if _current is None or not _current.is_dir():
        root = scratch_root()
        root.mkdir(parents=True, exist_ok=True)
        _sweep(root)
        _current = Path(tempfile.mkdtemp(prefix=f"{PREFIX}{os.getpid()}-", dir=root))
        atexit.register(cleanup)
    sub = _current / kind
    sub.mkdir(exist_ok=True)
    return sub


def cleanup() -> None:
    """Remove this run's folder (loaded libraries stay mapped: removing their files is safe)."""
    global _current
    folder, _current = _current, None
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)
