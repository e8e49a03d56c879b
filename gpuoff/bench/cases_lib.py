"""The ``lib`` suite: ``gpuoff.lib``'s functions against C/OpenMP, NumPy and the peer
libraries on the same device (``gpuoff bench --suite lib``). Each family of library modules
has its own cases module; this one only gathers their entries, in the order the table shows.
"""

from __future__ import annotations

from gpuoff.bench.registry import Entry

ENTRIES: list[Entry] = []

# Each block below adds one family's entries; keep the blocks apart (they are edited by
# different people at the same time).

# --- reductions, scans, selection (cases_lib_reduce.py) -------------------------------------
from gpuoff.bench import cases_lib_reduce  # noqa: E402 - one block per family

ENTRIES += cases_lib_reduce.ENTRIES



# --- dense linear algebra and neural-network rows (cases_lib_dense.py) ----------------------

from gpuoff.bench import cases_lib_dense  # noqa: E402 (one import per family block)

ENTRIES += cases_lib_dense.ENTRIES



# --- sorting, histograms, sets (cases_lib_sort.py) ------------------------------------------
from gpuoff.bench import cases_lib_sort  # noqa: E402

ENTRIES += cases_lib_sort.ENTRIES



# --- Fourier transforms (cases_lib_fft.py) ---------------------------------------------------
from gpuoff.bench import cases_lib_fft  # noqa: E402 - one block per family

ENTRIES += cases_lib_fft.ENTRIES



# --- models (cases_models.py) ----------------------------------------------------------------

from gpuoff.bench import cases_models  # noqa: E402 - each block imports its own family

ENTRIES += cases_models.ENTRIES
