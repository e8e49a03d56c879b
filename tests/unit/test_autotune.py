"""``go.autotune``: the winner is timed once, kept in memory and in the disk cache, reused;
``GPUOFF_AUTOTUNE=0``; the cache key's parts; refused variants; ``gpuoff tune``. Timings are
counted through the timer hook, never read from a clock."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import gpuoff as go
from gpuoff import cli
from gpuoff.runtime import autotune as AT
from tests.unit.generic_support import block_sum

COST = {8: 3.0, 16: 1.0, 32: 2.0}
"""What the fake timer says each block size takes: 16 wins."""


class Clock:
    """A fake timer: runs the variant, and answers from ``COST`` by the block it ran."""

    def __init__(self) -> None:
        self.timings = 0
        self.ran: list[int] = []

    def __call__(self, run: Callable[[], object]) -> float:
        run()
        self.timings += 1
        return COST[self.ran[-1]]


Total = AT.Tuned[[go.Buffer[Any]], go.Buffer[Any]]


def _make(clock: Clock, name: str = "test.block_sum") -> Total:
    @go.autotune(name, variants=[{"block": 8}, {"block": 16}, {"block": 32}],
                 key=lambda x: (x.dtype, x.size),
                 sample=lambda dtype, n: (go.array(np.ones(n, dtype)),),
                 dtypes=("float32",), sizes=(64,), repeats=3)  # fmt: skip
    def total(variant: AT.Variant, x: go.Buffer[Any]) -> go.Buffer[Any]:
        block = int(variant["block"])
        clock.ran.append(block)
        groups = -(-x.size // block)
        out = go.zeros(groups, x.dtype)
        block_sum[groups * block, (block,)](x, out, block)
        return out

    return total


@pytest.fixture
def clock(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Clock]:
    monkeypatch.setenv("GPUOFF_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("GPUOFF_AUTOTUNE", raising=False)
    c = Clock()
    with go.on("cpu"), AT.set_timer(c):
        yield c


def test_winner_is_timed_once_then_reused(clock: Clock) -> None:
    total = _make(clock)
    x = go.array(np.arange(40, dtype=np.float32))
    out = total(x)
    assert clock.timings == 3 * 3  # three variants, three timed runs each
    assert out.shape == (40 // 16 + 1,) and float(out.numpy().sum()) == float(np.arange(40).sum())
    assert total.chosen[("cpu", "float32", 64)].index == 1
    clock.ran.clear()
    total(go.array(np.ones(50, np.float32)))  # the same size class (64): no timing
    assert clock.timings == 9 and clock.ran == [16]
    # another process (a new tunable of the same name): the winner comes from the disk
    again = _make(clock)
    again(x)
    assert clock.timings == 9
    assert again.chosen[("cpu", "float32", 64)].source == "disk"
    # another dtype or size class is tuned on its own
    total(go.array(np.ones(40, np.float64)))
    total(go.array(np.ones(200, np.float32)))
    assert clock.timings == 27


def test_autotune_off_takes_the_default(clock: Clock, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GPUOFF_AUTOTUNE", "0")
    total = _make(clock, "test.off")
    total(go.array(np.ones(40, np.float32)))
    assert clock.timings == 0 and clock.ran == [8]
    assert total.choose(np.dtype(np.float32), 40).source == "default"
    monkeypatch.setenv("GPUOFF_AUTOTUNE", "yes")
    with pytest.raises(go.ConfigError, match="GPUOFF_AUTOTUNE is 0"):
        total(go.array(np.ones(4, np.float32)))


def test_cache_key_parts(clock: Clock) -> None:
    total = _make(clock, "test.keys")
    from gpuoff.runtime.devices import current_device

    cpu = current_device()
    f32, f64 = np.dtype(np.float32), np.dtype(np.float64)
    assert [AT.size_class(n) for n in (0, 1, 2, 5, 8, 9, 1000)] == [0, 1, 2, 8, 8, 16, 1024]
    base = total.disk_key(cpu, f32, 64)
    assert base == total.disk_key(cpu, f32, 64)
    assert len({base, total.disk_key(cpu, f64, 64), total.disk_key(cpu, f32, 128),
                _make(clock, "test.other").disk_key(cpu, f32, 64)}) == 4  # fmt: skip

    class Other:  # another device target
        name = "opencl:9"

        def cache_key(self) -> str:
            return "another target"

    assert total.disk_key(Other(), f32, 64) != base


def test_refused_variants_are_out(clock: Clock) -> None:
    @go.autotune("test.refuse", variants=[{"block": 8}, {"block": 1 << 40}, {"block": 32}],
                 key=lambda x: (x.dtype, x.size))  # fmt: skip
    def total(variant: AT.Variant, x: go.Buffer[Any]) -> int:
        block = int(variant["block"])
        if block > 1024:
            raise go.LaunchConfigError("block too large for this device")
        clock.ran.append(block)
        return block

    assert total(go.array(np.ones(16, np.float32))) == 32  # cheaper than 8 (COST)
    choice = total.chosen[("cpu", "float32", 16)]
    assert choice.times[1] is None and choice.index == 2


def test_gpuoff_tune(clock: Clock, capsys: pytest.CaptureFixture[str]) -> None:
    _make(clock, "test.cli")
    assert cli.main(["tune", "--device", "cpu", "--only", "test.cli", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "test.cli" in out and "{'block': 16}" in out and "timed" in out
    assert clock.timings == 9
    assert cli.main(["tune", "--only", "test.cli", "--no-progress"]) == 0
    assert "memory" in capsys.readouterr().out and clock.timings == 9
