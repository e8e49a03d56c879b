"""The runtime: kernels and launch plans, buffers, borrow guards, residency, devices, caches.

Behaviour users can rely on beyond SPEC.md (kept here, next to the code that implements it):

- Launches are asynchronous. On ``cpu``, grids of at most ``devices.cpu.INLINE_ITEMS``
  work-items with nothing to wait for run on the calling thread before the launch returns
  (a valid schedule of an asynchronous launch); larger ones run on one worker thread per core.
- A kernel's ``BoundsError`` is raised by the launch itself when it ran inline; otherwise at
  the next synchronisation: ``go.synchronize()``, ``numpy()``, ``np.asarray(buf)``,
  ``host()``, ``host_mut()`` (the oldest unreported error first, whichever buffer it concerns).
- A launch with NumPy array arguments completes before it returns.
- A launch that conflicts with an open host view raises ``BorrowError`` at once, also when the
  view is open in another thread.
- A move kills the moved handle and every other handle sharing a byte with it (views made
  before the move, the buffer a moved view came from); views sharing none stay usable. Overlap
  of launch arguments is judged on byte ranges: two interleaved strided views of one buffer
  (``b[0::2]`` and ``b[1::2]``) count as overlapping.
- Memory gpuoff does not own (NumPy arguments, ``go.asarray(ndarray)``, DLPack imports, live
  DLPack exports) is shared with its owner, who must leave it alone between a launch and the
  next synchronisation point; at each, both agree on every device (docs/memory.md, rules in
  ``residency``). ``__cuda_array_interface__`` exports sync first and are then outside the
  guards.
- The tracebacks of gpuoff's errors show the user's frames (``tracebacks``).
- Kernels with the same signature on the same device share one compiled plan; compiled code
  and parameter declarations are cached on disk (``runtime.cache``).

Public names are re-exported by ``gpuoff`` (``go.kernel``, ``go.Buffer``, ``go.zeros``, ...).
Importing this package loads no backend library; devices load on first use. (``go.stats`` and
``go.devices`` are not re-exported here, so that those names stay the submodules.)
"""

from gpuoff.runtime.buffer import Buffer, array, asarray, empty, from_dlpack, full, zeros
from gpuoff.runtime.devices import on, set_device
from gpuoff.runtime.devices.base import DeviceInfo
from gpuoff.runtime.guards import synchronize
from gpuoff.runtime.kernel import Kernel, Launch, kernel
from gpuoff.runtime.stats import Stats, reset_stats

__all__ = [
    "Buffer", "DeviceInfo", "Kernel", "Launch", "Stats", "array", "asarray", "empty",
    "from_dlpack", "full", "kernel", "on", "reset_stats", "set_device", "synchronize",
    "zeros",
]  # fmt: skip
