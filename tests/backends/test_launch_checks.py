"""Launch-time check specialisation on every device: a launch whose predicate holds runs the
variant without the proven checks; any other runs the checked one, and out-of-range launches
raise the same ``BoundsError`` as before. Results are compared with NumPy and the interpreter.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, f32, i32
from gpuoff.bench.kernels import saxpy, stencil5
from gpuoff.errors import BoundsError
from gpuoff.ir import interp
from gpuoff.ir.launch_checks import specialise
from gpuoff.runtime.plan import Plan


@pytest.fixture(autouse=True)
def private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A disk cache of this test's own: what runs is what this checkout compiled."""
    monkeypatch.setenv("GPUOFF_CACHE_DIR", str(tmp_path / "cache"))


def plan_of(k: Any) -> Plan:
    (plan,) = k._plans.values()
    assert isinstance(plan, Plan)
    return plan


def used(plan: Plan) -> list[bool]:
    """Which variants have a program: [checked, unchecked]."""
    assert plan.variants is not None
    return [p is not None for p in plan.variants.programs]


def interp_error(plan: Plan, grid: Any, *args: Any) -> str:
    """The message the interpreter gives for the checked module on copies of ``args``."""
    copies = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    with pytest.raises(BoundsError) as info:
        interp.run(plan.module, copies, grid)
    return str(info.value)


def fresh(fn: Any, **options: Any) -> Any:
    """A new kernel object (no plans yet) for the function behind ``fn``."""
    return go.kernel(**options)(fn.pyfunc)


def test_saxpy_runs_unchecked_and_still_raises(device: str) -> None:
    k = fresh(saxpy)
    x = np.arange(1000, dtype=np.float32)
    y = np.ones(1000, np.float32)
    k[1000](2.0, x, y)
    assert np.array_equal(y, 2 * x + 1)
    plan = plan_of(k)
    assert used(plan) == [False, True]
    short = x[:10].copy()
    expected = interp_error(plan, 1000, np.float32(2.0), short, y)
    with pytest.raises(BoundsError) as info:
        k[1000](2.0, short, y)
    go.synchronize()
    assert str(info.value) == expected
    assert "x with shape (10,)" in expected and "kernel saxpy" in expected
    assert used(plan) == [True, True]
    y = np.ones(1000, np.float32)
    k[2000](2.0, x, y)  # extra work-items fail the y guard: the unchecked one is safe
    assert np.array_equal(y, 2 * x + 1)


def test_stencil_unchecked_matches_numpy(device: str) -> None:
    k = fresh(stencil5)
    src = np.random.default_rng(1).random((33, 47), dtype=np.float32)
    dst = np.zeros_like(src)
    k[(47, 33)](src, dst)
    ref = src.copy()
    ref[1:-1, 1:-1] = 0.2 * (src[1:-1, 1:-1] + src[:-2, 1:-1] + src[2:, 1:-1]
                             + src[1:-1, :-2] + src[1:-1, 2:])  # fmt: skip
    np.testing.assert_allclose(dst, ref, rtol=1e-6)
    plan = plan_of(k)
    assert used(plan) == [False, True]
    small = np.zeros((33, 40), np.float32)
    # which of several failing accesses a device reports first is its own: compare with a
    # kernel object that never ran the unchecked variant
    messages = []
    for kern in (k, fresh(stencil5)):
        with pytest.raises(BoundsError) as info:
            kern[(47, 33)](src, small)
        go.synchronize()
        messages.append(str(info.value))
    assert messages[0] == messages[1]
    assert "dst with shape (33, 40) in kernel stencil5" in messages[0]


@go.kernel
def window_sum(n: i32, x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    acc = 0.0
    for k in range(n):
        acc = acc + x[i + k]
    y[i] = acc


def test_loop_bound_from_a_scalar(device: str) -> None:
    k = fresh(window_sum)
    x = np.arange(20, dtype=np.float32)
    y = np.zeros(16, np.float32)
    k[16](5, x, y)
    assert y.tolist() == [float(sum(range(i, i + 5))) for i in range(16)]
    plan = plan_of(k)
    assert used(plan) == [False, True]
    spec = specialise(plan.module)
    assert spec is not None and spec[1].removed == (1, 2)  # x[i + k] (k: i32) and y[i]
    expected = interp_error(plan, 16, np.int32(6), x, y)
    with pytest.raises(BoundsError) as info:
        k[16](6, x, y)  # x[15 + 5] = x[20]
    go.synchronize()
    assert str(info.value) == expected
    with pytest.raises(BoundsError, match="y with shape"):
        k[17](1, x, y)  # y[16]
    go.synchronize()
    k[16](-3, x, y)  # no iteration
    assert y.tolist() == [0.0] * 16
    k[16](np.int32(2), x, y)
    assert y.tolist() == [2.0 * i + 1 for i in range(16)]
    for bad in (2.5, "two", None, 1 << 40):  # scalar checks run before the predicate reads n
        with pytest.raises(go.LaunchTypeError, match="parameter 'n'"):
            k[16](bad, x, y)


def test_boundscheck_false_has_one_variant(device: str) -> None:
    k = fresh(saxpy, boundscheck=False)
    x = np.arange(8, dtype=np.float32)
    y = np.zeros(8, np.float32)
    k[8](1.0, x, y)
    assert y.tolist() == x.tolist()
    assert plan_of(k).variants is None


def test_buffers_and_views(device: str) -> None:
    k = fresh(saxpy)
    x = go.array(np.arange(64, dtype=np.float32))
    y = go.zeros(64)
    k[64](1.0, x, y)
    k[32](1.0, x[32:], y[:32])  # views: the predicate reads their shapes
    out = y.numpy()
    assert out[:32].tolist() == (np.arange(32) + np.arange(32, 64)).tolist()
    assert out[32:].tolist() == np.arange(32, 64).tolist()
    with pytest.raises(BoundsError, match=r"x with shape \(8,\)"):
        k[64](1.0, x[:8], y)
        go.synchronize()


def test_disk_cache_keeps_the_variants_apart(device: str) -> None:
    x = np.arange(8, dtype=np.float32)
    short = x[:4].copy()

    def run(k: Any) -> go.Stats:
        before = go.stats()
        y = np.zeros(8, np.float32)
        k[8](1.0, x, y)
        assert y.tolist() == x.tolist()
        with pytest.raises(BoundsError, match=r"x with shape \(4,\)"):
            k[8](1.0, short, y)
        go.synchronize()
        after: go.Stats = go.stats() - before
        return after

    first = run(fresh(saxpy))
    second = run(fresh(saxpy))  # a new kernel object: both variants from the disk
    assert first.compiles == 2
    assert (second.compiles, second.disk_cache_hits) == (0, 2)


@go.kernel
def copy_unguarded(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    y[i] = x[i]


@pytest.mark.parametrize("n", [1, 1000, 1500, 4099])
def test_grids_that_are_not_a_multiple_of_the_block(device: str, n: int) -> None:
    """The predicate takes global ids below the grid: work-items a rounded-up last group adds
    must not run (they would have raised with the checks on, and now would write past y)."""
    k = fresh(copy_unguarded)
    x = np.arange(n + 7, dtype=np.float32)
    y = np.full(n + 7, -1.0, np.float32)
    k[n](x[:n], y[:n])  # views of longer arrays: a stray work-item would write y[n]
    assert used(plan_of(k)) == [False, True]
    assert y[:n].tolist() == x[:n].tolist() and y[n:].tolist() == [-1.0] * 7
    with pytest.raises(BoundsError, match=r"y with shape"):
        k[n](x[:n], y[: n - 1] if n > 1 else y[:0])
    go.synchronize()


def test_scan_add_back_runs_unchecked_and_still_raises(device: str) -> None:
    """``scanned_sums[i // TILE - 1]`` (the scan's add-back pass): a floor division of the
    global id, proven at launch from the grid and the length of the sums."""
    from gpuoff.bench.cases_scan import TILE, add_block_offsets

    k = fresh(add_block_offsets)
    size = 3 * TILE + 5  # four tiles: the last work-items read sums[2]
    out = np.ones(size, np.int32)
    sums = np.array([10, 20, 30], np.int32)
    k[size](out, sums)
    go.synchronize()
    assert np.array_equal(out, 1 + np.repeat([0, 10, 20, 30], TILE)[:size])
    plan = plan_of(k)
    assert used(plan) == [False, True]
    out = np.ones(size, np.int32)
    expected = interp_error(plan, size, out, sums[:2])
    with pytest.raises(BoundsError) as info:
        k[size](out, sums[:2].copy())
    go.synchronize()
    assert str(info.value) == expected and "scanned_sums with shape (2,)" in expected
    assert used(plan) == [True, True]


# --------------------------------------------------------------------------------------------
# The scan: block sizes, group counts and unrolled tree loops
# --------------------------------------------------------------------------------------------


def scan_modules() -> list[Any]:
    """The checked modules of the scan's two kernels for i32 arrays (as the bench runs)."""
    from gpuoff.bench.cases_scan import add_block_offsets, scan_blocks
    from gpuoff.cli import arg_types_for

    return [k._lower(arg_types_for(k.pyfunc, None)) for k in (scan_blocks, add_block_offsets)]


def test_scan_kernels_have_no_checks_left_for_the_bench_launches() -> None:
    """Every check of ``scan_blocks`` (the Blelloch tree's shared indices in constant-counter
    loops, ``tile[lid]``, ``sums[g]``, ``x[start + j]`` under ``start + j < n``) and of
    ``add_block_offsets`` is off in the unchecked variant, whose predicate holds for each
    launch of ``scan_case`` (full size: three levels)."""
    from gpuoff.bench.cases_scan import BLOCK, level_sizes, tiles_for
    from gpuoff.ir.printer import format_module

    blocks, add = scan_modules()
    holds = []
    for module in (blocks, add):
        spec = specialise(module)
        assert spec is not None
        assert set(spec[1].removed) == {c.id for c in module.checks} - unproven(module)
        assert "}" not in "".join(
            line.split("#")[0] for line in format_module(spec[0]).split("\n\n", 1)[1].splitlines()
        )
        holds.append(spec[1].compile([p.name for p in module.kernel.params]))
    sizes = level_sizes(1 << 24)
    assert len(sizes) == 3
    for k, m in enumerate(sizes):
        x, out, sums = np.zeros(m), np.zeros(m), np.zeros(tiles_for(m))
        tiles = tiles_for(m)
        assert holds[0]((tiles * BLOCK, 1, 1, BLOCK, 1, 1, tiles, 1, 1), [x, out, sums])
        if k + 1 < len(sizes):
            groups = -(-m // 64)
            header = (m, 1, 1, 64, 1, 1, groups, 1, 1)  # the device's default block
            assert holds[1](header, [out, np.zeros(sizes[k + 1])])


def unproven(module: Any) -> set[int]:
    """Checks of ``module`` the static pass already removed (none left to prove at launch)."""
    from gpuoff.ir.printer import format_module

    body = format_module(module).split("\n\n", 1)[1]
    return {c.id for c in module.checks if f"{{c{c.id}}}" not in body}


def scan_reference(x: np.ndarray, tile: int) -> tuple[np.ndarray, np.ndarray]:
    """Per-tile inclusive scans of ``x`` and the tile totals."""
    tiles = -(-len(x) // tile)
    parts = [np.cumsum(x[t * tile : (t + 1) * tile], dtype=np.int32) for t in range(tiles)]
    return np.concatenate(parts), np.array([p[-1] for p in parts], np.int32)


def test_scan_runs_unchecked_and_still_raises(device: str) -> None:
    """``scan_blocks`` as the bench launches it runs without checks; too-short arrays and a
    block larger than the shared tile run the checked variant and raise."""
    from gpuoff.bench.cases_scan import BLOCK, TILE, scan_blocks

    k = fresh(scan_blocks)
    x = np.random.default_rng(5).integers(0, 4, 2 * TILE + 77, dtype=np.int32)
    out, sums = np.zeros_like(x), np.zeros(3, np.int32)
    k[(3 * BLOCK,), (BLOCK,)](x, out, sums)
    go.synchronize()
    ref_out, ref_sums = scan_reference(x, TILE)
    assert np.array_equal(out, ref_out) and np.array_equal(sums, ref_sums)
    plan = plan_of(k)
    assert used(plan) == [False, True]
    bad: list[tuple[Any, tuple[Any, ...], str]] = [
        (((3 * BLOCK,), (BLOCK,)), (x, out[:-1].copy(), sums), rf"out with shape \({x.size - 1},"),
        (((3 * BLOCK,), (BLOCK,)), (x, out, sums[:2].copy()), r"sums with shape \(2,\)"),
        (((2 * BLOCK,), (2 * BLOCK,)), (x, out, sums),
         r"index \(256,\) out of range for tile with shape \(256,\)"),
    ]
    for config, args, message in bad:
        with pytest.raises(BoundsError, match=message):
            k[config](*args)
            go.synchronize()
    assert used(plan) == [True, True]
    out = np.zeros_like(x)
    k[(3 * BLOCK,), (BLOCK,)](x, out, sums)  # and unchecked again
    go.synchronize()
    assert np.array_equal(out, ref_out)


@go.kernel
def block_size(y: BorrowMut[Array[i32]]) -> None:
    i = go.global_id(0)
    y[i] = go.local_size(0)


@go.kernel
def block_size_barrier(y: BorrowMut[Array[i32]]) -> None:
    i = go.global_id(0)
    go.barrier()
    y[i] = go.local_size(0)


@pytest.mark.parametrize("kern", [block_size, block_size_barrier])
@pytest.mark.parametrize("n", [1, 64, 100, 1000, 4096, 1 << 16])
def test_the_predicate_trusts_only_a_block_that_runs(device: str, kern: Any, n: int) -> None:
    """``launch_predicate.IMPLICIT_BLOCK_ITEMS``: the header the predicate reads has the
    block that runs, or a block of 0s where the device chooses (``Launch.geometry``)."""
    from gpuoff.ir.launch_predicate import IMPLICIT_BLOCK_ITEMS
    from gpuoff.runtime.devices import current_device

    k = fresh(kern)
    y = np.zeros(n, np.int32)
    launch = k[n]
    launch(y)
    go.synchronize()
    launch.geometry(current_device())
    assert launch._geometry is not None
    header = launch._geometry[4]
    ran = set(y.tolist())
    trusted = header[3] * header[4] * header[5] > IMPLICIT_BLOCK_ITEMS
    assert ran == {header[3]} if trusted else header[3:] == (0, 0, 0, 0, 0, 0)
    if device == "cpu":
        assert trusted  # the cpu runs its default block
