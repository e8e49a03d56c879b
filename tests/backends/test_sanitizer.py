"""The race sanitizer at launch (@go.kernel(sanitize="race"), GPUOFF_SANITIZE=race) on cpu:
the data-dependent races the static check cannot see are raised as go.RaceError when the
launch returns; race-free launches compute what they compute without it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, f32, i32
from tests.backends.conftest import available_devices

ROOT = Path(__file__).resolve().parents[2]


@go.kernel(sanitize="race")
def scatter(x: Borrow[Array[f32]], perm: Borrow[Array[i32]], out: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    if i < x.shape[0]:
        with go.unsafe():
            out[perm[i]] = x[i]


@go.kernel(sanitize="race")
def block_sums(x: Borrow[Array[f32]], out: BorrowMut[Array[f32]], barrier_each_step: i32) -> None:
    sh = go.shared(128, go.f32)
    lid = go.local_id(0)
    sh[lid] = x[go.global_id(0)]
    go.barrier()
    s = 64
    while s > 0:
        if lid < s:
            sh[lid] += sh[lid + s]
        if barrier_each_step != 0:
            go.barrier()
        s //= 2
    if lid == 0:
        out[go.group_id(0)] = sh[0]


def test_a_scatter_race_is_raised_when_the_launch_returns() -> None:
    with go.on("cpu"):
        x, out = go.array(np.arange(1000, dtype=np.float32)), go.zeros(1000)
        perm = np.random.default_rng(1).permutation(1000).astype(np.int32)
        scatter[1000](x, go.array(perm), out)
        assert out.numpy()[perm].tolist() == x.numpy().tolist()
        perm[17] = perm[900]
        with pytest.raises(go.RaceError) as info:
            scatter[1000](x, go.array(perm), out)
        text = str(info.value)
        assert f"work-item 17 writes out[{perm[900]}]" in text
        assert "and work-item 900 writes it" in text and "out[perm[i]] = x[i]" in text


def test_a_missing_barrier_is_raised_and_the_barrier_fixes_it() -> None:
    with go.on("cpu"):
        x = go.array(np.ones(512, np.float32))
        out = go.zeros(4)
        block_sums[(512,), (128,)](x, out, 1)
        assert out.numpy().tolist() == [128.0] * 4
        # (the order the cpu runs a group's work-items in decides which access comes first)
        with pytest.raises(go.RaceError, match=r"shared array sh: work-item \d+ (reads|writes) "
                                               r"sh\[\d+\] at line \d+ and work-item \d+ "
                                               r"(writes|reads) it"):  # fmt: skip
            block_sums[(512,), (128,)](x, out, 0)


def test_numpy_arguments_and_the_environment_switch(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GPUOFF_SANITIZE", "race")

    @go.kernel
    def twice(x: BorrowMut[Array[f32]]) -> None:
        i = go.global_id(0)
        if i < x.shape[0]:
            with go.unsafe():
                x[i // 2] = x[i] * 2.0

    assert twice.sanitize == "race"
    a = np.ones(8, np.float32)
    with go.on("cpu"), pytest.raises(go.RaceError, match=r"x\[0\]"):
        twice[8](a)
    monkeypatch.delenv("GPUOFF_SANITIZE")

    @go.kernel
    def plain(x: BorrowMut[Array[f32]]) -> None:
        x[go.global_id(0)] = 1.0

    assert plain.sanitize is None


def test_unknown_sanitizers_and_other_devices_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown sanitizer 'memory': the sanitizers are race"):
        go.kernel(sanitize="memory")(lambda x: None)
    others = [d for d in available_devices() if d != "cpu"]
    if not others:
        pytest.skip("no device besides cpu here")
    with go.on(others[0]), pytest.raises(go.DeviceError, match="the race sanitizer runs on cpu"):
        scatter[4](go.zeros(4), go.array(np.arange(4, dtype=np.int32)), go.zeros(4))


def _run_sanitized(code: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, GPUOFF_SANITIZE="race", GPUOFF_DEVICE="cpu",
               GPUOFF_CACHE_DIR=str(tmp_path / "cache"), PYTHONPATH=str(ROOT))  # fmt: skip
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                          env=env, timeout=900, check=False)  # fmt: skip


def test_no_race_in_any_ported_kernel_under_the_sanitizer(tmp_path: Path) -> None:
    code = (
        "import numpy as np\n"
        "from tests.ported.registry import assert_close, cases\n"
        "for c in cases():\n"
        "    assert_close(c.run(np.random.default_rng(7)))\n"
        "print('sanitized', len(cases()))\n"
    )
    proc = _run_sanitized(code, tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "sanitized 4" in proc.stdout


BENCH = """
import numpy as np
from gpuoff.bench import registry, suite
registry.device_baselines = lambda *a, **k: ({}, [])  # gpuoff's side of each case only
done = []
for e in suite.SUITE:
    if e.name in ("first_launch", "cached_launch") or "cpu" not in e.backends:
        continue  # (those start other processes)
    case = e.make("cpu", True)
    case.gpuoff.run()
    if case.reference is not None and case.gpuoff.result is not None:
        np.testing.assert_allclose(case.gpuoff.result(), case.reference(),
                                   rtol=max(case.rtol, 1e-4), atol=max(case.atol, 1e-4))
    done.append(e.name)
print("sanitized", " ".join(done))
"""


def test_no_race_in_any_bench_kernel_under_the_sanitizer(tmp_path: Path) -> None:
    proc = _run_sanitized(BENCH, tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    for name in ("saxpy", "reduction", "scan", "sgemm_tiled", "histogram", "nbody", "softmax"):
        assert f" {name}" in proc.stdout


@go.kernel(sanitize="race")
def column_tiles(x: Borrow[Array[f32]], out: BorrowMut[Array[f32]]) -> None:
    # the contiguous axis is indexed by global_id(1): the cpu runs dimension 1 as its fast one
    # and lays a launch's default block along it; the report must name ids in that block
    sh = go.shared(8, go.f32)
    i = go.global_id(0)
    j = go.global_id(1)
    with go.unsafe():
        sh[0] = x[i, j]  # every work-item of a group: a shared write-write race
    go.barrier()
    out[i, j] = sh[0]


def test_a_shared_race_names_work_items_of_the_block_the_launch_ran() -> None:
    with go.on("cpu"):
        x, out = go.zeros((4, 64)), go.zeros((4, 64))
        with pytest.raises(go.RaceError) as info:
            column_tiles[4, 64](x, out)
    text = str(info.value)
    ids = [tuple(int(v) for v in m.split(", ")) for m in
           __import__("re").findall(r"work-item \(([0-9, ]+)\)", text)]  # fmt: skip
    assert len(ids) == 2 and ids[0] != ids[1], text
    # the default block is one row (1, 64): both work-items are in one row, not (0, 0), (1, 0)
    assert ids[0][0] == ids[1][0] and all(0 <= b < 64 for _, b in ids), text
