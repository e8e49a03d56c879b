"""Which OpenCL drivers the ICD loader sees, and which of them can build programs here.

Two problems of pip-installed OpenCL, solved before pyopencl first asks for platforms:

* **Drivers installed into the environment are invisible.** Intel's CPU runtime
  (``pip install intel-opencl-rt``, part of the ``opencl`` extra on x86-64 Linux) puts
  ``libintelocl.so`` into ``<prefix>/lib`` and its ICD file into ``<prefix>/etc/OpenCL/vendors``,
  where no loader looks, and the libraries it links against (``libimf.so``, ...) are not on the
  dynamic linker's path. ``prepare()`` preloads those libraries by absolute path and points the
  loader (``OCL_ICD_VENDORS``) at a folder holding the system's ICD files plus the
  environment's. pyopencl's bundled loader also reads its own ``.libs`` folder (PoCL). A user
  who sets ``OCL_ICD_VENDORS`` or ``GPUOFF_OPENCL_ICD=system`` keeps the loader's own choice.
* **A driver may be unable to compile for this CPU.** PoCL 3.0 (the newest
  ``pocl-binary-distribution``, built on LLVM 14) names a CPU that LLVM 14 does not know
  ``generic``, which its own clang then refuses: every build fails with "unknown target CPU
  'generic'" (seen on AMD Zen 5). ``build_failure(platform, device)`` builds a one-line kernel
  once per driver and CPU (the verdict is cached on disk) so that such a device is listed as
  unavailable, with the driver's reason, instead of failing every launch.
"""

from __future__ import annotations

import ctypes
import hashlib
import json
import os
import sys
import warnings
from pathlib import Path
from typing import Any

from gpuoff.runtime import cache

ICD_ENV = "GPUOFF_OPENCL_ICD"
"""``system``: leave the ICD loader's configuration alone (no environment drivers added)."""

_INTEL_DEPENDENCIES = ("libintlc.so.5", "libimf.so", "libsvml.so", "libirng.so")
"""What ``libintelocl.so`` needs from Intel's compiler runtime (``intel-cmplr-lib-rt``), in an
order in which each one's own dependencies are already loaded."""

_PROBE_SOURCE = "__kernel void gpuoff_probe(__global int *a) { a[get_global_id(0)] += 1; }"

_prepared = False
_verdicts: dict[str, str] = {}


def _environment_drivers() -> list[Path]:
    """Driver libraries that pip installed into this environment with their ICD files."""
    prefix = Path(sys.prefix)
    found = []
    for icd in sorted((prefix / "etc" / "OpenCL" / "vendors").glob("*.icd")):
        if "fpga" in icd.name:  # Intel's FPGA emulator: not a compute device anyone wants
            continue
        library = prefix / "lib" / Path(icd.read_text().strip()).name
        if library.is_file():
            found.append(library)
    return found


def _preload_intel_runtime(library: Path) -> bool:
    for name in _INTEL_DEPENDENCIES:
        path = library.parent / name
        if not path.exists():
            return False
        try:
            ctypes.CDLL(str(path), mode=ctypes.RTLD_GLOBAL)
        except OSError:
            return False
    return True


def prepare() -> None:
    """Make the environment's OpenCL drivers visible to the ICD loader (once, before pyopencl
    asks for platforms; later calls do nothing)."""
    global _prepared
    if _prepared:
        return
    _prepared = True
    if os.environ.get(ICD_ENV) == "system" or "OCL_ICD_VENDORS" in os.environ:
        return
    drivers = [
        lib for lib in _environment_drivers()
        if not lib.name.startswith("libintelocl") or _preload_intel_runtime(lib)
    ]  # fmt: skip
    if not drivers:
        return
    folder = _vendors_folder()
    if folder is None:
        return
    lines = {f"env-{lib.stem}.icd": str(lib) for lib in drivers}
    system = Path("/etc/OpenCL/vendors")
    if system.is_dir():
        for icd in sorted(system.glob("*.icd")):
            try:
                lines[f"sys-{icd.name}"] = icd.read_text().strip()
            except OSError:
                continue
    for name, target in lines.items():
        path = folder / name
        try:
            current = path.read_bytes() if path.exists() else None
        except OSError:
            current = None
        if current != target.encode():  # missing, stale or damaged: the loader must read it
            path.write_text(target)
    os.environ["OCL_ICD_VENDORS"] = str(folder)


def _vendors_folder() -> Path | None:
    """A folder of ICD files for this environment: in the disk cache, else a private one."""
    digest = hashlib.sha256(sys.prefix.encode()).hexdigest()[:16]
    root = cache.cache_dir()
    if root is not None:
        folder = root / "opencl-vendors" / digest
    else:
        import tempfile

        folder = Path(tempfile.gettempdir()) / f"gpuoff-opencl-vendors-{os.getuid()}-{digest}"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return folder


def _cpu_identity() -> str:
    """What distinguishes this CPU for a compiler (vendor, family, model, features)."""
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        import platform

        return platform.processor() or platform.machine()
    first = text.split("\n\n", 1)[0]
    keep = ("vendor_id", "cpu family", "model", "model name", "flags", "Features", "CPU part")
    return "\n".join(line for line in first.splitlines() if line.split(":")[0].strip() in keep)


def _probe_key(platform: Any, device: Any) -> str:
    parts = [platform.name, platform.version, device.name, device.version,
             device.driver_version, _cpu_identity()]  # fmt: skip
    return hashlib.sha256("\0".join(p.strip() for p in parts).encode()).hexdigest()[:32]


def build_failure(cl: Any, platform: Any, device: Any) -> str:
    """Why ``device`` cannot build OpenCL programs on this machine, or ``""`` if it can."""
    key = _probe_key(platform, device)
    if key in _verdicts:
        return _verdicts[key]
    path = None
    root = cache.cache_dir()
    if root is not None:
        path = root / "opencl-probe" / f"{key}.json"
        try:
            entry = json.loads(path.read_bytes())
            verdict = str(entry["failure"])
            if entry["check"] == _check(key, verdict):  # damaged: probe again
                _verdicts[key] = verdict
                return verdict
        except (OSError, ValueError, KeyError, TypeError):
            pass
    verdict = _build_once(cl, device)
    _verdicts[key] = verdict
    if path is not None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_text(json.dumps({"failure": verdict, "check": _check(key, verdict)}))
            os.replace(tmp, path)
        except OSError:
            pass
    return verdict


def _check(key: str, verdict: str) -> str:
    return hashlib.sha256(f"{key}\0{verdict}".encode()).hexdigest()[:16]


def _build_once(cl: Any, device: Any) -> str:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", cl.CompilerWarning)
            cl.Program(cl.Context([device]), _PROBE_SOURCE).build(devices=[device])
    except Exception as exc:  # noqa: BLE001 - any failure means the device is unusable
        lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
        first = next((line for line in lines if line.startswith("error")),
                     lines[0] if lines else type(exc).__name__)  # fmt: skip
        return f"its driver cannot build OpenCL programs on this CPU ({first})"
    return ""
