"""The bench's peers (Numba, Warp, Taichi on the CPU): each kernel computes what NumPy does,
and a peer that is missing is reported with the reason, never silently left out."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from gpuoff.bench import peers, references, registry
from gpuoff.bench.harness import BenchSkip, Impl
from gpuoff.bench.peers import numba_peer, taichi_peer, warp_peer

Inputs = dict[str, Any]


def _rng() -> np.random.Generator:
    return np.random.default_rng(21)


def _case(kernel: str) -> tuple[Inputs, np.ndarray[Any, Any], float, float]:
    """Small inputs for ``kernel``, the expected result, rtol, atol."""
    r = _rng()
    if kernel == "saxpy":
        x, y = r.random(1001, dtype=np.float32), r.random(1001, dtype=np.float32)
        return {"a": 2.5, "x": x, "y": y}, references.saxpy_ref(2.5, x, y), 1e-6, 1e-6
    if kernel == "stencil2d":
        src = r.random((37, 29), dtype=np.float32)
        return {"src": src}, references.stencil5_ref(src), 1e-6, 1e-6
    if kernel == "black_scholes":
        p, s, t = references.black_scholes_inputs(777)
        wide = [a.astype(np.float64) for a in (p, s, t)]
        ref = np.stack(references.black_scholes_ref(wide[0], wide[1], wide[2], 0.02, 0.3))
        return {"price": p, "strike": s, "years": t, "rate": 0.02, "vol": 0.3}, ref, 1e-3, 2e-3
    if kernel == "reduction":
        x = r.random(10_007, dtype=np.float32)
        return {"x": x}, np.array([x.astype(np.float64).sum()]), 1e-5, 0.0
    if kernel in ("sgemm", "sgemm_tiled"):
        a, b = r.random((23, 31), dtype=np.float32), r.random((31, 19), dtype=np.float32)
        return {"a": a, "b": b}, a.astype(np.float64) @ b, 1e-5, 1e-5
    if kernel == "histogram":
        data = np.minimum(r.exponential(40.0, 5003), 255).astype(np.uint8)
        return {"data": data}, np.bincount(data, minlength=256).astype(np.uint32), 0.0, 0.0
    if kernel == "nbody":
        px, py, pz, m = references.nbody_inputs(97)
        ref = references.nbody_ref(px, py, pz, m)
        return ({"px": px, "py": py, "pz": pz, "mass": m}, ref, 1e-3,
                1e-4 * float(np.abs(ref).max()))  # fmt: skip
    if kernel == "scan":
        xi = r.integers(-5, 9, 3001, dtype=np.int32)
        return {"x": xi}, np.cumsum(xi, dtype=np.int32), 0.0, 0.0
    if kernel == "transpose":
        a = r.random((45, 70), dtype=np.float32)
        return {"a": a}, a.T.copy(), 0.0, 0.0
    if kernel == "softmax":
        from gpuoff.bench.cases_loops import softmax_reference

        x = (r.standard_normal((9, 301)) * 4).astype(np.float32)
        return {"x": x}, softmax_reference(x), 1e-4, 1e-8
    raise AssertionError(kernel)


COMPUTED = ["saxpy", "stencil2d", "black_scholes", "reduction", "sgemm", "sgemm_tiled",
            "histogram", "nbody", "scan", "transpose", "softmax"]  # fmt: skip
"""The kernels every peer ports (all but the launch-path rows)."""


def _check(factory: Callable[[str, Inputs], Impl], kernel: str) -> None:
    inputs, expected, rtol, atol = _case(kernel)
    kept = {k: v.copy() for k, v in inputs.items() if isinstance(v, np.ndarray)}
    impl = factory("cpu", inputs)
    impl.run()
    if kernel != "saxpy":  # saxpy updates y in place; the others start afresh on every run
        impl.run()  # (the histograms' counts are reset, not accumulated)
    assert impl.result is not None
    got = np.asarray(impl.result())
    assert got.shape == expected.shape
    np.testing.assert_allclose(got, expected, rtol=rtol, atol=atol)
    for k, v in kept.items():  # the case's inputs are shared by every implementation
        assert np.array_equal(inputs[k], v), k


class _FakeNumba:
    """Stands in for numba: njit compiles nothing, prange is range (checks the factories'
    Python logic everywhere; the real Numba runs below where it is installed)."""

    __version__ = "0.0-fake"
    prange = range

    @staticmethod
    def njit(*args: object, **kwargs: object) -> object:
        if args and callable(args[0]):
            return args[0]
        return lambda f: f


@pytest.mark.parametrize("kernel", COMPUTED)
def test_numba_factories_logic(kernel: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "numba", _FakeNumba())
    _check(numba_peer.KERNELS[kernel], kernel)


def test_numba_launch_factory_counts_calls(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "numba", _FakeNumba())
    impl = numba_peer.launch("cpu", {"a": 1.0, "x": np.ones(4, np.float32),
                                     "y": np.zeros(4, np.float32), "ops": 3})  # fmt: skip
    assert impl.ops == 3 and impl.result is None and impl.run() is None


PEERS = {"Numba": numba_peer, "Warp": warp_peer, "Taichi": taichi_peer}


@pytest.mark.parametrize("kernel", COMPUTED)
@pytest.mark.parametrize("peer", list(PEERS))
def test_installed_peer_agrees_with_numpy(peer: str, kernel: str) -> None:
    module = PEERS[peer]
    state = module.status()
    if "error" in state:  # not installed here: then it must say so, with how to install
        assert "install" in state["error"] or "import" in state["error"] \
            or "start" in state["error"]  # fmt: skip
        with pytest.raises(BenchSkip):
            module.KERNELS[kernel]("cpu", _case(kernel)[0])
        return
    _check(module.KERNELS[kernel], kernel)


def test_every_peer_ports_every_computed_kernel() -> None:
    for peer, module in PEERS.items():
        assert set(COMPUTED) <= set(module.KERNELS), peer
        for kernel in module.KERNELS:
            assert peers.PEER_BASELINES[kernel][peer] is module.KERNELS[kernel]


def test_peers_come_after_the_hand_written_baselines() -> None:
    names = list(registry.baseline_factories("saxpy", "cpu"))
    assert names[:2] == ["C/OpenMP", "NumPy"]
    assert names[2:] == ["Numba", "Warp", "Taichi"]


def test_a_missing_peer_is_reported_not_silent(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "numba", None)  # import raises ImportError
    monkeypatch.setitem(sys.modules, "warp", None)
    monkeypatch.setitem(sys.modules, "taichi", None)
    monkeypatch.setattr(warp_peer, "_load", warp_peer._load.__wrapped__)
    monkeypatch.setattr(taichi_peer, "_load", taichi_peer._load.__wrapped__)
    status = peers.peer_status()
    assert "numba is not installed" in status["Numba"]["error"]
    assert "Warp is not installed (pip install warp-lang" in status["Warp"]["error"]
    assert "Taichi is not installed (pip install taichi" in status["Taichi"]["error"]
    inputs, _, _, _ = _case("saxpy")
    built, skipped = registry.device_baselines("saxpy", "cpu", inputs)
    assert "Numba" not in built and "Warp" not in built and "Taichi" not in built
    assert any(s.startswith("saxpy on cpu: baseline Warp skipped: Warp is not installed")
               for s in skipped)  # fmt: skip
    assert len([s for s in skipped if "not installed" in s]) == 3


def test_a_broken_peer_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    class Broken:
        def __getattr__(self, name: str) -> object:
            raise RuntimeError("no LLVM for this CPU")

    monkeypatch.setitem(sys.modules, "warp", Broken())
    monkeypatch.setattr(warp_peer, "_load", warp_peer._load.__wrapped__)
    assert "Warp does not start here: RuntimeError: no LLVM" in warp_peer.status()["error"]


@pytest.mark.parametrize("peer", list(PEERS))
def test_peers_print_nothing_on_stdout(peer: str, capfd: pytest.CaptureFixture[str]) -> None:
    # `gpuoff bench --json -` writes the JSON on stdout: a banner or a "module loaded" line
    # there would break every reader of it
    module = PEERS[peer]
    if "error" in module.status():
        pytest.skip(f"{peer} is not installed here")
    capfd.readouterr()
    _check(module.KERNELS["stencil2d"], "stencil2d")
    assert capfd.readouterr().out == ""


FTZ_DAZ = 0x8040
"""MXCSR's flush-to-zero and denormals-are-zero bits."""


def test_no_peer_changes_the_floating_point_mode() -> None:
    from gpuoff.bench.peers import fpenv

    before = fpenv.fp_mode()
    if before is None:
        pytest.skip("no MXCSR on this machine")
    for peer, module in PEERS.items():
        if "error" not in module.status():
            _check(module.KERNELS["softmax"], "softmax")
        after = fpenv.fp_mode()
        assert after is not None and after & FTZ_DAZ == before & FTZ_DAZ, peer
    tiny = np.float32(1e-38) / np.float32(100.0)
    assert tiny > 0  # subnormals survive: gpuoff's own results do not change


def test_fp_mode_is_restored_after_a_change() -> None:
    from gpuoff.bench.peers import fpenv

    before = fpenv.fp_mode()
    if before is None:
        pytest.skip("no MXCSR on this machine")
    with fpenv.preserved_fp_mode():
        fpenv.set_fp_mode(before | FTZ_DAZ)
        assert np.float32(1e-38) / np.float32(100.0) == 0  # flushed, as Taichi leaves it
    after = fpenv.fp_mode()
    assert after is not None and after & FTZ_DAZ == before & FTZ_DAZ
    assert np.float32(1e-38) / np.float32(100.0) > 0
