"""gpuoff.lib: library kernels written in gpuoff's own kernel language, with NumPy's semantics
wherever NumPy has the function (SPEC.md §8; docs/library.md).

    import gpuoff.lib as gl
    total = gl.sum(x)            # a 0-d go.Buffer; .numpy() waits for the kernels

Every function takes ``go.Buffer``s or NumPy arrays, returns a new ``go.Buffer`` on the current
device (or writes ``out=``), and runs asynchronously like a launch.
"""

from __future__ import annotations

# Each block below re-exports one family of modules; keep the blocks apart (they are edited
# by different people at the same time).
# --- reductions, scans, selection (reduce.py, scan.py, select.py, segmented.py) -------------
# --- dense linear algebra and neural-network rows (dense.py, rows.py, conv.py, sparse.py) --
from gpuoff.lib.conv import conv2d as conv2d
from gpuoff.lib.conv import convolve as convolve
from gpuoff.lib.dense import gemm as gemm
from gpuoff.lib.dense import matmul as matmul
from gpuoff.lib.dense import transpose as transpose
from gpuoff.lib.rows import layer_norm as layer_norm
from gpuoff.lib.rows import softmax as softmax
from gpuoff.lib.sparse import spmv as spmv



# --- sorting, histograms, sets (sort.py, histogram.py, sets.py) ----------------------------
# isort: split
from gpuoff.lib.histogram import bincount as bincount
from gpuoff.lib.histogram import histogram as histogram
from gpuoff.lib.sets import unique as unique
from gpuoff.lib.sort import argsort as argsort
from gpuoff.lib.sort import sort as sort
from gpuoff.lib.sort import sort_pairs as sort_pairs

# --- element-wise maps and transforms (maps.py, fft.py) ------------------------------------
# isort: split
from gpuoff.lib.maps import map as map
