"""The on-disk compile cache (DESIGN example 8: keys from explicit parts).

Key parts: the source hash of the kernel (its source, the device functions it reaches, the
constants it captures), the argument signature, the device's target key (for ``cpu``: host CPU
name, features, llvmlite and gpuoff versions), the kernel options and gpuoff's version. An
entry holds the specialised IR module (pickled) and the device artifact (object code for
``cpu``), so a hit skips tracing and compiling.

Location: ``$GPUOFF_CACHE_DIR``, else ``$XDG_CACHE_HOME/gpuoff``, else ``~/.cache/gpuoff``.
``GPUOFF_CACHE_DIR=""`` (empty) disables the disk cache. Unreadable entries are ignored.
"""

from __future__ import annotations

import hashlib
import inspect
import os
import pickle
import tempfile
import types
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from gpuoff import __version__, lang
from gpuoff.ir.nodes import Module

_SCALAR_CONSTANTS = (int, float, bool, str, bytes)


def cache_dir() -> Path | None:
    """The cache folder, or ``None`` when the disk cache is disabled."""
    env = os.environ.get("GPUOFF_CACHE_DIR")
    if env is not None:
        return Path(env) if env.strip() else None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "gpuoff"


def _code_objects(code: types.CodeType) -> Iterable[types.CodeType]:
    yield code
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from _code_objects(const)


def _function_parts(fn: Callable[..., Any], seen: set[int], out: list[str]) -> None:
    if id(fn) in seen:
        return
    seen.add(id(fn))
    try:
        out.append(inspect.getsource(fn))
    except (OSError, TypeError):
        out.append(repr(fn.__code__.co_code))
    names = {name for code in _code_objects(fn.__code__) for name in code.co_names}
    scope = dict(fn.__globals__)
    if fn.__closure__:
        scope.update(zip(fn.__code__.co_freevars, (c.cell_contents for c in fn.__closure__),
                         strict=True))  # fmt: skip
        names.update(fn.__code__.co_freevars)
    for name in sorted(names):
        value = scope.get(name)
        if isinstance(value, lang.DeviceFunction):
            _function_parts(value.pyfunc, seen, out)
        elif (
            isinstance(value, _SCALAR_CONSTANTS) or hasattr(value, "dtype") and not callable(value)
        ):
            out.append(f"{name}={value!r}")


def source_hash(fn: Callable[..., Any]) -> str:
    """Hash of what the compiled code depends on in the user's source."""
    parts: list[str] = []
    _function_parts(fn, set(), parts)
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


def make_key(*parts: str) -> str:
    """A cache key from explicit parts (gpuoff's version is always one of them)."""
    return hashlib.sha256("\0".join((__version__, *parts)).encode()).hexdigest()


def load(key: str) -> tuple[Module, bytes] | None:
    """The cached (module, artifact) for ``key``, or ``None``."""
    folder = cache_dir()
    if folder is None:
        return None
    path = folder / f"{key}.bin"
    try:
        with open(path, "rb") as fh:
            module, artifact = pickle.load(fh)
    except Exception:  # noqa: BLE001 - missing, truncated or stale: recompile
        return None
    if not isinstance(module, Module) or not isinstance(artifact, bytes):
        return None
    return module, artifact


def store(key: str, module: Module, artifact: bytes) -> None:
    """Write an entry atomically (write a temp file, then rename); failures are ignored."""
    folder = cache_dir()
    if folder is None:
        return
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, suffix=".tmp")
        with os.fdopen(fd, "wb") as fh:
            pickle.dump((module, artifact), fh, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, folder / f"{key}.bin")
    except OSError:
        pass
