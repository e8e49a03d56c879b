"""The bench's newer rows (``cases_layout``, ``cases_loops``) compute what NumPy computes on
every device, at sizes that are not multiples of their tiles, grids or work-groups, and so do
their hand-written OpenCL C twins."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import gpuoff as go
from gpuoff.bench import cases_layout as lay
from gpuoff.bench import cases_loops as loops
from gpuoff.bench import references

SHAPES = [(1, 1), (3, 70), (33, 65), (64, 96)]


def _has_opencl() -> bool:
    return "opencl:0" in [d.name for d in go.devices() if d.available]


@pytest.mark.parametrize("shape", SHAPES)
def test_stencil_rows_matches_stencil(device: str, shape: tuple[int, int]) -> None:
    src = np.random.default_rng(1).random(shape, dtype=np.float32)
    out = go.zeros(shape, go.f32)
    lay.stencil5_rows[shape](go.array(src), out)
    np.testing.assert_allclose(out.numpy(), references.stencil5_ref(src), rtol=1e-6)


@pytest.mark.parametrize("rows_first", [False, True])
@pytest.mark.parametrize("shape", SHAPES)
def test_transposes_are_exact(device: str, shape: tuple[int, int], rows_first: bool) -> None:
    a = np.random.default_rng(2).random(shape, dtype=np.float32)
    out = go.zeros((shape[1], shape[0]), go.f32)
    t = lay.TILE
    up = -(-shape[0] // t) * t, -(-shape[1] // t) * t
    kernel = lay.transpose_tiled_rows if rows_first else lay.transpose_tiled
    kernel[up if rows_first else (up[1], up[0]), (t, t)](go.array(a), out)
    assert np.array_equal(out.numpy(), a.T)


@pytest.mark.parametrize("n", [1, 1000, loops.STRIDE_GRID + 17])
def test_gridstride_saxpy(device: str, n: int) -> None:
    rng = np.random.default_rng(n)
    x, y = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
    yb = go.array(y)
    loops.saxpy_gridstride[4096](2.0, go.array(x), yb)  # fewer items than elements: a loop
    np.testing.assert_allclose(yb.numpy(), references.saxpy_ref(2.0, x, y), rtol=1e-6)


def test_gridstride_black_scholes_matches_its_twin(device: str) -> None:
    from gpuoff.bench.kernels import black_scholes

    n = 3 * loops.BS_THREADS * 7 + 5
    ins = references.black_scholes_inputs(n)
    p, s, t = (go.array(a) for a in ins)
    outs = [go.zeros(n, go.f32) for _ in range(4)]
    loops.black_scholes_gridstride[(loops.BS_THREADS * 4,), (loops.BS_THREADS,)](
        p, s, t, 0.02, 0.3, outs[0], outs[1])
    black_scholes[n](p, s, t, 0.02, 0.3, outs[2], outs[3])
    wide = [a.astype(np.float64) for a in ins]
    ref = np.stack(references.black_scholes_ref(wide[0], wide[1], wide[2], 0.02, 0.3))
    got = np.stack([outs[0].numpy(), outs[1].numpy()])
    np.testing.assert_allclose(got, ref, rtol=1e-3, atol=2e-3)
    np.testing.assert_allclose(got, np.stack([outs[2].numpy(), outs[3].numpy()]), rtol=1e-6,
                               atol=1e-5)  # fmt: skip


@pytest.mark.parametrize("shape", [(1, 1), (3, 255), (5, 257), (7, 1024)])
def test_softmax_rows(device: str, shape: tuple[int, int]) -> None:
    x = (np.random.default_rng(3).standard_normal(shape) * 4).astype(np.float32)
    out = go.zeros(shape, go.f32)
    block = loops.SOFTMAX_BLOCK
    loops.softmax_rows[(shape[0] * block,), (block,)](go.array(x), out)
    np.testing.assert_allclose(out.numpy(), loops.softmax_reference(x), rtol=1e-4, atol=1e-8)


def _run(impl: Any) -> np.ndarray[Any, Any]:
    impl.run()
    assert impl.result is not None
    return np.asarray(impl.result())


@pytest.mark.skipif(not _has_opencl(), reason="no OpenCL device here")
def test_opencl_twins_agree_with_numpy() -> None:
    rng = np.random.default_rng(4)
    src = rng.random((33, 70), dtype=np.float32)
    got = _run(lay.opencl_stencil_rows("opencl:0", {"src": src}))
    np.testing.assert_allclose(got, references.stencil5_ref(src), rtol=1e-6)
    a = rng.random((45, 70), dtype=np.float32)
    for rows_first in (False, True):
        assert np.array_equal(_run(lay._opencl_transpose(rows_first)("opencl:0", {"a": a})), a.T)
    x, y = rng.random(70_001, dtype=np.float32), rng.random(70_001, dtype=np.float32)
    got = _run(loops.opencl_saxpy_gridstride("opencl:0", {"a": 2.0, "x": x, "y": y}))
    np.testing.assert_allclose(got, references.saxpy_ref(2.0, x, y), rtol=1e-6)
    p, s, t = references.black_scholes_inputs(1001)
    inputs = {"price": p, "strike": s, "years": t, "rate": 0.02, "vol": 0.3}
    wide = [v.astype(np.float64) for v in (p, s, t)]
    ref = np.stack(references.black_scholes_ref(wide[0], wide[1], wide[2], 0.02, 0.3))
    np.testing.assert_allclose(_run(loops.opencl_black_scholes_gridstride("opencl:0", inputs)),
                               ref, rtol=1e-3, atol=2e-3)  # fmt: skip
    xs = (rng.standard_normal((5, 300)) * 4).astype(np.float32)
    np.testing.assert_allclose(_run(loops.opencl_softmax("opencl:0", {"x": xs})),
                               loops.softmax_reference(xs), rtol=1e-4, atol=1e-8)  # fmt: skip


@pytest.mark.skipif(not _has_opencl(), reason="no OpenCL device here")
@pytest.mark.parametrize("name", ["stencil2d_rows", "transpose_rows", "saxpy_gridstride",
                                  "black_scholes_gridstride", "softmax"])  # fmt: skip
def test_opencl_rows_have_their_twins(name: str) -> None:
    from gpuoff.bench import suite

    (entry,) = suite.select([name])
    case = entry.make("opencl:0", True)
    own = {"stencil2d_rows": "OpenCL C, same ids", "transpose_rows": "OpenCL C, same ids",
           "saxpy_gridstride": "OpenCL C, grid-stride",
           "black_scholes_gridstride": "OpenCL C, grid-stride", "softmax": "OpenCL C"}[name]
    assert own in case.baselines and case.unchecked is not None
    assert case.reference is not None
    expected = np.asarray(case.reference())
    from gpuoff.bench.harness import check_result

    for label, impl in {"gpuoff": case.gpuoff, "gpuoff unchecked": case.unchecked,
                        **case.baselines}.items():  # fmt: skip
        check_result(case, label, impl, expected)
