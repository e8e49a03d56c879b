"""The benchmark suite behind ``gpuoff bench`` (see BENCHMARKS.md for the protocol).

- ``harness``: the protocol (check against NumPy, warm up, interleaved runs, medians, ratios);
- ``suite``: the entries, per-backend baseline lookup and ``run_suite``;
- ``kernels``: the gpuoff kernels and their NumPy references (shared with ``gpuoff tour``);
- ``cpu_baselines`` / ``cbuild`` / ``baselines/*.c``: C/OpenMP built at bench time, NumPy, Numba;
- ``opencl_baselines`` / ``cuda_baselines``: hand-written device baselines (their backends'
  owners);
- ``coldstart``: first launch in a new process; ``report``: table, JSON, plot;
- ``tour``: the guided run of ``gpuoff tour`` / ``python -m gpuoff``.

Nothing here is imported by ``import gpuoff``.
"""
