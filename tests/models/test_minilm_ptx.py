"""The PTX of every kernel of the MiniLM forward pass assembles with ptxas (sm_80, sm_90), with
the signatures ``gpuoff.models.minilm`` launches them with."""

from __future__ import annotations

from pathlib import Path

import pytest

from codegen.nvptx import compile_ptx
from gpuoff.cli import lower_for_show
from gpuoff.models import minilm_kernels as mk
from tests.backends.test_ptx import assemble, needs_ptxas

M2 = "f32[:, :]"
V = "f32[:]"
SIGS = {
    "linear": f"{M2}, f32[:, :, :], {V}, {M2}, 1",  # act=1: the GELU epilogue too
    "add_layer_norm": f"{M2}, {M2}, {V}, {V}",
    "embed": f"i32[:], i32, {M2}, {M2}, {M2}, {V}, {V}, {M2}",
    "split_keys_values": f"{M2}, i32, f32[:, :, :], f32[:, :, :]",
    "attention": f"{M2}, f32[:, :, :], f32[:, :, :], i32[:], i32, f32, {M2}",
    "mean_pool_normalize": f"{M2}, i32[:], i32, {M2}",
}


def test_every_forward_kernel_has_a_signature() -> None:
    assert sorted(SIGS) == sorted(k.__name__ for k in mk.FORWARD_KERNELS)


@needs_ptxas
@pytest.mark.parametrize("sm", [80, 90])
@pytest.mark.parametrize("name", sorted(SIGS))
def test_forward_kernels_assemble(name: str, sm: int, tmp_path: Path) -> None:
    module = lower_for_show(getattr(mk, name), SIGS[name], None, None)
    ptx = compile_ptx(module, sm=sm).ptx
    assert f".target sm_{sm}" in ptx
    assemble(ptx, sm, tmp_path)
