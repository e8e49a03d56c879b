"""The differential fuzzer: generated kernels (``tests.fuzz.gen``) on the IR interpreter, on
every available device (``cpu``, ``opencl:N``) and compiled to PTX (validated by ``ptxas``),
results compared with the interpreter's.

Comparison rules:

* integers and bools: exact; floats: the same bits, except that any NaN equals any NaN;
* the ``oa_*`` outputs (results of ``gen.APPROX`` functions): within ``TOLERANCE_ULPS`` of
  that function in that type, with NaN, the infinities and the sign of zero exact;
* the error: the same class (``BoundsError``, ``BarrierError``, ``CompileError``, none) and,
  for a bounds or barrier error, the same message (the same failing access reported);
* PTX: ``ptxas -arch=sm_80`` accepts it, and without ``go.fma`` it has no ``fma.rn``.

``python -m tests.fuzz.run --count N [--seed S] [--jobs J]`` (``scripts/fuzz``) runs seeds
``S .. S+N-1`` in worker processes with a watchdog (a case that hangs or kills its worker is
reported as such and the run goes on) and prints every finding with its seed; a seed is
re-run alone with ``--count 1 --seed K --show``.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib.util
import multiprocessing as mp
import os
import queue
import re
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

TOLERANCE_ULPS: dict[str, dict[str, int]] = {
    # OpenCL C 1.2 single-precision bounds (section 7.4) with room for the reference's own
    # rounding; f64 bounds are the same or tighter on every device gpuoff knows.
    "f32": {"exp": 4, "log": 4, "log2": 4, "sin": 4, "cos": 4, "tan": 6, "tanh": 6,
            "erf": 16, "pow": 16, "rsqrt": 4},
    "f64": {"exp": 4, "log": 4, "log2": 4, "sin": 4, "cos": 4, "tan": 6, "tanh": 6,
            "erf": 16, "pow": 16, "rsqrt": 4},
}  # fmt: skip
"""Per function and type, the largest difference from the interpreter accepted for the results
of the functions that are not correctly rounded (``docs/semantics.md`` states the same)."""

CASE_TIMEOUT_S = 300.0
"""A case running longer than this (compiles included) counts as a hang."""


@dataclass
class Result:
    """What one backend produced: the outputs (by array name), or the error it raised."""

    outputs: dict[str, np.ndarray[Any, Any]] = field(default_factory=dict)
    error: str | None = None  # the exception's class name
    message: str = ""


@dataclass
class Outcome:
    """The findings of one case (empty when every backend agreed)."""

    seed: int
    findings: list[str] = field(default_factory=list)
    invalid: str | None = None  # the generator produced a kernel the front end refuses
    bounds: bool = False  # the reference raised a BoundsError
    workgroup: bool = False


_LOADED = [0]


def _load(case: Any, folder: Path) -> Any:
    """The case's kernel, from a file of its own (kernels need their source; a fresh name each
    time, so no cached source or module of an earlier variant is reused)."""
    _LOADED[0] += 1
    path = folder / f"fz_{case.seed}_{_LOADED[0]}.py"
    path.write_text(case.source)
    name = f"_gpuoff_fuzz_{case.seed}_{os.getpid()}_{_LOADED[0]}"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return getattr(mod, case.kernel)


def _arg_types(case: Any) -> list[Any]:
    from gpuoff.ir import types as T

    out: list[Any] = []
    for a in case.arrays:
        out.append(T.ArrayType(T.scalar_from_numpy(case.inputs[a.name].dtype), len(a.shape)))
    for _, t in case.scalars:
        out.append({"bool": T.boolean, "u8": T.u8, "u32": T.u32, "i32": T.i32, "i64": T.i64,
                    "f32": T.f32, "f64": T.f64}[t])  # fmt: skip
    return out


def _fresh_args(case: Any) -> list[Any]:
    args: list[Any] = []
    for a in case.arrays:
        args.append(np.array(case.inputs[a.name], copy=True))
    for n, _ in case.scalars:
        args.append(case.inputs[n])
    return args


def _outputs(case: Any, args: list[Any]) -> dict[str, np.ndarray[Any, Any]]:
    return {a.name: np.asarray(v) for a, v in zip(case.arrays, args, strict=False) if a.writes}


def run_reference(case: Any, kernel: Any) -> tuple[Result, Any]:
    """The interpreter's result and the checked module (``None`` when lowering failed)."""
    from gpuoff.frontend import lower_kernel
    from gpuoff.ir import interp
    from gpuoff.ir.verify import verify

    module = lower_kernel(kernel.pyfunc, _arg_types(case))
    verify(module)
    args = _fresh_args(case)
    res = Result()
    try:
        interp.run(module, args, case.grid, None if case.block is None else (case.block,))
    except Exception as exc:  # noqa: BLE001 - any error is a result to compare
        res.error, res.message = type(exc).__name__, str(exc)
    res.outputs = _outputs(case, args)
    return res, module


def run_device(case: Any, kernel: Any, device: str) -> Result:
    """The result of launching the kernel on ``device`` with buffers made from the inputs."""
    import gpuoff as go

    res = Result()
    with go.on(device):
        args = _fresh_args(case)
        bufs = [go.array(a) if isinstance(a, np.ndarray) else a for a in args]
        try:
            cfg = case.grid if case.block is None else (case.grid, (case.block,))
            kernel[cfg](*bufs)
            go.synchronize()
        except Exception as exc:  # noqa: BLE001 - any error is a result to compare
            res.error, res.message = type(exc).__name__, str(exc)
            try:
                go.synchronize()
            except Exception:  # noqa: BLE001, S110 - an error already reported above
                pass
        res.outputs = {a.name: b.numpy() for a, b in zip(case.arrays, bufs, strict=False)
                       if a.writes}  # fmt: skip
    return res


def _ulps(a: np.ndarray[Any, Any], b: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """Distance in units in the last place between same-typed finite float arrays."""

    def line(x: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        # the sign-magnitude bit pattern mapped onto a monotone integer line (+-0 -> 0)
        if x.dtype == np.float32:
            bits = x.view(np.int32).astype(np.int64)
            mag = bits & 0x7FFFFFFF
        else:
            bits = x.view(np.int64)
            mag = bits & 0x7FFFFFFFFFFFFFFF
        out: np.ndarray[Any, Any] = np.where(bits < 0, -mag, mag)
        return out

    dist: np.ndarray[Any, Any] = np.abs(line(a) - line(b))
    return dist


def _approx_function(source: str, name: str) -> str | None:
    m = re.search(rf"{name}\[i\] = (?:go\.(\w+)\(|\()", source)
    if m is None:
        return None
    return m.group(1) or "pow"  # ``(a ** b)``


def compare(case: Any, ref: Result, got: Result, where: str) -> list[str]:
    """Findings of ``got`` (from ``where``) against the reference ``ref``."""
    out: list[str] = []
    if ref.error != got.error:
        out.append(f"{where}: error {got.error} ({got.message.splitlines()[0][:160] if got.message else ''}) where the interpreter gave {ref.error} ({ref.message.splitlines()[0][:160] if ref.message else ''})")  # noqa: E501
        if got.error == "CompileError" or ref.error == "CompileError":
            return out
    elif ref.error in ("BoundsError", "BarrierError") and ref.message != got.message:
        out.append(f"{where}: reports {got.message!r}, the interpreter {ref.message!r}")
    for name, want in ref.outputs.items():
        have = got.outputs.get(name)
        if have is None:
            continue
        bad = _mismatch(case, name, want, have)
        if bad is not None:
            out.append(f"{where}: {name} {bad}")
    return out


def _mismatch(case: Any, name: str, want: np.ndarray[Any, Any],
              have: np.ndarray[Any, Any]) -> str | None:  # fmt: skip
    if want.dtype.kind != "f":
        diff = np.nonzero(want != have)[0]
        if diff.size:
            k = diff[0]
            return f"differs at {diff.size} of {want.size}: [{k}] {have[k]!r} vs {want[k]!r}"
        return None
    wn, hn = np.isnan(want), np.isnan(have)
    same = (wn & hn) | (want.view(np.uint8).reshape(want.size, -1)
                        == have.view(np.uint8).reshape(have.size, -1)).all(axis=1)  # fmt: skip
    if name.startswith("oa_"):
        fn = _approx_function(case.source, name)
        tol = TOLERANCE_ULPS[want.dtype.name.replace("float", "f")].get(fn or "", 0)
        finite = np.isfinite(want) & np.isfinite(have) & (np.signbit(want) == np.signbit(have))
        close = np.zeros(want.shape, bool)
        close[finite] = _ulps(want[finite], have[finite]) <= tol
        same = same | close
    diff = np.nonzero(~same)[0]
    if diff.size:
        k = diff[0]
        return f"differs at {diff.size} of {want.size}: [{k}] {have[k]!r} vs {want[k]!r}"
    return None


PTXAS = shutil.which("ptxas")


def check_ptx(case: Any, module: Any, folder: Path) -> list[str]:
    """The PTX of ``module``: assembled by ptxas, and free of ``fma.rn`` unless the kernel
    asks for one (SPEC §1: no contraction without ``go.fma`` or ``fastmath``)."""
    from codegen.nvptx import compile_ptx
    from gpuoff.ir.bounds import eliminate_redundant_checks

    try:
        obj = compile_ptx(eliminate_redundant_checks(module), sm=80)
    except Exception as exc:  # noqa: BLE001 - a compiler failure is a finding
        return [f"ptx: compile failed: {type(exc).__name__}: {str(exc)[:200]}"]
    ptx = obj.ptx
    out: list[str] = []
    # fma.rn is right where gpuoff asks for it: go.fma, and the math library (gpuoff.exp...)
    # and floating-point remainders, whose lowering uses it on purpose.
    asked = case.uses_fma or re.search(r"llvm\.fma|@\"?gpuoff\.|\bfrem\b", obj.llvm_ir)
    if not asked and re.search(r"\bfma\.rn", ptx):
        out.append("ptx: fma.rn in a kernel without go.fma (contraction)")
    if PTXAS is not None:
        src = folder / f"fz_{case.seed}.ptx"
        src.write_text(ptx)
        proc = subprocess.run([PTXAS, "-arch=sm_80", str(src), "-o", os.devnull],
                              capture_output=True, text=True, check=False)  # fmt: skip
        if proc.returncode != 0:
            out.append(f"ptx: ptxas refused it: {proc.stderr.strip()[:300]}")
    return out


def available_devices() -> list[str]:
    import gpuoff as go

    return [d.name for d in go.devices() if d.available and d.backend in ("cpu", "opencl")]


def run_source(case: Any, source: str, folder: Path, devices: list[str], ptx: bool = True,
               outcome: Outcome | None = None) -> list[str]:  # fmt: skip
    """The findings of ``case`` with its kernel module replaced by ``source`` (the reducer's
    candidates, the regression cases). A kernel the front end refuses raises ``CompileError``."""
    case = dataclasses.replace(case, source=source)
    kernel = _load(case, folder)
    ref, module = run_reference(case, kernel)
    findings: list[str] = []
    if outcome is not None:
        outcome.bounds = ref.error == "BoundsError"
    if ref.error not in (None, "BoundsError", "BarrierError"):
        findings.append(f"interpreter: {ref.error}: {ref.message[:300]}")
    for dev in devices:
        findings += compare(case, ref, run_device(case, kernel, dev), dev)
    if ptx:
        findings += check_ptx(case, module, folder)
    return findings


def run_case(seed: int, folder: Path, devices: list[str], ptx: bool = True) -> Outcome:
    """Generate, run and compare case ``seed``."""
    from gpuoff.errors import CompileError
    from tests.fuzz.gen import generate

    case = generate(seed)
    outcome = Outcome(seed, workgroup=case.workgroup)
    try:
        outcome.findings = run_source(case, case.source, folder, devices, ptx, outcome)
    except CompileError as exc:
        outcome.invalid = str(exc).splitlines()[0]
    return outcome


# --------------------------------------------------------------------------------------------
# The watchdog: cases run in a worker process; a hang or a crash costs only that case.
# --------------------------------------------------------------------------------------------


def _worker(seeds: list[int], devices: list[str], ptx: bool, out: Any) -> None:
    os.environ["GPUOFF_CACHE_DIR"] = ""  # every case is new: nothing to reuse
    parent = os.getppid()
    folder = Path(tempfile.mkdtemp(prefix="gpuoff-fuzz-"))
    try:
        for seed in seeds:
            if os.getppid() != parent:
                return  # the run was stopped: do not outlive it
            out.put(("start", seed, None))
            try:
                outcome = run_case(seed, folder, devices, ptx)
            except Exception:  # noqa: BLE001 - a failure of the runner itself is a finding
                outcome = Outcome(seed, [f"runner: {traceback.format_exc(limit=6)}"])
            out.put(("done", seed, outcome))
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@dataclass
class Summary:
    """A run's totals and every finding, by seed."""

    count: int = 0
    invalid: int = 0
    bounds: int = 0
    workgroup: int = 0
    findings: dict[int, list[str]] = field(default_factory=dict)
    invalid_seeds: dict[int, str] = field(default_factory=dict)


def run_many(seeds: list[int], devices: list[str] | None = None, ptx: bool = True,
             jobs: int = 1, timeout: float = CASE_TIMEOUT_S,
             progress: bool = False) -> Summary:  # fmt: skip
    """Run ``seeds`` in ``jobs`` worker processes (see the module docstring)."""
    if devices is None:
        devices = available_devices()
    ctx = mp.get_context("spawn")
    summary = Summary()
    chunks = [seeds[k::jobs] for k in range(jobs)]
    workers: list[dict[str, Any]] = []
    for chunk in chunks:
        if chunk:
            workers.append(_start(ctx, chunk, devices, ptx))
    start = time.monotonic()
    while workers:
        for w in list(workers):
            try:
                kind, seed, outcome = w["queue"].get(timeout=0.2)
            except queue.Empty:
                if w["current"] is not None and time.monotonic() - w["since"] > timeout:
                    _lost(summary, w, f"hang: no result after {timeout:.0f} s")
                    _restart(ctx, w, workers, devices, ptx)
                elif not w["proc"].is_alive() and w["queue"].empty():
                    if w["current"] is not None:
                        _lost(summary, w, f"crash: worker died (exit {w['proc'].exitcode})")
                    _restart(ctx, w, workers, devices, ptx)
                continue
            if kind == "start":
                w["current"], w["since"] = seed, time.monotonic()
                continue
            w["current"] = None
            w["todo"].remove(seed)
            _record(summary, outcome)
            if progress and summary.count % 100 == 0:
                rate = summary.count / max(time.monotonic() - start, 1e-9)
                print(f"fuzz: {summary.count} cases, {len(summary.findings)} with findings "
                      f"({rate:.1f}/s)", file=sys.stderr, flush=True)  # fmt: skip
            if not w["todo"]:
                w["proc"].join(timeout=10)
                workers.remove(w)
    return summary


def _start(ctx: Any, seeds: list[int], devices: list[str], ptx: bool) -> dict[str, Any]:
    q = ctx.Queue()
    proc = ctx.Process(target=_worker, args=(list(seeds), devices, ptx, q), daemon=True)
    proc.start()
    return {"proc": proc, "queue": q, "todo": list(seeds), "current": None, "since": 0.0}


def _lost(summary: Summary, w: dict[str, Any], why: str) -> None:
    seed = w["current"]
    summary.count += 1
    summary.findings[seed] = [why]
    w["todo"].remove(seed)
    w["current"] = None


def _restart(ctx: Any, w: dict[str, Any], workers: list[dict[str, Any]], devices: list[str],
             ptx: bool) -> None:  # fmt: skip
    if w["proc"].is_alive():
        w["proc"].kill()
    w["proc"].join(timeout=10)
    workers.remove(w)
    if w["todo"]:
        workers.append(_start(ctx, w["todo"], devices, ptx))


def _record(summary: Summary, outcome: Outcome) -> None:
    summary.count += 1
    if outcome.invalid is not None:
        summary.invalid += 1
        summary.invalid_seeds[outcome.seed] = outcome.invalid
        return
    summary.bounds += outcome.bounds
    summary.workgroup += outcome.workgroup
    if outcome.findings:
        summary.findings[outcome.seed] = outcome.findings


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="scripts/fuzz", description=__doc__.split("\n\n")[0])
    p.add_argument("--count", type=int, default=200)
    p.add_argument("--seed", type=int, default=0, help="first seed")
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--devices", default=None, help="comma-separated (default: every available "
                                                   "cpu and opencl device)")  # fmt: skip
    p.add_argument("--no-ptx", action="store_true")
    p.add_argument("--show", action="store_true", help="print each case's source")
    p.add_argument("--timeout", type=float, default=CASE_TIMEOUT_S)
    ns = p.parse_args(argv)
    seeds = list(range(ns.seed, ns.seed + ns.count))
    if ns.show:
        from tests.fuzz.gen import generate

        for s in seeds:
            print(generate(s).source)
    devices = ns.devices.split(",") if ns.devices else None
    t0 = time.monotonic()
    summary = run_many(seeds, devices, not ns.no_ptx, ns.jobs, ns.timeout, progress=True)
    dt = time.monotonic() - t0
    for seed, found in sorted(summary.findings.items()):
        print(f"seed {seed}:")
        for f in found:
            print(f"    {f}")
    for seed, why in sorted(summary.invalid_seeds.items()):
        print(f"seed {seed}: generator produced an invalid kernel: {why}")
    print(f"fuzz: {summary.count} kernels ({summary.workgroup} work-group, {summary.bounds} "
          f"with a bounds error) in {dt:.0f} s; {len(summary.findings)} with findings, "
          f"{summary.invalid} invalid")  # fmt: skip
    return 1 if summary.findings or summary.invalid else 0


if __name__ == "__main__":
    sys.exit(main())
