"""gpuoff.lib: library kernels written in gpuoff's own kernel language, with NumPy's semantics
wherever NumPy has the function (SPEC.md §8; docs/library.md).

    import gpuoff.lib as gl
    total = gl.sum(x)            # a 0-d go.Buffer; .numpy() waits for the kernels

Every function takes ``go.Buffer``s or NumPy arrays, returns a new ``go.Buffer`` on the current
device (or writes ``out=``), and runs asynchronously like a launch.
"""

from __future__ import annotations

# The families: reductions, scans and selection (reduce, scan, segmented, select); dense
# algebra and neural-network rows (dense, rows, conv, sparse); sorting, counting and sets
# (sort, histogram, sets); element-wise maps (maps); Fourier transforms (fourier).
# docs/library.md documents each.
from gpuoff.lib.conv import conv2d as conv2d
from gpuoff.lib.conv import convolve as convolve
from gpuoff.lib.dense import gemm as gemm
from gpuoff.lib.dense import matmul as matmul
from gpuoff.lib.dense import transpose as transpose
from gpuoff.lib.fourier import fft as fft
from gpuoff.lib.fourier import ifft as ifft
from gpuoff.lib.histogram import bincount as bincount
from gpuoff.lib.histogram import histogram as histogram
from gpuoff.lib.maps import map as map  # noqa: A004 - NumPy's names (np.sum, np.max, ...)
from gpuoff.lib.reduce import argmax as argmax
from gpuoff.lib.reduce import argmin as argmin
from gpuoff.lib.reduce import max as max  # noqa: A004 - NumPy's names (np.sum, np.max, ...)
from gpuoff.lib.reduce import min as min  # noqa: A004 - NumPy's names (np.sum, np.max, ...)
from gpuoff.lib.reduce import prod as prod
from gpuoff.lib.reduce import reduce as reduce
from gpuoff.lib.reduce import sum as sum  # noqa: A004 - NumPy's names (np.sum, np.max, ...)
from gpuoff.lib.rows import layer_norm as layer_norm
from gpuoff.lib.rows import softmax as softmax
from gpuoff.lib.scan import cumsum as cumsum
from gpuoff.lib.scan import exclusive_scan as exclusive_scan
from gpuoff.lib.scan import inclusive_scan as inclusive_scan
from gpuoff.lib.segmented import segmented_reduce as segmented_reduce
from gpuoff.lib.select import compress as compress
from gpuoff.lib.select import nonzero as nonzero
from gpuoff.lib.sets import unique as unique
from gpuoff.lib.sort import argsort as argsort
from gpuoff.lib.sort import sort as sort
from gpuoff.lib.sort import sort_pairs as sort_pairs
from gpuoff.lib.sparse import spmv as spmv
