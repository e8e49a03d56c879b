"""Loading compiled CPU kernels without llvmlite, so a disk-cache hit stays cheap.

The compiling process runs a new kernel's relocatable object in llvmlite's JIT (``jit_load``:
llvmlite is loaded anyway, and the JIT takes a millisecond where the system linker takes
ten or more) and caches the object. A background thread then links it into a shared library
(``ld``, else the C compiler driver ``cc``; ``-lm`` so the math functions it calls resolve
in it) and replaces the object in the cache entry. Later processes load that library with
``dlopen`` (``ctypes.CDLL``) and never import llvmlite (about 70 ms). Without a linker the
entry keeps the object, loaded by the JIT.

The target key of the disk cache (host CPU name and features as LLVM sees them, llvmlite's
version, a hash of the code generator) needs llvmlite to compute. It is remembered in the
cache folder under a fingerprint that needs no llvmlite: the CPU's identity from
``/proc/cpuinfo``, llvmlite's installed files, every code generator source and gpuoff's
version. Anything that could change the real key changes the fingerprint, so a stale key is
never reused; without ``/proc/cpuinfo`` the key is computed each time.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import sys
import threading
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

from gpuoff import __version__
from gpuoff.errors import DeviceError
from gpuoff.runtime import debug

ET_DYN = 3
"""ELF ``e_type`` of a shared object (a relocatable object is 1)."""

_CPU_FIELDS = frozenset({
    "vendor_id", "cpu family", "model", "model name", "stepping", "flags", "features",
    "cpu implementer", "cpu architecture", "cpu variant", "cpu part", "cpu revision", "isa",
    "uarch",
})  # fmt: skip
"""``/proc/cpuinfo`` fields that identify a CPU model and its instruction set (not its clock
or core number)."""

_libraries: list[Any] = []  # loaded kernels are never unloaded: their code must outlive them
_counter = [0]  # loads so far (under _load_lock): makes each library's path unique
_load_lock = threading.Lock()


def is_shared_object(artifact: bytes) -> bool:
    """Whether ``artifact`` is an ELF shared library (rather than a relocatable object)."""
    if len(artifact) < 18 or artifact[:4] != b"\x7fELF":
        return False
    order: Literal["little", "big"] = "little" if artifact[5] == 1 else "big"
    return int.from_bytes(artifact[16:18], order) == ET_DYN


# ------------------------------------------------------------------------------------------------
# Linking (compile path only)
# ------------------------------------------------------------------------------------------------


def linker_commands(obj: str, out: str) -> list[list[str]]:
    """Commands that link ``obj`` into the shared library ``out``, in order of preference:
    ``ld`` itself (no compiler driver start-up), then ``cc``/``gcc``/``clang``."""
    import shutil

    commands: list[list[str]] = []
    flags = ["-shared", "-z", "now", "-z", "noexecstack", "-o", out, obj]
    ld = shutil.which("ld")
    if ld is not None:
        commands.append([ld, *flags, "-lm"])
    for name in ("cc", "gcc", "clang"):
        driver = shutil.which(name)
        if driver is not None:
            commands.append([driver, *flags, "-lm"])  # cc passes -z on to its linker
            break
    return commands


def _run(command: list[str], log: str) -> int:
    """Run ``command`` with its output in the file ``log``; its exit status (127: no start).

    ``os.posix_spawn`` where there is one: importing ``subprocess`` costs more than linking a
    small kernel takes."""
    spawn = getattr(os, "posix_spawn", None)
    if spawn is None:
        import subprocess

        with open(log, "wb") as out:
            try:
                return subprocess.run(command, stdout=out, stderr=out, timeout=120,
                                      check=False).returncode  # fmt: skip
            except (OSError, subprocess.SubprocessError):
                return 127
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC
    actions = [(os.POSIX_SPAWN_OPEN, 1, log, flags, 0o600), (os.POSIX_SPAWN_DUP2, 1, 2)]
    try:
        pid = spawn(command[0], command, os.environ, file_actions=actions)
        _, status = os.waitpid(pid, 0)
    except OSError:
        return 127
    return os.waitstatus_to_exitcode(status)


def link_shared(object_code: bytes) -> bytes | None:
    """``object_code`` linked into a shared library, or ``None`` when no linker is found or
    none succeeds (the caller then keeps the object for the JIT)."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="gpuoff-link-") as tmp:
        obj, out = os.path.join(tmp, "kernel.o"), os.path.join(tmp, "kernel.so")
        log = os.path.join(tmp, "link.log")
        Path(obj).write_bytes(object_code)
        for command in linker_commands(obj, out):
            status = _run(command, log)
            if status == 0 and os.path.exists(out):
                image = Path(out).read_bytes()
                if is_shared_object(image):
                    return image
            if debug.enabled(debug.CACHE):
                text = Path(log).read_text(errors="replace") if os.path.exists(log) else ""
                debug.log(debug.CACHE, f"linker {command[0]} failed ({status}): {text[:500]}")
    return None


class _Linker:
    """Links objects on one background thread, in order, calling each job's ``done`` with
    its library. The thread is not a daemon: the interpreter waits for queued links at exit
    (a few milliseconds each), so the next process finds the libraries in the cache."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.jobs: deque[tuple[bytes, Callable[[bytes], object]]] = deque()
        self.worker: threading.Thread | None = None
        self.idle = threading.Condition(self.lock)

    def submit(self, object_code: bytes, done: Callable[[bytes], object]) -> None:
        with self.lock:
            self.jobs.append((object_code, done))
            if self.worker is not None:
                return
            worker = threading.Thread(target=self._run, name="gpuoff-link")
            self.worker = worker
        try:
            worker.start()
        except RuntimeError:  # interpreter shutting down: no new threads, link here
            self._run()

    def _run(self) -> None:
        while True:
            with self.lock:
                if not self.jobs:
                    self.worker = None
                    self.idle.notify_all()
                    return
                object_code, done = self.jobs.popleft()
            image = link_shared(object_code)
            if image is not None:
                try:
                    done(image)
                except Exception as exc:  # noqa: BLE001 - a cache write is best effort
                    debug.log(debug.CACHE, f"storing a linked kernel failed: {exc}")

    def wait(self) -> None:
        with self.lock:
            while self.worker is not None:
                self.idle.wait()

    def after_fork(self) -> None:
        # the child has no worker thread, and the lock may have been held by it
        self.lock = threading.Lock()
        self.idle = threading.Condition(self.lock)
        self.worker = None
        self.jobs.clear()


_linker = _Linker()
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_linker.after_fork)


def link_later(object_code: bytes, done: Callable[[bytes], object]) -> None:
    """Link ``object_code`` in the background and call ``done(library)`` if that works.

    A first launch need not wait for the system linker: it runs the object in the JIT
    (llvmlite is loaded anyway to compile it) while the library is made for later processes.
    """
    _linker.submit(object_code, done)


def wait_for_links() -> None:
    """Block until every background link has finished (tests; the interpreter does it at
    exit)."""
    _linker.wait()


# ------------------------------------------------------------------------------------------------
# Loading (the cache-hit path: no llvmlite, no subprocess)
# ------------------------------------------------------------------------------------------------


def _dlopen_image(image: bytes, folder: str | None) -> ctypes.CDLL:
    """``dlopen`` an in-memory library from a new file in ``folder`` (``$TMPDIR``, else
    ``/tmp``, when ``None``), removed once it is mapped.

    ``dlopen`` returns an already loaded library when given a path it has seen before, even
    if the file there changed since: each load gets a path never used before in this process
    (a counter; an anonymous memory file's ``/proc/self/fd/N`` would repeat once N is
    reused, silently running another kernel). The file is created exclusively, never through
    a link, with a random part in its name (no ``tempfile``: importing it and ``shutil``
    costs a cache hit more than the whole load)."""
    _counter[0] += 1
    base = folder or os.environ.get("TMPDIR") or "/tmp"
    name = f"gpuoff-kernel-{os.getpid()}-{_counter[0]}-{os.urandom(6).hex()}.so"
    path = os.path.join(base, name)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(path, flags, 0o700)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(image)
        return ctypes.CDLL(path, mode=os.RTLD_LOCAL | os.RTLD_NOW)
    finally:
        try:
            os.unlink(path)
        except OSError:
            pass


def load_shared(image: bytes, symbol: str, fallback_dir: Path | None = None) -> int:
    """Load the shared library ``image`` and return the address of ``symbol``.

    The library is mapped from a temporary file; where the temporary folder does not allow
    it (mounted ``noexec``), from one under ``fallback_dir``. Raises ``OSError`` when the
    library cannot be loaded or lacks ``symbol``. Each load is a separate library (one
    kernel name may exist once per signature); none is ever unloaded.
    """
    with _load_lock:
        try:
            lib = _dlopen_image(image, None)
        except OSError:
            if fallback_dir is None:
                raise
            fallback_dir.mkdir(parents=True, exist_ok=True)
            lib = _dlopen_image(image, str(fallback_dir))
        _libraries.append(lib)
    try:
        function = getattr(lib, symbol)
    except AttributeError as exc:
        raise OSError(f"symbol {symbol} not found in the kernel library") from exc
    address = ctypes.cast(function, ctypes.c_void_p).value
    if not address:
        raise OSError(f"symbol {symbol} has no address in the kernel library")
    return int(address)


# ------------------------------------------------------------------------------------------------
# The JIT (no linker): llvmlite's MCJIT
# ------------------------------------------------------------------------------------------------

_engines: list[tuple[Any, Any]] = []  # (engine, object file): both must outlive the code


def _new_engine() -> Any:
    import llvmlite.binding as llvm

    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    machine = llvm.Target.from_default_triple().create_target_machine()
    return llvm.create_mcjit_compiler(llvm.parse_assembly(""), machine)


def jit_load(object_code: bytes, symbol: str) -> int:
    """Load ``object_code`` into the JIT and return ``symbol``'s address.

    Each object gets its own MCJIT engine: an object added to an engine after it was
    finalised is not relocated (calling into it crashes), and one kernel name may appear in
    several objects (one per signature). Engines and objects are kept for the process's life.
    """
    import llvmlite.binding as llvm

    with _load_lock:
        engine = _new_engine()
        obj = llvm.ObjectFileRef.from_data(object_code)
        engine.add_object_file(obj)
        engine.finalize_object()
        _engines.append((engine, obj))
        address = int(engine.get_function_address(symbol))
        if not address:
            raise DeviceError(f"JIT: symbol {symbol} not found in the compiled object")
        return address


# ------------------------------------------------------------------------------------------------
# The disk cache's target key without llvmlite
# ------------------------------------------------------------------------------------------------


def _cpu_identity() -> str | None:
    """The first processor's model and instruction-set fields of ``/proc/cpuinfo``."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as fh:
            fields: list[str] = []
            for line in fh:
                if not line.strip():
                    if fields:
                        break
                    continue
                name, _, value = line.partition(":")
                if name.strip().lower() in _CPU_FIELDS:
                    fields.append(f"{name.strip().lower()}={value.strip()}")
    except OSError:
        return None
    return "\n".join(fields) if fields else None


def _llvmlite_identity() -> str | None:
    """Where llvmlite is installed and its files' sizes and times (no import of llvmlite)."""
    from importlib.util import find_spec

    try:
        spec = find_spec("llvmlite")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    root = Path(next(iter(spec.submodule_search_locations)))
    parts = [str(root)]
    for rel in ("_version.py", "binding/libllvmlite.so", "binding/libllvmlite.dylib",
                "binding/llvmlite.dll"):  # fmt: skip
        try:
            st = (root / rel).stat()
        except OSError:
            continue
        parts.append(f"{rel}:{st.st_size}:{st.st_mtime_ns}")
    return "|".join(parts) if len(parts) > 1 else None


def _codegen_sources() -> str:
    """Hash of every code generator source (a superset of what the target key hashes)."""
    import codegen

    digest = hashlib.sha256()
    folder = os.path.dirname(codegen.__file__)
    # os.listdir, not Path.glob: glob compiles a regular expression (milliseconds, cold)
    for name in sorted(os.listdir(folder)):
        if name.endswith(".py"):
            with open(os.path.join(folder, name), "rb") as fh:
                digest.update(name.encode() + b"\0" + fh.read())
    return digest.hexdigest()


def host_fingerprint() -> str | None:
    """A hash of what the CPU target key depends on, computed without llvmlite; ``None``
    where it cannot be (no ``/proc/cpuinfo``, llvmlite not found)."""
    cpu = _cpu_identity()
    llvmlite = _llvmlite_identity()
    if cpu is None or llvmlite is None:
        return None
    parts = (__version__, sys.platform, os.uname().machine, cpu, llvmlite, _codegen_sources())
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


def cached_target_key(folder: Path | None) -> str | None:
    """The CPU target key remembered in the cache ``folder`` for this host, if any."""
    fingerprint = host_fingerprint() if folder is not None else None
    if folder is None or fingerprint is None:
        return None
    try:
        text = (folder / f"host-{fingerprint}.key").read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    # a complete entry is one line, the key and its check, ending in a newline
    key, _, check = text[:-1].rpartition("\t")
    if not text.endswith("\n") or text.count("\n") != 1 or check != _key_check(key):
        return None
    return key


def _key_check(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()[:16]


def remember_target_key(folder: Path | None, key: str) -> None:
    """Remember ``key`` in ``folder`` for ``cached_target_key`` (atomically; best effort)."""
    fingerprint = host_fingerprint() if folder is not None else None
    if folder is None or fingerprint is None or "\n" in key or "\t" in key:
        return
    import tempfile

    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(f"{key}\t{_key_check(key)}\n")
            os.replace(tmp, folder / f"host-{fingerprint}.key")
        except BaseException:
            os.unlink(tmp)
            raise
    except OSError:
        pass


__all__ = [
    "cached_target_key", "host_fingerprint", "is_shared_object", "jit_load", "link_later",
    "link_shared", "linker_commands", "load_shared", "remember_target_key", "wait_for_links",
]  # fmt: skip
