"""Real Python kernels (the benchmark suite's and the examples'), traced by the front end as
the runtime does, compiled to PTX and assembled with ptxas for sm_80 and sm_90 -- with bounds
checks on and off, and with fastmath."""

from __future__ import annotations

import importlib.util
import inspect
import shutil
from pathlib import Path
from typing import Any

import pytest

from codegen.nvptx import compile_ptx
from gpuoff.cli import load_object, lower_for_show
from tests.backends.test_ptx import assemble

ROOT = Path(__file__).resolve().parents[2]
needs_ptxas = pytest.mark.skipif(shutil.which("ptxas") is None,
                                 reason="ptxas (CUDA toolkit) is not on the PATH")  # fmt: skip

# kernel spec -> signature (None: 1-D contiguous arrays, as declared)
KERNELS: dict[str, str | None] = {
    "gpuoff.bench.kernels:saxpy": None,
    "gpuoff.bench.kernels:stencil5": "f32[:, :], f32[:, :]",
    "gpuoff.bench.kernels:black_scholes": None,
    "gpuoff.bench.kernels:mandelbrot": "i32[:, :], f32, f32, f32, i32",
    "gpuoff.bench.kernels:sum_reduce": None,
    "gpuoff.bench.kernels:sgemm": "f32[:, :], f32[:, :], f32[:, :]",
    "gpuoff.bench.kernels:histogram256": None,
    "gpuoff.bench.kernels:nbody": None,
    "gpuoff.bench.kernels:stencil5#strided": "f32[::, ::], f32[:, :]",
}


def _lower(spec: str, sig: str | None, boundscheck: bool | None, fastmath: bool | None) -> Any:
    return lower_for_show(load_object(spec.split("#")[0]), sig, boundscheck, fastmath)


@needs_ptxas
@pytest.mark.parametrize("sm", [80, 90])
@pytest.mark.parametrize("spec", sorted(KERNELS))
def test_frontend_kernels_assemble(spec: str, sm: int, tmp_path: Path) -> None:
    module = _lower(spec, KERNELS[spec], None, None)
    assemble(compile_ptx(module, sm=sm).ptx, sm, tmp_path)


@needs_ptxas
@pytest.mark.parametrize("spec", ["gpuoff.bench.kernels:black_scholes",
                                  "gpuoff.bench.kernels:nbody"])  # fmt: skip
def test_unchecked_and_fastmath_variants_assemble(spec: str, tmp_path: Path) -> None:
    for boundscheck, fastmath in ((False, False), (True, True), (False, True)):
        module = _lower(spec, KERNELS[spec], boundscheck, fastmath)
        obj = compile_ptx(module, sm=90)
        if not boundscheck:
            assert "cas.b64" not in obj.ptx
        assemble(obj.ptx, 90, tmp_path)


def _example_kernels() -> list[tuple[str, str]]:
    """(file, kernel name) of every ``@go.kernel`` in examples/ (modules run nothing on import
    beyond definitions when they guard with ``if __name__ == "__main__"``)."""
    found: list[tuple[str, str]] = []
    for path in sorted((ROOT / "examples").glob("*.py")):
        text = path.read_text()
        lines = text.splitlines()
        for i, line in enumerate(lines[:-1]):
            if line.strip().startswith("@go.kernel") and lines[i + 1].startswith("def "):
                found.append((str(path), lines[i + 1][4:].split("(")[0]))
    return found


def _dtype(decl: Any) -> str:
    return "f32" if decl.var is not None else str(decl.dtype.name)


@needs_ptxas
@pytest.mark.parametrize(("path", "name"), _example_kernels())
def test_example_kernels_assemble(path: str, name: str, tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location(Path(path).stem + "_ptx_example", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    kernel = getattr(mod, name)
    from gpuoff.frontend import parse_signature

    # 2-D kernels are recognised by a second global_id; give their arrays two dimensions.
    source = inspect.getsource(kernel.pyfunc)
    two_d = "global_id(1)" in source
    # a generic kernel: f32 for its dtype variables, 64 / True / 1.0 for its go.Const ones
    consts = {"int": "64", "bool": "True", "float": "1.0"}
    decls = parse_signature(kernel.pyfunc)
    sig = ", ".join(
        consts[d.const] if d.const
        else (f"{_dtype(d)}[:, :]" if two_d else f"{_dtype(d)}[:]") if d.is_array
        else _dtype(d)
        for d in decls
    )  # fmt: skip
    module = lower_for_show(kernel, sig, None, None)
    assemble(compile_ptx(module, sm=80).ptx, 80, tmp_path)
