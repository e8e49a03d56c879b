"""Device fast paths are declared capabilities (``devices.base``), found once per plan.

A backend names the capability classes it implements among its bases; ``Plan`` picks its fast
paths from them with ``isinstance`` when it is made, and mypy checks the signatures of a
backend that declares one.
"""

from __future__ import annotations

import re
import types
from pathlib import Path

import mypy.api
import numpy as np
import pytest

import gpuoff as go
from gpuoff import Array, BorrowMut, f32
from gpuoff.runtime.devices import register
from gpuoff.runtime.devices.base import (
    Device,
    Event,
    HeldRelaunch,
    InlineLaunch,
    PackedLaunch,
    Program,
    Relaunch,
)
from gpuoff.runtime.devices.cpu import CpuDevice
from gpuoff.runtime.devices.cuda import CudaDevice
from gpuoff.runtime.devices.opencl import OpenCLDevice
from gpuoff.runtime.plan import Plan
from gpuoff.runtime.testing import FakeDevice, nd, py_kernel

ROOT = Path(__file__).resolve().parents[2]
CAPABILITIES = (PackedLaunch, InlineLaunch, Relaunch, HeldRelaunch)


@pytest.mark.parametrize(
    ("device", "declared"),
    [
        (CpuDevice, {PackedLaunch, InlineLaunch}),
        (OpenCLDevice, {Relaunch, HeldRelaunch}),
        (CudaDevice, {Relaunch}),
        (FakeDevice, {Relaunch}),
    ],
)
def test_each_backend_declares_its_fast_paths(device: type[Device], declared: set[type]) -> None:
    assert {c for c in CAPABILITIES if issubclass(device, c)} == declared


def _paths(device: object, owned: bool = False) -> dict[str, bool]:
    plan = Plan.__new__(Plan)
    plan.owned = (1,) if owned else ()
    plan._find_fast_paths(device)  # type: ignore[arg-type]
    return {
        "fast": plan.fast, "inline": plan._inline is not None,
        "relaunch": plan._relaunch is not None, "join": plan._join is not None,
    }  # fmt: skip


def test_a_plan_takes_the_fast_paths_the_device_declares() -> None:
    none = {"fast": False, "inline": False, "relaunch": False, "join": False}
    assert _paths(CpuDevice()) == {**none, "fast": True, "inline": True}
    assert _paths(CpuDevice(), owned=True) == {**none, "fast": True}  # moves: no repeat
    assert _paths(FakeDevice("fake:caps")) == {**none, "relaunch": True}
    assert _paths(FakeDevice("fake:caps", host_memory=True)) == {**none, "relaunch": True}
    assert _paths(FakeDevice("fake:caps"), owned=True) == none


def test_methods_with_the_right_names_are_not_a_declaration() -> None:
    # a device that happens to have such methods but declares nothing gets the general path
    duck = types.SimpleNamespace(
        host_memory=True, launch_packed=print, launch_inline=print, relaunch=print, join=print
    )
    assert _paths(duck) == {"fast": False, "inline": False, "relaunch": False, "join": False}


class _HeldFake(FakeDevice, HeldRelaunch[Program]):
    """A fake device that also holds repeats back: ``join`` says when it took one."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.joins = 0

    def join(self, event: Event) -> bool:
        self.joins += 1
        return False  # never holds: the repeat path then relaunches


@py_kernel
def _bump(y: BorrowMut[Array[f32]]) -> None:
    nd(y)[...] += 1


def test_a_declared_join_is_asked_before_each_relaunch() -> None:
    device = _HeldFake("fake:held")
    register(device)
    with go.on(device.name):
        y = go.array(np.zeros(4, np.float32))
        launch = _bump[4]
        device.hold()  # launches stay in flight: each repeat finds the previous one's use
        for _ in range(5):
            launch(y)
        device.release()
        go.synchronize()
    assert y.numpy().tolist() == [5.0] * 4
    assert device.relaunched == 4 and device.joins == 4


def test_a_device_without_a_default_block_counts_one_item_per_group() -> None:
    fake = FakeDevice("fake:blocks")
    assert fake.default_block((100, 3, 1)) == (1, 1, 1) and not fake.runs_default_block
    cpu = CpuDevice()
    assert cpu.runs_default_block and cpu.default_block((100, 3, 1)) == (100, 1, 1)


WRONG_BACKEND = """\
from typing import Any
from collections.abc import Sequence
from gpuoff.runtime.devices.base import Event, InlineLaunch, PackedLaunch, Program, Relaunch


class WrongArity(Relaunch[Program]):
    def relaunch(self, program: Program, again: int) -> Event | None:
        return None


class WrongResult(PackedLaunch[Program]):
    def launch_packed(self, program: Program, block: Any, n_groups: int, items: int,
                      wait_for: Sequence[Event], on_error: Any) -> bool:
        return True


class Forgot(InlineLaunch[Program]):
    pass


Forgot()
"""


def test_mypy_rejects_a_backend_that_gets_a_fast_path_wrong(tmp_path: Path) -> None:
    (tmp_path / "backend.py").write_text(WRONG_BACKEND)
    config = tmp_path / "mypy.ini"
    config.write_text(
        f"[mypy]\nstrict = True\nmypy_path = {ROOT}\nfollow_imports = silent\n"
        f"cache_dir = {tmp_path / 'cache'}\n"
    )
    out, _, status = mypy.api.run(["--config-file", str(config), str(tmp_path / "backend.py")])
    errors = sorted(
        re.sub(r" (in|with) supertype .*", "", line.split(": error: ")[1].split("  [")[0])
        for line in out.splitlines() if ": error: " in line
    )  # fmt: skip
    assert status == 1
    assert errors == [
        'Cannot instantiate abstract class "Forgot" with abstract attribute "launch_inline"',
        'Return type "bool" of "launch_packed" incompatible with return type "Event"',
        'Signature of "relaunch" incompatible',
    ], out
