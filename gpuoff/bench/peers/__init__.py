"""The peers a user would pick instead of gpuoff on the ``cpu`` device: Numba
(``njit(parallel=True)``), NVIDIA Warp's CPU backend and Taichi's CPU backend, each kernel
written as that peer's documentation writes it. They come with the ``bench`` extra.

``PEER_BASELINES[kernel][peer]`` is a baseline factory, as the other backends' tables. A peer
that does not install or import makes each of its factories raise ``BenchSkip`` with the
reason, so its absence is reported in the table and the JSON (``peer_status``), never
silently skipped.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gpuoff.bench.harness import Impl
from gpuoff.bench.peers import numba_peer, taichi_peer, warp_peer

Factory = Callable[[str, dict[str, Any]], Impl]

_TABLES: tuple[tuple[str, dict[str, Factory]], ...] = (
    ("Numba", numba_peer.KERNELS),
    ("Warp", warp_peer.KERNELS),
    ("Taichi", taichi_peer.KERNELS),
)


def _merge() -> dict[str, dict[str, Factory]]:
    out: dict[str, dict[str, Factory]] = {}
    for peer, kernels in _TABLES:
        for kernel, factory in kernels.items():
            out.setdefault(kernel, {})[peer] = factory
    return out


PEER_BASELINES = _merge()
"""kernel -> peer name -> factory."""


def peer_status() -> dict[str, dict[str, Any]]:
    """Every peer with its version, or the reason it cannot run here."""
    return {"Numba": numba_peer.status(), "Warp": warp_peer.status(),
            "Taichi": taichi_peer.status()}
