"""Autotuning: a library function declares a few variants (block size, items per work-item,
tile sizes); the first use on a device times them and keeps the winner.

``@go.autotune("gl.sum", variants=[...], key=...)`` over ``def impl(variant, *args, **kw)``
gives a callable with ``impl``'s signature minus ``variant``. Each call asks ``key(*args,
**kw)`` for its ``(dtype, size)``; the variant for the current device, that dtype and the
size's class (the power of two at or above it) is, in order: the one chosen before in this
process; the one in the disk cache (next to the compiled kernels, keyed by the device's target,
the dtype, the size class, the variants and gpuoff's version); else the fastest of a timing —
each variant once untimed (it compiles), then ``repeats`` timed runs, the median — on
``sample(dtype, size)``'s arguments when the tunable gives a ``sample`` (the caller's data is
then never run more than once), else on the call's own arguments (so ``impl`` must give the
same result when run again on them). A variant that raises (a block the device refuses) is
out. ``GPUOFF_AUTOTUNE=0`` takes ``variants[0]`` everywhere and times nothing.

``gpuoff tune`` (``tune_all``) warms the cache: every registered tunable (``REGISTRY``; the
library's modules register theirs when ``gpuoff.lib`` is imported) for each of its ``dtypes``
and ``sizes``, on a device, with a progress line.

Timing goes through ``timer`` (``set_timer`` replaces it): tests count timings with a fake
one instead of reading clocks.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Concatenate, Generic, ParamSpec, TypeVar

import numpy as np

from gpuoff.errors import ConfigError, GpuoffError
from gpuoff.runtime import cache, debug
from gpuoff.runtime.devices import current_device

P = ParamSpec("P")
R = TypeVar("R")
Variant = Mapping[str, Any]
"""One variant's settings (``{"block": 256, "items": 4}``), given to the implementation."""

_TAG = "autotune-winner"


def _default_timer(run: Callable[[], object]) -> float:
    """Seconds one run takes, the device's queue drained before and after."""
    from gpuoff.runtime.guards import synchronize

    synchronize()
    start = time.perf_counter()
    run()
    synchronize()
    return time.perf_counter() - start


timer: Callable[[Callable[[], object]], float] = _default_timer
"""How one run is timed (``set_timer``)."""


@contextmanager
def set_timer(fn: Callable[[Callable[[], object]], float]) -> Iterator[None]:
    """Time runs with ``fn`` (which runs the callable it gets) inside the block."""
    global timer
    old, timer = timer, fn
    try:
        yield
    finally:
        timer = old


def enabled() -> bool:
    """False when ``GPUOFF_AUTOTUNE=0``: every tunable takes its first variant."""
    value = os.environ.get("GPUOFF_AUTOTUNE", "1").strip()
    if value not in ("0", "1", ""):
        raise ConfigError(f"GPUOFF_AUTOTUNE is 0 (off) or 1 (on), got {value!r}")
    return value != "0"


def size_class(n: int) -> int:
    """The power of two at or above ``n`` (0 for an empty input): sizes that share one are
    tuned once."""
    return 0 if n <= 0 else 1 << (int(n) - 1).bit_length()


@dataclass(frozen=True)
class Choice:
    """A tuning's outcome: the variant's index, and the median seconds of each (None: it
    raised; empty when it was not timed here)."""

    index: int
    times: tuple[float | None, ...] = ()
    source: str = "timed"  # timed, memory, disk, default


class Tuned(Generic[P, R]):
    """A tunable function (``@go.autotune``): call it like the implementation without its
    ``variant`` argument."""

    def __init__(self, name: str, fn: Callable[Concatenate[Variant, P], R],
                 variants: Sequence[Variant], key: Callable[..., tuple[object, int]],
                 sample: Callable[[np.dtype[Any], int], Sequence[Any]] | None,
                 dtypes: Sequence[object], sizes: Sequence[int], repeats: int) -> None:  # fmt: skip
        if not variants:
            raise ValueError(f"autotune {name!r}: at least one variant")
        self.name = name
        self.fn = fn
        self.variants = tuple(dict(v) for v in variants)
        self.key = key
        self.sample = sample
        self.dtypes = tuple(np.dtype(d) for d in dtypes)  # type: ignore[call-overload]
        self.sizes = tuple(sizes)
        self.repeats = max(1, repeats)
        self.chosen: dict[tuple[str, str, int], Choice] = {}
        self.__name__ = getattr(fn, "__name__", name)
        self.__doc__ = fn.__doc__
        self.__wrapped__ = fn

    def __repr__(self) -> str:
        return f"<gpuoff.autotune {self.name}: {len(self.variants)} variants>"

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        dtype, size = self.key(*args, **kwargs)
        choice = self.choose(np.dtype(dtype), size,  # type: ignore[call-overload]
                             lambda v: self.fn(v, *args, **kwargs))  # fmt: skip
        return self.fn(self.variants[choice.index], *args, **kwargs)

    def disk_key(self, device: Any, dtype: np.dtype[Any], bucket: int) -> str:
        """The cache key of one winner: device target, dtype, size class, the variants."""
        target = device.cache_key() or device.name
        return cache.make_key(_TAG, self.name, str(target), dtype.name, str(bucket),
                              repr(self.variants))  # fmt: skip

    def choose(self, dtype: np.dtype[Any], size: int,
               run: Callable[[Variant], object] | None = None) -> Choice:  # fmt: skip
        """The variant for ``dtype`` and ``size`` on the current device (see the module's
        docstring); ``run(variant)`` runs one on the caller's arguments (for a tunable
        without ``sample``)."""
        if not enabled() or len(self.variants) == 1:
            return Choice(0, source="default")
        device = current_device()
        bucket = size_class(size)
        mem = (device.name, dtype.name, bucket)
        found = self.chosen.get(mem)
        if found is not None:
            return Choice(found.index, found.times, "memory")
        key = self.disk_key(device, dtype, bucket)
        stored = cache._read(key)
        if (isinstance(stored, tuple) and len(stored) == 3 and stored[0] == _TAG
                and isinstance(stored[1], int)
                and 0 <= stored[1] < len(self.variants)):  # fmt: skip
            self.chosen[mem] = Choice(stored[1], tuple(stored[2]), "disk")
            return self.chosen[mem]
        choice = self._time(dtype, bucket or 1, run)
        self.chosen[mem] = choice
        cache._write(key, (_TAG, choice.index, choice.times))
        debug.log(debug.CACHE, f"autotune {self.name} ({dtype.name}, size class {bucket}) on "
                  f"{device.name}: {self.variants[choice.index]} "
                  f"({', '.join(_ms(t) for t in choice.times)})")  # fmt: skip
        return choice

    def _time(self, dtype: np.dtype[Any], size: int,
              run: Callable[[Variant], object] | None) -> Choice:  # fmt: skip
        if self.sample is not None:
            sample_args = tuple(self.sample(dtype, size))
            fn: Callable[..., object] = self.fn

            def run(v: Variant) -> object:
                return fn(v, *sample_args)

        if run is None:
            raise ValueError(f"autotune {self.name!r} has no sample(dtype, size) to time on")
        times: list[float | None] = []
        first_error: GpuoffError | None = None
        for variant in self.variants:
            try:
                run(variant)  # compiles (or loads) its kernels: not timed
                samples = [timer(_bound(run, variant)) for _ in range(self.repeats)]
                times.append(statistics.median(samples))
            except GpuoffError as exc:  # a configuration this device refuses
                first_error = first_error or exc
                times.append(None)
        usable = [(t, i) for i, t in enumerate(times) if t is not None]
        if not usable:
            assert first_error is not None
            raise first_error
        return Choice(min(usable)[1], tuple(times))


def _bound(run: Callable[[Variant], object], variant: Variant) -> Callable[[], object]:
    return lambda: run(variant)


def _ms(t: float | None) -> str:
    return "refused" if t is None else f"{t * 1e3:.3f} ms"


REGISTRY: dict[str, Tuned[Any, Any]] = {}
"""Every tunable made in this process, by name (``gpuoff tune`` warms them)."""


def autotune(name: str, variants: Sequence[Variant], *, key: Callable[..., tuple[object, int]],
             sample: Callable[[np.dtype[Any], int], Sequence[Any]] | None = None,
             dtypes: Sequence[object] = (), sizes: Sequence[int] = (),
             repeats: int = 5) -> Callable[[Callable[Concatenate[Variant, P], R]],
                                           Tuned[P, R]]:  # fmt: skip
    """Declare a tunable function: ``impl(variant, *args, **kwargs)`` with the variants to
    time (the first is the default), ``key(*args, **kwargs) -> (dtype, size)``, and for
    ``gpuoff tune`` and for timing without touching the caller's data ``sample(dtype, size)
    -> args`` with the ``dtypes`` and ``sizes`` to warm."""

    def wrap(fn: Callable[Concatenate[Variant, P], R]) -> Tuned[P, R]:
        tuned = Tuned(name, fn, variants, key, sample, dtypes, sizes, repeats)
        REGISTRY[name] = tuned
        return tuned

    return wrap


Warm = tuple[Tuned[Any, Any], np.dtype[Any], int]


def warm_list(names: Sequence[str] | None = None) -> list[Warm]:
    """What ``gpuoff tune`` times: (tunable, dtype, size) for every registered tunable with a
    ``sample`` (only those named, when ``names`` is given)."""
    out: list[Warm] = []
    for name in sorted(REGISTRY):
        tuned = REGISTRY[name]
        if (names and name not in names) or tuned.sample is None:
            continue
        out += [(tuned, dt, size) for dt in tuned.dtypes for size in tuned.sizes]
    return out
