"""The on-disk compile cache (DESIGN example 8: keys from explicit parts).

Key parts: the source hash of the kernel (its source, the device functions it reaches, the
constants it captures, also through attributes: ``helpers.bump``, ``cfg.OFFSET``), the
argument signature, the device's target key (for ``cpu``: host CPU name, features, llvmlite
and gpuoff versions), the kernel options and gpuoff's version. An
entry holds the specialised IR module (pickled), the device artifact (for ``cpu`` a shared
library, or object code where no linker works) and the artifact's SHA-256, so a hit skips
tracing and compiling (and, on ``cpu``, importing llvmlite and the front end).

Location: ``$GPUOFF_CACHE_DIR``, else ``$XDG_CACHE_HOME/gpuoff``, else ``~/.cache/gpuoff``.
``GPUOFF_CACHE_DIR=""`` (empty) disables the disk cache. Unreadable, truncated or mismatched
entries are ignored (and rewritten by the next compile); entries are written to a temporary
file and renamed into place, so concurrent processes never see or leave half an entry.
"""

from __future__ import annotations

import builtins
import hashlib
import inspect
import linecache
import marshal
import os
import pickle
import re
import sys
import types
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gpuoff import __version__, lang
from gpuoff.ir.nodes import Module
from gpuoff.ir.types import ScalarType
from gpuoff.ownership import Access

_SCALAR_CONSTANTS = (int, float, bool, str, bytes)
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*")


def cache_dir() -> Path | None:
    """The cache folder, or ``None`` when the disk cache is disabled."""
    env = os.environ.get("GPUOFF_CACHE_DIR")
    if env is not None:
        return Path(env) if env.strip() else None
    if sys.platform.startswith("linux"):
        # what platformdirs says on Linux (XDG), without importing it on the launch path
        base = os.environ.get("XDG_CACHE_HOME", "").strip() or os.path.join(
            os.path.expanduser("~"), ".cache")  # fmt: skip
        return Path(base) / "gpuoff"
    import platformdirs  # ~/Library/Caches/gpuoff on macOS, %LOCALAPPDATA%\gpuoff\Cache on Windows

    return Path(platformdirs.user_cache_dir("gpuoff", appauthor=False))


def _code_objects(code: types.CodeType) -> Iterable[types.CodeType]:
    yield code
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from _code_objects(const)


def _source_text(fn: Callable[..., Any]) -> str | None:
    """The source lines of ``fn`` (decorators to its last statement), read like
    ``inspect.getsource`` reads them (``linecache``) but without tokenising the file, which
    costs milliseconds on a first launch that is otherwise served from the disk cache."""
    code = fn.__code__
    lines = linecache.getlines(code.co_filename, fn.__globals__)
    last = max((end for c in _code_objects(code) for _, end, _, _ in c.co_positions()
                if end is not None), default=0)  # fmt: skip
    first = code.co_firstlineno
    if not lines or last < first or last > len(lines):
        return None
    return "".join(lines[first - 1 : last])


def _function_parts(fn: Callable[..., Any], seen: set[int], out: list[str]) -> None:
    if id(fn) in seen:
        return
    seen.add(id(fn))
    text = _source_text(fn)
    if text is None:
        try:
            text = inspect.getsource(fn)
        except (OSError, TypeError):
            # no source (exec'd code): the whole code object, constants and names included
            text = marshal.dumps(fn.__code__).hex()
    out.append(text)
    # and where it is: the compiled module carries source locations (the file, line and caret
    # of every error it raises), so the same text in another file or at another line is
    # another entry, never one whose errors point elsewhere
    out.append(f"{fn.__code__.co_filename}:{fn.__code__.co_firstlineno}")
    names = {name for code in _code_objects(fn.__code__) for name in code.co_names}
    scope = dict(fn.__globals__)
    if fn.__closure__:
        scope.update(zip(fn.__code__.co_freevars, (c.cell_contents for c in fn.__closure__),
                         strict=True))  # fmt: skip
        names.update(fn.__code__.co_freevars)
    namespaces = False
    value: Any
    for name in sorted(names):
        value = scope.get(name)
        _value_part(name, value, seen, out)
        namespaces = namespaces or _namespace(value)
    if not namespaces:
        return  # nothing reached through attributes but the language itself (go.*, math.*)
    # what it reaches through attributes (``helpers.bump``, ``cfg.OFFSET``, ``cfg.sub.SCALE``):
    # the front end resolves these chains too, so the key must follow them
    for chain in sorted(_attribute_chains(fn.__code__)):
        value = scope.get(chain[0])
        for depth in range(1, len(chain)):
            if isinstance(value, (lang.DeviceFunction, *_SCALAR_CONSTANTS)):
                break  # reached as a whole above
            try:
                value = getattr(value, chain[depth])
            except Exception:  # noqa: BLE001 - what the kernel cannot reach, it cannot use
                break
            _value_part(".".join(chain[: depth + 1]), value, seen, out)


def _value_part(name: str, value: Any, seen: set[int], out: list[str]) -> None:
    """The key part of one name the kernel uses: a device function's own parts, a constant's
    value; nothing for anything else (modules, gpuoff's own names)."""
    if isinstance(value, lang.DeviceFunction):
        _function_parts(value.pyfunc, seen, out)
    elif isinstance(value, _SCALAR_CONSTANTS) or hasattr(value, "dtype") and not callable(value):
        out.append(f"{name}={value!r}")


def _namespace(value: Any) -> bool:
    """Whether a kernel may reach device functions or constants through attributes of
    ``value``: a module other than gpuoff's and ``math``, or any other object that is not
    itself a constant, a device function, a class or a function."""
    if isinstance(value, types.ModuleType):
        return not (value.__name__ == "math" or value.__name__.split(".")[0] == "gpuoff")
    return value is not None and not (
        isinstance(value, (lang.DeviceFunction, *_SCALAR_CONSTANTS)) or callable(value)
        or hasattr(value, "dtype")
    )  # fmt: skip


_LOADS = frozenset({"LOAD_GLOBAL", "LOAD_DEREF", "LOAD_NAME", "LOAD_CLASSDEREF"})
_ATTRIBUTES = frozenset({"LOAD_ATTR", "LOAD_METHOD"})


def _attribute_chains(code: types.CodeType) -> set[tuple[str, ...]]:
    """Every ``name.attr[.attr...]`` the code (and the code nested in it) loads."""
    import dis

    chains: set[tuple[str, ...]] = set()
    for c in _code_objects(code):
        chain: list[str] | None = None
        for ins in dis.get_instructions(c):
            if ins.opname in _LOADS:
                chain = [str(ins.argval)]
            elif ins.opname in _ATTRIBUTES and chain is not None:
                chain.append(str(ins.argval))
                chains.add(tuple(chain))
            else:
                chain = None
    return chains


def source_hash(fn: Callable[..., Any]) -> str:
    """Hash of what the compiled code depends on in the user's source."""
    parts: list[str] = []
    _function_parts(fn, set(), parts)
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


_COMPILER_PACKAGES = ("gpuoff.frontend", "gpuoff.ir", "codegen")
_fingerprint: str | None = None


def compiler_fingerprint() -> str:
    """Size and modification time of every source file of the compiler (front end, IR,
    code generators): edited or reinstalled compiler code never meets entries it did not make,
    even at the same version. Found with ``find_spec`` and ``stat`` only (no imports), so a
    cached first launch stays light (about 0.1 ms)."""
    global _fingerprint
    if _fingerprint is None:
        import importlib.util

        stamps: list[str] = []
        for package in _COMPILER_PACKAGES:
            spec = importlib.util.find_spec(package)
            for folder in (spec.submodule_search_locations or []) if spec else []:
                for entry in sorted(os.scandir(folder), key=lambda e: e.name):
                    if entry.name.endswith(".py"):
                        st = entry.stat()
                        stamps.append(f"{package}/{entry.name}:{st.st_size}:{st.st_mtime_ns}")
        _fingerprint = hashlib.sha256("\0".join(stamps).encode()).hexdigest()[:16]
    return _fingerprint


def make_key(*parts: str) -> str:
    """A cache key from explicit parts (gpuoff's version and the compiler's fingerprint are
    always two of them)."""
    head = (__version__, compiler_fingerprint())
    return hashlib.sha256("\0".join((*head, *parts)).encode()).hexdigest()


_MAGIC = b"gpuoff cache 1\n"
"""The head of every entry file, followed by the SHA-256 of the pickle that follows it: an
entry is unpickled only if it is exactly what was written (a damaged one can unpickle into
objects that look right and are not: a flipped byte in a cached signature made a launch
refuse its own f32 argument)."""


def _read(key: str, folder: Path | None = None) -> Any:
    folder = folder or cache_dir()
    if folder is None:
        return None
    try:
        with open(folder / f"{key}.bin", "rb") as fh:
            data = fh.read()
        head = len(_MAGIC) + 32
        if not data.startswith(_MAGIC):
            return None
        payload = memoryview(data)[head:]
        if hashlib.sha256(payload).digest() != data[len(_MAGIC) : head]:
            return None
        return pickle.loads(payload)
    except Exception:  # noqa: BLE001 - missing, truncated or stale: recompute
        return None


def _write(key: str, value: object, folder: Path | None = None) -> None:
    """Write an entry atomically: a private temporary file renamed over the entry, so that
    readers and concurrent writers of the same key only ever see a whole entry. Failures
    (a read-only folder, a full disk) are ignored: the cache is an optimisation."""
    folder = folder or cache_dir()
    if folder is None:
        return
    import tempfile  # only on a write: a fully cached first launch never needs it

    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{key[:16]}-", suffix=".tmp")
    except OSError:
        return
    try:
        with os.fdopen(fd, "wb") as fh:
            payload = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
            fh.write(_MAGIC + hashlib.sha256(payload).digest() + payload)
        os.replace(tmp, folder / f"{key}.bin")
    except Exception:  # noqa: BLE001 - unpicklable or unwritable: leave no temporary behind
        try:
            os.unlink(tmp)
        except OSError:
            pass


def _digest(artifact: bytes) -> bytes:
    return hashlib.sha256(artifact).digest()


_entries: dict[bytes, tuple[Path, str]] = {}
"""Artifact digest -> (folder, key) of the entries this process stored or loaded, so that a
device can replace an artifact by an equivalent one later (``replace_artifact``)."""
_MAX_REMEMBERED = 4096


def _remember(digest: bytes, key: str, folder: Path | None) -> None:
    if folder is None:
        return
    if len(_entries) >= _MAX_REMEMBERED:
        _entries.clear()  # only an optimisation: forgetting is always safe
    _entries[digest] = (folder, key)


def load(key: str) -> tuple[Module, bytes] | None:
    """The cached (module, artifact) for ``key``, or ``None`` (also for an entry that is
    truncated or whose artifact does not match the digest stored with it: code that would
    be loaded and run must be exactly what was compiled)."""
    folder = cache_dir()
    entry = _read(key, folder)
    if not isinstance(entry, tuple) or len(entry) != 3:
        return None
    module, artifact, digest = entry
    if not isinstance(module, Module) or not isinstance(artifact, bytes):
        return None
    if digest != _digest(artifact):
        return None
    _remember(digest, key, folder)
    return module, artifact


def store(key: str, module: Module, artifact: bytes) -> None:
    """Cache a compiled specialisation: its IR module and the device artifact."""
    folder = cache_dir()
    digest = _digest(artifact)
    _write(key, (module, artifact, digest), folder)
    _remember(digest, key, folder)


def replace_artifact(old: bytes, new: bytes) -> bool:
    """In the entry this process stored or loaded with artifact ``old``, put ``new`` instead:
    an equivalent artifact that is cheaper to load (the ``cpu`` device's shared library for
    its object code, linked in the background). Returns whether an entry was rewritten: not
    when none is known, or when the entry on disk no longer holds ``old`` (another process
    rewrote it first)."""
    place = _entries.get(_digest(old))
    if place is None:
        return False
    folder, key = place
    entry = _read(key, folder)
    if not isinstance(entry, tuple) or len(entry) != 3 or entry[1] != old:
        return False
    digest = _digest(new)
    _write(key, (entry[0], new, digest), folder)
    _remember(digest, key, folder)
    return True


@dataclass(frozen=True)
class CachedDecl:
    """A kernel parameter as ``frontend.parse_signature`` declared it (same attributes as
    ``ParamDecl``), kept on disk so that a fully cached first launch need not load the
    front end."""

    name: str
    dtype: ScalarType
    access: Access | None
    is_array: bool


def signature_key(fn: Callable[..., Any], qualname: str) -> str:
    """Key of a kernel's declared signature: its source, and what each name used in its
    annotations resolves to now (an alias ``T = go.f32`` changed elsewhere changes the key)."""
    parts = [source_hash(fn), qualname]
    scope = {**vars(builtins), **fn.__globals__}
    for name, annotation in sorted(fn.__annotations__.items()):
        text = annotation if isinstance(annotation, str) else repr(annotation)
        resolved = []
        for ident in _IDENT.findall(text):
            head, *rest = ident.split(".")
            value: Any = scope.get(head)
            for attr in rest:
                value = getattr(value, attr, None)
            resolved.append(f"{ident}={value!r}")
        parts.append(f"{name}:{text}:{';'.join(resolved)}")
    return make_key("signature", *parts)


def load_decls(key: str) -> tuple[CachedDecl, ...] | None:
    """Cached parameter declarations for ``signature_key``, or ``None``."""
    entry = _read(key)
    if not isinstance(entry, tuple) or not all(isinstance(d, CachedDecl) for d in entry):
        return None
    return entry


def store_decls(key: str, decls: Sequence[Any]) -> None:
    """Cache parameter declarations (``ParamDecl``s) under ``signature_key``."""
    _write(key, tuple(CachedDecl(d.name, d.dtype, d.access, d.is_array) for d in decls))


_SPEC_TAG = "launch-checks"
"""The entry of a module's launch-time analyses: ``(tag, (spec, race proofs))``, the race
proofs a dict from launch shape (``gpuoff.ir.race_walk.LaunchShape.key``) to the conditions
the proof rests on (``gpuoff.ir.race_proof.Condition``s; empty: none)."""


def _analyses(key: str) -> tuple[bool, Any, dict[str, frozenset[Any]]]:
    entry = _read(make_key(_SPEC_TAG, key))
    if isinstance(entry, tuple) and len(entry) == 2 and entry[0] == _SPEC_TAG:
        body = entry[1]
        if isinstance(body, tuple) and len(body) == 2 and isinstance(body[1], dict):
            return True, body[0], body[1]
    return False, None, {}


def load_spec(key: str) -> tuple[bool, Any]:
    """``(found, spec)``: the cached ``gpuoff.ir.launch_checks.specialise`` result of the
    module cached under ``key`` (``spec`` may be ``None``: no check is launch-provable), so a
    cache hit does not run the analysis again."""
    found, spec, _ = _analyses(key)
    return found, spec


def store_spec(key: str, spec: Any) -> None:
    """Cache the ``specialise`` result of the module cached under ``key``."""
    _write(make_key(_SPEC_TAG, key), (_SPEC_TAG, (spec, _analyses(key)[2])))


def load_races(key: str) -> dict[str, frozenset[Any]]:
    """The race proofs of the module cached under ``key``: launch shape -> the conditions the
    proof rests on. Kept with its launch-check spec, one entry a module."""
    return _analyses(key)[2]


def store_races(key: str, shape: str, conditions: frozenset[Any]) -> None:
    """Record the race proof of the module cached under ``key`` for ``shape`` (only where its
    spec is cached: the entry is the spec's)."""
    found, spec, known = _analyses(key)
    if found and known.get(shape) != conditions:
        _write(make_key(_SPEC_TAG, key), (_SPEC_TAG, (spec, {**known, shape: conditions})))
