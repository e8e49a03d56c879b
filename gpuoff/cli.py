"""The ``gpuoff`` command: ``devices``, ``show``, ``bench``, ``cache`` and ``tour``.

``gpuoff show`` signatures (``--sig``)
    A comma-separated list with one entry per kernel parameter, in order:

    - a scalar: its dtype name, ``f32``, ``f64``, ``f16``, ``i8`` ... ``i64``, ``u8`` ... ``u64``,
      ``bool`` (NumPy names such as ``float32`` are accepted too);
    - an array: the element dtype, then one ``:`` per dimension in brackets, C-contiguous by
      default: ``f32[:]`` (1-d), ``f32[:, :]`` (2-d), ``f32[:, :, :]`` (3-d);
    - a strided (non-contiguous) array: write ``::`` for any dimension (``f32[:, ::]``) or put
      the layout letter ``A`` after the brackets (``f32[:, :]A``); ``C`` is the default.

    Ownership (``Borrow``, ``BorrowMut``, ``Owned``) always comes from the kernel's annotations,
    and each dtype must match the annotation. Without ``--sig`` scalars take their declared
    type and arrays are 1-d contiguous.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import os
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from codegen.abi import MAX_NDIM
from gpuoff.errors import CompileError, GpuoffError

_DTYPE_ALIASES = {
    "f16": "f16", "float16": "f16", "half": "f16",
    "f32": "f32", "float32": "f32",
    "f64": "f64", "float64": "f64", "float": "f64", "double": "f64",
    "i8": "i8", "int8": "i8",
    "i16": "i16", "int16": "i16",
    "i32": "i32", "int32": "i32",
    "i64": "i64", "int64": "i64", "int": "i64",
    "u8": "u8", "uint8": "u8",
    "u16": "u16", "uint16": "u16",
    "u32": "u32", "uint32": "u32",
    "u64": "u64", "uint64": "u64",
    "bool": "bool", "boolean": "bool",
}  # fmt: skip

_ENTRY = re.compile(r"^(?P<dtype>\w+)\s*(?:\[(?P<dims>[^\]]*)\]\s*(?P<layout>[AC])?)?$")


class CliError(GpuoffError, ValueError):
    """A command-line mistake (bad signature, unknown kernel, unavailable target)."""


# --------------------------------------------------------------------------------------------
# Signatures
# --------------------------------------------------------------------------------------------


def _split_top(text: str) -> list[str]:
    """Split on commas outside brackets."""
    parts: list[str] = []
    depth, start = 0, 0
    for k, ch in enumerate(text):
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:k])
            start = k + 1
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip()]


def parse_sig_entry(text: str) -> tuple[str, int, bool]:
    """One ``--sig`` entry -> (dtype name, ndim (0 for a scalar), contiguous)."""
    m = _ENTRY.match(text.strip())
    if m is None:
        raise CliError(f"bad signature entry {text!r}: expected e.g. f32, f32[:] or f32[:, ::]")
    dtype = _DTYPE_ALIASES.get(m["dtype"].lower())
    if dtype is None:
        raise CliError(f"unknown dtype {m['dtype']!r} in {text!r}; known: "
                       f"{', '.join(sorted(set(_DTYPE_ALIASES.values())))}")  # fmt: skip
    if m["dims"] is None:
        return dtype, 0, True
    dims = [d.strip() for d in m["dims"].split(",")]
    if not dims or any(d not in (":", "::", "::1") for d in dims):
        raise CliError(f"bad dimensions in {text!r}: write one ':' per dimension "
                       "(or '::' for a strided one), e.g. f32[:, :]")  # fmt: skip
    if len(dims) > MAX_NDIM:
        raise CliError(f"{text!r} has {len(dims)} dimensions; gpuoff arrays have 1 to {MAX_NDIM}")
    strided = m["layout"] == "A" or "::" in dims
    return dtype, len(dims), not strided


def parse_sig(text: str) -> list[tuple[str, int, bool]]:
    """A whole ``--sig`` string -> one (dtype, ndim, contiguous) per parameter."""
    return [parse_sig_entry(p) for p in _split_top(text)]


def arg_types_for(pyfunc: Callable[..., Any], sig: str | None) -> list[Any]:
    """IR argument types for ``pyfunc`` from ``sig``, ownership taken from its annotations."""
    try:
        from gpuoff.frontend import parse_signature
    except ImportError as e:
        raise CliError(f"the gpuoff front end is not available: {e}") from e
    from gpuoff.ir import types as T

    decls = parse_signature(pyfunc)
    entries = parse_sig(sig) if sig else [(d.dtype.name, 1 if d.is_array else 0, True)
                                          for d in decls]  # fmt: skip
    if len(entries) != len(decls):
        names = ", ".join(d.name for d in decls)
        raise CliError(f"--sig gives {len(entries)} types but the kernel has {len(decls)} "
                       f"parameters ({names})")  # fmt: skip
    by_name = {s.name: s for s in T.SCALARS}
    out: list[Any] = []
    for decl, (dtype, ndim, contiguous) in zip(decls, entries, strict=True):
        if dtype != decl.dtype.name:
            raise CliError(f"parameter {decl.name!r} is declared with dtype {decl.dtype.name} "
                           f"but --sig gives {dtype}")  # fmt: skip
        if decl.is_array != (ndim > 0):
            want = "an array like f32[:]" if decl.is_array else "a scalar dtype"
            raise CliError(f"parameter {decl.name!r} needs {want} in --sig")
        if ndim == 0:
            out.append(by_name[dtype])
        else:
            assert decl.access is not None
            out.append(T.ArrayType(by_name[dtype], ndim, contiguous, access=decl.access))
    return out


# --------------------------------------------------------------------------------------------
# Loading MODULE:KERNEL
# --------------------------------------------------------------------------------------------


def load_object(spec: str) -> Any:
    """``pkg.mod:name`` or ``path/to/file.py:name`` -> the object."""
    module_part, sep, attr = spec.rpartition(":")
    if not sep or not module_part or not attr:
        raise CliError(f"expected MODULE:KERNEL (e.g. examples/saxpy.py:saxpy), got {spec!r}")
    if module_part.endswith(".py") or os.sep in module_part:
        path = Path(module_part)
        if not path.is_file():
            raise CliError(f"no such file: {module_part}")
        name = f"_gpuoff_show_{path.stem}"
        loader_spec = importlib.util.spec_from_file_location(name, path)
        if loader_spec is None or loader_spec.loader is None:
            raise CliError(f"cannot load {module_part}")
        module = importlib.util.module_from_spec(loader_spec)
        sys.modules[name] = module
        loader_spec.loader.exec_module(module)
    else:
        if "" not in sys.path and os.getcwd() not in sys.path:
            sys.path.insert(0, os.getcwd())
        try:
            module = importlib.import_module(module_part)
        except ImportError as e:
            raise CliError(f"cannot import module {module_part!r}: {e}") from e
    try:
        return getattr(module, attr)
    except AttributeError:
        raise CliError(f"module {module_part!r} has no attribute {attr!r}") from None


# --------------------------------------------------------------------------------------------
# gpuoff show
# --------------------------------------------------------------------------------------------

TARGETS = ("ir", "llvm", "opencl", "ptx")


def _unavailable(target: str, exc: BaseException) -> CliError:
    return CliError(f"target {target!r} is not available here: {type(exc).__name__}: {exc}")


def lower_for_show(obj: Any, sig: str | None, boundscheck: bool | None, fastmath: bool | None,
                   after: str | None = None) -> Any:  # fmt: skip
    """The IR module the runtime would compile for ``obj`` (a kernel) with signature ``sig``;
    with ``after``, the module as it is after that pass of the compile pipeline."""
    try:
        from gpuoff.frontend import lower_kernel
        from gpuoff.ir.pipeline import UnknownPassError, check_pass_name, run_passes
    except ImportError as e:
        raise CliError(f"the gpuoff front end is not available: {e}") from e

    if after is not None:
        try:
            check_pass_name(after)
        except UnknownPassError as e:
            raise CliError(str(e)) from None
    pyfunc = getattr(obj, "pyfunc", obj)
    if not callable(pyfunc):
        raise CliError(f"{obj!r} is not a kernel")
    options = getattr(obj, "options", None)
    if boundscheck is None:
        boundscheck = bool(getattr(obj, "boundscheck", getattr(options, "boundscheck", True)))
    if fastmath is None:
        fastmath = bool(getattr(obj, "fastmath", getattr(options, "fastmath", False)))
    from gpuoff.frontend import lower_specialised, parse_signature

    decls = parse_signature(pyfunc)
    if any(d.var is not None or d.const for d in decls):  # generic: --sig binds it
        types, binding, consts = _generic_sig(decls, sig)
        module = lower_specialised(pyfunc, types, binding, consts, boundscheck=boundscheck,
                                   fastmath=fastmath)  # fmt: skip
    else:
        module = lower_kernel(pyfunc, tuple(arg_types_for(pyfunc, sig)),
                              boundscheck=boundscheck, fastmath=fastmath)  # fmt: skip
    # The same pipeline as the runtime's first launch, so `show` prints what really runs.
    return run_passes(module, after=after)


def _generic_sig(decls: Any, sig: str | None) -> Any:
    """A generic kernel's run-time types, dtype binding and constants from ``--sig``."""
    from gpuoff.cli_generic import SigError, generic_sig

    try:
        return generic_sig(decls, sig, _split_top, parse_sig_entry, load_object)
    except SigError as e:
        raise CliError(str(e)) from None


def render_target(module: Any, target: str, *, optimized: bool = True, sm: int = 80) -> str:
    """The text of ``module`` for ``target`` (one of ``TARGETS``)."""
    try:
        if target == "ir":
            from gpuoff.ir.printer import format_module

            return format_module(module)
        if target == "llvm":
            from codegen.cpu import llvm_ir_text

            return llvm_ir_text(module, optimized=optimized)
        if target == "opencl":
            from codegen.opencl import render_opencl

            return str(render_opencl(module).text)
        if target == "ptx":
            from codegen.nvptx import compile_ptx

            return str(compile_ptx(module, sm=sm).ptx)
    except (ImportError, AttributeError, NotImplementedError) as e:
        raise _unavailable(target, e) from e
    raise CliError(f"unknown target {target!r}; choose from {', '.join(TARGETS)}")


def cmd_show(args: argparse.Namespace) -> int:
    """``gpuoff show MODULE:KERNEL --target T --sig S``."""
    if args.after is not None and args.target != "ir":
        raise CliError("--after shows the IR after a pass: use it with --target ir")
    obj = load_object(args.kernel)
    boundscheck = False if args.no_boundscheck else None
    module = lower_for_show(obj, args.sig, boundscheck, True if args.fastmath else None,
                            after=args.after)  # fmt: skip
    print(render_target(module, args.target, optimized=not args.raw, sm=args.sm))
    return 0


# --------------------------------------------------------------------------------------------
# gpuoff devices
# --------------------------------------------------------------------------------------------


def device_rows() -> list[tuple[str, str, str, str]]:
    """(name, backend, status, description or reason) for every entry of ``go.devices()``."""
    from gpuoff.runtime.devices import default_device_name, devices

    default = default_device_name()
    rows = []
    for info in devices():
        if info.available:
            status = "default" if info.name == default else "available"
            rows.append((info.name, info.backend, status, info.description))
        else:
            rows.append((info.name, info.backend, "unavailable", info.reason))
    return rows


def cmd_devices(args: argparse.Namespace) -> int:
    """``gpuoff devices``: every device, and why a backend is missing."""
    rows = device_rows()
    header = ("device", "backend", "status", "description / reason")
    widths = [max(len(r[c]) for r in [header, *rows]) for c in range(3)]
    for r in [header, *rows]:
        head = "  ".join(c.ljust(w) for c, w in zip(r[:3], widths, strict=True))
        print(f"{head}  {r[3]}".rstrip())
    print("\nlimits of one launch (a bigger block or go.shared is refused with the limit):")
    for name in (r[0] for r in rows if r[2] in ("available", "default")):
        print(f"  {name.ljust(widths[0])}  {_limits_line(name)}")
    return 0


def _limits_line(name: str) -> str:
    from gpuoff.runtime.devices import get_device
    from gpuoff.runtime.limits import size_text

    try:
        limits = get_device(name).limits()
    except Exception as exc:  # noqa: BLE001 - a device that does not open says why
        return f"(cannot open: {exc})"
    block = ", ".join(str(n) for n in limits.max_block)
    return (f"{limits.max_block_items} work-items per work-group ({block} per dimension), "
            f"{size_text(limits.shared_bytes)} of shared memory per work-group")  # fmt: skip


# --------------------------------------------------------------------------------------------
# gpuoff bench
# --------------------------------------------------------------------------------------------


def _print_results(args: argparse.Namespace, rows: list[Any], skipped: list[str],
                   info: dict[str, Any]) -> None:  # fmt: skip
    from gpuoff.bench import report

    to_stdout_json = args.json == "-"
    print(report.render_table(rows, skipped, info),
          file=sys.stderr if to_stdout_json else sys.stdout)  # fmt: skip
    if args.json:
        doc = report.to_json(rows, skipped, info)
        if to_stdout_json:
            print(doc)
        else:
            Path(args.json).write_text(doc + "\n")


def bench_devices(text: str | None) -> list[str]:
    """The ``--device`` list, each name known and available here, or CliError listing the
    devices (before any benchmark runs: a typo must not cost a whole run of skips)."""
    from gpuoff.runtime.devices import devices

    wanted = [d.strip() for d in (text or "cpu").split(",") if d.strip()]
    if not wanted:
        raise CliError("--device needs at least one device name")
    known = {info.name: info for info in devices()}

    def listing() -> str:
        usable = ", ".join(i.name for i in known.values() if i.available) or "none"
        missing = "; ".join(f"{i.name} ({i.reason})" for i in known.values() if not i.available)
        return usable + (f"; unavailable: {missing}" if missing else "")

    for name in wanted:
        info = known.get(name)
        if info is None:
            raise CliError(f"unknown device {name!r}; devices here: {listing()}")
        if not info.available:
            raise CliError(f"device {name!r} is unavailable here: {info.reason}")
    return list(dict.fromkeys(wanted))


def check_output_path(option: str, path: str) -> None:
    """CliError unless ``path``'s folder exists and is writable (checked before the run, so
    that hours of measurements are not lost to a typo in a folder name)."""
    folder = Path(path).expanduser().resolve().parent
    if not folder.is_dir():
        raise CliError(f"{option} {path}: folder {folder} does not exist")
    if not os.access(folder, os.W_OK):
        raise CliError(f"{option} {path}: folder {folder} is not writable")
    if Path(path).is_dir():
        raise CliError(f"{option} {path} is a folder; give a file name")


def cmd_bench(args: argparse.Namespace) -> int:
    """``gpuoff bench``: run the suite, print the table, write JSON / plot on request.

    Everything that can be checked before the run is: benchmark and device names, the output
    folders, matplotlib for ``--plot``."""
    from gpuoff.bench import plot, report, scratch
    from gpuoff.bench.suite import SuiteResult, run_suite, select

    only = [n.strip() for n in args.only.split(",") if n.strip()] if args.only else None
    select(only, args.suite)  # unknown names fail before any work
    devices = bench_devices(args.device)
    if args.json and args.json != "-":
        check_output_path("--json", args.json)
    if args.plot:
        check_output_path("--plot", args.plot)
        try:
            plot.require_matplotlib()
        except plot.PlotUnavailable as e:
            raise CliError(str(e)) from e
    info = report.run_info(devices, args.quick)

    def on_timeout(what: str, partial: SuiteResult) -> None:
        # A hung device call cannot be interrupted: report what finished, then leave.
        skipped = [*partial.skipped, f"{what}: did not finish within {args.timeout:g} s"]
        print(f"\ngpuoff bench: {what} did not finish within {args.timeout:g} s; "
              "results so far:", file=sys.stderr)  # fmt: skip
        _print_results(args, list(partial.rows), skipped, info)
        sys.stdout.flush()
        sys.stderr.flush()
        scratch.cleanup()  # os._exit runs no atexit handler
        os._exit(124)

    result = run_suite(devices, only, quick=args.quick, progress=not args.no_progress,
                       timeout=args.timeout or None, on_timeout=on_timeout,
                       suite=args.suite)  # fmt: skip
    _print_results(args, result.rows, result.skipped, info)
    if args.plot:
        plot.write_plot(result.rows, args.plot, info)
    return 0 if result.rows else 1


def cmd_tour(args: argparse.Namespace) -> int:
    """``gpuoff tour``: saxpy, stencil and Mandelbrot on the default device, checked."""
    from gpuoff.bench.tour import run_tour

    return run_tour(args.device)


# --------------------------------------------------------------------------------------------
# Entry point
# --------------------------------------------------------------------------------------------


def _megabytes(n: int) -> str:
    return f"{n / 1e6:.1f} MB"


def cmd_cache(args: argparse.Namespace) -> int:
    """``gpuoff cache [info|clear]``."""
    from gpuoff import cache_admin
    from gpuoff.runtime.cache import cache_dir

    where = os.environ.get("GPUOFF_CACHE_DIR")
    if cache_dir() is None:
        print("the disk cache is off (GPUOFF_CACHE_DIR is set and empty)")
        return 0
    found = cache_admin.clear() if args.action == "clear" else cache_admin.contents()
    origin = " (GPUOFF_CACHE_DIR)" if where is not None else ""
    total = found.bytes + sum(found.folders.values())
    if args.action == "clear":
        print(f"removed {found.entries} compiled kernels and {len(found.folders)} folders "
              f"({_megabytes(total)}) from {found.folder}{origin}")  # fmt: skip
    else:
        print(f"folder: {found.folder}{origin}")
        print(f"compiled kernels: {found.entries} entries, {_megabytes(found.bytes)}")
        for name, size in found.folders.items():
            print(f"{name + '/:':18s}{_megabytes(size)}")
    if found.foreign:
        print(f"left alone (not gpuoff's): {', '.join(found.foreign[:8])}"
              + (" ..." if len(found.foreign) > 8 else ""))  # fmt: skip
    return 0


def cmd_tune(args: argparse.Namespace) -> int:
    """``gpuoff tune``: time the variants of every registered tunable (``go.autotune``) for
    each of its dtypes and sizes on a device, keeping the winners in the disk cache."""
    import contextlib

    from gpuoff.bench.progress import Progress
    from gpuoff.runtime import autotune
    from gpuoff.runtime.devices import on

    with contextlib.suppress(ImportError):  # the library registers its tunables on import
        import gpuoff.lib  # noqa: F401
    if not autotune.enabled():
        print("autotuning is off (GPUOFF_AUTOTUNE=0): every tunable takes its first variant")
        return 0
    names = [n.strip() for n in args.only.split(",")] if args.only else None
    work = autotune.warm_list(names)
    if not work:
        print("nothing to tune: no tunable with a sample is registered"
              + (f" under {', '.join(names)}" if names else ""))  # fmt: skip
        return 0
    rows = []
    with on(args.device) if args.device else contextlib.nullcontext():
        progress = Progress(len(work), enabled=not args.no_progress)
        for tuned, dtype, size in work:
            progress.step(f"{tuned.name} {dtype.name} {size}")
            choice = tuned.choose(dtype, size)
            rows.append((tuned.name, dtype.name, str(autotune.size_class(size)),
                         str(tuned.variants[choice.index]), choice.source))  # fmt: skip
        progress.close()
    head = ("tunable", "dtype", "size class", "variant", "from")
    widths = [max(len(r[k]) for r in [head, *rows]) for k in range(len(head))]
    for r in [head, *rows]:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip())
    return 0


def _bench_names() -> list[str]:
    """The suite's entry names, for ``--only``'s help (the suite module is light to import)."""
    try:
        from gpuoff.bench.suite import SUITES
    except ImportError:  # a broken install still gets its --help
        return []
    return [e.name for entries in SUITES.values() for e in entries]


SIG_HELP = """\
--sig: one entry per kernel parameter, comma-separated, in order:
  a scalar        its dtype: f32, f64, f16, i8 ... i64, u8 ... u64, bool (or float32, ...)
  an array        dtype and one ':' per dimension: f32[:] (1-d), f32[:, :] (2-d), ...
  strided array   '::' for any dimension (f32[:, ::]) or the layout letter A (f32[:, :]A)
Ownership comes from the kernel's annotations. Without --sig, scalars take their declared
type and arrays are 1-d contiguous. A generic kernel needs --sig: its entries bind the
dtype variables, and a go.Const parameter's entry is its value (256, True, 0.5, or
MODULE:FUNC for a device function)."""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``gpuoff`` command."""
    from gpuoff import __version__

    p = argparse.ArgumentParser(
        prog="gpuoff", description="Write GPU kernels once as annotated Python; run them on "
        "CPUs, OpenCL devices and NVIDIA GPUs with ownership checks.",
    )  # fmt: skip
    p.add_argument("--version", action="version", version=f"gpuoff {__version__}",
                   help="print gpuoff's version and exit")  # fmt: skip
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    d = sub.add_parser("devices", help="list devices, and why a backend is unavailable")
    d.set_defaults(func=cmd_devices)
    s = sub.add_parser("show", help="print the code generated for a kernel",
                       description="Print the typed IR, LLVM IR, OpenCL C or PTX gpuoff "
                       "generates for a kernel, without running it.", epilog=SIG_HELP,
                       formatter_class=argparse.RawDescriptionHelpFormatter)  # fmt: skip
    s.add_argument("kernel", metavar="MODULE:KERNEL",
                   help="module name or file path, a colon, and the kernel's name")
    s.add_argument("--target", "-t", choices=TARGETS, default="ir",
                   help="what to print (default: ir, gpuoff's typed IR)")  # fmt: skip
    s.add_argument("--sig", help='argument types, e.g. "f32, f32[:], f32[:]" (see above)')
    s.add_argument("--raw", action="store_true", help="llvm: LLVM IR before optimisation")
    s.add_argument("--sm", type=int, default=80, help="ptx: compute capability (default 80)")
    s.add_argument("--no-boundscheck", action="store_true", help="compile without bounds checks")
    s.add_argument("--fastmath", action="store_true", help="compile with fast math")
    s.add_argument("--after", metavar="PASS", help="ir: the IR after this pass of the compile "
                   "pipeline (lower, then gpuoff.ir.pipeline.PASSES; default: all)")
    s.set_defaults(func=cmd_show)
    b = sub.add_parser("bench", help="run the benchmark suite against its baselines",
                       description="Time each gpuoff kernel against hand-written C/OpenMP, "
                       "OpenCL C or CUDA C on the same device, NumPy and the peers (Numba, "
                       "Warp, Taichi), checked against NumPy first; see docs/benchmarks.md.")
    b.add_argument("--device", metavar="NAMES",
                   help="device name(s), comma-separated, as `gpuoff devices` lists them "
                   "(default: cpu)")
    b.add_argument("--only", metavar="NAMES",
                   help="benchmarks to run, comma-separated (default: all): "
                   + ", ".join(_bench_names()))
    b.add_argument("--suite", default="core", choices=("core", "lib", "all"),
                   help="which suite --only picks from when it is not given: core (kernels "
                   "as users write them, the default), lib (gpuoff.lib against C, NumPy "
                   "and peer libraries), all")
    b.add_argument("--quick", action="store_true",
                   help="smaller sizes and fewer runs, for a fast look (not for figures)")
    b.add_argument("--json", metavar="FILE",
                   help="also write the results as JSON to FILE ('-': JSON on stdout, the "
                   "table on stderr)")
    b.add_argument("--plot", metavar="FILE.png",
                   help="also write a chart of the ratios to FILE.png (needs matplotlib)")
    b.add_argument("--no-progress", action="store_true",
                   help="print no progress line on stderr")
    b.add_argument("--timeout", type=float, default=900.0, metavar="SECONDS",
                   help="give up (exit 124, printing what finished) when one benchmark takes "
                   "longer (default 900; 0: never)")
    b.set_defaults(func=cmd_bench)
    c = sub.add_parser("cache", help="show or empty the disk cache of compiled kernels",
                       description="The disk cache of compiled kernels (GPUOFF_CACHE_DIR, else "
                       "the platform's user cache folder).")  # fmt: skip
    c.add_argument("action", choices=("info", "clear"), nargs="?", default="info",
                   help="info (default): where it is and what it holds; clear: remove "
                   "everything gpuoff wrote there")  # fmt: skip
    c.set_defaults(func=cmd_cache)
    u = sub.add_parser("tune", help="time the library's variants on a device and cache the "
                       "winners", description="Warm the autotuning cache (go.autotune): time the "
                       "variants of every registered tunable for its dtypes and sizes on a "
                       "device; later runs there take the winners without timing.")  # fmt: skip
    u.add_argument("--device", help="the device to tune (default: the current one)")
    u.add_argument("--only", metavar="NAMES", help="tunables to time, comma-separated")
    u.add_argument("--no-progress", action="store_true", help="print no progress line")
    u.set_defaults(func=cmd_tune)
    t = sub.add_parser("tour", help="a short guided run on the default device, results checked")
    t.add_argument("--device", help="run on this device instead of the default")
    t.set_defaults(func=cmd_tour)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``gpuoff`` command; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    try:
        return int(args.func(args))
    except CompileError as e:
        print(f"gpuoff {args.command}: compile error: {e}", file=sys.stderr)
        return 1
    except (GpuoffError, ValueError) as e:
        print(f"gpuoff {args.command}: error: {e}", file=sys.stderr)
        return 2 if isinstance(e, CliError) else 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
