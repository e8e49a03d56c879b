"""Launch configurations, the device registry, device choice, debug levels and stats."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

import gpuoff as go
from gpuoff.runtime import debug, stats
from gpuoff.runtime.devices import current_device, get_device, register
from gpuoff.runtime.kernel import parse_config
from gpuoff.runtime.testing import FakeDevice


@pytest.mark.parametrize(
    ("config", "grid", "block"),
    [
        (7, (7, 1, 1), None),
        ((7,), (7, 1, 1), None),
        ((4, 5), (4, 5, 1), None),
        ((2, 3, 4), (2, 3, 4), None),
        ((8, (4,)), (8, 1, 1), (4, 1, 1)),
        (((8, 6), (4, 3)), (8, 6, 1), (4, 3, 1)),
        (((0, 6), (4, 3)), (0, 6, 1), (4, 3, 1)),
        ([3, 2], (3, 2, 1), None),
    ],
)
def test_parse_config(config: object, grid: tuple[int, ...], block: object) -> None:
    assert parse_config(config) == (grid, block)


def test_devices_lists_cpu_and_unavailable_backends_with_reasons() -> None:
    infos = go.devices()
    names = [d.name for d in infos]
    assert "cpu" in names
    for info in infos:
        assert info.available or info.reason
    assert get_device("cpu") is get_device("cpu")
    with pytest.raises(go.DeviceError, match="unknown device"):
        get_device("tpu:0")


def test_set_device_and_on() -> None:
    fake = FakeDevice("fake:choice")
    register(fake)
    before = current_device()
    with go.on("fake:choice") as dev:
        assert dev is fake and current_device() is fake
        with go.on("cpu"):
            assert current_device().name == "cpu"
        assert current_device() is fake
    assert current_device() is before
    go.set_device("fake:choice")
    try:
        assert current_device() is fake
    finally:
        go.set_device(before.name)


def test_import_loads_no_backend_and_env_picks_the_device() -> None:
    code = (
        "import sys, gpuoff as go\n"
        "assert not any(m in sys.modules for m in ('llvmlite', 'pyopencl', 'cuda')), sys.modules\n"
        "from gpuoff.runtime.devices import current_device\n"
        "print(current_device().name)\n"
    )
    env = dict(os.environ, GPUOFF_DEVICE="cpu")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "cpu"


def test_debug_levels(capsys: pytest.CaptureFixture[str]) -> None:
    old = debug.level()
    try:
        debug.set_level(1)
        assert debug.enabled(debug.LAUNCHES) and not debug.enabled(debug.CACHE)
        debug.log(debug.LAUNCHES, "hello")
        debug.log(debug.CACHE, "hidden")
        err = capsys.readouterr().err
        assert "[gpuoff] hello" in err and "hidden" not in err
    finally:
        debug.set_level(old)


def test_stats_snapshots_and_differences() -> None:
    go.reset_stats()
    stats.bump("compiles", 2)
    stats.record_transfer(True, 100)
    stats.record_transfer(False, 30)
    a = go.stats()
    assert (a.compiles, a.transfers_to_device, a.bytes_to_device) == (2, 1, 100)
    assert (a.transfers_to_host, a.bytes_to_host) == (1, 30)
    stats.bump("waits")
    assert (go.stats() - a).waits == 1
    go.reset_stats()
    assert go.stats() == go.Stats()


def test_launches_counted_without_the_guard_lock_add_up() -> None:
    # held-launch joins count through stats.TICKS; reading a snapshot takes no launch
    go.reset_stats()
    stats.launched()
    for _ in range(5):
        next(stats.TICKS)
    assert go.stats().launches == 6
    assert go.stats().launches == 6  # a read is not a launch
    go.reset_stats()
    assert go.stats().launches == 0
    next(stats.TICKS)
    assert go.stats().launches == 1
    go.reset_stats()
